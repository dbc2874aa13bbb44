//! `gdl match` with more agents than the game has seats, or with `--field`:
//! the grader's view of a class of agents.
//!
//! ```text
//! gdl match games/xnimmt.game --players exec:a.py,exec:b.py,search          # round robin
//! gdl match games/xnimmt.game --players exec:a.py,exec:b.py --field search  # against a field
//! ```
//!
//! A round robin plays every group of as many agents as there are seats; a
//! field seats each agent of `--players` with every group of field agents
//! that fills the other seats. Each pairing is a match of `--games` games
//! with the seats rotating, all seeded alike, so every agent meets the same
//! deals. The report ranks the agents by their average (95% intervals) and
//! counts their failures; `--csv` writes every game with its agents and
//! failures, `--plot` each agent's points as a histogram.

use std::io::IsTerminal;

use super::agents::{BoxedAgent, make_agent_with};
use super::eval::title;
use super::output::{self, Output};
use super::tournament::{MatchArgs, csv_line, disambiguate, progress_bar};
use super::{Context, Failure};
use crate::game::Game;
use crate::report::plot::{Series, histogram_svg};
use crate::report::standings;
use crate::report::stats::{DecisionTimes, Measure, Outcome, Tally};
use crate::runtime::Interpreted;
use crate::solve::agent::{AgentSpec, parse_players};
use crate::solve::tournament::{self, FailureRecord, GameRecord};

/// A game of the league: its pairing, and the record with global agent numbers.
struct LeagueGame {
    pairing: usize,
    record: GameRecord,
}

pub fn run(args: &MatchArgs, game: &Interpreted, listed: Vec<AgentSpec>, ctx: &mut Context) -> Result<(), Failure> {
    let n = game.num_players();
    if args.json {
        return Err(Failure::input(
            "error: --json reports a match of one agent per seat; for a round robin or a --field, use --csv",
        ));
    }
    if args.games == 0 {
        return Err(Failure::input("error: --games must be at least 1"));
    }
    let field = match &args.field {
        Some(f) => parse_players(f).map_err(|e| Failure::input(format!("error: --field: {e}")))?,
        None => Vec::new(),
    };
    if listed.contains(&AgentSpec::Human) || field.contains(&AgentSpec::Human) {
        return Err(Failure::input(
            "error: `human` cannot sit in a match of many games; use `gdl play` to play yourself",
        ));
    }
    let candidates = listed.len();
    let pairings: Vec<Vec<usize>> = if args.field.is_some() {
        if field.len() + 1 < n {
            return Err(Failure::input(format!(
                "error: --field names {} agent{}, but {} has {n} players: the field must fill the {} other seat{}",
                field.len(),
                if field.len() == 1 { "" } else { "s" },
                game.name(),
                n - 1,
                if n == 2 { "" } else { "s" }
            )));
        }
        let mut all = Vec::new();
        for c in 0..candidates {
            for others in combinations(field.len(), n - 1) {
                let mut p = vec![c];
                p.extend(others.iter().map(|f| candidates + f));
                all.push(p);
            }
        }
        all
    } else {
        combinations(candidates, n)
    };
    if let Some(plot) = &args.plot
        && plot.extension().is_none_or(|e| !e.eq_ignore_ascii_case("svg"))
    {
        return Err(Failure::input(format!(
            "error: --plot {}: the picture is SVG; name the file FILE.svg",
            plot.display()
        )));
    }
    let specs: Vec<AgentSpec> = listed.into_iter().chain(field).collect();
    let outputs: Vec<(&'static str, &std::path::Path)> = [("--csv", &args.csv), ("--plot", &args.plot)]
        .into_iter()
        .filter_map(|(flag, p)| p.as_deref().map(|p| (flag, p)))
        .collect();
    let mut inputs = vec![args.game.file.as_path()];
    inputs.extend(specs.iter().filter_map(AgentSpec::file));
    output::check(&outputs, &inputs)?;
    let mut names: Vec<String> = specs.iter().map(|s| s.to_string()).collect();
    disambiguate(&mut names);
    let seats: Vec<String> = (0..n).map(|p| game.player_name(p).to_string()).collect();
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |t| t.get()))
        .min(usize::try_from(args.games).unwrap_or(usize::MAX))
        .max(1);

    let total = args.games * pairings.len() as u64;
    let bar = std::io::stderr().is_terminal().then(|| progress_bar(total));
    let mut games: Vec<LeagueGame> = Vec::new();
    let mut times = vec![DecisionTimes::default(); specs.len()];
    let mut failures: Vec<FailureRecord> = Vec::new();
    let mut measure = None;
    let agent_args = super::agents::AgentArgs {
        optimal_agents: threads * n,
        ..args.agents.clone()
    };
    for (i, pairing) in pairings.iter().enumerate() {
        let mut sets: Vec<Vec<BoxedAgent<'_>>> = Vec::with_capacity(threads);
        for _ in 0..threads {
            let mut set = Vec::with_capacity(n);
            for &a in pairing {
                set.push(make_agent_with(&specs[a], game, args.seed, &agent_args, None, ctx)?);
            }
            sets.push(set);
        }
        let before = i as u64 * args.games;
        let never = std::sync::atomic::AtomicBool::new(false);
        let played = tournament::run_match(game, sets, args.games, args.seed, true, &never, &mut |done, _| {
            if let Some(b) = &bar {
                b.set_position(before + done);
            }
        });
        let result = played.map_err(|e| {
            let names: Vec<String> = pairing.iter().map(|&a| specs[a].to_string()).collect();
            Failure::runtime(format!(
                "error: the league stopped in the match {}\n{}",
                names.join(" vs "),
                ctx.render(&e)
            ))
        })?;
        measure.get_or_insert(result.tally.measure);
        for (k, t) in result.times.iter().enumerate() {
            times[pairing[k]].merge(t);
        }
        let first = games.len() as u64;
        for f in result.failures {
            failures.push(FailureRecord {
                game: first + f.game,
                agent: pairing[f.agent],
                ..f
            });
        }
        for mut record in result.games {
            for a in record.seating.iter_mut() {
                *a = pairing[*a];
            }
            games.push(LeagueGame { pairing: i, record });
        }
    }
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let measure = measure.unwrap_or(Measure::Utility);
    let mut tally = Tally::new(names.clone(), seats, measure);
    for g in &games {
        tally.record(&g.record.seating, g.record.values(measure));
    }

    let how = if args.field.is_some() {
        format!(
            "each of {candidates} agent{} against the field ({})",
            if candidates == 1 { "" } else { "s" },
            names[candidates..].join(", ")
        )
    } else {
        format!("a round robin of {candidates} agents, {n} a game")
    };
    let mut text = format!(
        "game     {}\nleague   {how}: {} pairing{} of {} games, {} games in all, seed {}\n",
        title(game),
        pairings.len(),
        if pairings.len() == 1 { "" } else { "s" },
        args.games,
        games.len(),
        args.seed
    );
    text.push_str(&format!(
        "\nranking\n{}\n{}\ntime per decision (a decision: a move chosen from more than one)\n{}",
        ranking(&tally, candidates, args.field.is_some(), &failures),
        standings::text(&tally),
        standings::times_text(&names, &times)
    ));
    text.push_str(&super::agents::failures_text(&names, game, &failures));
    let mut failed = None;
    let mut files = Vec::new();
    if let Some(path) = &args.csv {
        let out = Output {
            flag: "--csv",
            path: path.clone(),
        };
        match out.write(csv(game, &names, measure, &games).as_bytes()) {
            Ok(()) => files.push(format!("csv      {} ({} games)", path.display(), games.len())),
            Err(f) => failed = Some(f),
        }
    }
    if let Some(path) = &args.plot {
        let out = Output {
            flag: "--plot",
            path: path.clone(),
        };
        match out.write(plot(game, &names, measure, &games).as_bytes()) {
            Ok(()) => files.push(format!("plot     {}", path.display())),
            Err(f) => failed = failed.or(Some(f)),
        }
    }
    if !files.is_empty() {
        text.push('\n');
        for f in files {
            text.push_str(&f);
            text.push('\n');
        }
    }
    write!(ctx.out, "{text}").map_err(super::stdout_failed)?;
    match failed {
        Some(f) => Err(f),
        None => Ok(()),
    }
}

/// Every group of `k` of the numbers `0..n`, in lexicographic order.
fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut pick = Vec::with_capacity(k);
    fn go(start: usize, n: usize, k: usize, pick: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if pick.len() == k {
            out.push(pick.clone());
            return;
        }
        for i in start..n {
            pick.push(i);
            go(i + 1, n, k, pick, out);
            pick.pop();
        }
    }
    if k <= n {
        go(0, n, k, &mut pick, &mut out);
    }
    out
}

/// The agents from best to worst average (points: the fewest first when
/// they win), with their win rate, average and failures.
fn ranking(tally: &Tally, candidates: usize, field: bool, failures: &[FailureRecord]) -> String {
    let lowest_first = matches!(tally.measure, Measure::Points { lowest_wins: true });
    let mut order: Vec<usize> = (0..tally.agents.len()).collect();
    order.sort_by(|&a, &b| {
        let (x, y) = (tally.overall[a].mean(), tally.overall[b].mean());
        let c = x.total_cmp(&y);
        if lowest_first { c } else { c.reverse() }
    });
    let average = match tally.measure {
        Measure::Utility => "avg utility (95%)",
        Measure::Points { .. } => "avg points (95%)",
    };
    let mut rows = vec![
        ["rank", "agent", "games", "win rate (95%)", average, "failures"]
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>(),
    ];
    for (rank, &a) in order.iter().enumerate() {
        let r = &tally.overall[a];
        let cells = match tally.measure {
            Measure::Utility => standings::row("", "", r),
            Measure::Points { .. } => standings::points_row("", "", r),
        };
        let name = if field && a >= candidates {
            format!("{} (field)", tally.agents[a])
        } else {
            tally.agents[a].clone()
        };
        rows.push(vec![
            (rank + 1).to_string(),
            name,
            r.games.to_string(),
            cells[6].clone(),
            cells[7].clone(),
            failures.iter().filter(|f| f.agent == a).count().to_string(),
        ]);
    }
    standings::table(&rows, &[true, false, true, false, false, true])
}

/// One line per game: its pairing and number in it (from 1), each seat's
/// agent, points (or utility) and failure (empty, `crash`, `illegal`,
/// `timeout`, `unreadable`), and the winners.
fn csv(game: &Interpreted, names: &[String], measure: Measure, games: &[LeagueGame]) -> String {
    let mut header = vec!["pairing".to_string(), "game".to_string()];
    for p in 0..game.num_players() {
        let seat = game.player_name(p);
        header.push(format!("{seat} agent"));
        header.push(format!("{seat} {}", measure.label()));
        header.push(format!("{seat} failure"));
    }
    header.push("winners".into());
    let mut out = csv_line(&header);
    let mut number = 0;
    let mut last = usize::MAX;
    for g in games {
        if g.pairing != last {
            number = 0;
            last = g.pairing;
        }
        number += 1;
        let r = &g.record;
        let values = r.values(measure);
        let mut cells = vec![(g.pairing + 1).to_string(), number.to_string()];
        let mut best = Vec::new();
        for (seat, &a) in r.seating.iter().enumerate() {
            cells.push(names[a].clone());
            cells.push((values[seat] + 0.0).to_string());
            cells.push(
                r.failures
                    .get(seat)
                    .and_then(|f| f.as_ref())
                    .map_or("", |f| f.kind)
                    .to_string(),
            );
            if measure.outcome(values, seat) != Outcome::Loss {
                best.push(names[a].as_str());
            }
        }
        cells.push(best.join(";"));
        out.push_str(&csv_line(&cells));
    }
    out
}

/// Each agent's points (or utility) per game, over all its games, as one histogram.
fn plot(game: &Interpreted, names: &[String], measure: Measure, games: &[LeagueGame]) -> String {
    let values: Vec<Vec<f64>> = (0..names.len())
        .map(|a| {
            games
                .iter()
                .filter_map(|g| {
                    let seat = g.record.seating.iter().position(|&x| x == a)?;
                    Some(g.record.values(measure)[seat])
                })
                .collect()
        })
        .collect();
    let series: Vec<Series> = names
        .iter()
        .zip(&values)
        .map(|(name, v)| Series { name, values: v })
        .collect();
    let x_label = match measure {
        Measure::Points { lowest_wins: true } => "points per game (the fewest win)",
        Measure::Points { lowest_wins: false } => "points per game (the most win)",
        Measure::Utility => "utility per game",
    };
    histogram_svg(&format!("{}: {} games", title(game), games.len()), x_label, &series)
}

#[cfg(test)]
mod tests {
    use super::combinations;

    #[test]
    fn combinations_are_every_group_once() {
        assert_eq!(combinations(3, 2), vec![vec![0, 1], vec![0, 2], vec![1, 2]]);
        assert_eq!(combinations(4, 3).len(), 4);
        assert_eq!(combinations(2, 3), Vec::<Vec<usize>>::new());
        assert_eq!(combinations(3, 1), vec![vec![0], vec![1], vec![2]]);
    }
}
