//! Q-learning speed: training episodes per second on misère Nim, the game
//! interpreted from `games/nim.game` and hand-written (`tests/native`), through
//! the same learner, and how the speed changes as the game grows.
//!
//! Run with `cargo bench --bench qlearn`. Each run trains a fresh table for
//! the seed's 10,000 episodes (alpha 0.5, epsilon 0.1); each figure is the
//! median of several runs.

#[path = "../tests/native/mod.rs"]
mod native;

use std::hint::black_box;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use gdl::game::Game;
use gdl::runtime::Interpreted;
use gdl::solve::qlearn::{QLearner, QSettings, QTable};
use native::Nim;

/// Runs per figure; the median is reported.
const RUNS: usize = 7;
/// Episodes per run: what seed 004 trains.
const EPISODES: u64 = 10_000;

struct Measure {
    episodes_per_second: f64,
    positions: usize,
    values: usize,
}

/// Trains `RUNS` fresh tables (seeds 0, 1, ...) and takes the median speed.
fn measure<G: Game>(game: &G) -> Measure {
    let mut rates = Vec::with_capacity(RUNS);
    let mut size = (0, 0);
    for run in 0..RUNS {
        let settings = QSettings {
            alpha: 0.5,
            epsilon: 0.1,
            seed: run as u64,
        };
        let mut learner = QLearner::new(black_box(game), settings, QTable::new()).expect("a turn-taking game");
        let started = Instant::now();
        learner
            .train(EPISODES, &AtomicBool::new(false), &mut |_| {})
            .expect("the rules run");
        rates.push(EPISODES as f64 / started.elapsed().as_secs_f64());
        size = (learner.table().positions(), learner.table().len());
    }
    rates.sort_by(f64::total_cmp);
    Measure {
        episodes_per_second: rates[RUNS / 2],
        positions: size.0,
        values: size.1,
    }
}

fn game_file(path: &str, piles: &str) -> Interpreted {
    let text = std::fs::read_to_string(path).expect("the game file exists");
    let program = gdl::compile::load(path, &text, &[("piles".to_string(), piles.to_string())]).expect("it compiles");
    Interpreted::new(program)
}

/// Reachable non-terminal positions of Nim `piles`: every smaller board,
/// with either player to move.
fn positions(piles: &[u8]) -> u64 {
    2 * piles.iter().map(|&p| u64::from(p) + 1).product::<u64>()
}

fn main() {
    println!("Q-learning, {EPISODES} training episodes from an empty table (median of {RUNS} runs)\n");
    println!(
        "{:<22} {:>10} {:>14} {:>14} {:>10} {:>10}",
        "misère Nim", "positions", "native ep/s", "gdl ep/s", "gdl/native", "table"
    );
    let boards: [&[u8]; 5] = [
        &[1, 3, 5],
        &[1, 3, 5, 7],
        &[1, 3, 5, 7, 9],
        &[2, 4, 6, 8, 10],
        &[3, 5, 7, 9, 11, 13],
    ];
    for piles in boards {
        let list: Vec<String> = piles.iter().map(u8::to_string).collect();
        let native = measure(&Nim::misere(piles));
        let interpreted = measure(&game_file("games/nim.game", &list.join(",")));
        println!(
            "{:<22} {:>10} {:>14.0} {:>14.0} {:>10.2} {:>10}",
            format!("[{}]", list.join(", ")),
            positions(piles),
            native.episodes_per_second,
            interpreted.episodes_per_second,
            interpreted.episodes_per_second / native.episodes_per_second,
            format!("{}/{}", interpreted.positions, interpreted.values),
        );
        assert_eq!(native.positions, interpreted.positions, "both learn the same positions");
    }
    println!("\npositions: boards no larger than the start, times two players to move (an upper bound);");
    println!("table: positions / (position, move) values in the last interpreted run's table.");
}
