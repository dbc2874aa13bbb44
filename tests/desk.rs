//! The student's desk (issue 14): what a new user meets in the first hour.
//! Bundled games, seed-faithful defaults, the conventions of a command-line
//! tool (completions, man page, version), and its messages.

use crate::common;

use common::{crate_dir, gdl, gdl_in, scratch, snap};

#[test]
fn list_names_every_bundled_game_with_what_it_is_and_its_parameters() {
    let r = gdl(&["list"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    for game in common::game_files() {
        let name = game.trim_start_matches("games/").trim_end_matches(".game");
        assert!(
            r.stdout.lines().any(|l| l.split_whitespace().next() == Some(name)),
            "{name} missing from:\n{}",
            r.stdout
        );
    }
    snap!("list", r.stdout);
}

#[test]
fn bundled_games_work_from_any_folder_and_a_real_path_wins() {
    let dir = scratch("desk", "elsewhere", &[]);
    let here = gdl(&["solve", "games/nim.game", "--piles", "1,3,5"]);
    for spelled in ["nim", "nim.game", "games/nim.game"] {
        let there = gdl_in(&dir, &["solve", spelled, "--piles", "1,3,5"], None);
        assert_eq!(there.code, 0, "{spelled}: {}", there.stderr);
        // Everything but the time agrees with the checkout's file.
        let strip = |s: &str| {
            s.lines()
                .filter(|l| !l.starts_with("time"))
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert_eq!(strip(&there.stdout), strip(&here.stdout), "{spelled}");
    }
    // A file of that name in the folder is the one played.
    std::fs::write(
        dir.join("nim"),
        "game Mine\nplayers A, B\nstate n: int = 1\nmove take() { n -= 1 }\nend when n == 0 { winner previous }\n",
    )
    .unwrap();
    let mine = gdl_in(&dir, &["check", "nim"], None);
    assert_eq!(mine.code, 0, "{}", mine.stderr);
    assert!(mine.stdout.starts_with("game        Mine"), "{}", mine.stdout);
    let play = gdl_in(
        &dir,
        &["play", "xnimmt", "--players", "random,random", "--seed", "1"],
        None,
    );
    assert_eq!(play.code, 0, "{}", play.stderr);
}

#[test]
fn an_unknown_game_names_the_bundled_ones() {
    let dir = scratch("desk", "unknown", &[]);
    let r = gdl_in(&dir, &["solve", "nmi"], None);
    assert_eq!(r.code, 2);
    snap!("err_unknown_game", r.stderr);
}

#[test]
fn rules_print_the_file_with_its_comments() {
    let dir = scratch("desk", "rules", &[]);
    for name in ["nim", "select19"] {
        let r = gdl_in(&dir, &["rules", name], None);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let file = std::fs::read_to_string(crate_dir().join(format!("games/{name}.game"))).unwrap();
        assert_eq!(r.stdout, file);
    }
    let r = gdl_in(&dir, &["rules", "nope"], None);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("nim, nim-normal"), "{}", r.stderr);
}

/// Seed 001's transcript, byte for byte, from `gdl play nim` with no flags:
/// the computer moves first, as the course's main does.
#[test]
fn play_seats_the_computer_first_as_seed_001_does() {
    // As the seed prints it: the person's typing is echoed by the terminal.
    let seed_001 = "\
board: [7, 5, 3, 1]
(0, 1)
board: [6, 5, 3, 1]
current state: board: [6, 5, 3, 1]
available moves: [(0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (0, 6), (1, 1), (1, 2), (1, 3), (1, 4), (1, 5), (2, 1), (2, 2), (2, 3), (3, 1)]

Your move? (0,6)
(0, 6)
board: [0, 5, 3, 1]
(1, 3)
board: [0, 2, 3, 1]
current state: board: [0, 2, 3, 1]
available moves: [(1, 1), (1, 2), (2, 1), (2, 2), (2, 3), (3, 1)]

Your move? (3,1)
(3, 1)
board: [0, 2, 3, 0]
(2, 1)
board: [0, 2, 2, 0]
current state: board: [0, 2, 2, 0]
available moves: [(1, 1), (1, 2), (2, 1), (2, 2)]

Your move? (2,2)
(2, 2)
board: [0, 2, 0, 0]
(1, 1)
board: [0, 1, 0, 0]
current state: board: [0, 1, 0, 0]
available moves: [(1, 1)]

Your move? (1,1)
(1, 1)
board: [0, 0, 0, 0]
MAX won the game
";
    let typed = ["(0,6)", "(3,1)", "(2,2)", "(1,1)"];
    let dir = scratch("desk", "seed001", &[]);
    let r = gdl_in(&dir, &["play", "nim"], Some(&typed.map(|t| format!("{t}\n")).concat()));
    assert_eq!(r.code, 0, "{}", r.stderr);
    // Typed text that is not a terminal's is echoed, as a terminal would show it.
    assert_eq!(r.stdout, seed_001);
}

fn without_time(s: &str) -> String {
    s.lines()
        .filter(|l| !l.starts_with("time"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn after_plays_moves_from_the_start_wherever_from_works() {
    let from = ["--from", "free: {2, 3, 4, 5, 7, 8, 9}, last: 6; A to move"];
    let after = ["--after", "1 6"];
    for command in [&["solve", "select19"][..], &["tree", "select19", "--depth", "1"]] {
        let a = gdl(&[command, &from[..]].concat());
        let b = gdl(&[command, &after[..]].concat());
        assert_eq!(a.code, 0, "{}", a.stderr);
        assert_eq!(without_time(&a.stdout), without_time(&b.stdout), "{command:?}");
    }
    // From a position, then moves: Nim's moves are written with brackets.
    let a = gdl(&[
        "solve",
        "nim",
        "--from",
        "[0, 2, 3, 1]; MIN to move",
        "--after",
        "(1, 1) (2,1)",
    ]);
    let b = gdl(&["solve", "nim", "--from", "[0, 1, 2, 1]; MIN to move"]);
    assert_eq!(without_time(&a.stdout), without_time(&b.stdout), "{}", a.stderr);
    let t = gdl(&["trace", "select19", "--players", "random,random", "--after", "1 6"]);
    assert!(
        t.stdout.contains("start    free: {2, 3, 4, 5, 7, 8, 9}, last: 6"),
        "{}",
        t.stdout
    );
    let p = gdl(&[
        "play",
        "nim",
        "--players",
        "optimal:first,optimal:first",
        "--after",
        "(0,7)",
    ]);
    assert!(p.stdout.starts_with("board: [0, 5, 3, 1]\n"), "{}", p.stdout);
    let bad = gdl(&["solve", "select19", "--after", "1 3"]);
    assert_eq!(bad.code, 2);
    snap!("err_after_illegal", bad.stderr);
}

#[test]
fn from_without_the_player_to_move_names_the_players() {
    let r = gdl(&["solve", "select19", "--from", "free: {2, 3, 4, 5, 6, 7, 8, 9}, last: 1"]);
    assert_eq!(r.code, 2);
    assert!(r.stdout.is_empty());
    snap!("err_from_whose_move", r.stderr);
}

/// `optimal:fast` plays seed 002's Extension A: the game lasts as long as
/// `solve --fast` says, and no longer than with plain optimal play.
#[test]
fn optimal_fast_plays_the_fast_line_in_traces_and_matches() {
    let params = ["--pits", "4", "--tokens", "4"];
    let solved = gdl(&[&["solve", "nimcala", "--fast", "--json"][..], &params].concat());
    let solved: serde_json::Value = serde_json::from_str(&solved.stdout).unwrap();
    let length = solved["length"].as_u64().unwrap() as usize;
    let trace = gdl(&[
        &["trace", "nimcala", "--players", "optimal:fast,optimal:fast"][..],
        &params,
    ]
    .concat());
    assert_eq!(trace.code, 0, "{}", trace.stderr);
    let plies = trace.stdout.lines().filter(|l| l.contains(" plays ")).count();
    assert_eq!(plies, length, "{}", trace.stdout);
    assert!(
        trace.stdout.contains("(optimal:fast: value 1 for MAX, "),
        "{}",
        trace.stdout
    );
    let slow = gdl(&[
        &["trace", "nimcala", "--players", "optimal:first,optimal:first"][..],
        &params,
    ]
    .concat());
    assert!(slow.stdout.lines().filter(|l| l.contains(" plays ")).count() >= plies);
    let m = gdl(&[
        &[
            "match",
            "nimcala",
            "--players",
            "optimal:fast,random",
            "--games",
            "4",
            "--seed",
            "1",
        ][..],
        &params,
    ]
    .concat());
    assert_eq!(m.code, 0, "{}", m.stderr);
    assert!(m.stdout.contains("optimal:fast"), "{}", m.stdout);
}

#[test]
fn completions_man_page_and_version() {
    let bash = gdl(&["completions", "bash"]);
    assert_eq!(bash.code, 0, "{}", bash.stderr);
    assert!(
        bash.stdout.contains("complete -F _gdl") && bash.stdout.contains("solve"),
        "{}",
        bash.stdout
    );
    for shell in ["zsh", "fish"] {
        let r = gdl(&["completions", shell]);
        assert_eq!(r.code, 0, "{shell}: {}", r.stderr);
        assert!(r.stdout.contains("list") && r.stdout.contains("rules"), "{shell}");
    }
    assert_eq!(gdl(&["completions", "tcsh"]).code, 2);
    let man = gdl(&["man"]);
    assert_eq!(man.code, 0, "{}", man.stderr);
    assert!(
        man.stdout.starts_with(".ie") && man.stdout.contains(".TH gdl 1"),
        "{}",
        man.stdout
    );
    let dir = scratch("desk", "man", &[]);
    let r = gdl(&["man", "--out", dir.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    for page in ["gdl.1", "gdl-solve.1", "gdl-play.1", "gdl-list.1"] {
        assert!(dir.join(page).is_file(), "{page}");
    }
    // The commit built, when the checkout is a git repository.
    let version = gdl(&["--version"]).stdout;
    assert!(
        version.starts_with(&format!("gdl {}", env!("CARGO_PKG_VERSION"))),
        "{version}"
    );
    let head = std::process::Command::new("git")
        .args(["rev-parse", "--short=10", "HEAD"])
        .current_dir(crate_dir())
        .output();
    if let Ok(out) = head
        && out.status.success()
    {
        let commit = String::from_utf8_lossy(&out.stdout).trim().to_string();
        assert!(version.contains(&format!("(commit {commit})")), "{version} vs {commit}");
    }
}

/// The message glitches of issue 14, each as a user meets it.
#[test]
fn messages_a_new_user_meets() {
    let dir = scratch("desk", "glitches", &[]);
    let write = |name: &str, text: &str| std::fs::write(dir.join(name), text).unwrap();
    write(
        "one_move.game",
        "game One\nplayers A, B\nstate n: int = 1\nmove take() { n -= 1 }\nend when n == 0 { winner previous; payoff 2 }\n",
    );
    let one = gdl_in(&dir, &["check", "one_move.game"], None);
    assert_eq!(one.code, 0, "{}", one.stderr);
    assert!(
        one.stdout.contains("            1 legal move: take\n"),
        "{}",
        one.stdout
    );
    // `;` between outcomes is accepted, as the reference now says, and the payoff counts.
    let won = gdl_in(&dir, &["solve", "one_move.game", "--json"], None);
    assert!(won.stdout.contains("\"value\": 2.0"), "{}", won.stdout);
    write(
        "misspelled.game",
        "game M\nplayers A, B\nstate n: int = 3\nmvoe take() { n -= 1 }\nend when n == 0 { winner previous }\n",
    );
    let r = gdl_in(&dir, &["check", "misspelled.game"], None);
    assert_eq!(r.code, 2);
    snap!("err_misspelled_move", r.stderr);
    write(
        "loops.game",
        "game L\nplayers A, B\nstate n: int = 9\nmove take() {\n    while n > 5 { n -= 1 }\n    if n > 0 { n -= 1 }\n}\nend when n == 0 { winner previous }\n",
    );
    let r = gdl_in(&dir, &["solve", "loops.game"], None);
    assert_eq!(r.code, 0, "`while` and `if` without `else` compile: {}", r.stderr);
    // A draw seen by the second player reads 0, never -0.
    let t = gdl(&["trace", "tictactoe", "--players", "optimal,optimal"]);
    assert!(
        t.stdout.contains("value 0 for O") && !t.stdout.contains("-0"),
        "{}",
        t.stdout
    );
    let r = gdl(&["solve", "nim", "--piles", "0"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    snap!("err_nim_no_objects", r.stderr);
    let r = gdl(&[
        "trace",
        "xnimmt",
        "--players",
        "random,random",
        "--X",
        "4",
        "--holds",
        "2",
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    snap!("err_xnimmt_holds_not_x", r.stderr);
    let variant = gdl(&[
        "trace",
        "xnimmt",
        "--players",
        "random,random",
        "--X",
        "4",
        "--holds",
        "4",
    ]);
    assert_eq!(variant.code, 0, "the variant: {}", variant.stderr);
}

fn gdl_with_env(args: &[&str], key: &str, value: &str) -> common::Run {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gdl"))
        .args(args)
        .current_dir(crate_dir())
        .env("NO_COLOR", "1")
        .env(key, value)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    common::Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

#[test]
fn a_wide_tree_is_drawn_left_to_right_and_svg_needs_graphviz() {
    let wide = gdl(&["tree", "select19", "--depth", "2", "--format", "dot"]);
    assert_eq!(wide.code, 0, "{}", wide.stderr);
    assert!(
        wide.stdout.contains("    rankdir=LR;\n"),
        "42 leaves side by side do not fit a page"
    );
    let narrow = gdl(&["tree", "nim", "--piles", "1,2", "--depth", "1", "--format", "dot"]);
    assert!(!narrow.stdout.contains("rankdir"), "{}", narrow.stdout);
    let forced = gdl(&["tree", "select19", "--depth", "2", "--format", "dot", "--layout", "tb"]);
    assert!(!forced.stdout.contains("rankdir"));
    let lr = gdl(&[
        "tree", "nim", "--piles", "1,2", "--depth", "1", "--format", "dot", "--layout", "lr",
    ]);
    assert!(lr.stdout.contains("rankdir=LR"));
    let missing = gdl_with_env(
        &["tree", "nim", "--depth", "1", "--format", "svg"],
        "GDL_DOT",
        "/no/such/graphviz-dot",
    );
    assert_eq!(missing.code, 2);
    assert!(missing.stdout.is_empty());
    assert!(
        missing.stderr.contains("which is not installed (apt install graphviz"),
        "{}",
        missing.stderr
    );
    // Where Graphviz is installed, the picture itself.
    if std::process::Command::new("dot").arg("-V").output().is_ok() {
        let svg = gdl(&["tree", "nim", "--piles", "1,2", "--depth", "2", "--format", "svg"]);
        assert_eq!(svg.code, 0, "{}", svg.stderr);
        assert!(svg.stdout.contains("<svg"), "{}", svg.stdout);
    }
}

/// A die's roll is shown in `play` as `trace` shows it; a deal of secret
/// cards is not (it would show the other hand).
#[test]
fn play_shows_chance_outcomes_that_are_not_secret() {
    let dir = scratch("desk", "dice", &[]);
    std::fs::write(
        dir.join("dice.game"),
        "game Dice\nplayers A, B\nstate total: int = 0\nstate rolled: bool = false\n\
         chance move roll(d in 1..6) requires rolled == false { total += d\n rolled = true }\n\
         move add(k in 1..2) requires rolled { total += k\n rolled = false }\n\
         end when total >= 10 { winner previous }\n",
    )
    .unwrap();
    let play = gdl_in(
        &dir,
        &["play", "dice.game", "--players", "random,random", "--seed", "4"],
        None,
    );
    assert_eq!(play.code, 0, "{}", play.stderr);
    let trace = gdl_in(
        &dir,
        &["trace", "dice.game", "--players", "random,random", "--seed", "4"],
        None,
    );
    let rolls = |text: &str, prefix: &str| -> Vec<String> {
        text.lines()
            .filter_map(|l| l.trim_start().strip_prefix(prefix).map(str::to_string))
            .collect()
    };
    let shown = rolls(&play.stdout, "chance ");
    assert!(!shown.is_empty(), "{}", play.stdout);
    assert_eq!(shown, rolls(&trace.stdout, "chance "));
    let cards = gdl(&["play", "xnimmt", "--players", "random,random", "--seed", "4"]);
    assert!(!cards.stdout.contains("chance"), "{}", cards.stdout);
}

/// `eval --wrong` lists where the greedy move gives value away, and `eval`
/// says whether an adversary can beat the table from each seat; the two agree.
#[test]
fn eval_lists_wrong_moves_and_whether_the_table_is_beatable() {
    let dir = scratch("desk", "eval", &[]);
    let table = dir.join("q.json");
    let t = table.to_str().unwrap();
    let piles = ["--piles", "1,2,3"];
    for (episodes, name) in [("30", "weak"), ("20000", "strong")] {
        let r = gdl(&[
            &["train", "nim", "--episodes", episodes, "--seed", "1", "--out", t][..],
            &piles,
        ]
        .concat());
        assert_eq!(r.code, 0, "{}", r.stderr);
        let r = gdl(&[
            &["eval", "nim", "--q", t, "--games", "10", "--wrong", "--json"][..],
            &piles,
        ]
        .concat());
        assert_eq!(r.code, 0, "{}", r.stderr);
        let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
        let wrong = v["wrong"].as_array().unwrap();
        let a = &v["agreement"];
        assert_eq!(
            wrong.len() as u64,
            a["positions"].as_u64().unwrap() - a["optimal"].as_u64().unwrap(),
            "{name}: one entry per position where the greedy move is not optimal"
        );
        for w in wrong {
            let best: Vec<&str> = w["best_moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap())
                .collect();
            assert!(!best.contains(&w["greedy"].as_str().unwrap()), "{w}");
            assert!(w["greedy_value"].as_f64() < w["best_value"].as_f64(), "{w}");
            // The exploiting line is played from the position after the greedy move.
            let mut after: Vec<String> = w["after"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap().to_string())
                .collect();
            after.push(w["greedy"].as_str().unwrap().to_string());
            after.extend(
                w["exploit"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| m.as_str().unwrap().to_string()),
            );
            let replay = gdl(&[&["solve", "nim", "--after", &after.join(" ")][..], &piles].concat());
            assert!(
                !replay.stderr.contains("--after"),
                "the line is legal: {}",
                replay.stderr
            );
        }
        let seats = v["seats"].as_array().unwrap();
        assert_eq!(seats.len(), 2);
        for s in seats {
            assert_eq!(s["beatable"], s["q_gets"].as_f64() < s["optimal_gets"].as_f64(), "{s}");
            if s["beatable"] == true {
                assert!(!wrong.is_empty(), "{name}: beaten, so some greedy move is wrong");
            }
        }
        if name == "weak" {
            assert!(!wrong.is_empty(), "30 episodes do not learn 1,2,3");
            let text = gdl(&[&["eval", "nim", "--q", t, "--games", "10", "--wrong"][..], &piles].concat());
            assert!(
                text.stdout.contains("where the greedy move is not optimal"),
                "{}",
                text.stdout
            );
            assert!(
                text.stdout.contains("against an adversary that searches every reply"),
                "{}",
                text.stdout
            );
        }
    }
}
