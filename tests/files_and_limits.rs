//! What a hostile user found (issue 23, items 2-4): outputs that named an
//! input, strays of a killed gdl, limits that were not kept, inputs that
//! never end, and ranges too large to spell out.

use crate::common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::{Run, gdl_in, scratch, snap};

/// An `exec:` agent's script; never started, since every case is refused first.
const SCRIPT: &str = "#!/bin/sh\nexec cat >/dev/null\n";

fn folder_with_inputs(name: &str) -> std::path::PathBuf {
    let dir = scratch("files", name, &["nim.game"]);
    let r = gdl_in(&dir, &["train", "nim.game", "--episodes", "5", "--out", "q.json"], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    std::fs::write(dir.join("agent.sh"), SCRIPT).unwrap();
    std::os::unix::fs::symlink("nim.game", dir.join("rules")).unwrap();
    dir
}

fn contents(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}

/// Every output is checked against every input (the game file, directly or
/// through a link; a `q:` table; an `exec:` agent's program and script) and
/// against the other outputs, before any agent starts: each case is refused
/// with exit 2 and no file changes.
#[test]
fn no_output_is_an_input_or_another_output() {
    let dir = folder_with_inputs("outputs_are_not_inputs");
    let before = contents(&dir);
    let m = |players: &'static str| vec!["match", "nim.game", "--players", players, "--games", "2"];
    let cases: Vec<Vec<&str>> = vec![
        [m("random,random"), vec!["--agent-stderr", "nim.game"]].concat(),
        [m("random,random"), vec!["--agent-stderr", "rules"]].concat(),
        [m("q:q.json,random"), vec!["--agent-stderr", "q.json"]].concat(),
        [m("exec:sh agent.sh,random"), vec!["--agent-stderr", "agent.sh"]].concat(),
        [m("exec:./agent.sh,random"), vec!["--agent-stderr", "./agent.sh"]].concat(),
        [m("random,random"), vec!["--csv", "x.csv", "--agent-stderr", "x.csv"]].concat(),
        [m("random,random"), vec!["--csv", "x.csv", "--agent-stderr", "./x.csv"]].concat(),
        [m("exec:sh agent.sh,random"), vec!["--csv", "agent.sh"]].concat(),
        [m("q:q.json,random,random"), vec!["--agent-stderr", "q.json"]].concat(),
        vec![
            "play",
            "nim.game",
            "--players",
            "q:q.json,random",
            "--json-log",
            "q.json",
        ],
        vec![
            "play",
            "nim.game",
            "--players",
            "exec:./agent.sh,random",
            "--json-log",
            "agent.sh",
        ],
        vec![
            "play",
            "nim.game",
            "--players",
            "random,random",
            "--json-log",
            "log.json",
            "--agent-stderr",
            "log.json",
        ],
        vec![
            "trace",
            "nim.game",
            "--players",
            "exec:sh agent.sh,random",
            "--agent-stderr",
            "agent.sh",
        ],
        vec![
            "trace",
            "rules",
            "--players",
            "random,random",
            "--agent-stderr",
            "nim.game",
        ],
    ];
    let mut told = String::new();
    for args in &cases {
        let r = gdl_in(&dir, args, None);
        assert_eq!(r.code, 2, "{args:?}: {}{}", r.stdout, r.stderr);
        told.push_str(&format!("$ gdl {}\n{}\n", args.join(" "), r.stderr));
        assert_eq!(contents(&dir), before, "{args:?} changed a file");
    }
    snap!("outputs_err_inputs_and_outputs", told);

    // The same outputs under names of their own are fine.
    let r = gdl_in(
        &dir,
        &[
            "match",
            "nim.game",
            "--players",
            "q:q.json,random",
            "--games",
            "2",
            "--csv",
            "x.csv",
            "--agent-stderr",
            "err.txt",
        ],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(dir.join("x.csv").is_file());
}

/// A `kill -9` leaves a `.NAME.PID.tmp`: the next command that writes into
/// that folder removes it, whatever file it was for, and keeps the file of
/// a process that still runs and anything not of gdl's naming.
#[test]
fn strays_of_a_killed_gdl_are_removed_by_the_next_write_in_their_folder() {
    let dir = scratch("files", "strays", &["nim.game"]);
    // What a killed gdl left: its pid no longer runs.
    let dead = std::process::Command::new("true").spawn().unwrap();
    let pid = dead.id();
    let mut dead = dead;
    dead.wait().unwrap();
    let stray = format!(".games.csv.{pid}.tmp");
    let alive = format!(".games.csv.{}.tmp", std::process::id());
    for name in [
        &stray,
        &alive,
        &".notes.txt.tmp".to_string(),
        &"games.csv.1.tmp".to_string(),
    ] {
        std::fs::write(dir.join(name), "partial").unwrap();
    }
    let r = gdl_in(&dir, &["train", "nim.game", "--episodes", "5", "--out", "q.json"], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!dir.join(&stray).exists(), "the stray of another file is removed");
    for kept in [&alive, ".notes.txt.tmp", "games.csv.1.tmp", "q.json"] {
        assert!(dir.join(kept).exists(), "{kept}");
    }
}

/// A match killed with SIGKILL leaves its CSV's temporary file, holding the
/// games played; a later run removes it (what the README says).
#[test]
fn a_match_killed_with_sigkill_leaves_a_stray_the_next_run_removes() {
    let dir = scratch("files", "sigkill", &["nim.game"]);
    let args = [
        "match",
        "nim.game",
        "--players",
        "random,random",
        "--games",
        "1000000000",
        "--csv",
        "g.csv",
    ];
    let mut child = common::spawn_gdl(&dir, &args);
    let stray = dir.join(format!(".g.csv.{}.tmp", child.id()));
    let deadline = Instant::now() + Duration::from_secs(60);
    while std::fs::metadata(&stray).map_or(0, |m| m.len()) < 200 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let text = std::fs::read_to_string(&stray).unwrap();
    assert!(text.starts_with("game,"), "{text}");
    assert!(!dir.join("g.csv").exists());
    let r = gdl_in(&dir, &["tree", "nim.game", "--depth", "1", "--out", "t.txt"], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!stray.exists());
}

/// A sweep over a range too large to spell out is refused by its count.
#[test]
fn a_sweep_over_a_huge_range_is_refused_by_its_count() {
    let dir = scratch("files", "sweep", &["nimcala.game"]);
    for (name, range) in [
        ("sweep_err_huge_range", "1..9223372036854775807"),
        ("sweep_err_widest_range", "-9223372036854775808..9223372036854775807"),
    ] {
        let r = gdl_in(
            &dir,
            &["solve", "nimcala.game", "--pits", range, "--tokens", "1..3"],
            None,
        );
        assert_eq!(r.code, 2, "{}", r.stderr);
        snap!(name, r.stderr);
    }
}

/// CFR with more iterations than it can run stops at the time limit.
#[test]
fn cfr_keeps_its_time_limit_whatever_the_iterations() {
    let started = Instant::now();
    let r = common::gdl(&[
        "solve",
        "games/kuhn-poker.game",
        "--iterations",
        "1000000000000",
        "--time-limit",
        "1",
        "--json",
    ]);
    let took = started.elapsed();
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["stopped_early"], true, "{v}");
    assert!(v["iterations"].as_u64().unwrap() > 1000, "{v}");
    // One second of work, and the time to start and report.
    assert!(took < Duration::from_secs(10), "{took:?}");
}

fn timed(dir: &Path, args: &[&str]) -> (Run, Duration) {
    let started = Instant::now();
    let r = gdl_in(dir, args, None);
    (r, started.elapsed())
}

/// A named pipe that nothing writes to is refused after a wait, never
/// waited on for ever; one a program writes is read as before. A Q-table
/// must be a file: a device or a pipe is refused before a byte is read.
#[test]
fn inputs_that_never_end_are_refused() {
    let dir = scratch("files", "pipes", &["nim.game"]);
    let fifo = dir.join("waiting.game");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let (r, took) = timed(&dir, &["check", "waiting.game"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(took < Duration::from_secs(30), "{took:?}");
    snap!("err_fifo_without_writer", r.stderr);

    // A writer that comes a moment later is waited for.
    let writer = {
        let (fifo, game) = (fifo.clone(), dir.join("nim.game"));
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            std::fs::write(&fifo, std::fs::read(game).unwrap()).unwrap();
        })
    };
    let r = gdl_in(&dir, &["check", "waiting.game"], None);
    writer.join().unwrap();
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.starts_with("game        Nim"), "{}", r.stdout);

    // An output that is a named pipe nothing reads: refused, not blocked on.
    let (r, took) = timed(&dir, &["tree", "nim.game", "--depth", "1", "--out", "waiting.game"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(took < Duration::from_secs(10), "{took:?}");
    assert!(
        r.stderr.contains("it is a named pipe that nothing reads"),
        "{}",
        r.stderr
    );

    for (table, name) in [("/dev/zero", "err_qtable_device"), ("waiting.game", "err_qtable_pipe")] {
        let players = format!("q:{table},random");
        let (r, took) = timed(&dir, &["match", "nim.game", "--players", &players, "--games", "1"]);
        assert_eq!(r.code, 2, "{}", r.stderr);
        assert!(took < Duration::from_secs(10), "{took:?}");
        snap!(name, r.stderr);
    }
}

/// `--max-states` with `--depth`: the transposition table holds no more
/// positions than asked, and the search still answers.
#[test]
fn the_depth_limited_search_keeps_max_states() {
    use gdl::solve::agents::depth_limited::{DepthOptions, search};
    let game = common::load_game("games/nimcala.game", &[("pits", "6"), ("tokens", "6")]);
    let root = gdl::game::Game::initial_state(&game).unwrap();
    let free = DepthOptions {
        max_depth: Some(8),
        ..DepthOptions::default()
    };
    let unbounded = search(&game, &root, &free).unwrap();
    assert!(unbounded.stored > 500, "{}", unbounded.stored);
    let capped = search(
        &game,
        &root,
        &DepthOptions {
            max_states: Some(100),
            ..free
        },
    )
    .unwrap();
    assert!(capped.stored <= 100, "{}", capped.stored);
    // As deep, and what it proves is the exact solver's: a smaller table
    // costs time (an estimate may differ, as the positions a table keeps
    // from deeper searches differ).
    assert_eq!(capped.depth, unbounded.depth);
    let exact = gdl::solve::explain(&game, &root, &gdl::solve::SolveOptions::default()).unwrap();
    assert_eq!(capped.moves.len(), exact.len());
    for (m, e) in capped.moves.iter().zip(&exact) {
        if m.proven {
            assert_eq!(m.value, e.value);
        }
    }
}

/// A position nested a million lists deep (the Python module reads any
/// string) is refused on a small stack, not followed until it overflows.
#[test]
fn a_position_of_a_million_brackets_is_refused_on_any_stack() {
    let game = common::load_game("games/nim.game", &[]);
    let text = "[".repeat(1_000_000);
    let told = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(256 << 10)
            .spawn_scoped(scope, || {
                game.parse_position(&text).map(|_| ()).map_err(|e| e.to_string())
            })
            .unwrap()
            .join()
            .unwrap()
    });
    assert_eq!(told.unwrap_err(), "lists nest more than 200 deep here");
    // As deep as allowed is read, and refused for its type only.
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    let e = game.parse_position(&deep).unwrap_err().to_string();
    assert!(!e.contains("nest"), "{e}");
}
