//! One workload at a time, for a profiler: `cargo bench --bench profile --
//! WORKLOAD GAME SIDE`, then run the built binary under
//! `valgrind --tool=callgrind` (docs/PERFORMANCE.md shows how).
//!
//! WORKLOAD is `ab` (alpha-beta without memo), `memo` (alpha-beta with memo)
//! or `playout` (random playouts); GAME is `nim`, `nimcala` (4 pits, 5
//! tokens; `nimcala:PITS:TOKENS` for another board), `select19` or
//! `tictactoe` or `connect4` (6×7; `ab` on it does not finish: use
//! `playout`);
//! SIDE is `native`, `interpreted` (the default engine: compiled rules
//! where supported) or `vm` (the game file on the VM).

#[path = "../tests/native/mod.rs"]
mod native;

use std::hint::black_box;

use gdl::game::Game;
use gdl::runtime::{Engine, Interpreted};
use gdl::solve::agents::simulate::{Scratch, random_playout};
use gdl::solve::{Algorithm, SolveOptions, solve};
use native::{Connect4, Nim, Nimcala, Select19, TicTacToe};
use rand::SeedableRng;
use rand::rngs::SmallRng;

fn game_file(path: &str, bindings: &[(&str, &str)]) -> Interpreted {
    let text = without_canonical(&std::fs::read_to_string(path).expect("run from the crate root"));
    let b: Vec<(String, String)> = bindings.iter().map(|(a, v)| (a.to_string(), v.to_string())).collect();
    let engine = if std::env::args().any(|a| a == "vm") {
        Engine::Vm
    } else {
        Engine::default_for_host()
    };
    Interpreted::with_engine(
        gdl::compile::load(path, &text, &b).expect("the game files compile"),
        engine,
    )
}

/// The game file's text without a one-line `canonical { ... }` block (Nim's
/// rows sorted): the hand-written games keep every position apart, so both
/// sides search and learn the same positions.
fn without_canonical(text: &str) -> String {
    text.lines()
        .filter(|l| !l.trim_start().starts_with("canonical {"))
        .map(|l| format!("{l}\n"))
        .collect()
}

fn run<G: Game>(game: &G, workload: &str, reps: usize) {
    let root = game.initial_state().expect("the game starts");
    match workload {
        "ab" | "memo" => {
            let opts = SolveOptions {
                algorithm: Algorithm::AlphaBeta,
                memo: workload == "memo",
                count_states: false,
                ..SolveOptions::default()
            };
            let mut nodes = 0;
            for _ in 0..reps {
                nodes += solve(black_box(game), &root, &opts).expect("solves").nodes;
            }
            println!("{nodes} nodes");
        }
        "playout" => {
            let mut rng = SmallRng::seed_from_u64(1);
            let mut scratch = Scratch::default();
            let mut state = root.clone();
            for _ in 0..reps {
                state.clone_from(&root);
                random_playout(black_box(game), &mut state, &mut rng, &mut scratch).expect("plays out");
            }
            println!("{reps} playouts");
        }
        other => panic!("unknown workload {other}"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let [workload, game, side, reps] = <[String; 4]>::try_from(args)
        .expect("usage: profile ab|memo|playout nim|nimcala|select19|tictactoe|connect4 native|interpreted|vm REPS");
    let reps: usize = reps.parse().expect("REPS is a number");
    let native = side == "native";
    match game.as_str() {
        "nim" if native => run(&Nim::misere(&[7, 5, 3, 1]), &workload, reps),
        "nim" => run(&game_file("games/nim.game", &[("piles", "7,5,3,1")]), &workload, reps),
        "nimcala" if native => run(&Nimcala::new(4, 5), &workload, reps),
        "nimcala" => run(
            &game_file("games/nimcala.game", &[("pits", "4"), ("tokens", "5")]),
            &workload,
            reps,
        ),
        // `nimcala:PITS:TOKENS`: another board.
        sized if sized.starts_with("nimcala:") => {
            let [_, pits, tokens] =
                <[&str; 3]>::try_from(sized.split(':').collect::<Vec<_>>()).expect("nimcala:PITS:TOKENS");
            if native {
                let n = |s: &str| s.parse().expect("a number");
                run(&Nimcala::new(n(pits), n(tokens) as u8), &workload, reps)
            } else {
                let file = game_file("games/nimcala.game", &[("pits", pits), ("tokens", tokens)]);
                run(&file, &workload, reps)
            }
        }
        "select19" if native => run(&Select19, &workload, reps),
        "select19" => run(&game_file("games/select19.game", &[]), &workload, reps),
        "tictactoe" if native => run(&TicTacToe, &workload, reps),
        "tictactoe" => run(&game_file("games/tictactoe.game", &[]), &workload, reps),
        "connect4" if native => run(&Connect4::standard(), &workload, reps),
        "connect4" => run(&game_file("games/connect4.game", &[]), &workload, reps),
        other => panic!("unknown game {other}"),
    }
}
