//! A match's results as short tables: per agent, all games then each seat;
//! wins, draws, losses, the win rate and the average points (or utility)
//! with their 95% intervals; then each agent's time per decision.

use std::time::Duration;

use super::stats::{DecisionTimes, Measure, Record, Tally};

/// The table of `tally`, one block of rows per agent.
pub fn text(tally: &Tally) -> String {
    let average = match tally.measure {
        Measure::Utility => "avg utility (95%)".to_string(),
        Measure::Points { lowest_wins } => {
            format!("avg points (95%, {} wins)", if lowest_wins { "fewest" } else { "most" })
        }
    };
    let mut rows: Vec<Vec<String>> = vec![
        ["agent", "seat", "games", "wins", "draws", "losses", "win rate (95%)"]
            .iter()
            .map(|s| s.to_string())
            .chain([average])
            .collect(),
    ];
    let row = |agent: &str, seat: &str, r: &Record| match tally.measure {
        Measure::Utility => row(agent, seat, r),
        Measure::Points { .. } => points_row(agent, seat, r),
    };
    for (a, name) in tally.agents.iter().enumerate() {
        rows.push(row(name, "all", &tally.overall[a]));
        for (s, seat) in tally.seats.iter().enumerate() {
            let r = &tally.by_seat[a][s];
            if r.games > 0 {
                rows.push(row("", &format!("as {seat}"), r));
            }
        }
    }
    if !tally.sized() {
        return table(&rows, &[false, false, true, true, true, true, false, false]);
    }
    // Wins of different sizes: the average decides, so it comes first.
    for r in &mut rows {
        let average = r.remove(7);
        r.insert(3, average);
    }
    let mut text = table(&rows, &[false, false, true, false, true, true, true, false]);
    text.push_str(
        "(the returns differ in size from game to game, so the average utility says who did\n \
         better; the win rate counts a game won by any margin)\n",
    );
    text
}

/// Each agent's time per decision: how many decisions (calls with more than
/// one legal move), their mean and longest time.
pub fn times_text(agents: &[String], times: &[DecisionTimes]) -> String {
    let mut rows: Vec<Vec<String>> = vec![
        ["agent", "decisions", "mean time", "max time"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
    ];
    for (name, t) in agents.iter().zip(times) {
        let (mean, max) = if t.decisions == 0 {
            ("-".to_string(), "-".to_string())
        } else {
            (duration(t.mean()), duration(t.max))
        };
        rows.push(vec![name.clone(), t.decisions.to_string(), mean, max]);
    }
    let mut text = table(&rows, &[false, true, true, true]);
    // An external program's first answer waits for its start (Python's
    // imports): told apart, so that it does not pass for thinking.
    for (name, t) in agents.iter().zip(times).filter(|(_, t)| t.start_ups > 0) {
        text.push_str(&format!(
            "{name}: start-up (a new program's first answer) {} mean, {} max, {} start{}\n",
            duration(t.start_up_mean()),
            duration(t.start_up_max),
            t.start_ups,
            if t.start_ups == 1 { "" } else { "s" }
        ));
    }
    text
}

/// A duration in the unit that reads best: `0.4 µs`, `12.35 ms`, `1.20 s`.
pub fn duration(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s < 1e-3 {
        format!("{:.1} µs", s * 1e6)
    } else if s < 1.0 {
        format!("{:.2} ms", s * 1e3)
    } else {
        format!("{s:.2} s")
    }
}

/// One row of the table of a game decided by points: as [`row`], with the
/// average points (not signed: they are counts).
pub fn points_row(agent: &str, seat: &str, r: &Record) -> Vec<String> {
    let mut cells = row(agent, seat, r);
    cells[7] = match r.mean_ci95() {
        Some(h) => format!("{:.2} ± {:.2}", r.mean(), h),
        None => format!("{:.2}", r.mean()),
    };
    cells
}

/// One row of the table: agent, seat, counts, and the two intervals.
pub fn row(agent: &str, seat: &str, r: &Record) -> Vec<String> {
    let rate = match r.win_rate_ci95() {
        Some((lo, hi)) => format!("{:5.1}% [{:.1}, {:.1}]", 100.0 * r.win_rate(), 100.0 * lo, 100.0 * hi),
        None => "-".into(),
    };
    let mean = match r.mean_ci95() {
        Some(h) => format!("{:+.3} ± {:.3}", r.mean(), h),
        None => format!("{:+.3}", r.mean()),
    };
    vec![
        agent.to_string(),
        seat.to_string(),
        r.games.to_string(),
        r.wins.to_string(),
        r.draws.to_string(),
        r.losses.to_string(),
        rate,
        mean,
    ]
}

/// Lays out `rows` in columns two spaces apart; `right[c]` right-aligns column `c`.
pub fn table(rows: &[Vec<String>], right: &[bool]) -> String {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let width: Vec<usize> = (0..cols)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for r in rows {
        let mut line = String::new();
        for (c, cell) in r.iter().enumerate() {
            if c > 0 {
                line.push_str("  ");
            }
            let pad = width[c] - cell.chars().count();
            if right.get(c).copied().unwrap_or(false) {
                line.push_str(&" ".repeat(pad));
                line.push_str(cell);
            } else {
                line.push_str(cell);
                line.push_str(&" ".repeat(pad));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// A record as JSON: counts, the win rate and the average with their 95%
/// intervals (`null` where too few games give none).
fn record_json(r: &Record) -> serde_json::Value {
    serde_json::json!({
        "games": r.games,
        "wins": r.wins,
        "draws": r.draws,
        "losses": r.losses,
        "win_rate": r.win_rate(),
        "win_rate_ci95": r.win_rate_ci95().map(|(lo, hi)| [lo, hi]),
        "mean": r.mean(),
        "mean_ci95": r.mean_ci95(),
    })
}

/// The standings as JSON (docs/json-schema/match.json): per agent, all
/// games and each seat; each agent's decision times.
pub fn json(tally: &Tally, times: &[DecisionTimes]) -> serde_json::Value {
    let measure = match tally.measure {
        Measure::Utility => "utility",
        Measure::Points { lowest_wins: true } => "points, fewest wins",
        Measure::Points { lowest_wins: false } => "points, most wins",
    };
    let agents: Vec<serde_json::Value> = tally
        .agents
        .iter()
        .enumerate()
        .map(|(a, name)| {
            let seats: serde_json::Map<String, serde_json::Value> = tally
                .seats
                .iter()
                .enumerate()
                .filter(|(s, _)| tally.by_seat[a][*s].games > 0)
                .map(|(s, seat)| (seat.clone(), record_json(&tally.by_seat[a][s])))
                .collect();
            let t = times.get(a).cloned().unwrap_or_default();
            serde_json::json!({
                "agent": name,
                "all": record_json(&tally.overall[a]),
                "seats": seats,
                "decisions": t.decisions,
                "mean_decision_seconds": t.mean().as_secs_f64(),
                "max_decision_seconds": t.max.as_secs_f64(),
                "start_ups": t.start_ups,
                "mean_start_up_seconds": t.start_up_mean().as_secs_f64(),
                "max_start_up_seconds": t.start_up_max.as_secs_f64(),
            })
        })
        .collect();
    serde_json::json!({"measure": measure, "agents": agents})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_in_their_unit() {
        assert_eq!(duration(Duration::from_nanos(400)), "0.4 µs");
        assert_eq!(duration(Duration::from_micros(12_345)), "12.35 ms");
        assert_eq!(duration(Duration::from_millis(1200)), "1.20 s");
    }

    #[test]
    fn an_agent_that_never_decided_has_no_times() {
        let mut once = DecisionTimes::default();
        once.add(Duration::from_millis(3));
        let text = times_text(&["a".into(), "b".into()], &[DecisionTimes::default(), once]);
        assert_eq!(
            text,
            "agent  decisions  mean time  max time\na              0          -         -\nb              1    3.00 ms   3.00 ms\n"
        );
    }

    #[test]
    fn start_ups_are_a_line_of_their_own() {
        let mut t = DecisionTimes::default();
        t.add(Duration::from_millis(2));
        t.add_start_up(Duration::from_millis(100));
        t.add_start_up(Duration::from_millis(120));
        let text = times_text(&["p".into()], &[t]);
        assert_eq!(
            text,
            "agent  decisions  mean time  max time\np              1    2.00 ms   2.00 ms\n\
             p: start-up (a new program's first answer) 110.00 ms mean, 120.00 ms max, 2 starts\n"
        );
    }
}
