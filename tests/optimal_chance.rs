//! `optimal` in games with chance and simultaneous moves (expectiminimax):
//! at every position it meets, the move it plays is one the solver calls
//! best (or, at a simultaneous turn, one its optimal mixed strategy plays),
//! and against any opponent it gets at least the game's value on average.

use crate::common;

use gdl::game::{Game, Turn};
use gdl::runtime::Interpreted;
use gdl::solve::agent_builder::{AgentOptions, BoxedAgent, MoveKinds, build_agent};
use gdl::solve::agents::agent::AgentSpec;
use gdl::solve::exact::expectimax::{ChanceOptions, Root, solve};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn agent<'g>(game: &'g Interpreted, spec: &str, seed: u64) -> BoxedAgent<'g, Interpreted> {
    let spec: AgentSpec = spec.parse().unwrap();
    build_agent(
        &spec,
        game,
        MoveKinds::of(game.program()),
        seed,
        &AgentOptions::default(),
    )
    .unwrap()
}

/// Plays one game between `agents` (chance drawn by `rng`), checking each
/// move of seat `checked` against a fresh solve of its position; returns
/// player 0's return.
fn play_checked(
    game: &Interpreted,
    agents: &mut [BoxedAgent<'_, Interpreted>],
    checked: usize,
    rng: &mut StdRng,
) -> f64 {
    let mut s = game.initial_state().unwrap();
    let mut moves = Vec::new();
    loop {
        match game.turn(&s).unwrap() {
            Turn::Terminal => return game.returns(&s, 0).unwrap(),
            Turn::Chance => {
                let mut outcomes = Vec::new();
                game.chance_outcomes(&s, &mut outcomes).unwrap();
                let mut x: f64 = rng.random();
                let mut pick = outcomes.last().unwrap().0;
                for (m, p) in &outcomes {
                    if x < *p {
                        pick = *m;
                        break;
                    }
                    x -= p;
                }
                game.apply(&mut s, &pick).unwrap();
            }
            Turn::Player(p) => {
                game.legal_moves(&s, &mut moves).unwrap();
                let c = agents[p].choose(game, &s, p, &moves).unwrap();
                if p == checked {
                    let exact = solve(game, &s, &ChanceOptions::default()).unwrap();
                    assert!(
                        exact.best_moves().contains(&c.mv),
                        "{}: {} is not among the best moves",
                        game.position(&s),
                        game.move_text(&c.mv)
                    );
                }
                game.apply(&mut s, &c.mv).unwrap();
            }
            Turn::Simultaneous => {
                let mut joint = Vec::new();
                for (p, a) in agents.iter_mut().enumerate() {
                    game.legal_moves_of(&s, p, &mut moves).unwrap();
                    joint.push(a.choose(game, &s, p, &moves).unwrap().mv);
                }
                let exact = solve(game, &s, &ChanceOptions::default()).unwrap();
                let Root::Simultaneous(stage) = exact.root else {
                    panic!("a simultaneous root")
                };
                let support = &stage.support()[checked];
                assert!(
                    support.iter().any(|(m, _)| *m == joint[checked]),
                    "{}: {} is not in the optimal mixed strategy",
                    game.position(&s),
                    game.move_text(&joint[checked])
                );
                game.apply_joint(&mut s, &joint).unwrap();
            }
        }
    }
}

/// Player 0's mean return over `games` games, each move of `checked`'s
/// checked, and the standard error of the mean.
fn mean_checked(game: &Interpreted, specs: [&str; 2], checked: usize, games: u64) -> (f64, f64) {
    let mut agents = vec![agent(game, specs[0], 1), agent(game, specs[1], 2)];
    let mut rng = StdRng::seed_from_u64(5);
    let mut rets = Vec::new();
    for g in 0..games {
        for (k, a) in agents.iter_mut().enumerate() {
            a.new_game(game, g * 2 + k as u64).unwrap();
        }
        rets.push(play_checked(game, &mut agents, checked, &mut rng));
    }
    let n = rets.len() as f64;
    let mean = rets.iter().sum::<f64>() / n;
    let var = rets.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, (var / n).sqrt())
}

#[test]
fn optimal_plays_pig_by_the_solvers_values_and_gets_its_value() {
    let game = common::load_game("games/pig.game", &[("target", "8")]);
    let value = solve(&game, &game.initial_state().unwrap(), &ChanceOptions::default())
        .unwrap()
        .value;
    // As the first player against random it gets at least the value (the
    // most a best opponent concedes); as the second, at most it for player 0.
    let (first, se) = mean_checked(&game, ["optimal", "random"], 0, 150);
    assert!(first >= value - 4.0 * se, "as A: {first} ± {se}, value {value}");
    let (second, se) = mean_checked(&game, ["random", "optimal"], 1, 150);
    assert!(second <= value + 4.0 * se, "as B: {second} ± {se}, value {value}");
    // Between two optimal players, player 0's mean is the value itself.
    let (both, se) = mean_checked(&game, ["optimal", "optimal"], 0, 300);
    assert!((both - value).abs() <= 4.0 * se, "both: {both} ± {se}, value {value}");
}

#[test]
fn optimal_plays_goofspiel_by_its_mixed_strategies() {
    let game = common::load_game("games/goofspiel.game", &[("cards", "3")]);
    let value = solve(&game, &game.initial_state().unwrap(), &ChanceOptions::default())
        .unwrap()
        .value;
    let (first, se) = mean_checked(&game, ["optimal", "random"], 0, 100);
    assert!(first >= value - 4.0 * se, "{first} ± {se}, value {value}");
}

#[test]
fn optimal_is_refused_where_it_would_see_hidden_cards() {
    for (file, name) in [
        ("games/kuhn-poker.game", "Kuhn poker"),
        ("games/xnimmt.game", "X Nimmt!"),
    ] {
        let game = common::load_game(file, &[]);
        let spec: AgentSpec = "optimal".parse().unwrap();
        let err = build_agent(&spec, &game, MoveKinds::of(game.program()), 1, &AgentOptions::default())
            .err()
            .expect("refused");
        let text = err.to_string();
        assert!(text.contains(name) && text.contains("hidden information"), "{text}");
    }
}

#[test]
fn gdl_match_seats_optimal_in_pig() {
    let r = common::gdl(&[
        "match",
        "games/pig.game",
        "--target",
        "8",
        "--players",
        "optimal,random",
        "--games",
        "40",
        "--seed",
        "1",
        "--json",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let optimal = &v["agents"][0];
    assert_eq!(optimal["agent"], "optimal");
    // Seats rotate: at least the value as A and minus it as B, so a mean
    // return of at least 0 over both (the interval is the report's).
    let (mean, ci) = (
        optimal["all"]["mean"].as_f64().unwrap(),
        optimal["all"]["mean_ci95"].as_f64().unwrap(),
    );
    assert!(mean - ci > 0.0, "{mean} ± {ci}");
}
