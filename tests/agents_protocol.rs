//! Version 2 of the `exec:` protocol (docs/AGENTS.md): an agent that keeps
//! its own board from the `plies` alone agrees with gdl at every message;
//! a randomised agent seeded by each game's `seed` plays the same games on
//! any number of threads; a version-1 agent plays unchanged; labels name
//! agents in the reports; start-up is timed apart from the decisions; and a
//! program that leaves a child behind is ended with it, without waiting out
//! its time.
//!
//! The Python agents need `python3`: without it these tests print why and pass.

use crate::common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::{Run, crate_dir, gdl_in, py, require_python, rows};

fn scratch(name: &str) -> PathBuf {
    common::scratch("agents_protocol", name, &["xnimmt.game", "nim.game"])
}

fn gdl(dir: &Path, args: &[&str]) -> Run {
    gdl_in(dir, args, None)
}

/// The board agent's counts, summed over its processes: messages checked,
/// plies applied, and its own moves played for it (forced).
fn board_counts(stats: &Path) -> [u64; 3] {
    let mut sum = [0; 3];
    for line in std::fs::read_to_string(stats).unwrap().lines() {
        for (s, n) in sum.iter_mut().zip(line.split(' ')) {
            *s += n.parse::<u64>().unwrap();
        }
    }
    sum
}

/// A match of the board agent against `opponent` in `game` (with `params`):
/// no failure at all, every game in the CSV, and the agent's counts.
fn board_match(name: &str, game: &str, params: &[&str], opponent: &str, games: usize) -> [u64; 3] {
    let dir = scratch(name);
    let stats = dir.join("stats.txt");
    let agent = py("tests/agents/board_agent.py", stats.to_str().unwrap());
    let players = format!("{agent},{opponent}");
    let game_file = crate_dir().join("games").join(game);
    let games_text = games.to_string();
    let mut args = vec![
        "match",
        game_file.to_str().unwrap(),
        "--players",
        &players,
        "--games",
        &games_text,
        "--threads",
        "2",
        "--csv",
        "games.csv",
        "--on-agent-failure",
        "abort",
    ];
    args.extend_from_slice(params);
    let run = gdl(&dir, &args);
    // `abort`: a disagreement (the agent exits 1) stops the match with an error.
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    assert!(!run.stdout.contains("failures"), "{}", run.stdout);
    assert_eq!(rows(&dir.join("games.csv")).len(), games + 1);
    let counts = board_counts(&stats);
    // Every game: a start, at least one observe or end... and every ply.
    assert!(counts[0] >= 2 * games as u64, "{counts:?}");
    assert!(counts[1] >= 5 * games as u64 / 2, "{counts:?}");
    counts
}

#[test]
fn an_agent_keeps_tic_tac_toe_from_the_plies_alone() {
    require_python();
    let mut forced = 0;
    for (name, opponent) in [("ttt_random", "random"), ("ttt_optimal", "optimal")] {
        forced += board_match(name, "tictactoe.game", &[], opponent, 40)[2];
    }
    let agent = py(
        "tests/agents/board_agent.py",
        scratch("ttt_self_stats").join("stats.txt").to_str().unwrap(),
    );
    forced += board_match("ttt_self", "tictactoe.game", &[], &agent, 40)[2];
    // X's ninth mark is forced: the agent learnt of it from the plies.
    assert!(forced > 0, "no forced move in 120 games");
}

#[test]
fn an_agent_keeps_connect_four_from_the_plies_alone() {
    require_python();
    // A small board fills up: its last moves are forced.
    let small = ["--rows", "3", "--cols", "4", "--connect", "3"];
    let mut forced = 0;
    for (name, opponent) in [("c4_random", "random"), ("c4_optimal", "optimal")] {
        forced += board_match(name, "connect4.game", &small, opponent, 30)[2];
    }
    let agent = py(
        "tests/agents/board_agent.py",
        scratch("c4_self_stats").join("stats.txt").to_str().unwrap(),
    );
    forced += board_match("c4_self", "connect4.game", &small, &agent, 30)[2];
    board_match("c4_full", "connect4.game", &[], "random", 10);
    assert!(forced > 0, "no forced move in 90 games");
}

/// The CSV of an X Nimmt! match of the seeded random example against
/// `random`, on `threads` threads.
fn seeded_match(threads: &str) -> Vec<Vec<String>> {
    let dir = scratch(&format!("seeded_{threads}"));
    let players = format!("{},random", py("examples/agents/random_xnimmt.py", ""));
    xnimmt_match(
        &dir,
        &players,
        "24",
        &["--seed", "5", "--threads", threads, "--csv", "games.csv"],
    );
    rows(&dir.join("games.csv"))
}

#[test]
fn a_randomised_agent_seeded_by_the_game_plays_alike_on_any_threads() {
    require_python();
    let one = seeded_match("1");
    let two = seeded_match("2");
    assert_eq!(one.len(), 25);
    assert_eq!(one, two);
    let three = seeded_match("3");
    assert_eq!(one, three);
    // The agent does draw: its points differ from game to game.
    let points: std::collections::BTreeSet<&String> = one[1..].iter().map(|r| &r[2]).collect();
    assert!(points.len() > 3, "{one:?}");
}

#[test]
fn a_version_1_agent_plays_unchanged() {
    require_python();
    let dir = scratch("v1");
    let players = format!("{},search:10", py("tests/agents/v1_random.py", ""));
    let log = dir.join("agent.log");
    let run = xnimmt_match(&dir, &players, "10", &["--csv", "games.csv"]);
    assert!(!run.stdout.contains("failures"), "{}", run.stdout);
    let said = std::fs::read_to_string(&log).unwrap();
    assert_eq!(said.lines().filter(|l| l.starts_with("random agent: ")).count(), 10);
    // The shell example reads `moves` out of the line by text: it still finds them.
    let players = format!(
        "exec:sh {},random",
        crate_dir().join("examples/agents/first_move.sh").display()
    );
    let run = gdl(&dir, &["trace", "nim.game", "--players", &players, "--seed", "3"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!run.stdout.contains("failed"), "{}", run.stdout);
}

/// An X Nimmt! match of `players` with `extra` arguments, the agents'
/// standard error logged to agent.log in `dir`; it must succeed.
fn xnimmt_match(dir: &Path, players: &str, games: &str, extra: &[&str]) -> Run {
    let log = dir.join("agent.log");
    let mut args = vec!["match", "xnimmt.game", "--players", players, "--games", games];
    args.extend_from_slice(extra);
    args.extend(["--agent-stderr", log.to_str().unwrap()]);
    let run = gdl(dir, &args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    run
}

/// Every message a logging agent received in one traced game of `game`.
fn logged(name: &str, game: &str, players: &str, seed: &str) -> Vec<serde_json::Value> {
    logged_with(name, game, players, seed, &[])
}

/// As `logged`, with more arguments to `trace`.
fn logged_with(name: &str, game: &str, players: &str, seed: &str, extra: &[&str]) -> Vec<serde_json::Value> {
    let dir = scratch(name);
    let log = dir.join("messages.jsonl");
    let agent = py("tests/agents/log_agent.py", log.to_str().unwrap());
    let players = players.replace("AGENT", &agent);
    let mut args = vec!["trace", game, "--players", &players, "--seed", seed];
    args.extend_from_slice(extra);
    let run = gdl(&dir, &args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn start_tells_the_game_its_number_seed_and_first_view() {
    require_python();
    let messages = logged("start", "nim.game", "AGENT,random", "4");
    let start = &messages[0];
    assert_eq!(start["type"], "start");
    assert_eq!(start["protocol"], 2);
    assert_eq!(start["game_number"], 1);
    // Agent k of a trace draws from seed + k + 1.
    assert_eq!(start["seed"], 5);
    assert_eq!(
        start["view"], messages[1]["view"],
        "nothing was played before its first move"
    );
}

#[test]
fn a_game_that_starts_after_some_moves_starts_from_its_view() {
    require_python();
    // X at 5, O at 1, then the random X moves before the agent (O) is asked.
    let ttt = crate_dir().join("games/tictactoe.game");
    let messages = logged_with(
        "after",
        &ttt.to_string_lossy(),
        "random,AGENT",
        "3",
        &["--after", "5 1"],
    );
    assert_eq!(messages[0]["view"]["marks"], serde_json::json!([[5], [1]]));
    let first = &messages[1];
    assert_eq!(first["type"], "observe");
    let plies = first["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 1, "{first}");
    assert_eq!(plies[0]["player"], "X");
    let cell: i64 = plies[0]["move"].as_str().unwrap().parse().unwrap();
    let mut xs = vec![5, cell];
    xs.sort();
    assert_eq!(first["view"]["marks"], serde_json::json!([xs, [1]]));
}

#[test]
fn hidden_cards_and_simultaneous_moves_are_told_as_the_player_may_see_them() {
    require_python();
    // Kuhn poker: each player's card is dealt by chance; the agent (First)
    // sees its own card's deal, not the other's.
    let messages = logged(
        "kuhn",
        &crate_dir().join("games/kuhn-poker.game").to_string_lossy(),
        "AGENT,random",
        "2",
    );
    let plies: Vec<&serde_json::Value> = messages
        .iter()
        .filter_map(|m| m.get("plies"))
        .flat_map(|p| p.as_array().unwrap())
        .collect();
    let deals: Vec<&serde_json::Value> = plies.iter().filter(|p| p["player"] == "chance").copied().collect();
    assert_eq!(deals.len(), 2, "{plies:?}");
    assert_eq!(deals.iter().filter(|d| d["move"].is_null()).count(), 1, "{deals:?}");
    // The bets are seen by both.
    assert!(
        plies
            .iter()
            .filter(|p| p["player"] != "chance")
            .all(|p| p["move"].is_string())
    );
    // X Nimmt!: a round is every player's card together, revealed after it.
    let messages = logged("xnimmt", "xnimmt.game", "AGENT,random", "2");
    let rounds: Vec<&serde_json::Value> = messages
        .iter()
        .filter_map(|m| m.get("plies"))
        .flat_map(|p| p.as_array().unwrap())
        .filter(|p| p.is_array())
        .collect();
    assert_eq!(rounds.len(), 5, "five cards each: {rounds:?}");
    for round in rounds {
        let moves = round.as_array().unwrap();
        assert_eq!(moves.len(), 2);
        assert_eq!(moves[0]["player"], "P1");
        assert_eq!(moves[1]["player"], "P2");
        assert!(moves.iter().all(|m| m["move"].is_string()), "{round}");
    }
}

#[test]
fn a_label_names_an_agent_in_every_report() {
    require_python();
    let dir = scratch("label");
    let players = format!("mine={},rnd=random", py("tests/agents/v1_random.py", ""));
    let run = xnimmt_match(&dir, &players, "4", &["--csv", "games.csv"]);
    assert!(!run.stdout.contains("exec:"), "{}", run.stdout);
    assert!(run.stdout.contains("\nmine "), "{}", run.stdout);
    let header = &rows(&dir.join("games.csv"))[0];
    assert_eq!(header[1..4], ["mine seat", "mine points", "mine failure"]);
    let json = xnimmt_match(&dir, &players, "2", &["--json"]);
    let doc: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let names: Vec<&str> = doc["agents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["agent"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["mine", "rnd"]);
}

#[test]
fn start_up_is_not_a_decision() {
    require_python();
    let dir = scratch("startup");
    let players = format!("{},random", py("tests/agents/v1_random.py", ""));
    // Two threads: two programs, each started once.
    let run = xnimmt_match(&dir, &players, "6", &["--threads", "2", "--json"]);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let agent = &doc["agents"][0];
    let start_ups = agent["start_ups"].as_u64().unwrap();
    assert!((1..=2).contains(&start_ups), "{agent}");
    // Four choices a game in X Nimmt! for two (the fifth card is forced),
    // less the first answer of each program.
    assert_eq!(agent["decisions"].as_u64().unwrap(), 6 * 4 - start_ups, "{agent}");
    // A Python program starts slower than it answers.
    assert!(
        agent["max_start_up_seconds"].as_f64().unwrap() > agent["mean_decision_seconds"].as_f64().unwrap(),
        "{agent}"
    );
}

#[test]
fn moves_drawn_for_a_failed_agent_are_not_decisions() {
    require_python();
    let dir = scratch("failed_times");
    // Crashes at its second decision: one answer (its start-up), then random moves.
    let players = format!("{},random", py("tests/agents/faulty_agent.py", "crash 2"));
    let run = xnimmt_match(&dir, &players, "1", &["--json"]);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let agent = &doc["agents"][0];
    assert_eq!(agent["start_ups"], 1, "{agent}");
    assert_eq!(agent["decisions"], 0, "{agent}");
}

/// Whether process `pid` is running (a zombie waiting for its parent is not).
fn running(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the command's name in parentheses.
        Ok(stat) => stat
            .rsplit(')')
            .next()
            .is_some_and(|rest| !rest.trim_start().starts_with('Z')),
        Err(_) => false,
    }
}

/// Whether process `pid` still runs 2 s from now: a killed process ends
/// once the system gets to it, which on a busy machine is not at once.
fn still_running(pid: &str) -> bool {
    let deadline = Instant::now() + Duration::from_secs(2);
    while running(pid) {
        if Instant::now() > deadline {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

/// A match of the orphan agent in `mode`: how long it took, the run, and
/// the pid of the child it left.
fn orphan_match(mode: &str) -> (Duration, Run, String) {
    let dir = scratch(&format!("orphan_{mode}"));
    let pid_file = dir.join("child.pid");
    let players = format!(
        "exec:sh {} {} {mode},random",
        crate_dir().join("tests/agents/orphan.sh").display(),
        pid_file.display()
    );
    let started = Instant::now();
    let run = gdl(
        &dir,
        &[
            "match",
            "nim.game",
            "--players",
            &players,
            "--games",
            "1",
            "--threads",
            "1",
            "--move-time-ms",
            "3000",
        ],
    );
    let took = started.elapsed();
    let pid = std::fs::read_to_string(&pid_file).unwrap().trim().to_string();
    (took, run, pid)
}

#[test]
fn a_program_that_exits_is_seen_at_once_though_its_child_holds_the_pipe() {
    let (took, run, child) = orphan_match("exit");
    let alive = still_running(&child);
    if alive {
        // Leave nothing behind, whatever the test finds.
        let _ = std::process::Command::new("kill").arg(&child).status();
    }
    assert_eq!(run.code, 0, "{}", run.stderr);
    // Seen as the crash it is, not waited out as a timeout (3 s, and 10 s
    // more for a program's first answer).
    assert!(
        run.stdout.contains("failed (crash): it exited with status 3"),
        "{}",
        run.stdout
    );
    assert!(took < Duration::from_secs(3), "took {took:?}");
    assert!(!alive, "the child {child} of the failed program is still running");
}

#[test]
fn what_a_program_leaves_behind_ends_with_it() {
    let (took, run, child) = orphan_match("play");
    let alive = still_running(&child);
    if alive {
        let _ = std::process::Command::new("kill").arg(&child).status();
    }
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!run.stdout.contains("failures"), "{}", run.stdout);
    assert!(took < Duration::from_secs(3), "took {took:?}");
    assert!(!alive, "the child {child} of the program is still running after gdl");
}
