//! `exec:COMMAND` agents (docs/AGENTS.md): the example agents play X Nimmt!
//! against `search`; an agent that crashes, answers an illegal or unreadable
//! move, or runs out of time in the middle of a match fails that game only,
//! and the report and the CSV say so; what an agent is shown never includes
//! another player's hand or the deck.
//!
//! The Python agents need `python3`: without it these tests print why and pass.

use crate::common;

use std::path::{Path, PathBuf};

use common::{Run, crate_dir, gdl_in, py, require_python, rows};

fn scratch(name: &str) -> PathBuf {
    common::scratch("agents_exec", name, &["xnimmt.game", "nim.game"])
}

fn gdl(dir: &Path, args: &[&str]) -> Run {
    gdl_in(dir, args, None)
}

/// Runs a 2-player X Nimmt! match of `games` games between `agent` and
/// `search:20` on one thread, with a CSV; returns the run and the CSV rows.
fn xnimmt_match(dir: &Path, agent: &str, games: &str, extra: &[&str]) -> (Run, Vec<Vec<String>>) {
    xnimmt_match_against(dir, agent, "search:20", games, extra)
}

/// As `xnimmt_match`, against `opponent`.
fn xnimmt_match_against(
    dir: &Path,
    agent: &str,
    opponent: &str,
    games: &str,
    extra: &[&str],
) -> (Run, Vec<Vec<String>>) {
    let csv = dir.join("games.csv");
    let players = format!("{agent},{opponent}");
    let mut args = vec![
        "match",
        "xnimmt.game",
        "--players",
        &players,
        "--games",
        games,
        "--threads",
        "1",
        "--csv",
        "games.csv",
    ];
    args.extend_from_slice(extra);
    let run = gdl(dir, &args);
    let rows = if csv.exists() { rows(&csv) } else { Vec::new() };
    (run, rows)
}

/// The agent's failure column and the winners column of each game.
fn failures_and_winners(rows: &[Vec<String>]) -> Vec<(String, String)> {
    let header = &rows[0];
    let failure = header
        .iter()
        .position(|h| h.ends_with(" failure"))
        .expect("a failure column");
    let winners = header.iter().position(|h| h == "winners").unwrap();
    rows[1..]
        .iter()
        .map(|r| (r[failure].clone(), r[winners].clone()))
        .collect()
}

fn python_match(opponent: &str, games: &str) {
    require_python();
    let dir = scratch(&format!("python_{opponent}_{games}"));
    let agent = py("examples/agents/random_xnimmt.py", "");
    let log = dir.join("agent.log");
    let (run, rows) = xnimmt_match_against(
        &dir,
        &agent,
        opponent,
        games,
        &["--agent-stderr", log.to_str().unwrap()],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let n: usize = games.parse().unwrap();
    assert!(run.stdout.contains(&format!("games    {games} (")), "{}", run.stdout);
    assert!(!run.stdout.contains("failures"), "{}", run.stdout);
    assert_eq!(rows.len(), n + 1);
    assert!(failures_and_winners(&rows).iter().all(|(f, _)| f.is_empty()));
    // The agent's standard error went to the file: one line per game it ended.
    let said = std::fs::read_to_string(&log).unwrap();
    assert_eq!(said.lines().filter(|l| l.starts_with("random agent: ")).count(), n);
}

/// The match of issue 17: 200 games of the Python agent against search
/// (20 worlds a move: a few seconds).
#[test]
fn a_python_agent_plays_200_games_against_search() {
    python_match("search:20", "200");
}

/// The same against the full `search` (200 worlds a move), about a minute
/// in a debug build: `cargo test --test main agents_exec:: -- --ignored`.
#[test]
#[ignore]
fn a_python_agent_plays_200_games_against_full_search() {
    python_match("search", "200");
}

#[test]
fn a_seed_000_agent_function_plays_through_the_adapter() {
    require_python();
    let dir = scratch("seed000");
    let (run, rows) = xnimmt_match(&dir, &py("examples/agents/seed000_adapter.py", ""), "6", &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(rows.len(), 7);
    assert!(failures_and_winners(&rows).iter().all(|(f, _)| f.is_empty()));
}

#[test]
fn a_shell_agent_plays_the_first_legal_move() {
    let dir = scratch("shell");
    let agent = format!(
        "exec:sh {}",
        crate_dir().join("examples/agents/first_move.sh").display()
    );
    let players = format!("{agent},random");
    let run = gdl(&dir, &["trace", "nim.game", "--players", &players, "--seed", "3"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!run.stdout.contains("failed"), "{}", run.stdout);
    // Nim's first move in gdl's order: one token from the first pile.
    let first = run.stdout.lines().find(|l| l.trim_start().starts_with("1.")).unwrap();
    assert!(first.contains("MAX plays (0, 1)"), "{first}");
}

/// A match in which the agent fails at its `at`-th decision of every
/// process (a new process starts after each failure): the match ends, the
/// report lists the failures, and each failed game is marked in the CSV.
fn failing(mode: &str, kind: &str, said: &str, extra: &[&str]) -> (Run, Vec<(String, String)>) {
    let dir = scratch(mode);
    let agent = py("tests/agents/faulty_agent.py", &format!("{mode} 7"));
    let log = dir.join("agent.log");
    let mut args = vec!["--agent-stderr", log.to_str().unwrap()];
    args.extend_from_slice(extra);
    let (run, rows) = xnimmt_match(&dir, &agent, "6", &args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("\nfailures\n"), "{}", run.stdout);
    assert!(
        run.stdout.contains(&format!("failed ({kind}): it {said}")),
        "{}",
        run.stdout
    );
    let games = failures_and_winners(&rows);
    assert_eq!(games.len(), 6, "every game is played");
    let failed = games.iter().filter(|(f, _)| !f.is_empty()).count();
    // Four decisions a game: the seventh of each process is in its second
    // game, so games 2, 4 and 6 fail, and the others are played in full.
    assert_eq!(failed, 3, "{games:?}");
    assert!(games.iter().all(|(f, _)| f.is_empty() || f == kind), "{games:?}");
    let count = format!(": failed in {failed} games ({failed} {kind})");
    assert!(run.stdout.contains(&count), "{count} in {}", run.stdout);
    (run, games)
}

#[test]
fn an_agent_that_crashes_forfeits_the_game() {
    require_python();
    let (run, games) = failing("crash", "crash", "exited with status 3 before answering", &[]);
    assert!(run.stdout.contains("it forfeits the game"), "{}", run.stdout);
    // A forfeit is a loss: search wins every game the agent crashed in.
    for (failure, winners) in &games {
        if !failure.is_empty() {
            assert_eq!(winners, "search:20", "{games:?}");
        }
    }
}

#[test]
fn an_agent_that_answers_an_illegal_move_fails_the_game() {
    require_python();
    failing(
        "illegal",
        "illegal",
        r#"answered "{\"move\": \"999\"}", which is not a legal move"#,
        &[],
    );
}

#[test]
fn an_agent_that_answers_garbage_fails_the_game() {
    require_python();
    failing(
        "garbage",
        "unreadable",
        r#"answered "{not json", which is not valid JSON"#,
        &[],
    );
}

#[test]
fn an_agent_that_runs_out_of_time_fails_the_game() {
    require_python();
    failing(
        "timeout",
        "timeout",
        "did not answer within 300 ms",
        &["--move-time-ms", "300"],
    );
}

#[test]
fn with_random_a_failed_game_counts_as_played() {
    require_python();
    let (run, _) = failing(
        "crash",
        "crash",
        "exited with status 3",
        &["--on-agent-failure", "random"],
    );
    assert!(
        run.stdout
            .contains("the game counts as played, with random moves for it"),
        "{}",
        run.stdout
    );
}

#[test]
fn with_abort_a_failure_stops_the_match() {
    require_python();
    let dir = scratch("abort");
    let agent = py("tests/agents/faulty_agent.py", "crash 3");
    let log = dir.join("agent.log");
    let (run, _) = xnimmt_match(
        &dir,
        &agent,
        "6",
        &["--on-agent-failure", "abort", "--agent-stderr", log.to_str().unwrap()],
    );
    assert_eq!(run.code, 1, "{}", run.stdout);
    // The message is wrapped to the width of a terminal, its lines ruled.
    let said = run
        .stderr
        .split_whitespace()
        .filter(|w| *w != "│")
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        said.contains("exited with status 3 before answering; the match stops"),
        "{}",
        run.stderr
    );
    assert!(std::fs::read_to_string(&log).unwrap().contains("crashing on purpose"));
}

#[test]
fn a_program_that_cannot_start_is_bad_input() {
    let dir = scratch("missing");
    let run = gdl(
        &dir,
        &[
            "match",
            "xnimmt.game",
            "--players",
            "exec:./no-such-agent,search",
            "--games",
            "2",
        ],
    );
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(
        run.stderr
            .contains("exec:./no-such-agent: cannot start `./no-such-agent`"),
        "{}",
        run.stderr
    );
    let run = gdl(&dir, &["match", "xnimmt.game", "--players", "exec:'open,search"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("is not closed"), "{}", run.stderr);
}

/// Every message is one JSON object of a known type; `observe` shows the
/// agent its own hand and never the other's, nor the deck; its moves are
/// the legal ones; `end` comes once per game with the outcome.
#[test]
fn an_agent_sees_what_its_player_may_see() {
    require_python();
    let dir = scratch("view");
    let log = dir.join("messages.jsonl");
    let agent = py("tests/agents/log_agent.py", log.to_str().unwrap());
    let (run, _) = xnimmt_match(&dir, &agent, "4", &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = std::fs::read_to_string(&log).unwrap();
    let messages: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let kinds: Vec<&str> = messages.iter().map(|m| m["type"].as_str().unwrap()).collect();
    assert_eq!(kinds.iter().filter(|k| **k == "start").count(), 4);
    assert_eq!(kinds.iter().filter(|k| **k == "end").count(), 4);
    // Five rounds, the last card forced: four decisions per game.
    assert_eq!(kinds.iter().filter(|k| **k == "observe").count(), 16);
    let mut seat = 0;
    for m in &messages {
        match m["type"].as_str().unwrap() {
            "start" => {
                assert_eq!(m["protocol"], 2);
                assert_eq!(m["game"], "X Nimmt!");
                assert_eq!(m["parameters"]["K"], 17);
                seat = m["seat"].as_u64().unwrap() as usize;
            }
            "observe" => {
                let view = &m["view"];
                assert!(view.get("deck").is_none(), "{m}");
                let hands = view["hands"].as_array().unwrap();
                assert!(hands[1 - seat].is_null(), "{m}");
                let mine: Vec<String> = hands[seat].as_array().unwrap().iter().map(|c| c.to_string()).collect();
                let moves: Vec<String> = m["moves"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| c.as_str().unwrap().to_string())
                    .collect();
                assert_eq!(mine, moves, "the moves are the cards in hand");
                assert!(!m["text"].as_str().unwrap().contains("deck"));
                // Every card dealt that the agent is told of is one it sees,
                // in its hand or on the table: the other hand's are `null`.
                let rows = view["rows"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .flat_map(|r| r.as_array().unwrap());
                let seen: Vec<i64> = hands[seat]
                    .as_array()
                    .unwrap()
                    .iter()
                    .chain(rows)
                    .map(|c| c.as_i64().unwrap())
                    .collect();
                for ply in m["plies"].as_array().unwrap() {
                    if ply.get("player").is_some_and(|p| p == "chance") && !ply["move"].is_null() {
                        let card: i64 = ply["move"]
                            .as_str()
                            .unwrap()
                            .trim_start_matches("deal(")
                            .trim_end_matches(')')
                            .parse()
                            .unwrap();
                        assert!(seen.contains(&card), "{ply} in {m}");
                    }
                }
            }
            "end" => {
                assert!(["win", "loss", "draw"].contains(&m["outcome"].as_str().unwrap()));
                assert_eq!(m["scores"].as_array().unwrap().len(), 2);
            }
            other => panic!("unknown message {other}"),
        }
    }
}

/// More agents than seats: every pair plays, seats rotating; each agent is
/// ranked over all its games, the CSV names each game's agents, the plot
/// draws each agent.
#[test]
fn a_round_robin_ranks_every_agent() {
    let dir = scratch("round_robin");
    let run = gdl(
        &dir,
        &[
            "match",
            "xnimmt.game",
            "--players",
            "random,greedy,search:10",
            "--games",
            "4",
            "--csv",
            "games.csv",
            "--plot",
            "points.svg",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("a round robin of 3 agents, 2 a game: 3 pairings of 4 games, 12 games in all"),
        "{}",
        run.stdout
    );
    let ranking: Vec<&str> = run
        .stdout
        .lines()
        .skip_while(|l| *l != "ranking")
        .skip(2)
        .take(3)
        .collect();
    assert_eq!(ranking.len(), 3, "{}", run.stdout);
    for agent in ["random", "greedy", "search:10"] {
        let row = ranking
            .iter()
            .find(|l| l.split_whitespace().nth(1) == Some(agent))
            .unwrap();
        // Each agent plays two pairings of four games.
        assert_eq!(row.split_whitespace().nth(2), Some("8"), "{row}");
    }
    let rows = rows(&dir.join("games.csv"));
    assert_eq!(rows[0][..5], ["pairing", "game", "P1 agent", "P1 points", "P1 failure"]);
    assert_eq!(rows.len(), 13);
    for r in &rows[1..] {
        assert_ne!(r[2], r[5], "two different agents in each game: {r:?}");
    }
    let svg = std::fs::read_to_string(dir.join("points.svg")).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains("greedy"),
        "{}",
        &svg[..200.min(svg.len())]
    );
}

/// `--field`: each agent of a class plays the field, and its failures are
/// counted against it alone.
#[test]
fn a_class_of_agents_plays_a_fixed_field() {
    require_python();
    let dir = scratch("field");
    let good = py("examples/agents/random_xnimmt.py", "");
    let bad = py("tests/agents/faulty_agent.py", "crash 7");
    let players = format!("{good},{bad}");
    let log = dir.join("agent.log");
    let run = gdl(
        &dir,
        &[
            "match",
            "xnimmt.game",
            "--players",
            &players,
            "--field",
            "search:10",
            "--games",
            "4",
            "--threads",
            "1",
            "--csv",
            "games.csv",
            "--agent-stderr",
            log.to_str().unwrap(),
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("each of 2 agents against the field (search:10): 2 pairings of 4 games"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("search:10 (field)"), "{}", run.stdout);
    let failures_of = |agent: &str| -> String {
        let row = run
            .stdout
            .lines()
            .skip_while(|l| *l != "ranking")
            .find(|l| l.contains(agent) && !l.contains("search"))
            .unwrap()
            .to_string();
        row.split_whitespace().last().unwrap().to_string()
    };
    assert_eq!(failures_of("faulty_agent.py"), "2", "{}", run.stdout);
    assert_eq!(failures_of("random_xnimmt.py"), "0", "{}", run.stdout);
    let rows = rows(&dir.join("games.csv"));
    let crashes = rows[1..].iter().filter(|r| r.contains(&"crash".to_string())).count();
    assert_eq!(crashes, 2);
}

/// `match --json` lists every failure, with the game, agent and seat.
#[test]
fn failures_are_in_the_json_report() {
    require_python();
    let dir = scratch("json");
    let agent = py("tests/agents/faulty_agent.py", "crash 7");
    let log = dir.join("agent.log");
    let (run, _) = xnimmt_match(&dir, &agent, "4", &["--json", "--agent-stderr", log.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let failures = doc["failures"].as_array().unwrap();
    let games: Vec<u64> = failures.iter().map(|f| f["game"].as_u64().unwrap()).collect();
    assert_eq!(games, [2, 4]);
    for f in failures {
        assert_eq!(f["kind"], "crash");
        assert_eq!(f["forfeit"], true);
        assert!(f["agent"].as_str().unwrap().contains("faulty_agent.py"));
    }
}

/// `trace` and `play` count a forfeit as `match` does: an agent that
/// crashed loses the game, whatever the board says, and the outcome says
/// why (issue 23: it said "forfeits the game", then "MAX won the game").
#[test]
fn a_forfeit_in_a_trace_is_a_loss_as_in_a_match() {
    require_python();
    let dir = scratch("trace_forfeit");
    let agent = py("tests/agents/faulty_agent.py", "crash 2");
    let players = format!("{agent},random");
    let mut max_moved_last = 0;
    for seed in 0..6 {
        let seed = seed.to_string();
        let args = ["trace", "nim.game", "--players", &players, "--seed", &seed];
        let run = gdl(&dir, &args);
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert!(run.stdout.contains("it forfeits the game"), "{}", run.stdout);
        assert!(
            run.stdout.ends_with("MIN won the game (MAX forfeited)\n"),
            "{}",
            run.stdout
        );
        let run = gdl(&dir, &[&args[..], &["--json"]].concat());
        let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        assert_eq!(doc["outcome"]["winners"], serde_json::json!(["MIN"]), "{doc}");
        assert_eq!(doc["outcome"]["utilities"]["MAX"], -1.0, "{doc}");
        // Nim's last mover wins on the board: the games where that was MAX
        // are the ones the forfeit decides.
        let last = doc["steps"].as_array().unwrap().last().unwrap();
        max_moved_last += usize::from(last["moves"][0]["player"] == "MAX");
    }
    assert!(
        max_moved_last > 0,
        "no game where the board alone would give MAX the win"
    );
}
