//! `gdl trace` and `gdl play`: seed 003's three traces, seed 001's transcript
//! against a person, X Nimmt! seen through one player's eyes. Traces are
//! snapshots, and are also replayed move by move through the rules to check
//! that every state they print is the one the move leads to.

use crate::common;

use gdl::game::{Game, Player};
use gdl::report::play::view_text;
use gdl::solve::{SolveOptions, solve};

use common::{Run, crate_dir, gdl_in, load_game as game, snap};

/// Runs the `gdl` binary from the crate's folder with `input` on its stdin.
fn gdl(args: &[&str], input: &str) -> Run {
    gdl_in(crate_dir(), args, Some(input))
}

fn ok(args: &[&str]) -> String {
    let r = gdl(args, "");
    assert_eq!(r.code, 0, "gdl {args:?} failed:\n{}", r.stderr);
    r.stdout
}

/// A trace's moves: (player, move, note, the state printed after it).
fn moves_of(trace: &str) -> Vec<(String, String, Option<String>, String)> {
    let lines: Vec<&str> = trace.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some((num, rest)) = line.trim_start().split_once(". ") else {
            continue;
        };
        if num.parse::<usize>().is_err() {
            continue;
        }
        let (player, rest) = rest.split_once(" plays ").expect("a move line names its player");
        let (mv, agent) = rest.split_once(" (").unwrap();
        let note = agent.trim_end_matches(')').split_once(": ").map(|(_, n)| n.to_string());
        out.push((
            player.to_string(),
            mv.to_string(),
            note,
            lines[i + 1].trim().to_string(),
        ));
    }
    out
}

/// Replays a turn-taking game's trace through the rules: every printed state
/// is the state its move leads to, and the outcome line is the game's.
fn replay(file: &str, bindings: &[(&str, &str)], trace: &str) -> Vec<(String, String, Option<String>, String)> {
    let g = game(file, bindings);
    let mut state = g.initial_state().unwrap();
    let moves = moves_of(trace);
    assert!(!moves.is_empty(), "{trace}");
    for (player, mv, _, shown) in &moves {
        let p: Player = (0..g.num_players()).find(|&p| g.player_name(p) == player).unwrap();
        assert_eq!(g.turn(&state).unwrap(), gdl::game::Turn::Player(p), "{trace}");
        let m = g
            .parse_move(&state, mv)
            .unwrap_or_else(|e| panic!("{mv}: {e}\n{trace}"));
        g.apply(&mut state, &m).unwrap();
        assert_eq!(&view_text(&g.view(&state, None), "         "), shown);
    }
    assert_eq!(g.turn(&state).unwrap(), gdl::game::Turn::Terminal);
    let end = gdl::report::play::outcome_text(&g, &state).unwrap();
    assert!(trace.trim_end().ends_with(&end), "{trace}\nshould end with {end}");
    moves
}

/// Seed 003: optimal against optimal, against random, and random against optimal.
#[test]
fn select19_traces() {
    let value = solve(
        &game("games/select19.game", &[]),
        &game("games/select19.game", &[]).initial_state().unwrap(),
        &SolveOptions::default(),
    )
    .unwrap()
    .value;
    for (players, name) in [
        ("optimal,optimal", "trace_select19_optimal_optimal"),
        ("optimal,random", "trace_select19_optimal_random"),
        ("random,optimal", "trace_select19_random_optimal"),
    ] {
        let args = ["trace", "games/select19.game", "--players", players, "--seed", "1"];
        let out = ok(&args);
        assert_eq!(ok(&args), out, "the same seed plays the same game");
        snap!(name, &out);
        let moves = replay("games/select19.game", &[], &out);
        if players == "optimal,optimal" {
            // Each optimal player sees the game's value, from its own side.
            for (player, _, note, _) in &moves {
                let mine = if player == "A" { value } else { -value };
                assert_eq!(note.as_deref(), Some(format!("value {mine} for {player}").as_str()));
            }
        }
    }
}

#[test]
fn nim_and_nimcala_traces() {
    let out = ok(&[
        "trace",
        "games/nim.game",
        "--players",
        "optimal:first,random",
        "--seed",
        "2",
    ]);
    snap!("trace_nim_optimal_first_random", &out);
    replay("games/nim.game", &[], &out);
    // MAX is lost at 7,5,3,1 against perfect play, but random play lets it win.
    assert!(out.contains("value -1 for MAX"), "{out}");
    assert!(out.ends_with("MAX won the game\n"), "{out}");

    let out = ok(&[
        "trace",
        "games/nimcala.game",
        "--pits",
        "4",
        "--tokens",
        "4",
        "--players",
        "random,optimal",
        "--seed",
        "7",
    ]);
    snap!("trace_nimcala_4_4_random_optimal", &out);
    replay("games/nimcala.game", &[("pits", "4"), ("tokens", "4")], &out);
}

/// Ties broken by move order do not depend on the seed; drawn at random, they do.
#[test]
fn optimal_ties_first_or_at_random() {
    let first: Vec<String> = (0..4)
        .map(|s| {
            ok(&[
                "trace",
                "games/nim.game",
                "--piles",
                "3,4,5",
                "--players",
                "optimal:first,optimal:first",
                "--seed",
                &s.to_string(),
            ])
        })
        .map(|t| t.lines().skip(4).collect::<Vec<_>>().join("\n"))
        .collect();
    assert!(first.windows(2).all(|w| w[0] == w[1]));
    let drawn: std::collections::BTreeSet<String> = (0..8)
        .map(|s| {
            ok(&[
                "trace",
                "games/nim.game",
                "--piles",
                "3,4,5",
                "--players",
                "optimal,optimal",
                "--seed",
                &s.to_string(),
            ])
        })
        .map(|t| t.lines().skip(4).collect::<Vec<_>>().join("\n"))
        .collect();
    assert!(drawn.len() > 1, "eight seeds, one line of play");
}

/// X Nimmt!: the deal is shown as one chance step, cards are played at once.
#[test]
fn xnimmt_trace() {
    let out = ok(&[
        "trace",
        "games/xnimmt.game",
        "--players",
        "search:30,random",
        "--seed",
        "1",
    ]);
    snap!("trace_xnimmt_search_random", &out);
    assert_eq!(out.matches("   chance deal(").count(), 1, "{out}");
    assert_eq!(out.matches(" plays ").count(), 2 * 5, "five rounds of two cards: {out}");
    assert!(out.contains("points: P1 "), "{out}");
}

/// Seed 001's transcript, with a person who mistypes.
#[test]
fn play_nim_against_the_computer() {
    let input = "(0,6)\n(9,9)\nhello\n\n(3,1)\n(2,2)\n(2,1)\n";
    let r = gdl(&["play", "games/nim.game", "--players", "human,optimal:first"], input);
    assert_eq!(r.code, 0, "{}", r.stderr);
    snap!("play_nim_human_optimal", &r.stdout);
    assert!(r.stdout.contains("`(9,9)` is not a legal move here"), "{}", r.stdout);
    assert!(r.stdout.ends_with("MIN won the game\n"), "{}", r.stdout);
}

/// The end of the input ends the game cleanly, as `quit` does.
#[test]
fn play_ends_cleanly_without_input() {
    for input in ["", "(0,6)\n", "quit\n"] {
        let r = gdl(&["play", "games/nim.game", "--players", "human,optimal:first"], input);
        assert_eq!(r.code, 0, "{input:?}: {}", r.stderr);
        assert!(r.stderr.is_empty(), "{input:?}: {}", r.stderr);
        assert!(r.stdout.ends_with("game abandoned\n"), "{input:?}: {}", r.stdout);
    }
}

/// The person sees their own hand, the rows and the cards revealed; never the
/// other hand or the deck; and does not type the last card.
#[test]
fn play_xnimmt_sees_only_its_own_hand() {
    // Offer every card in turn: the illegal ones are asked again.
    let input: String = (0..5).flat_map(|_| (1..=17).map(|c| format!("{c}\n"))).collect();
    let r = gdl(
        &["play", "games/xnimmt.game", "--players", "human,search", "--seed", "3"],
        &input,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = &r.stdout;
    assert!(!out.contains("deck"), "{out}");
    let hands: Vec<&str> = out.lines().filter(|l| l.trim_start().starts_with("hands: ")).collect();
    assert!(hands.len() >= 5, "{out}");
    for h in hands {
        assert!(h.trim_end().ends_with(", ?]"), "the other hand is hidden: {h}");
    }
    assert_eq!(out.matches("available moves: ").count(), 5, "{out}");
    assert_eq!(out.matches("P1 plays ").count(), 5, "{out}");
    // The last card is played without choosing, as the rules say: four
    // rounds are asked, the fifth is announced.
    assert_eq!(
        out.matches("Your move? ").count() - out.matches("not a legal move").count(),
        4,
        "{out}"
    );
    assert_eq!(out.matches("your only move, ").count(), 1, "{out}");
    assert!(
        out.lines().last().unwrap().ends_with("won the game") || out.contains("draw"),
        "{out}"
    );
    let points = out
        .lines()
        .find(|l| l.starts_with("points: "))
        .expect("points at the end");
    assert!(points.starts_with("points: P1 "), "{points}");
}

#[test]
fn bad_players_are_clear_errors() {
    let cases = [
        (
            "players_err_count",
            vec!["trace", "games/nim.game", "--players", "random"],
        ),
        (
            "players_err_unknown",
            vec!["trace", "games/nim.game", "--players", "random,minimax"],
        ),
        (
            "players_err_search_zero",
            vec!["trace", "games/nim.game", "--players", "search:0,random"],
        ),
        (
            "players_err_optimal_xnimmt",
            vec!["play", "games/xnimmt.game", "--players", "human,optimal"],
        ),
    ];
    for (name, args) in cases {
        let r = gdl(&args, "");
        assert_eq!(r.code, 2, "{name}: {}", r.stderr);
        assert!(r.stdout.is_empty(), "{name}: {}", r.stdout);
        snap!(name, &r.stderr);
    }
}
