//! Q-learning: determinism, the table file (round trip and every refusal),
//! how well Nim is learned, and the `train`, `match` and `eval` commands.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::AtomicBool;

use gdl::game::Game;
use gdl::runtime::Interpreted;
use gdl::solve::agents::agent::{Agent, OptimalAgent, RandomAgent, Ties};
use gdl::solve::learn::qeval::agreement;
use gdl::solve::learn::qfile::{self, QFileError, Training};
use gdl::solve::learn::qlearn::{QAgent, QLearner, QSettings, QTable};
use gdl::solve::matches::tournament::play_match;
use gdl::solve::{SolveOptions, Solver};

use common::{Run, gdl, load_game as load, snap};

/// Nim 1,3,5,7 as games/nim.game has it: its rows sorted by its `canonical` block.
fn nim1357() -> Interpreted {
    load("games/nim.game", &[("piles", "1,3,5,7")])
}

/// Nim 1,3,5,7 without games/nim.game's `canonical` block: every order of
/// the rows is a position of its own.
fn plain_nim1357() -> Interpreted {
    let text = common::nim_text_without_canonical("games/nim.game");
    let piles = [("piles".to_string(), "1,3,5,7".to_string())];
    Interpreted::new(gdl::compile::load("nim.game", &text, &piles).unwrap())
}

fn train(game: &Interpreted, episodes: u64, seed: u64) -> QTable<Interpreted> {
    let settings = QSettings {
        alpha: 0.5,
        epsilon: 0.1,
        seed,
    };
    let mut learner = QLearner::new(game, settings, QTable::new()).unwrap();
    let done = learner.train(episodes, &AtomicBool::new(false), &mut |_| {}).unwrap();
    assert_eq!(done, episodes);
    learner.into_table()
}

/// A fresh folder for one test's files.
fn scratch(name: &str) -> PathBuf {
    common::scratch("qlearn", name, &[])
}

fn training(episodes: u64) -> Training {
    Training {
        alpha: 0.5,
        epsilon: 0.1,
        seed: 0,
        episodes,
        total_episodes: episodes,
        interrupted: false,
    }
}

#[test]
fn seeded_training_is_deterministic() {
    let game = nim1357();
    let a = train(&game, 2000, 7);
    let b = train(&game, 2000, 7);
    assert!(a.positions() > 100, "{a:?}");
    assert_eq!(a, b, "the same seed learns the same table");
    let c = train(&game, 2000, 8);
    assert_ne!(a, c, "another seed explores differently");
}

#[test]
fn save_then_load_gives_the_same_table_and_the_same_bytes() {
    let dir = scratch("round_trip");
    for (file, params) in [
        ("games/nim.game", &[("piles", "1,3,5,7")][..]),
        ("games/select19.game", &[]),
        ("games/nimcala.game", &[("pits", "3"), ("tokens", "4")]),
    ] {
        let game = load(file, params);
        let table = train(&game, 3000, 1);
        let path = dir.join("q.json");
        qfile::save(&path, &game, &table, &training(3000)).unwrap();
        let (back, meta) = qfile::load(&path, &game).unwrap();
        assert_eq!(back, table, "{file}");
        assert_eq!(meta, training(3000));
        // Saved again, the loaded table is byte for byte the same file.
        let again = dir.join("again.json");
        qfile::save(&again, &game, &back, &training(3000)).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), std::fs::read(&again).unwrap(), "{file}");
    }
}

#[test]
fn parameters_keep_the_order_the_game_declares() {
    // Connect four declares rows, cols, connect: not in alphabetical order.
    // A table saved for it loads back (the file is read without sorting its
    // parameters), and one for other parameters is refused.
    let dir = scratch("param_order");
    let game = load("games/connect4.game", &[("rows", "3"), ("cols", "3"), ("connect", "3")]);
    let names: Vec<&str> = game.program().params.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(names, ["rows", "cols", "connect"]);
    let table = train(&game, 300, 1);
    let path = dir.join("q.json");
    qfile::save(&path, &game, &table, &training(300)).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.find("\"rows\"").unwrap() < text.find("\"cols\"").unwrap(),
        "{text}"
    );
    let (back, _) = qfile::load(&path, &game).unwrap();
    assert_eq!(back, table);
    let other = load("games/connect4.game", &[("rows", "3"), ("cols", "4"), ("connect", "3")]);
    assert!(matches!(
        qfile::load(&path, &other),
        Err(QFileError::OtherParams { .. })
    ));
}

#[test]
fn the_start_position_survives_the_file() {
    // The start is the one position whose text reads back as another state
    // (nobody has moved yet); the loaded table must still know it.
    let game = nim1357();
    let table = train(&game, 500, 3);
    let start = game.initial_state().unwrap();
    assert!(table.get(&start).is_some());
    let path = scratch("start").join("q.json");
    qfile::save(&path, &game, &table, &training(500)).unwrap();
    let (back, _) = qfile::load(&path, &game).unwrap();
    assert_eq!(back.get(&start), table.get(&start));
}

/// Wins of the Q agent as MAX and as MIN, over `games` games.
fn wins_by_seat<'g>(
    game: &'g Interpreted,
    table: &QTable<Interpreted>,
    opponent: Box<dyn Agent<Interpreted> + 'g>,
    games: u64,
) -> (u64, u64) {
    let mut agents: Vec<Box<dyn Agent<Interpreted> + 'g>> = vec![Box::new(QAgent::new("q", table.clone())), opponent];
    let tally = play_match(game, &mut agents, games, 0, &mut |_| {}).unwrap();
    (tally.by_seat[0][0].wins, tally.by_seat[0][1].wins)
}

/// Nim 1,3,5,7 without its `canonical` block, every order of the rows learned
/// on its own. Measured over seeds 0-9 with `gdl train --evaluate` (10,000
/// episodes, alpha 0.5, epsilon 0.1, 500 games per seat): the greedy move is optimal
/// in 96.9-97.5% of the 750 reachable positions and in 96.5-97.1% of the 662
/// with a winning move. As MIN (the side that wins [1, 3, 5, 7]) the agent won
/// every game against random and against optimal; as MAX it lost every game
/// to optimal (it must) and won 96.8-100% against random. The bounds below
/// leave a margin under the worst seed.
#[test]
fn nim_1357_is_learned_in_10000_episodes() {
    let game = plain_nim1357();
    let start = game.initial_state().unwrap();
    for seed in [1, 2] {
        let table = train(&game, 10_000, seed);
        let a = agreement(&game, &table, &start).unwrap();
        assert_eq!((a.positions, a.winning), (750, 662), "{a:?}");
        let overall = a.optimal as f64 / a.positions as f64;
        let winning = a.winning_optimal as f64 / a.winning as f64;
        assert!(overall >= 0.96, "seed {seed}: {a:?}");
        assert!(winning >= 0.955, "seed {seed}: {a:?}");

        let solver = Solver::new(&game, SolveOptions::default()).unwrap();
        let optimal = Box::new(OptimalAgent::new(solver, Ties::Random, seed));
        let (as_max, as_min) = wins_by_seat(&game, &table, optimal, 100);
        assert_eq!((as_max, as_min), (0, 50), "seed {seed} against optimal");

        let random = Box::new(RandomAgent::new(seed));
        let (as_max, as_min) = wins_by_seat(&game, &table, random, 200);
        assert_eq!(as_min, 100, "seed {seed}: as MIN against random");
        assert!(as_max >= 90, "seed {seed}: as MAX against random won {as_max} of 100");
    }
}

#[test]
fn a_table_for_another_game_or_parameters_is_refused_by_the_library() {
    let dir = scratch("refusals_lib");
    let nim = nim1357();
    let path = dir.join("q.json");
    qfile::save(&path, &nim, &train(&nim, 200, 0), &training(200)).unwrap();
    let other_params = load("games/nim.game", &[("piles", "2,3")]);
    assert!(matches!(
        qfile::load(&path, &other_params),
        Err(QFileError::OtherParams { .. })
    ));
    let other_game = load("games/nim-normal.game", &[("piles", "1,3,5,7")]);
    assert!(matches!(
        qfile::load(&path, &other_game),
        Err(QFileError::OtherGame { .. })
    ));
    assert!(qfile::load_agent(&path, &nim).is_ok());
}

// The command line.

/// Runs gdl in `dir`, so that files there are named briefly in its output.
fn gdl_in(dir: &Path, args: &[&str]) -> Run {
    common::gdl_in(dir, args, None)
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

#[test]
fn train_writes_the_same_file_for_the_same_seed() {
    let dir = scratch("cli_train");
    let (a, b) = (s(&dir.join("a.json")), s(&dir.join("b.json")));
    for out in [&a, &b] {
        let r = gdl(&[
            "train",
            "games/nim.game",
            "--piles",
            "1,3,5",
            "--episodes",
            "3000",
            "--seed",
            "5",
            "--out",
            out,
        ]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert!(
            r.stderr.is_empty(),
            "no progress bar when not on a terminal: {}",
            r.stderr
        );
    }
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(&a).unwrap()).unwrap();
    assert_eq!(json["game"], "Nim");
    assert_eq!(json["params"]["piles"], "[1, 3, 5]");
    assert_eq!(json["training"]["episodes"], 3000);
    assert_eq!(json["table"]["[1, 3, 5]; MAX to move"].as_object().unwrap().len(), 9);

    // --init continues: the totals add up, and the output says where from.
    let c = s(&dir.join("c.json"));
    let r = gdl(&[
        "train",
        "games/nim.game",
        "--piles",
        "1,3,5",
        "--episodes",
        "1000",
        "--init",
        &a,
        "--out",
        &c,
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(&c).unwrap()).unwrap();
    assert_eq!(json["training"]["total_episodes"], 4000);
    snap!("train_nim_init", r.stdout);
}

/// A table is trained on the rules: a game file whose `display` block is
/// redrawn keeps its tables, and one whose rules change refuses them.
#[test]
fn a_redrawn_board_keeps_its_table_and_changed_rules_refuse_it() {
    let dir = scratch("redrawn");
    let rules = std::fs::read_to_string("games/tictactoe.game").unwrap();
    assert!(rules.contains("#c0392b"), "tic-tac-toe's display colours X");
    std::fs::write(dir.join("ttt.game"), &rules).unwrap();
    let r = gdl_in(
        &dir,
        &[
            "train",
            "ttt.game",
            "--episodes",
            "300",
            "--seed",
            "1",
            "--out",
            "q.json",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let plays = |dir: &Path| {
        gdl_in(
            dir,
            &["match", "ttt.game", "--players", "q:q.json,random", "--games", "2"],
        )
    };
    assert_eq!(plays(&dir).code, 0);

    let redrawn = rules.replace("#c0392b", "#000000");
    std::fs::write(dir.join("ttt.game"), &redrawn).unwrap();
    assert_ne!(redrawn, rules);
    let r = plays(&dir);
    assert_eq!(r.code, 0, "a redrawn board keeps the table: {}", r.stderr);

    let changed = redrawn.replacen("players X, O", "players X, O\n// a comment in the rules", 1);
    assert_ne!(changed, redrawn);
    std::fs::write(dir.join("ttt.game"), &changed).unwrap();
    let r = plays(&dir);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("another version of the rules"), "{}", r.stderr);
}

#[test]
fn bad_tables_and_games_give_clear_errors_and_exit_code_2() {
    // Everything runs inside the scratch folder under short names: the messages then
    // read the same on every machine (a long folder name would change where they wrap).
    let dir = scratch("cli_errors");
    for game in ["nim.game", "nimcala.game", "xnimmt.game"] {
        std::fs::copy(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("games").join(game),
            dir.join(game),
        )
        .unwrap();
    }
    let good = "nim1357.json".to_string();
    let r = gdl_in(
        &dir,
        &[
            "train",
            "nim.game",
            "--piles",
            "1,3,5,7",
            "--episodes",
            "500",
            "--out",
            &good,
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = std::fs::read_to_string(dir.join(&good)).unwrap();

    let write = |name: &str, body: &str| {
        std::fs::write(dir.join(name), body).unwrap();
        name.to_string()
    };
    let truncated = write("truncated.json", &text[..text.len() / 3]);
    let not_a_table = write("package.json", "{\"name\": \"left-pad\", \"version\": \"1.3.0\"}\n");
    let future = write("future.json", &text.replace("\"version\": 1,", "\"version\": 2,"));
    let bad_move = write("bad_move.json", &text.replacen("\"(3, 7)\"", "\"(3, 8)\"", 1));
    let bad_position = write(
        "bad_position.json",
        &text.replacen("\"[1, 3, 5, 7]; MAX to move\"", "\"[1, 3, 5]; MAX to move\"", 1),
    );
    let changed_rules = {
        let src = std::fs::read_to_string(dir.join("nim.game")).unwrap();
        std::fs::write(
            dir.join("nim_changed.game"),
            src.replace("loser previous", "winner previous"),
        )
        .unwrap();
        "nim_changed.game".to_string()
    };
    let missing = "nope.json".to_string();
    let x = "x.json".to_string();
    let (qgood_first, qgood_second) = (format!("q:{good},random"), format!("random,q:{good}"));
    let eval = |table: &str| -> Vec<String> {
        ["eval", "nim.game", "--piles", "1,3,5,7", "--q", table]
            .map(String::from)
            .to_vec()
    };
    let args = |a: &[&str]| -> Vec<String> { a.iter().map(|x| x.to_string()).collect() };
    let cases: Vec<(&str, Vec<String>)> = vec![
        ("qtable_err_truncated", eval(&truncated)),
        ("qtable_err_not_a_table", eval(&not_a_table)),
        ("qtable_err_future_version", eval(&future)),
        ("qtable_err_bad_move", eval(&bad_move)),
        ("qtable_err_bad_position", eval(&bad_position)),
        ("qtable_err_missing", eval(&missing)),
        (
            "qtable_err_other_params",
            args(&["match", "nim.game", "--players", &qgood_first]),
        ),
        (
            "qtable_err_other_game",
            args(&["match", "nimcala.game", "--players", &qgood_second]),
        ),
        (
            "qtable_err_changed_rules",
            args(&[
                "train",
                &changed_rules,
                "--piles",
                "1,3,5,7",
                "--init",
                &good,
                "--out",
                &x,
            ]),
        ),
        ("train_err_simultaneous", args(&["train", "xnimmt.game", "--out", &x])),
        (
            "train_err_alpha",
            args(&["train", "nim.game", "--alpha", "0", "--out", &x]),
        ),
        (
            "train_err_out_folder",
            args(&["train", "nim.game", "--out", "no-such-folder/q.json"]),
        ),
        (
            "match_err_players",
            args(&["match", "nim.game", "--players", "optimal"]),
        ),
    ];
    for (name, args) in &cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let r = gdl_in(&dir, &args);
        assert_eq!(r.code, 2, "{name}: {args:?}\n{}", r.stderr);
        assert!(r.stdout.is_empty(), "{name}: {}", r.stdout);
        assert!(!r.stderr.contains("panicked"), "{name}: {}", r.stderr);
        snap!(*name, r.stderr);
    }
    assert!(!dir.join("x.json").exists(), "a refused training writes nothing");
}

#[test]
fn match_and_eval_reports() {
    let dir = scratch("cli_reports");
    let nim = concat!(env!("CARGO_MANIFEST_DIR"), "/games/nim.game");
    let select19 = concat!(env!("CARGO_MANIFEST_DIR"), "/games/select19.game");
    let run = |args: &[&str]| {
        let r = gdl_in(&dir, args);
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        r.stdout
    };
    run(&[
        "train",
        nim,
        "--piles",
        "1,3,5",
        "--episodes",
        "5000",
        "--seed",
        "1",
        "--out",
        "q.json",
    ]);

    let q_random = [
        "match",
        nim,
        "--piles",
        "1,3,5",
        "--players",
        "q:q.json,random",
        "--games",
        "200",
        "--seed",
        "3",
    ];
    let out = run(&q_random);
    snap!("match_nim_q_random", out);
    // Everything but the times per decision, at the end.
    let untimed = |report: &str| report.split("time per decision").next().unwrap().to_string();
    assert_eq!(
        untimed(&run(&q_random)),
        untimed(&out),
        "a match is replayed exactly from its seed"
    );

    let out = run(&[
        "match",
        select19,
        "--players",
        "random,random",
        "--games",
        "101",
        "--seed",
        "1",
    ]);
    snap!("match_select19_random_random", out);

    let out = run(&["eval", nim, "--piles", "1,3,5", "--q", "q.json", "--games", "200"]);
    snap!("eval_nim_135", out);
}

/// Ctrl-C and SIGTERM stop training between two games, save the table and say so.
#[cfg(unix)]
#[test]
fn ctrl_c_and_sigterm_save_what_was_learned() {
    let dir = scratch("ctrl_c");
    for (signal, code, told) in [("-INT", 130, "Ctrl-C"), ("-TERM", 143, "SIGTERM")] {
        let out = dir.join(format!("q{signal}.json"));
        let child = common::spawn_gdl(
            common::crate_dir(),
            &[
                "train",
                "games/nim.game",
                "--piles",
                "1,3,5,7",
                "--episodes",
                "1000000000",
                "--out",
                &s(&out),
            ],
        );
        // Long enough for the game to load and the handler to be installed.
        std::thread::sleep(std::time::Duration::from_millis(1500));
        let killed = Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let r = child.wait_with_output().unwrap();
        let stdout = String::from_utf8(r.stdout).unwrap();
        let stderr = String::from_utf8(r.stderr).unwrap();
        assert_eq!(r.status.code(), Some(code), "{stdout}\n{stderr}");
        assert!(stdout.contains(&format!("interrupted by {told}")), "{stdout}");
        assert!(stderr.contains("training was interrupted"), "{stderr}");
        let game = nim1357();
        let (table, meta) = qfile::load(&out, &game).unwrap();
        assert!(meta.interrupted);
        assert!(meta.episodes > 0 && meta.episodes < 1_000_000_000);
        assert!(table.positions() > 100);
    }
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left.len(), 2, "no temporary file is left: {left:?}");
}

/// With extra turns, the learner's target keeps its sign when the mover
/// moves again: on a take-away game where taking 2 gives another move, the
/// greedy moves become optimal almost everywhere.
#[test]
fn extra_turns_are_learned() {
    let text = "game Take\nplayers A, B\nstate heap: int = 11\n\
                move take(k in 1..3) requires k <= heap {\n heap -= k\n if k == 2 { again }\n}\n\
                end when heap == 0 { winner previous }\n";
    let game = Interpreted::new(gdl::compile::load("take.game", text, &[]).unwrap());
    let start = game.initial_state().unwrap();
    let table = train(&game, 20_000, 3);
    let a = agreement(&game, &table, &start).unwrap();
    assert!(a.choice > 5, "{a:?}");
    assert_eq!(a.choice_optimal, a.choice, "{a:?}");
}

/// With a `canonical` block the learner plays its episodes on
/// representatives: the table holds sorted boards only, fewer positions
/// than without; and in a position that is not its own representative the
/// greedy agent plays a move worth what the representative's greedy move
/// is worth (checked by the exact solver, move by move).
#[test]
fn a_canonical_form_is_learned_on_representatives() {
    let (plain, sorted) = (plain_nim1357(), nim1357());
    let a = train(&plain, 3000, 1);
    let b = train(&sorted, 3000, 1);
    for (s, _) in b.iter() {
        assert_eq!(sorted.canonical(s).unwrap().as_ref(), Some(s), "{}", sorted.position(s));
    }
    assert!(
        b.positions() * 2 < a.positions(),
        "{} sorted, {} plain",
        b.positions(),
        a.positions()
    );

    let mut solver = Solver::new(&sorted, SolveOptions::default()).unwrap();
    let mut agent = QAgent::new("q", b.clone());
    let mut carried = 0;
    for text in [
        "[1, 3, 0, 7]; MAX to move",
        "[1, 2, 5, 0]; MIN to move",
        "[0, 3, 5, 4]; MAX to move",
    ] {
        let s = sorted.parse_position(text).unwrap();
        let rep = sorted.canonical(&s).unwrap().unwrap();
        assert_ne!(rep, s);
        let (mut moves, mut rep_moves) = (Vec::new(), Vec::new());
        sorted.legal_moves(&s, &mut moves).unwrap();
        sorted.legal_moves(&rep, &mut rep_moves).unwrap();
        let Some(values) = b.get(&rep) else { continue };
        let greedy = values
            .iter()
            .enumerate()
            .fold(0, |g, (i, v)| if *v > values[g] { i } else { g });
        let mv = agent.choose(&sorted, &s, 0, &moves).unwrap().mv;
        assert!(moves.contains(&mv), "{text}: {mv:?}");
        let value_of = |solver: &mut Solver<Interpreted>, state: &gdl::runtime::State, m| {
            let mut child = state.clone();
            sorted.apply(&mut child, m).unwrap();
            solver.solve(&child).unwrap().value
        };
        assert_eq!(
            value_of(&mut solver, &s, &mv),
            value_of(&mut solver, &rep, &rep_moves[greedy]),
            "{text}"
        );
        carried += 1;
    }
    assert!(carried > 0, "the table saw none of the positions");

    // Judged over every position of the game as played, the sorted table
    // is as good as the plain one trained as long.
    let start = plain.initial_state().unwrap();
    let (qa, qb) = (
        agreement(&plain, &a, &start).unwrap(),
        agreement(&sorted, &b, &start).unwrap(),
    );
    assert_eq!(qa.positions, qb.positions);
    assert!(qb.optimal >= qa.optimal, "sorted {qb:?}, plain {qa:?}");
}
