//! AlphaZero-style training (`gdl train --algorithm alphazero`) and the
//! `az:FILE` agent: a short run on tic-tac-toe learns something a test can
//! see, the file round-trips, and files for another game, other parameters
//! or another format, and damaged ones, are refused with clear errors.

use crate::common;

use std::path::{Path, PathBuf};

use common::{Run, gdl};
use gdl::runtime::Interpreted;
use gdl::solve::agents::agent::{Agent, RandomAgent};
use gdl::solve::learn::alphazero::agent::AzAgent;
use gdl::solve::learn::alphazero::file::{self, AzFileError, AzTraining};
use gdl::solve::learn::alphazero::net::Net;
use gdl::solve::learn::alphazero::train::{AzSettings, Trainer};
use gdl::solve::matches::tournament::play_match;

fn scratch(name: &str) -> PathBuf {
    common::scratch("alphazero", name, &[])
}

fn tictactoe() -> Interpreted {
    common::load_game("games/tictactoe.game", &[])
}

fn training() -> AzTraining {
    AzTraining {
        iterations: 1,
        games: 2,
        positions: 10,
        games_per_iteration: 2,
        simulations: 10,
        c_puct: 1.5,
        learning_rate: 0.002,
        seed: 0,
        seconds: 0.5,
        interrupted: false,
    }
}

/// Wins, draws and losses of the network playing its policy alone (one
/// simulation: the move of highest prior) against `random`, over `games`
/// games, half in each seat.
fn policy_against_random(game: &Interpreted, net: &Net, games: u64) -> (u64, u64, u64) {
    let az = AzAgent::new("az".into(), net.clone(), Some(1), None);
    let mut agents: Vec<Box<dyn Agent<Interpreted>>> = vec![Box::new(az), Box::new(RandomAgent::new(3))];
    let tally = play_match(game, &mut agents, games, 11, &mut |_| {}).unwrap();
    let r = &tally.overall[0];
    (r.wins, r.draws, r.losses)
}

#[test]
fn a_short_run_on_tictactoe_learns_a_policy_that_beats_random() {
    let game = tictactoe();
    let settings = AzSettings {
        games: 40,
        simulations: 40,
        threads: 2,
        seed: 1,
        ..AzSettings::default()
    };
    let mut trainer = Trainer::new(&game, settings, None).unwrap();
    let untrained = policy_against_random(&game, trainer.net(), 200);
    for _ in 0..12 {
        trainer.iteration(&|| false).unwrap().unwrap();
    }
    let trained = policy_against_random(&game, trainer.net(), 200);
    // The policy alone, without search: the untrained one lost 123 of 200
    // to random, a run of 8 iterations 64 (and won 92 against 54).
    assert!(
        trained.0 >= untrained.0 + 20 && trained.2 + 40 <= untrained.2,
        "policy against random (W-D-L): trained {trained:?}, untrained {untrained:?}"
    );
}

#[test]
fn a_saved_network_loads_as_it_was_and_a_file_for_another_game_is_refused() {
    let dir = scratch("round_trip");
    let path = dir.join("net.json");
    let game = tictactoe();
    let trainer = Trainer::new(&game, AzSettings::default(), None).unwrap();
    file::save(&path, &game, trainer.net(), &training()).unwrap();
    let (net, t) = file::load(&path, &game).unwrap();
    assert_eq!(&net, trainer.net());
    assert_eq!(t, training());

    let nim = common::load_game("games/nim.game", &[]);
    assert!(matches!(file::load(&path, &nim), Err(AzFileError::OtherGame { .. })));
    let c4 = common::load_game("games/connect4.game", &[]);
    let c4_path = dir.join("c4.json");
    let c4_net = Trainer::new(&c4, AzSettings::default(), None).unwrap();
    file::save(&c4_path, &c4, c4_net.net(), &training()).unwrap();
    let smaller = common::load_game("games/connect4.game", &[("rows", "5")]);
    assert!(matches!(
        file::load(&c4_path, &smaller),
        Err(AzFileError::OtherParams { .. })
    ));
}

fn run_in(dir: &Path, args: &[&str]) -> Run {
    common::gdl_in(dir, args, None)
}

#[test]
fn train_saves_a_network_that_match_plays_and_refuses_what_it_cannot_learn() {
    let dir = scratch("cli");
    std::fs::copy(common::crate_dir().join("games/tictactoe.game"), dir.join("ttt.game")).unwrap();
    let train = |out: &str, threads: &str| {
        run_in(
            &dir,
            &[
                "train",
                "ttt.game",
                "--algorithm",
                "alphazero",
                "--iterations",
                "2",
                "--games-per-iteration",
                "6",
                "--simulations",
                "12",
                "--hidden",
                "16",
                "--seed",
                "4",
                "--threads",
                threads,
                "--out",
                out,
            ],
        )
    };
    let a = train("a.json", "1");
    assert_eq!(a.code, 0, "{}", a.stderr);
    assert!(a.stdout.contains("iteration    2  6 games"), "{}", a.stdout);
    assert!(a.stdout.contains("saved       a.json"), "{}", a.stdout);
    // The same seed learns the same network, on any number of threads.
    let b = train("b.json", "2");
    assert_eq!(b.code, 0, "{}", b.stderr);
    let read =
        |name: &str| -> serde_json::Value { serde_json::from_slice(&std::fs::read(dir.join(name)).unwrap()).unwrap() };
    let (ja, jb) = (read("a.json"), read("b.json"));
    assert_eq!(ja["network"], jb["network"]);
    assert_eq!(ja["format"], "gdl-alphazero");
    assert_eq!(ja["game"], "Tic-tac-toe");
    assert_eq!(ja["network"]["hidden"], serde_json::json!([16, 16]));
    assert_eq!(ja["training"]["games"], 12);

    let m = run_in(
        &dir,
        &["match", "ttt.game", "--players", "az:a.json,random", "--games", "4"],
    );
    assert_eq!(m.code, 0, "{}", m.stderr);
    assert!(m.stdout.contains("az:a.json"), "{}", m.stdout);

    // Continuing adds to the totals.
    let c = run_in(
        &dir,
        &[
            "train",
            "ttt.game",
            "--algorithm",
            "alphazero",
            "--iterations",
            "1",
            "--games-per-iteration",
            "3",
            "--simulations",
            "8",
            "--init",
            "a.json",
            "--out",
            "c.json",
        ],
    );
    assert_eq!(c.code, 0, "{}", c.stderr);
    assert_eq!(read("c.json")["training"]["games"], 15);
    assert_eq!(read("c.json")["network"]["hidden"], serde_json::json!([16, 16]));

    // Games it does not learn are refused, saying why.
    std::fs::copy(common::crate_dir().join("games/kuhn-poker.game"), dir.join("kuhn.game")).unwrap();
    let r = run_in(
        &dir,
        &["train", "kuhn.game", "--algorithm", "alphazero", "--out", "k.json"],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("chance moves and hidden information"), "{}", r.stderr);
    assert!(!dir.join("k.json").exists());
}

#[test]
fn a_flag_the_chosen_algorithm_does_not_read_is_refused() {
    let dir = scratch("flags");
    std::fs::copy(common::crate_dir().join("games/tictactoe.game"), dir.join("ttt.game")).unwrap();
    let cases: [(&[&str], &str); 4] = [
        (
            &["--algorithm", "alphazero", "--episodes", "50"],
            "--episodes is read by --algorithm q, not by --algorithm alphazero",
        ),
        (
            &["--algorithm", "alphazero", "--epsilon", "0.2"],
            "--epsilon is read by --algorithm q, not by --algorithm alphazero",
        ),
        (
            &["--simulations", "20"],
            "--simulations is read by --algorithm alphazero, not by --algorithm q",
        ),
        (
            &["--algorithm", "cfr", "--seed", "3"],
            "--seed is read by --algorithm q and --algorithm alphazero, not by --algorithm cfr",
        ),
    ];
    for (flags, message) in cases {
        let mut args = vec!["train", "ttt.game", "--out", "t.json"];
        args.extend_from_slice(flags);
        let r = run_in(&dir, &args);
        assert_eq!(r.code, 2, "{flags:?}: {}", r.stderr);
        assert!(r.stderr.contains(message), "{flags:?}: {}", r.stderr);
        assert!(!dir.join("t.json").exists(), "{flags:?}");
    }
}

#[test]
fn the_learning_curve_is_written_every_n_iterations_and_drawn() {
    let dir = scratch("curve");
    std::fs::copy(common::crate_dir().join("games/tictactoe.game"), dir.join("ttt.game")).unwrap();
    let r = run_in(
        &dir,
        &[
            "train",
            "ttt.game",
            "--algorithm",
            "alphazero",
            "--iterations",
            "3",
            "--games-per-iteration",
            "4",
            "--simulations",
            "8",
            "--hidden",
            "8",
            "--curve",
            "c.csv",
            "--curve-every",
            "2",
            "--curve-games",
            "2",
            "--plot",
            "c.svg",
            "--out",
            "n.json",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let csv = std::fs::read_to_string(dir.join("c.csv")).unwrap();
    // Evaluated after iteration 2 (every second) and after the last, 3.
    let iterations: Vec<&str> = csv.lines().skip(1).map(|l| l.split(',').next().unwrap()).collect();
    assert_eq!(iterations, ["2", "3"], "{csv}");
    let svg = std::fs::read_to_string(dir.join("c.svg")).unwrap();
    assert!(
        svg.contains("against random") && svg.contains("against mcts:200"),
        "{svg}"
    );
    // Two points against each opponent.
    assert_eq!(svg.matches("<circle").count(), 4, "{svg}");
    // A picture is SVG or PNG, refused before any training.
    let bad = run_in(
        &dir,
        &[
            "train",
            "ttt.game",
            "--algorithm",
            "alphazero",
            "--plot",
            "c.pdf",
            "--out",
            "m.json",
        ],
    );
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    assert!(
        bad.stderr.contains("name the file FILE.svg or FILE.png"),
        "{}",
        bad.stderr
    );
    assert!(!dir.join("m.json").exists());
}

#[test]
fn damaged_and_foreign_network_files_are_refused_without_a_panic() {
    let dir = scratch("refusals");
    std::fs::copy(common::crate_dir().join("games/tictactoe.game"), dir.join("ttt.game")).unwrap();
    std::fs::copy(common::crate_dir().join("games/nim.game"), dir.join("nim.game")).unwrap();
    let game = tictactoe();
    let trainer = Trainer::new(&game, AzSettings::default(), None).unwrap();
    file::save(&dir.join("net.json"), &game, trainer.net(), &training()).unwrap();
    let text = std::fs::read_to_string(dir.join("net.json")).unwrap();
    let write = |name: &str, t: &str| std::fs::write(dir.join(name), t).unwrap();
    write("cut.json", &text[..text.len() / 2]);
    write("v2.json", &text.replacen("\"version\":1", "\"version\":2", 1));
    write("short.json", &text.replacen("\"weights\":[", "\"weights\":[0.5,", 1));
    write(
        "wide.json",
        &text.replacen("\"hidden\":[64,64]", "\"hidden\":[64,65]", 1),
    );
    write(
        "huge.json",
        &text.replacen("\"hidden\":[64,64]", "\"hidden\":[100000000,64]", 1),
    );
    let cases = [
        (
            "nim.game",
            "net.json",
            "was trained for the game `Tic-tac-toe`, not `Nim`",
        ),
        ("ttt.game", "cut.json", "is not a valid network file: broken JSON"),
        (
            "ttt.game",
            "v2.json",
            "it is version 2 of the format; this gdl reads version 1",
        ),
        ("ttt.game", "short.json", "weights; a network of its shape has"),
        ("ttt.game", "wide.json", "weights; a network of its shape has"),
        ("ttt.game", "huge.json", "is not one gdl writes"),
        ("ttt.game", "missing.json", "cannot read the network missing.json"),
    ];
    for (game, file, says) in cases {
        let spec = format!("az:{file}");
        let r = run_in(
            &dir,
            &["match", game, "--players", &format!("{spec},random"), "--games", "1"],
        );
        assert_eq!(r.code, 2, "{game} {file}: {}{}", r.stdout, r.stderr);
        assert!(r.stderr.contains(says), "{game} {file}: {}", r.stderr);
        assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    }
}

#[test]
fn az_refuses_games_it_cannot_search() {
    let r = gdl(&[
        "match",
        "games/kuhn-poker.game",
        "--players",
        "az:x.json,random",
        "--games",
        "1",
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("two-player games taken in turns"), "{}", r.stderr);
}
