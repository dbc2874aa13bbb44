//! `gdl match`: a seeded match is replayed exactly; the CSV file agrees with
//! the printed table; wins, draws and losses add up; the report of an X
//! Nimmt! match; every refused input.
//!
//! Every run happens in a scratch folder, with the game files copied in and
//! short relative names, so that no message depends on this machine's paths.

use crate::common;

use std::path::{Path, PathBuf};

use common::{Run, gdl_in, snap};

/// A fresh folder for one test, holding copies of the games it plays.
fn scratch(name: &str) -> PathBuf {
    common::scratch("match", name, &["xnimmt.game", "select19.game", "nim.game"])
}

fn gdl(dir: &Path, args: &[&str]) -> Run {
    gdl_in(dir, args, None)
}

/// Runs a match that must succeed, and prints nothing on stderr (no progress
/// bar when stderr is not a terminal); returns its report.
fn ok(dir: &Path, args: &[&str]) -> String {
    let r = gdl(dir, args);
    assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
    assert_eq!(r.stderr, "", "{args:?}: nothing on stderr when it is not a terminal");
    r.stdout
}

/// The report with its timings masked: the only part of it that changes from run to run.
fn masked(report: &str) -> String {
    let mut out = String::new();
    let mut timings = false;
    for line in report.lines() {
        if line.starts_with("time per decision") {
            timings = true;
        } else if line.is_empty() {
            timings = false;
        }
        if timings && !line.starts_with("time per decision") && !line.starts_with("agent") {
            // name, decisions, mean, max: keep the first two.
            let cells: Vec<&str> = line.split("  ").filter(|c| !c.trim().is_empty()).collect();
            out.push_str(&format!("{}  {}  [mean]  [max]\n", cells[0].trim(), cells[1].trim()));
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// One row of the printed table, by agent and seat (`all`, `as P1`, ...).
#[derive(Debug, PartialEq)]
struct Row {
    games: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    /// The average, as printed (`7.83`).
    average: String,
}

/// The printed table's rows, keyed by agent and seat.
fn table(report: &str) -> Vec<((String, String), Row)> {
    let mut rows = Vec::new();
    let mut agent = String::new();
    let mut in_table = false;
    // The columns by name: chip games put the average before the wins.
    let mut header: Vec<String> = Vec::new();
    for line in report.lines() {
        if line.starts_with("agent ") && line.contains("wins") {
            in_table = true;
            // Without the agent's own column, as the cells below are.
            header = line
                .split("  ")
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .skip(1)
                .map(String::from)
                .collect();
            continue;
        }
        if !in_table {
            continue;
        }
        if line.is_empty() || line.starts_with('(') {
            break;
        }
        // Cells are two or more spaces apart; an agent's later rows start blank.
        let (name, rest) = if line.starts_with(' ') {
            (agent.clone(), line.trim_start())
        } else {
            let (n, r) = line.split_once("  ").unwrap();
            agent = n.trim().to_string();
            (agent.clone(), r.trim_start())
        };
        let cells: Vec<&str> = rest.split("  ").map(str::trim).filter(|c| !c.is_empty()).collect();
        let col = |name: &str| header.iter().position(|h| h.starts_with(name)).unwrap();
        let num = |name: &str| cells[col(name)].parse::<u64>().unwrap();
        let average = cells[col("avg")].split(" ± ").next().unwrap().to_string();
        rows.push((
            (name, cells[col("seat")].to_string()),
            Row {
                games: num("games"),
                wins: num("wins"),
                draws: num("draws"),
                losses: num("losses"),
                average,
            },
        ));
    }
    rows
}

fn row<'a>(rows: &'a [((String, String), Row)], agent: &str, seat: &str) -> &'a Row {
    &rows
        .iter()
        .find(|((a, s), _)| a == agent && s == seat)
        .unwrap_or_else(|| panic!("no row for {agent} {seat} in {rows:?}"))
        .1
}

/// The CSV file: its header and its rows, split at commas (no cell of these
/// matches needs quoting).
fn read_csv(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines().map(|l| l.split(',').map(String::from).collect::<Vec<_>>());
    let header = lines.next().unwrap();
    (header, lines.collect())
}

#[test]
fn a_seeded_match_is_replayed_exactly() {
    let dir = scratch("replay");
    let args = |seed: &str, csv: &str| {
        [
            "match",
            "xnimmt.game",
            "--players",
            "random,random",
            "--games",
            "30",
            "--seed",
            seed,
            "--csv",
            csv,
        ]
        .map(String::from)
    };
    let run = |a: [String; 10]| ok(&dir, &a.iter().map(String::as_str).collect::<Vec<_>>());
    let first = run(args("7", "a.csv"));
    let again = run(args("7", "b.csv"));
    assert_eq!(masked(&first).replace("a.csv", "b.csv"), masked(&again));
    assert_eq!(
        std::fs::read(dir.join("a.csv")).unwrap(),
        std::fs::read(dir.join("b.csv")).unwrap(),
        "the same seed plays the same games"
    );
    run(args("8", "c.csv"));
    // One thread or three: every game is seeded by its number alone, and the
    // games are tallied in order.
    for (threads, file) in [("1", "t1.csv"), ("3", "t3.csv")] {
        let mut a: Vec<String> = args("7", file).to_vec();
        a[3] = "search:5,greedy".into();
        a.extend(["--threads".to_string(), threads.to_string()]);
        ok(&dir, &a.iter().map(String::as_str).collect::<Vec<_>>());
    }
    assert_eq!(
        std::fs::read(dir.join("t1.csv")).unwrap(),
        std::fs::read(dir.join("t3.csv")).unwrap(),
        "the threads do not change the games"
    );
    assert_ne!(
        std::fs::read(dir.join("a.csv")).unwrap(),
        std::fs::read(dir.join("c.csv")).unwrap(),
        "another seed plays other games"
    );
}

#[test]
fn the_csv_file_agrees_with_the_printed_table() {
    let dir = scratch("csv");
    let games = 41;
    let report = ok(
        &dir,
        &[
            "match",
            "xnimmt.game",
            "--players",
            "random,random",
            "--games",
            &games.to_string(),
            "--seed",
            "3",
            "--csv",
            "games.csv",
        ],
    );
    assert!(report.contains("csv      games.csv (41 games)\n"), "{report}");
    let rows = table(&report);
    let (header, lines) = read_csv(&dir.join("games.csv"));
    assert_eq!(
        header,
        [
            "game",
            "random #1 seat",
            "random #1 points",
            "random #2 seat",
            "random #2 points",
            "winners"
        ]
    );
    assert_eq!(lines.len(), games, "one row per game");
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(line[0], (i + 1).to_string());
        // Seats rotate: random #1 sits first in the odd-numbered games.
        let (s1, s2) = if i % 2 == 0 { ("P1", "P2") } else { ("P2", "P1") };
        assert_eq!((line[1].as_str(), line[3].as_str()), (s1, s2), "game {}", i + 1);
    }
    for (a, name) in ["random #1", "random #2"].iter().enumerate() {
        let points: Vec<f64> = lines.iter().map(|l| l[2 + 2 * a].parse().unwrap()).collect();
        let mean = points.iter().sum::<f64>() / games as f64;
        let all = row(&rows, name, "all");
        assert_eq!(format!("{mean:.2}"), all.average, "{name}'s average");
        // The winners column: alone is a win, with others a draw, absent a loss.
        let mut wdl = (0, 0, 0);
        for l in &lines {
            let winners: Vec<&str> = l[5].split(';').collect();
            match (winners.contains(name), winners.len()) {
                (true, 1) => wdl.0 += 1,
                (true, _) => wdl.1 += 1,
                (false, _) => wdl.2 += 1,
            }
            // The fewest points win.
            let (mine, theirs): (f64, f64) = (l[2 + 2 * a].parse().unwrap(), l[4 - 2 * a].parse().unwrap());
            assert_eq!(winners.contains(name), mine <= theirs, "{l:?}");
        }
        assert_eq!((all.wins, all.draws, all.losses), wdl, "{name}");
    }
}

#[test]
fn wins_draws_and_losses_add_up_to_the_games() {
    let dir = scratch("wdl");
    for (file, players, extra) in [
        ("xnimmt.game", "random,random", &[][..]),
        ("xnimmt.game", "random,random,random", &["--P", "3", "--K", "18"][..]),
        ("select19.game", "random,random", &[][..]),
        ("nim.game", "optimal,random", &["--piles", "1,2,3"][..]),
    ] {
        let mut args = vec!["match", file, "--players", players, "--games", "25", "--seed", "5"];
        args.extend_from_slice(extra);
        let report = ok(&dir, &args);
        let rows = table(&report);
        let agents = players.split(',').count();
        assert_eq!(rows.iter().filter(|((_, s), _)| s == "all").count(), agents);
        let mut wins = 0;
        let mut best_shared = 0;
        for ((agent, seat), r) in &rows {
            assert_eq!(r.wins + r.draws + r.losses, r.games, "{file} {agent} {seat}");
            if seat == "all" {
                assert_eq!(r.games, 25, "{file} {agent}");
                wins += r.wins;
                best_shared += r.draws;
                // The seats' rows add up to the agent's.
                let seats: Vec<&Row> = rows
                    .iter()
                    .filter(|((a, s), _)| a == agent && s != "all")
                    .map(|(_, r)| r)
                    .collect();
                assert_eq!(seats.iter().map(|r| r.games).sum::<u64>(), 25);
                assert_eq!(seats.iter().map(|r| r.wins).sum::<u64>(), r.wins);
            }
        }
        // A game has one winner or at least two sharing the best result.
        assert!(wins <= 25 && wins + best_shared / 2 >= 25, "{file}: {report}");
    }
}

#[test]
fn xnimmt_match_report() {
    let dir = scratch("report");
    // search:20 stops at 20 worlds long before its minute: the budget is
    // shown, and the match stays the same for its seed.
    let report = ok(
        &dir,
        &[
            "match",
            "xnimmt.game",
            "--players",
            "search:20,greedy",
            "--games",
            "20",
            "--seed",
            "1",
            "--budget-ms",
            "60000",
            "--csv",
            "games.csv",
            "--plot",
            "points.svg",
        ],
    );
    snap!("match_xnimmt_search_greedy", &report);
    let svg = std::fs::read_to_string(dir.join("points.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
    assert!(svg.contains("points per game (the fewest win)"), "{svg}");
    // The legend's means are the table's averages.
    let rows = table(&report);
    for name in ["search:20", "greedy"] {
        let legend = format!("{name} (mean {}, 20 games)", row(&rows, name, "all").average);
        assert!(svg.contains(&legend), "{legend} not in {svg}");
    }
    // Written atomically: nothing is left beside the files but the games.
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["games.csv", "nim.game", "points.svg", "select19.game", "xnimmt.game"]
    );
}

#[test]
fn three_players_rotate_through_every_seat() {
    let dir = scratch("three");
    let report = ok(
        &dir,
        &[
            "match",
            "xnimmt.game",
            "--P",
            "3",
            "--K",
            "18",
            "--players",
            "search:5,random,random",
            "--games",
            "9",
            "--seed",
            "4",
            "--csv",
            "three.csv",
        ],
    );
    assert!(
        report.contains("games    9 (3 with search:5 first, 3 with random #2 first, 3 with random #3 first), seed 4"),
        "{report}"
    );
    let (header, lines) = read_csv(&dir.join("three.csv"));
    assert_eq!(header.len(), 1 + 2 * 3 + 1);
    // Game g seats agent (seat + g) mod 3 in each seat.
    let seats: Vec<&str> = lines.iter().map(|l| l[1].as_str()).collect();
    assert_eq!(seats, ["P1", "P3", "P2", "P1", "P3", "P2", "P1", "P3", "P2"]);
}

#[test]
fn a_game_without_scores_counts_utility() {
    let dir = scratch("utility");
    let report = ok(
        &dir,
        &[
            "match",
            "select19.game",
            "--players",
            "random,random",
            "--games",
            "10",
            "--seed",
            "2",
            "--csv",
            "u.csv",
        ],
    );
    assert!(report.contains("avg utility (95%)"), "{report}");
    let (header, lines) = read_csv(&dir.join("u.csv"));
    assert_eq!(header[2], "random #1 utility");
    assert_eq!(lines.len(), 10);
}

/// Kuhn poker pays one or two chips: an agent can win most hands and still
/// lose chips, so the report leads with the average; tic-tac-toe's returns
/// are outcomes, and the win rate comes first as before.
#[test]
fn chip_games_lead_with_the_average() {
    let dir = scratch("chips");
    let header = |report: &str| report.lines().find(|l| l.starts_with("agent ")).unwrap().to_string();
    let chips = ok(
        &dir,
        &[
            "match",
            "kuhn-poker.game",
            "--players",
            "random,search",
            "--games",
            "60",
            "--seed",
            "3",
            "--csv",
            "k.csv",
        ],
    );
    let h = header(&chips);
    assert!(h.find("avg utility").unwrap() < h.find("wins").unwrap(), "{chips}");
    assert!(chips.contains("the average utility says who did"), "{chips}");
    // The leading number is the average of the CSV's utilities.
    let (head, lines) = read_csv(&dir.join("k.csv"));
    let col = head.iter().position(|c| c == "random utility").unwrap();
    let mean: f64 = lines.iter().map(|l| l[col].parse::<f64>().unwrap()).sum::<f64>() / lines.len() as f64;
    let all = chips
        .lines()
        .find(|l| l.starts_with("random ") && l.contains(" all "))
        .unwrap();
    let printed: f64 = all.split_whitespace().nth(3).unwrap().parse().unwrap();
    assert!((printed - mean).abs() < 5e-4, "{printed} vs {mean}: {all}");

    let outcomes = ok(
        &dir,
        &[
            "match",
            "tictactoe.game",
            "--players",
            "random,search",
            "--games",
            "10",
            "--seed",
            "3",
        ],
    );
    let h = header(&outcomes);
    assert!(h.find("wins").unwrap() < h.find("avg utility").unwrap(), "{outcomes}");
    assert!(!outcomes.contains("says who did"), "{outcomes}");
}

#[test]
fn bad_inputs_are_refused_before_any_game() {
    let dir = scratch("errors");
    std::fs::create_dir(dir.join("out")).unwrap();
    std::fs::write(dir.join("notes.txt"), "not a folder").unwrap();
    let cases: &[(&str, &[&str])] = &[
        ("match_err_csv_missing_folder", &["--csv", "nope/games.csv"]),
        ("match_err_csv_folder", &["--csv", "out"]),
        ("match_err_csv_under_a_file", &["--csv", "notes.txt/games.csv"]),
        ("match_err_plot_not_a_picture", &["--plot", "points.jpg"]),
        ("match_err_plot_missing_folder", &["--plot", "nope/points.svg"]),
        ("match_err_same_file", &["--csv", "x.svg", "--plot", "x.svg"]),
        ("match_err_games_zero", &["--games", "0"]),
        // Three agents for two seats is a round robin; one is too few.
        ("match_err_one_player_for_two", &["--players", "random"]),
        ("match_err_deck_too_small", &["--K", "12"]),
    ];
    for (name, extra) in cases {
        let mut args = vec!["match", "xnimmt.game"];
        for (flag, default) in [("--players", "random,random"), ("--games", "3")] {
            if !extra.contains(&flag) {
                args.extend([flag, default]);
            }
        }
        args.extend_from_slice(extra);
        let r = gdl(&dir, &args);
        assert_eq!(r.code, 2, "{name}: {args:?}\n{}", r.stderr);
        assert!(r.stdout.is_empty(), "{name}: {}", r.stdout);
        assert!(!r.stderr.contains("panicked"), "{name}: {}", r.stderr);
        snap!(*name, r.stderr);
    }
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["nim.game", "notes.txt", "out", "select19.game", "xnimmt.game"],
        "a refused match writes nothing"
    );
}

/// A league writes its CSV as games end and keeps totals, not games: the
/// CSV still has every game of every pairing, numbered within its pairing,
/// the same on any number of threads, and agrees with the ranking.
#[test]
fn a_league_csv_has_every_game_in_order() {
    let dir = scratch("league_csv");
    let mut csvs = Vec::new();
    for threads in ["1", "3"] {
        let csv = format!("league{threads}.csv");
        let svg = format!("league{threads}.svg");
        let report = ok(
            &dir,
            &[
                "match",
                "select19.game",
                "--players",
                "random,greedy,search:5",
                "--field",
                "random,greedy",
                "--games",
                "25",
                "--threads",
                threads,
                "--csv",
                &csv,
                "--plot",
                &svg,
            ],
        );
        assert!(report.contains("6 pairings of 25 games, 150 games in all"), "{report}");
        assert!(report.contains(&format!("csv      {csv} (150 games)")), "{report}");
        let text = std::fs::read_to_string(dir.join(&csv)).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 151, "{text}");
        for (i, line) in lines[1..].iter().enumerate() {
            let cells: Vec<&str> = line.split(',').collect();
            assert_eq!(cells[0], (i / 25 + 1).to_string(), "{line}");
            assert_eq!(cells[1], (i % 25 + 1).to_string(), "{line}");
        }
        // The ranking's games per agent are the CSV's.
        for agent in ["random #1", "greedy #2", "search:5"] {
            let in_csv = lines[1..].iter().filter(|l| l.split(',').any(|c| c == agent)).count();
            let row = report
                .lines()
                .skip_while(|l| *l != "ranking")
                .find(|l| l.contains(agent))
                .unwrap_or_else(|| panic!("{agent}: {report}"));
            let after_name = &row[row.find(agent).unwrap() + agent.len()..];
            let games: usize = after_name.split_whitespace().next().unwrap().parse().unwrap();
            assert_eq!(games, in_csv, "{agent}: {row}");
        }
        let picture = std::fs::read_to_string(dir.join(&svg)).unwrap();
        assert!(picture.contains("150 games"), "{}", &picture[..300.min(picture.len())]);
        csvs.push(text);
    }
    assert_eq!(csvs[0], csvs[1], "the threads do not change the games");
}

/// A match played as 4 parts (`--shard I/4 --jsonl`) and merged gives the
/// report, CSV rows and plot of the same match played at once: every game
/// has its seats and seeds from its number, whichever part plays it.
#[test]
fn a_match_in_four_parts_merges_into_the_whole_match() {
    let dir = scratch("shards");
    let base = [
        "match",
        "select19.game",
        "--players",
        "random,search:8",
        "--games",
        "400",
        "--seed",
        "7",
        "--threads",
        "2",
    ];
    let whole = ok(
        &dir,
        &[&base[..], &["--csv", "whole.csv", "--plot", "whole.svg"]].concat(),
    );
    // Parts 3, 1, 0, 2: the order they run in does not matter.
    for i in [3, 1, 0, 2] {
        let shard = format!("{i}/4");
        let file = format!("part{i}.jsonl");
        let part = ok(&dir, &[&base[..], &["--shard", &shard, "--jsonl", &file]].concat());
        assert!(part.starts_with("game     "), "{part}");
        assert!(part.contains("games    100 ("), "each part plays a quarter: {part}");
    }
    let merged = ok(
        &dir,
        &[
            "merge",
            "part2.jsonl",
            "part0.jsonl",
            "part3.jsonl",
            "part1.jsonl",
            "--csv",
            "merged.csv",
            "--plot",
            "merged.svg",
        ],
    );
    let named = |report: &str| masked(report).replace("whole.", "FILE.").replace("merged.", "FILE.");
    assert_eq!(named(&merged), named(&whole));
    assert_eq!(table(&merged), table(&whole));
    assert_eq!(read_csv(&dir.join("merged.csv")), read_csv(&dir.join("whole.csv")));
    assert_eq!(read_csv(&dir.join("whole.csv")).1.len(), 400);
    let svg = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap();
    assert_eq!(svg("merged.svg"), svg("whole.svg"));
    // The decisions of the parts add up to the whole match's.
    let decisions = |report: &str| -> Vec<String> {
        report
            .lines()
            .skip_while(|l| !l.starts_with("time per decision"))
            .skip(2)
            .take(2)
            .map(|l| l.split_whitespace().take(2).collect::<Vec<_>>().join(" "))
            .collect()
    };
    assert_eq!(decisions(&merged), decisions(&whole));
    // JSON too.
    let json = ok(
        &dir,
        &[
            "merge",
            "part0.jsonl",
            "part1.jsonl",
            "part2.jsonl",
            "part3.jsonl",
            "--json",
        ],
    );
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!((doc["games"].as_u64(), doc["seed"].as_u64()), (Some(400), Some(7)));
}

/// A league (a round robin of three agents for two seats) played as 4
/// parts and merged gives the report, ranking, CSV rows and plot of the
/// same league played at once: the parts cut through its pairings, and
/// every game keeps its pairing, seats and seeds.
#[test]
fn a_league_in_four_parts_merges_into_the_whole_league() {
    let dir = scratch("league_shards");
    let base = [
        "match",
        "select19.game",
        "--players",
        "random,greedy,search:4",
        "--games",
        "30",
        "--seed",
        "5",
        "--threads",
        "2",
    ];
    let whole = ok(
        &dir,
        &[&base[..], &["--csv", "whole.csv", "--plot", "whole.svg"]].concat(),
    );
    assert!(
        whole.contains("3 pairings of 30 games, 90 games in all, seed 5"),
        "{whole}"
    );
    // 90 games in 4 parts: 22, 23, 22, 23 games, the cuts inside pairings.
    for (i, from, to) in [(2, 46, 67), (0, 1, 22), (3, 68, 90), (1, 23, 45)] {
        let shard = format!("{i}/4");
        let file = format!("part{i}.jsonl");
        let part = ok(&dir, &[&base[..], &["--shard", &shard, "--jsonl", &file]].concat());
        assert!(
            part.contains(&format!("{} games in all", to - from + 1)),
            "part {i}: {part}"
        );
        assert!(
            part.contains(&format!(
                "part     {i} of 4 (from 0): games {from} to {to} of the league's 90"
            )),
            "{part}"
        );
    }
    let merged = ok(
        &dir,
        &[
            "merge",
            "part3.jsonl",
            "part1.jsonl",
            "part0.jsonl",
            "part2.jsonl",
            "--csv",
            "merged.csv",
            "--plot",
            "merged.svg",
        ],
    );
    let named = |report: &str| masked(report).replace("whole.", "FILE.").replace("merged.", "FILE.");
    assert_eq!(named(&merged), named(&whole));
    let ranking = |report: &str| -> Vec<String> {
        report
            .lines()
            .skip_while(|l| *l != "ranking")
            .take_while(|l| !l.is_empty())
            .map(String::from)
            .collect()
    };
    assert_eq!(ranking(&merged).len(), 5, "{merged}");
    assert_eq!(ranking(&merged), ranking(&whole));
    assert_eq!(table(&merged), table(&whole));
    let (header, rows) = read_csv(&dir.join("merged.csv"));
    assert_eq!((header, rows.clone()), read_csv(&dir.join("whole.csv")));
    assert_eq!(rows.len(), 90);
    let svg = |f: &str| std::fs::read(dir.join(f)).unwrap();
    assert_eq!(svg("merged.svg"), svg("whole.svg"));
    // The plot's ratings are the report's: each agent's `Elo ± half` under
    // its point, the table's rows `agent  +NN ± NN  games  score`.
    let picture = String::from_utf8(svg("whole.svg")).unwrap();
    let ratings: Vec<String> = whole
        .lines()
        .skip_while(|l| !l.starts_with("Elo ratings"))
        .skip(2)
        .take(3)
        .map(|l| {
            let cells: Vec<&str> = l.split_whitespace().collect();
            cells[1..4].join(" ")
        })
        .collect();
    assert_eq!(ratings.len(), 3, "{whole}");
    for r in &ratings {
        assert!(r.contains(" ± "), "{r}: {whole}");
        assert!(picture.contains(r.as_str()), "{r} not in the plot");
    }
    // A part missing, or a match's part among a league's, is refused.
    let refused = |args: &[&str], says: &str| {
        let r = gdl(&dir, args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stdout);
        assert!(r.stderr.contains(says), "{args:?}: {}", r.stderr);
    };
    refused(
        &["merge", "part0.jsonl", "part1.jsonl", "part3.jsonl"],
        "games 46 to 67 of 90 are missing",
    );
    ok(
        &dir,
        &[
            "match",
            "select19.game",
            "--players",
            "random,greedy",
            "--games",
            "90",
            "--seed",
            "5",
            "--shard",
            "2/4",
            "--jsonl",
            "match2.jsonl",
        ],
    );
    refused(
        &["merge", "part0.jsonl", "part1.jsonl", "match2.jsonl", "part3.jsonl"],
        "parts of different matches",
    );
    refused(
        &[
            "merge",
            "part0.jsonl",
            "part1.jsonl",
            "part2.jsonl",
            "part3.jsonl",
            "--json",
        ],
        "--json",
    );
}

#[test]
fn merge_refuses_what_is_not_one_whole_match() {
    let dir = scratch("bad_shards");
    let part = |i: u32, seed: &str| {
        let shard = format!("{i}/3");
        let file = format!("s{seed}-{i}.jsonl");
        ok(
            &dir,
            &[
                "match",
                "nim.game",
                "--players",
                "random,random",
                "--games",
                "30",
                "--seed",
                seed,
                "--shard",
                &shard,
                "--jsonl",
                &file,
            ],
        );
    };
    for i in 0..3 {
        part(i, "1");
    }
    part(1, "2");
    let refused = |args: &[&str], says: &str| {
        let r = gdl(&dir, args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stdout);
        assert!(r.stderr.contains(says), "{args:?}: {}", r.stderr);
    };
    refused(
        &["merge", "s1-0.jsonl", "s1-2.jsonl"],
        "games 11 to 20 of 30 are missing",
    );
    refused(
        &["merge", "s1-0.jsonl", "s1-1.jsonl"],
        "games 21 to 30 of 30 are missing",
    );
    refused(
        &["merge", "s1-0.jsonl", "s1-1.jsonl", "s1-1.jsonl", "s1-2.jsonl"],
        "repeats a part",
    );
    refused(
        &["merge", "s1-0.jsonl", "s2-1.jsonl", "s1-2.jsonl"],
        "parts of different matches",
    );
    refused(&["merge", "nim.game"], "line 1");
    refused(
        &["match", "nim.game", "--players", "random,random", "--shard", "1/3"],
        "--jsonl",
    );
    refused(
        &[
            "match",
            "nim.game",
            "--players",
            "random,random",
            "--shard",
            "3/3",
            "--jsonl",
            "x.jsonl",
        ],
        "I/N",
    );
    // The three parts of one match do merge.
    let merged = ok(&dir, &["merge", "s1-1.jsonl", "s1-0.jsonl", "s1-2.jsonl"]);
    assert!(
        merged.contains("games    30 (15 with random #1 first, 15 with random #2 first), seed 1"),
        "{merged}"
    );
}

/// Parts of one match played with different settings are not one match:
/// every option that decides how a seat plays is in a part's first line,
/// and `gdl merge` names the one that differs (issue 42, item 1).
#[test]
fn merge_refuses_parts_whose_agents_played_by_other_settings() {
    let dir = scratch("settings");
    let part = |i: u32, file: &str, extra: &[&str]| {
        let shard = format!("{i}/2");
        let mut args = vec![
            "match",
            "nim.game",
            "--piles",
            "1,3,5",
            "--players",
            "mcts:50,random",
            "--games",
            "10",
            "--seed",
            "1",
            "--threads",
            "1",
            "--shard",
            &shard,
            "--jsonl",
            file,
        ];
        args.extend_from_slice(extra);
        ok(&dir, &args);
    };
    part(0, "a.jsonl", &[]);
    part(1, "b.jsonl", &[]);
    let merged = ok(&dir, &["merge", "a.jsonl", "b.jsonl"]);
    assert!(merged.contains("games    10"), "{merged}");
    let differing: &[(&[&str], &str)] = &[
        (
            &["--mcts-exploration", "50"],
            "--mcts-exploration is 1.0 in a.jsonl, 50.0 in FILE",
        ),
        (
            &["--mcts-backup", "outcome"],
            "--mcts-backup is not given in a.jsonl, \"outcome\" in FILE",
        ),
        (&["--mcts-simultaneous", "rm"], "--mcts-simultaneous"),
        (&["--mcts-win-bonus", "2"], "--mcts-win-bonus"),
        (&["--mcts-parallel", "tree"], "--mcts-parallel"),
        (&["--search-threads", "2"], "--search-threads"),
        (&["--on-agent-failure", "abort"], "--on-agent-failure"),
        (&["--budget-ms", "300"], "--budget-ms"),
        (&["--move-time-ms", "500"], "--move-time-ms"),
        (&["--max-nodes", "1000"], "--max-nodes"),
        (&["--time-limit", "5"], "--time-limit"),
        (&["--engine", "vm"], "--engine is \"jit\" in a.jsonl, \"vm\" in FILE"),
    ];
    for (k, (extra, says)) in differing.iter().enumerate() {
        let file = format!("b{k}.jsonl");
        part(1, &file, extra);
        let r = gdl(&dir, &["merge", "a.jsonl", &file]);
        assert_eq!(r.code, 2, "{extra:?}: {}", r.stdout);
        assert!(
            r.stderr.contains("parts of different matches"),
            "{extra:?}: {}",
            r.stderr
        );
        assert!(
            r.stderr.contains(&says.replace("FILE", &file)),
            "{extra:?}: {}",
            r.stderr
        );
    }
    // A label names the agent in the report; the agent behind it must be the same.
    ok(
        &dir,
        &[
            "match",
            "nim.game",
            "--piles",
            "1,3,5",
            "--players",
            "me=mcts:50,random",
            "--games",
            "10",
            "--seed",
            "1",
            "--shard",
            "0/2",
            "--jsonl",
            "me0.jsonl",
        ],
    );
    ok(
        &dir,
        &[
            "match",
            "nim.game",
            "--piles",
            "1,3,5",
            "--players",
            "me=mcts:60,random",
            "--games",
            "10",
            "--seed",
            "1",
            "--shard",
            "1/2",
            "--jsonl",
            "me1.jsonl",
        ],
    );
    let r = gdl(&dir, &["merge", "me0.jsonl", "me1.jsonl"]);
    assert_eq!(r.code, 2, "{}", r.stdout);
    assert!(
        r.stderr.contains(
            "--players is [\"me=mcts:50\",\"random\"] in me0.jsonl, [\"me=mcts:60\",\"random\"] in me1.jsonl"
        ),
        "{}",
        r.stderr
    );
}

/// The lines of a part that were edited, or that no match plays, are refused
/// with the file and line, before anything is added up (issue 42, item 2).
#[test]
fn merge_refuses_games_no_match_could_have_played() {
    let dir = scratch("tampered");
    for i in 0..2 {
        let shard = format!("{i}/2");
        let file = format!("p{i}.jsonl");
        ok(
            &dir,
            &[
                "match",
                "nim.game",
                "--piles",
                "1,3,5",
                "--players",
                "random,random",
                "--games",
                "10",
                "--seed",
                "1",
                "--shard",
                &shard,
                "--jsonl",
                &file,
            ],
        );
    }
    let lines: Vec<String> = std::fs::read_to_string(dir.join("p1.jsonl"))
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    // Line 3 is the part's second game (game 7).
    let edited = |name: &str, edit: &dyn Fn(&mut serde_json::Value)| {
        let mut copy = lines.clone();
        let mut doc: serde_json::Value = serde_json::from_str(&copy[2]).unwrap();
        edit(&mut doc);
        copy[2] = doc.to_string();
        std::fs::write(dir.join(name), copy.join("\n") + "\n").unwrap();
    };
    let refused = |file: &str, says: &str| {
        let r = gdl(&dir, &["merge", "p0.jsonl", file]);
        assert_eq!(r.code, 2, "{file}: {}", r.stdout);
        assert!(r.stderr.contains(says), "{file}: {}", r.stderr);
    };
    edited("big.jsonl", &|d| d["returns"][0] = serde_json::json!(1_000_000));
    refused(
        "big.jsonl",
        "big.jsonl: line 3: game 7: a return of 1000000 is outside what Nim gives, -1 to 1",
    );
    edited("seats.jsonl", &|d| d["seating"] = serde_json::json!([1, 0]));
    refused("seats.jsonl", "seats.jsonl: line 3: game 7: its seats are [1, 0]");
    edited("players.jsonl", &|d| {
        d["seating"] = serde_json::json!([1, 0, 2]);
        d["returns"] = serde_json::json!([1, -1, 0]);
        d["failures"] = serde_json::json!([null, null, null]);
    });
    refused("players.jsonl", "players.jsonl: line 3: game 7: it seats 3 agents");
    // A part claiming other games than its number plays.
    let mut head: serde_json::Value = serde_json::from_str(&lines[0]).unwrap();
    head["range"] = serde_json::json!([4, 10]);
    let mut copy = lines.clone();
    copy[0] = head.to_string();
    std::fs::write(dir.join("range.jsonl"), copy.join("\n") + "\n").unwrap();
    refused(
        "range.jsonl",
        "range.jsonl: line 1: part 1 of 2 of 10 games plays games 6 to 10, not 5 to 10",
    );
    // A part of the first format, which recorded too little to be checked.
    head["range"] = serde_json::json!([5, 10]);
    head["version"] = serde_json::json!(1);
    copy[0] = head.to_string();
    std::fs::write(dir.join("old.jsonl"), copy.join("\n") + "\n").unwrap();
    refused("old.jsonl", "old.jsonl: line 1: a part of format version 1");
    // The untouched parts still merge.
    ok(&dir, &["merge", "p0.jsonl", "p1.jsonl"]);
}

/// `gdl merge` writes over none of its parts, through any name, and reads no
/// line past a bound (issue 42, item 6).
#[test]
fn merge_writes_over_no_part_and_reads_no_endless_line() {
    let dir = scratch("merge_files");
    for i in 0..2 {
        let shard = format!("{i}/2");
        let file = format!("p{i}.jsonl");
        ok(
            &dir,
            &[
                "match",
                "nim.game",
                "--players",
                "random,random",
                "--games",
                "4",
                "--shard",
                &shard,
                "--jsonl",
                &file,
            ],
        );
    }
    let before = std::fs::read(dir.join("p1.jsonl")).unwrap();
    std::os::unix::fs::symlink("p1.jsonl", dir.join("link.csv")).unwrap();
    for out in ["p1.jsonl", "link.csv"] {
        let r = gdl(&dir, &["merge", "p0.jsonl", "p1.jsonl", "--csv", out]);
        assert_eq!(r.code, 2, "{out}: {}", r.stdout);
        assert!(r.stderr.contains("a part being merged"), "{out}: {}", r.stderr);
        assert_eq!(std::fs::read(dir.join("p1.jsonl")).unwrap(), before, "{out}");
    }
    let r = gdl(&dir, &["merge", "/dev/zero"]);
    assert_eq!(r.code, 2, "{}", r.stdout);
    assert!(r.stderr.contains("line 1 is longer than 16 MiB"), "{}", r.stderr);
}
