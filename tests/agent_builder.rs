//! `solve::agent_builder::build_agent`, the one builder behind the commands'
//! `--players` and the Python module's `gdl.agent`: every kind it builds
//! plays a legal move, and each refusal is the typed error its callers render.

use gdl::error_kind::{EXIT_INPUT, Exits};
use gdl::game::{Game, Turn};
use gdl::runtime::Interpreted;
use gdl::solve::agent_builder::{AgentBuildError, AgentOptions, MoveKinds, build_agent};
use gdl::solve::agents::agent::AgentSpec;

fn load(file: &str, params: &[(&str, &str)]) -> Interpreted {
    let text = std::fs::read_to_string(file).expect("game file");
    let params: Vec<(String, String)> = params.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    Interpreted::new(gdl::compile::load(file, &text, &params).expect("compiles"))
}

#[test]
fn every_kind_built_here_plays_a_legal_move_in_nim() {
    let game = load("games/nim.game", &[("piles", "1,2")]);
    let root = game.initial_state().expect("start");
    let Turn::Player(p) = game.turn(&root).expect("turn") else {
        panic!("nim starts with a player to move")
    };
    let mut legal = Vec::new();
    game.legal_moves(&root, &mut legal).expect("moves");
    for spec in [
        "optimal",
        "optimal:first",
        "optimal:fast",
        "random",
        "search:5",
        "greedy",
        "alphabeta:2",
    ] {
        let spec: AgentSpec = spec.parse().expect("spec");
        let mut agent = build_agent(&spec, &game, MoveKinds::of(game.program()), 7, &AgentOptions::default())
            .unwrap_or_else(|e| panic!("{spec}: {e}"));
        agent.new_game(&game, 7).expect("new game");
        let choice = agent
            .choose(&game, &root, p, &legal)
            .unwrap_or_else(|e| panic!("{spec}: {e}"));
        assert!(legal.contains(&choice.mv), "{spec} chose an illegal move");
    }
}

#[test]
fn agents_that_cannot_play_the_game_are_refused_as_bad_input() {
    // `optimal` plays chance games by expectiminimax (tests/optimal_chance.rs),
    // but not with hidden cards; `alphabeta:D` plays no chance game.
    for (file, spec, why) in [
        ("games/kuhn-poker.game", "optimal", "hidden information"),
        ("games/pig.game", "alphabeta:3", "chance"),
    ] {
        let game = load(file, &[]);
        let kinds = MoveKinds::of(game.program());
        assert!(kinds.chance, "{file} has chance moves");
        let spec: AgentSpec = spec.parse().expect("spec");
        match build_agent(&spec, &game, kinds, 1, &AgentOptions::default()) {
            Err(e @ AgentBuildError::Unsuited(_)) => {
                assert!(e.to_string().contains(why), "{e}");
                assert_eq!(e.exit_code(), EXIT_INPUT);
            }
            Err(e) => panic!("{spec}: {e:?}"),
            Ok(_) => panic!("{spec} was built for {file}"),
        }
    }
    let nim = load("games/nim.game", &[("piles", "1,2")]);
    for spec in ["human", "exec:./agent.py"] {
        let spec: AgentSpec = spec.parse().expect("spec");
        let built = build_agent(&spec, &nim, MoveKinds::of(nim.program()), 1, &AgentOptions::default());
        assert!(matches!(built, Err(AgentBuildError::NotBuiltHere(_))), "{spec}");
    }
    let missing: AgentSpec = "q:does-not-exist.q.json".parse().expect("spec");
    match build_agent(
        &missing,
        &nim,
        MoveKinds::of(nim.program()),
        1,
        &AgentOptions::default(),
    ) {
        Err(e @ AgentBuildError::QTable(_)) => assert_eq!(e.exit_code(), EXIT_INPUT),
        Err(e) => panic!("{e:?}"),
        Ok(_) => panic!("a Q-table that does not exist was loaded"),
    }
}

/// The search limits of `AgentOptions` reach every agent that searches
/// exactly or to a depth: a node limit too small for one move stops
/// `optimal` and `alphabeta:D` with an error that names it (never a guess,
/// never a random move); an ample one changes no move.
#[test]
fn searching_agents_keep_to_the_limits_of_their_options() {
    let game = load("games/nim.game", &[("piles", "3,4,5")]);
    let root = game.initial_state().expect("start");
    let mut legal = Vec::new();
    game.legal_moves(&root, &mut legal).expect("moves");
    let kinds = MoveKinds::of(game.program());
    let tiny = AgentOptions {
        max_nodes: Some(1),
        ..AgentOptions::default()
    };
    let ample = AgentOptions {
        max_nodes: Some(100_000_000),
        time_limit: Some(std::time::Duration::from_secs(1000)),
        memory_share: 2,
        ..AgentOptions::default()
    };
    for spec in ["optimal", "optimal:first", "alphabeta:4"] {
        let spec: AgentSpec = spec.parse().expect("spec");
        let mut agent = build_agent(&spec, &game, kinds, 3, &tiny).unwrap_or_else(|e| panic!("{spec}: {e}"));
        agent.new_game(&game, 3).expect("new game");
        match agent.choose(&game, &root, 0, &legal) {
            Err(e) => {
                let text = e.to_string();
                assert!(text.contains("node limit of 1"), "{spec}: {text}");
                assert!(text.contains(&format!("`{spec}` for MAX")), "{spec}: {text}");
            }
            Ok(c) => panic!("{spec} chose {c:?} within one node"),
        }
        let moves = |options: &AgentOptions| {
            let mut agent = build_agent(&spec, &game, kinds, 3, options).expect("built");
            agent.new_game(&game, 3).expect("new game");
            (0..5)
                .map(|_| agent.choose(&game, &root, 0, &legal).expect("a move").mv)
                .collect::<Vec<_>>()
        };
        assert_eq!(moves(&ample), moves(&AgentOptions::default()), "{spec}");
    }
}

/// `gdl play`'s opponent (`resist`): in a lost position it plays the slowest
/// loss, as the exact solver with `--fast` measures it, for every tie rule
/// and seed; in the other positions it plays as without `resist`. Without
/// it, `optimal` plays quicker losses (issue 23: in Chomp it ate the
/// poisoned square at once).
#[test]
fn a_resisting_optimal_agent_plays_the_slowest_loss() {
    use gdl::solve::{SolveOptions, explain};
    let game = load("games/nim.game", &[("piles", "2,3,3")]);
    let kinds = MoveKinds::of(game.program());
    // Every position reachable from the start.
    let mut seen = std::collections::HashSet::new();
    let mut todo = vec![game.initial_state().expect("start")];
    let mut positions = Vec::new();
    while let Some(s) = todo.pop() {
        if !seen.insert(game.position(&s)) || game.turn(&s).expect("turn") == Turn::Terminal {
            continue;
        }
        let mut legal = Vec::new();
        game.legal_moves(&s, &mut legal).expect("moves");
        for m in &legal {
            let mut next = s.clone();
            game.apply(&mut next, m).expect("apply");
            todo.push(next);
        }
        positions.push((s, legal));
    }
    let fast = SolveOptions {
        prefer_short: true,
        ..SolveOptions::default()
    };
    let resisting = AgentOptions {
        resist: true,
        ..AgentOptions::default()
    };
    let mut lost = 0;
    let mut quicker_without = 0;
    for (state, legal) in &positions {
        let Turn::Player(p) = game.turn(state).expect("turn") else {
            unreachable!()
        };
        let sign = if p == 0 { 1.0 } else { -1.0 };
        let values = explain(&game, state, &fast).expect("solved");
        let best = values.iter().map(|m| sign * m.value).fold(f64::NEG_INFINITY, f64::max);
        let slowest = values.iter().map(|m| m.line.len()).max().unwrap();
        lost += usize::from(best < 0.0);
        for spec in ["optimal", "optimal:first"] {
            let spec: AgentSpec = spec.parse().expect("spec");
            for seed in 0..4 {
                let play = |options: &AgentOptions| {
                    let mut agent = build_agent(&spec, &game, kinds, seed, options).expect("built");
                    agent.new_game(&game, seed).expect("new game");
                    let mv = agent.choose(&game, state, p, legal).expect("a move").mv;
                    values.iter().position(|m| m.mv == mv).unwrap()
                };
                let (with, without) = (play(&resisting), play(&AgentOptions::default()));
                if best < 0.0 {
                    assert_eq!(values[with].line.len(), slowest, "{spec} at {}", game.position(state));
                    quicker_without += usize::from(values[without].line.len() < slowest);
                } else {
                    assert_eq!(with, without, "{spec} at {}", game.position(state));
                }
            }
        }
    }
    assert!(lost > 10, "{lost} lost positions");
    assert!(
        quicker_without > 0,
        "without resist no quicker loss was ever played: the test shows nothing"
    );
}
