//! Ctrl-C and SIGTERM in every command (issue 42, item 7): gdl stops within
//! a few seconds, exits 130 (143), says on standard error where it stopped,
//! kills the process groups of the external agents it started, and leaves
//! the files it had written before as they were. `gdl serve`, whose normal
//! end is a signal, says it stopped and exits 0.
//!
//! Every run ignores SIGINT when it starts, as a job a shell puts in the
//! background does: gdl catches it all the same. The deadlines are generous
//! (the machine may be loaded); a stop is waited for, never timed tightly.

use crate::common;

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// How long gdl may take to stop after a signal, on a loaded machine.
const STOPS_WITHIN: Duration = Duration::from_secs(5);

/// An external agent that ignores SIGTERM, starts two children that sleep,
/// writes its own id and theirs to `pids`, and never answers.
const STUBBORN_AGENT: &str = r#"#!/bin/sh
trap '' TERM
sleep 300 &
a=$!
sleep 300 &
b=$!
echo "$$ $a $b" > "$1.tmp" && mv "$1.tmp" "$1"
while read line; do sleep 300; done
"#;

/// Starts gdl in `dir` with SIGINT ignored, as a shell's background job.
fn spawn(dir: &Path, args: &[&str]) -> Child {
    let mut command = Command::new(env!("CARGO_BIN_EXE_gdl"));
    command
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: signal(2) between fork and exec, which is async-signal-safe.
    unsafe {
        command.pre_exec(|| {
            libc::signal(libc::SIGINT, libc::SIG_IGN);
            Ok(())
        });
    }
    command.spawn().expect("gdl runs")
}

fn send(child: &Child, signal: libc::c_int) {
    // SAFETY: kill(2) of the child this test started and has not waited for.
    let sent = unsafe { libc::kill(child.id() as libc::pid_t, signal) };
    assert_eq!(sent, 0, "the signal is sent");
}

/// Waits for `child` to end, at most [`STOPS_WITHIN`]; kills it past that
/// and fails.
fn ended(mut child: Child, what: &str) -> Output {
    let deadline = Instant::now() + STOPS_WITHIN;
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "{what}: gdl did not stop within {STOPS_WITHIN:?}\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// Waits until `path` exists (the agent started), at most a generous while.
fn wait_for(path: &Path) -> String {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Ok(text) = std::fs::read_to_string(path)
            && !text.trim().is_empty()
        {
            return text;
        }
        assert!(Instant::now() < deadline, "{} never appeared", path.display());
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Whether any process of group `group` is left (a zombie not yet reaped counts).
fn group_alive(group: libc::pid_t) -> bool {
    // SAFETY: kill(2) with signal 0 sends nothing; it asks whether the group has members.
    unsafe { libc::kill(-group, 0) == 0 }
}

fn process_alive(pid: libc::pid_t) -> bool {
    // SAFETY: as above, for one process.
    unsafe { libc::kill(pid, 0) == 0 }
}

/// Waits for `alive` to turn false, at most [`STOPS_WITHIN`].
fn gone(alive: impl Fn() -> bool) -> bool {
    let deadline = Instant::now() + STOPS_WITHIN;
    while alive() {
        if Instant::now() > deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    true
}

/// The agent's ids: its own (its group's) and its two children's.
fn agent_pids(pids: &Path) -> Vec<libc::pid_t> {
    wait_for(pids).split_whitespace().map(|p| p.parse().unwrap()).collect()
}

/// A folder with nim.game and the stubborn agent.
fn folder(name: &str) -> PathBuf {
    let dir = common::scratch("signals", name, &["nim.game", "nimcala.game"]);
    let agent = dir.join("stubborn.sh");
    std::fs::write(&agent, STUBBORN_AGENT).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&agent, std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

/// The names in `dir`, sorted: no temporary file is left behind.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with("pids"))
        .collect();
    v.sort();
    v
}

const SIGNALS: [(libc::c_int, i32, &str); 2] = [(libc::SIGINT, 130, "Ctrl-C"), (libc::SIGTERM, 143, "SIGTERM")];

/// `trace` and `play` with an external agent that is thinking (it never
/// answers, and ignores SIGTERM): gdl stops at once, not after
/// --move-time-ms, and the agent's whole process group is gone.
#[test]
fn trace_and_play_stop_and_end_their_agents() {
    let dir = folder("trace_play");
    std::fs::write(dir.join("log.json"), "earlier\n").unwrap();
    for (command, log) in [("trace", false), ("play", true)] {
        for (signal, code, told) in SIGNALS {
            let pids = format!("pids-{command}-{code}");
            let players = format!("exec:./stubborn.sh {pids},random");
            let mut args = vec![command, "nim.game", "--players", &players, "--move-time-ms", "600000"];
            if log {
                args.extend(["--json-log", "log.json"]);
            }
            let child = spawn(&dir, &args);
            let ids = agent_pids(&dir.join(&pids));
            send(&child, signal);
            let out = ended(child, command);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(code), "{command}: {stderr}");
            assert!(
                stderr.contains(&format!("gdl was stopped by {told} while playing")),
                "{command}: {stderr}"
            );
            assert!(
                gone(|| group_alive(ids[0])),
                "{command}: the agent's group {ids:?} is left"
            );
        }
    }
    assert_eq!(std::fs::read_to_string(dir.join("log.json")).unwrap(), "earlier\n");
    assert_eq!(names(&dir), ["log.json", "nim.game", "nimcala.game", "stubborn.sh"]);
}

/// `match` while an external agent thinks: the game under way is dropped,
/// the report covers the games played (none), and the agents are gone.
#[test]
fn a_match_stops_while_an_agent_thinks() {
    let dir = folder("match_exec");
    for (signal, code, told) in SIGNALS {
        let pids = format!("pids-{code}");
        let players = format!("exec:./stubborn.sh {pids},random");
        let args = [
            "match",
            "nim.game",
            "--players",
            &players,
            "--games",
            "4",
            "--threads",
            "1",
            "--move-time-ms",
            "600000",
        ];
        let child = spawn(&dir, &args);
        let ids = agent_pids(&dir.join(&pids));
        send(&child, signal);
        let out = ended(child, "match");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{stderr}");
        assert!(
            stderr.contains(&format!("the match was interrupted by {told} after 0 of 4 games")),
            "{stderr}"
        );
        assert!(gone(|| group_alive(ids[0])), "the agent's group {ids:?} is left");
    }
}

/// `match` with `optimal` seated in the middle of a long solve stops at
/// SIGTERM: the search is stopped, not waited for.
#[test]
fn a_match_stops_while_optimal_solves() {
    let dir = folder("match_optimal");
    let args = [
        "match",
        "nimcala.game",
        "--pits",
        "16",
        "--tokens",
        "40",
        "--players",
        "optimal,random",
        "--games",
        "2",
        "--threads",
        "1",
    ];
    let child = spawn(&dir, &args);
    std::thread::sleep(Duration::from_millis(1500));
    send(&child, libc::SIGTERM);
    let out = ended(child, "match");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(143), "{stderr}");
    assert!(
        stderr.contains("the match was interrupted by SIGTERM after 0 of 2 games"),
        "{stderr}"
    );
}

/// `match` with `mcts`, `search` or `alphabeta:D` thinking for a long
/// while: their searches stop in the middle of a move, and the game is
/// dropped.
#[test]
fn a_match_stops_while_mcts_search_and_alphabeta_think() {
    let dir = common::scratch("signals", "match_mcts", &["connect4.game"]);
    for players in ["mcts:100000000,random", "search:1000000,random", "alphabeta:40,random"] {
        let args = [
            "match",
            "connect4.game",
            "--players",
            players,
            "--games",
            "2",
            "--threads",
            "1",
        ];
        let child = spawn(&dir, &args);
        std::thread::sleep(Duration::from_millis(1500));
        send(&child, libc::SIGINT);
        let out = ended(child, players);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(130), "{players}: {stderr}");
        assert!(
            stderr.contains("the match was interrupted by Ctrl-C after 0 of 2 games"),
            "{players}: {stderr}"
        );
    }
}

/// A sweep of long solves stops at Ctrl-C (it ran on through two of them)
/// and at SIGTERM, and its earlier CSV is left as it was.
#[test]
fn a_sweep_stops_and_keeps_its_earlier_csv() {
    let dir = folder("sweep");
    std::fs::write(dir.join("sweep.csv"), "earlier\n").unwrap();
    for (signal, code, told) in SIGNALS {
        let args = [
            "solve",
            "nimcala.game",
            "--pits",
            "14..16",
            "--tokens",
            "40",
            "--csv",
            "sweep.csv",
        ];
        let child = spawn(&dir, &args);
        std::thread::sleep(Duration::from_millis(1000));
        send(&child, signal);
        let out = ended(child, "solve");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{stderr}");
        assert!(
            stderr.contains(&format!("gdl was stopped by {told} while ")),
            "{stderr}"
        );
        assert!(out.stdout.is_empty());
    }
    assert_eq!(std::fs::read_to_string(dir.join("sweep.csv")).unwrap(), "earlier\n");
    assert_eq!(names(&dir), ["nim.game", "nimcala.game", "stubborn.sh", "sweep.csv"]);
}

/// A sweep whose reader has gone (`| head -1`) stops at once, in the middle
/// of a long solve, silently and successfully, as a closed pipe ends gdl.
#[test]
fn a_sweep_stops_when_its_reader_goes() {
    let dir = folder("sweep_pipe");
    let gdl = env!("CARGO_BIN_EXE_gdl");
    let started = Instant::now();
    let out = Command::new("bash")
        .arg("-c")
        .arg(format!(
            "set -o pipefail; '{gdl}' solve nimcala.game --pits 14..16 --tokens 40 --csv | head -1"
        ))
        .current_dir(&dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(stdout, "pits,winner,value,best_first_moves,states,seconds\n");
    assert!(out.stderr.is_empty(), "{out:?}");
    // The three solves take far longer than this (minutes in a debug build).
    assert!(started.elapsed() < Duration::from_secs(20), "{:?}", started.elapsed());
}

/// A `kill -9` of gdl: nothing of gdl runs, but the agent it started dies
/// with it (its parent-death signal is SIGKILL, which it cannot ignore).
/// What the agent started lives on: the test ends that group itself.
#[cfg(target_os = "linux")]
#[test]
fn an_agent_dies_with_a_killed_gdl() {
    let dir = folder("kill9");
    let players = "exec:./stubborn.sh pids,random";
    let child = spawn(
        &dir,
        &["trace", "nim.game", "--players", players, "--move-time-ms", "600000"],
    );
    let ids = agent_pids(&dir.join("pids"));
    send(&child, libc::SIGKILL);
    let agent_gone = gone(|| process_alive(ids[0]));
    // SAFETY: kill(2) of the group the agent led, which only its children
    // are left in; they hold gdl's standard error open, which the wait reads.
    unsafe {
        libc::kill(-ids[0], libc::SIGKILL);
    }
    let out = ended(child, "trace");
    assert_eq!(out.status.code(), None);
    assert!(agent_gone, "the agent {} outlived gdl", ids[0]);
}

/// A server's normal end is a signal: `gdl serve` stopped by Ctrl-C or
/// SIGTERM says so plainly, not as an error, and exits 0.
#[test]
fn serve_stops_at_a_signal_as_its_normal_end() {
    use std::io::BufRead;
    let dir = folder("serve");
    for (signal, _, told) in SIGNALS {
        let mut child = spawn(&dir, &["serve", "--port", "0"]);
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        assert!(line.starts_with("gdl serve: http://127.0.0.1:"), "{line}");
        send(&child, signal);
        let out = ended(child, "serve");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(stderr, format!("gdl serve stopped ({told})\n"));
        assert_eq!(out.status.code(), Some(0), "{stderr}");
    }
}
