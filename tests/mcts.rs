//! Monte Carlo tree search against the exact solvers: what MCTS-Solver
//! proves is what alpha-beta finds, at the start and at every position on
//! the way; and as a player, it never loses tic-tac-toe to `optimal`.

use crate::common;

use common::snap;

use gdl::game::{Game, Turn};
use gdl::runtime::Interpreted;
use gdl::solve::agent_builder::{AgentOptions, MoveKinds, build_agent};
use gdl::solve::agents::agent::AgentSpec;
use gdl::solve::agents::mcts::{MctsConfig, Search};
use gdl::solve::{SolveOptions, explain};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn config(simulations: u64) -> MctsConfig {
    MctsConfig {
        simulations,
        ..MctsConfig::default()
    }
}

/// Searches `state` until proven (or the budget ends), then checks every
/// proof against alpha-beta: the root's value, and each move proven, its
/// value. Returns whether the root was proven.
fn check_proofs(game: &Interpreted, state: &<Interpreted as Game>::State, simulations: u64, seed: u64) -> bool {
    let Turn::Player(p) = game.turn(state).unwrap() else {
        panic!("a player moves here")
    };
    let mut search = Search::new(game, state, p, config(simulations), seed).unwrap();
    search.run(game).unwrap();
    let result = search.result(game);
    assert!(result.solving, "{} allows proofs", game.name());
    let exact = explain(game, state, &SolveOptions::default()).unwrap();
    let at = game.position(state);
    for m in &result.moves {
        let truth = exact.iter().find(|e| e.mv == m.mv).expect("a legal move").value;
        // Bounds hold whether or not they have met.
        assert!(
            m.lo <= truth && truth <= m.hi,
            "{at}: move {} is worth {truth}, outside its bounds [{}, {}]",
            game.move_text(&m.mv),
            m.lo,
            m.hi
        );
    }
    let Some(v) = result.proven() else {
        return false;
    };
    let best = if p == 0 {
        exact.iter().map(|e| e.value).fold(f64::NEG_INFINITY, f64::max)
    } else {
        exact.iter().map(|e| e.value).fold(f64::INFINITY, f64::min)
    };
    assert_eq!(v, best, "{at}: proven {v}, exact {best}");
    // The move it would play is among the exact solver's best.
    let chosen = &result.moves[result.best(&mut StdRng::seed_from_u64(seed))];
    let chosen_value = exact.iter().find(|e| e.mv == chosen.mv).unwrap().value;
    assert_eq!(chosen_value, best, "{at}: it chose {}", game.move_text(&chosen.mv));
    true
}

/// Proves the start, then walks `lines` random games checking the proofs
/// at every position on them.
fn proves_everywhere(game: &Interpreted, simulations: u64, lines: usize) {
    let root = game.initial_state().unwrap();
    assert!(
        check_proofs(game, &root, simulations, 1),
        "{}: the start is proven within {simulations} simulations",
        game.name()
    );
    let mut rng = StdRng::seed_from_u64(7);
    let mut moves = Vec::new();
    let mut proven = 0;
    for line in 0..lines {
        let mut s = root.clone();
        while game.turn(&s).unwrap() != Turn::Terminal {
            if check_proofs(game, &s, simulations, line as u64) {
                proven += 1;
            }
            game.legal_moves(&s, &mut moves).unwrap();
            let m = moves[rng.random_range(0..moves.len())];
            game.apply(&mut s, &m).unwrap();
        }
    }
    assert!(proven > 0);
}

#[test]
fn tic_tac_toe_is_proven_a_draw_everywhere() {
    let game = common::load_game("games/tictactoe.game", &[]);
    proves_everywhere(&game, 200_000, 6);
}

#[test]
fn misere_nim_7531_is_proven_everywhere() {
    let game = common::load_game("games/nim.game", &[]);
    proves_everywhere(&game, 200_000, 3);
}

#[test]
fn nimcala_4_4_is_proven_everywhere() {
    let game = common::load_game("games/nimcala.game", &[("pits", "4"), ("tokens", "4")]);
    proves_everywhere(&game, 200_000, 3);
}

#[test]
fn small_connect_fours_are_proven_everywhere() {
    // A win for the first player, then a draw.
    let three = common::load_game("games/connect4.game", &[("rows", "4"), ("cols", "4"), ("connect", "3")]);
    proves_everywhere(&three, 200_000, 3);
    let draw = common::load_game("games/connect4.game", &[("rows", "3"), ("cols", "4")]);
    assert!(check_proofs(&draw, &draw.initial_state().unwrap(), 500_000, 3));
}

#[test]
fn score_games_are_proven_to_their_values() {
    // The 1-9 game's utility is the last number picked; Kalah's the
    // difference of the stores: the bounds prove values, not only winners.
    let select = common::load_game("games/select19.game", &[]);
    proves_everywhere(&select, 200_000, 3);
    let kalah = common::load_game("games/kalah.game", &[("pits", "3"), ("seeds", "3")]);
    assert!(check_proofs(&kalah, &kalah.initial_state().unwrap(), 200_000, 1));
}

/// About 370,000 simulations, 15 s at the tests' opt-level:
/// `cargo test --test main mcts:: -- --ignored`.
#[test]
#[ignore = "15 s; run with --ignored"]
fn connect_four_4x4_is_proven_a_draw() {
    let game = common::load_game("games/connect4.game", &[("rows", "4"), ("cols", "4")]);
    let root = game.initial_state().unwrap();
    assert!(check_proofs(&game, &root, 2_000_000, 3));
}

/// `mcts:N` as the agent builder seats it.
fn agent<'g>(game: &'g Interpreted, spec: &str, seed: u64) -> gdl::solve::agent_builder::BoxedAgent<'g, Interpreted> {
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

/// Player 0's return of one game between `agents` (seat order).
fn play(game: &Interpreted, agents: &mut [gdl::solve::agent_builder::BoxedAgent<'_, Interpreted>], seed: u64) -> f64 {
    for (k, a) in agents.iter_mut().enumerate() {
        a.new_game(game, seed + k as u64).unwrap();
    }
    let mut s = game.initial_state().unwrap();
    let mut moves = Vec::new();
    while let Turn::Player(p) = game.turn(&s).unwrap() {
        game.legal_moves(&s, &mut moves).unwrap();
        let c = agents[p].choose(game, &s, p, &moves).unwrap();
        game.apply(&mut s, &c.mv).unwrap();
    }
    game.returns(&s, 0).unwrap()
}

#[test]
fn mcts_never_loses_tic_tac_toe_to_optimal() {
    let game = common::load_game("games/tictactoe.game", &[]);
    for seed in 0..20 {
        let mut first = vec![agent(&game, "mcts:1000", seed), agent(&game, "optimal", seed)];
        assert!(play(&game, &mut first, seed) >= 0.0, "as X, game {seed}");
        let mut second = vec![agent(&game, "optimal", seed), agent(&game, "mcts:1000", seed)];
        assert!(play(&game, &mut second, seed) <= 0.0, "as O, game {seed}");
    }
}

/// `gdl solve --mcts N`, which must succeed.
fn report(args: &[&str]) -> String {
    let r = common::gdl(args);
    assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
    r.stdout
}

#[test]
fn the_report_of_a_proven_root_lists_every_move() {
    let text = report(&["solve", "games/tictactoe.game", "--mcts", "50000", "--seed", "1"]);
    snap!("mcts_tictactoe_proven", text.clone());
    // The same value as the exact solver's, and a best move among its.
    let exact = report(&["solve", "games/tictactoe.game"]);
    assert!(exact.contains("value       0 (for X"), "{exact}");
    assert!(
        text.contains("value       0 (for X, the first player), proven"),
        "{text}"
    );
}

#[test]
fn reports_of_unproven_chance_and_simultaneous_roots() {
    snap!(
        "mcts_connect4_unproven",
        report(&["solve", "games/connect4.game", "--mcts", "2000", "--seed", "3"])
    );
    snap!(
        "mcts_goofspiel_simultaneous",
        report(&["solve", "games/goofspiel.game", "--mcts", "2000", "--seed", "1"])
    );
    snap!(
        "mcts_nim_after",
        report(&[
            "solve",
            "games/nim.game",
            "--piles",
            "3,4,5",
            "--after",
            "(0, 1)",
            "--mcts",
            "3000",
            "--seed",
            "2"
        ])
    );
}

#[test]
fn a_seed_gives_the_same_report_on_one_thread_or_four_and_threads_add_up() {
    let args = [
        "solve",
        "games/connect4.game",
        "--rows",
        "5",
        "--cols",
        "5",
        "--mcts",
        "1500",
        "--seed",
        "9",
        "--json",
    ];
    let strip = |t: String| -> serde_json::Value {
        let mut v: serde_json::Value = serde_json::from_str(&t).unwrap();
        v["seconds"] = 0.into();
        v
    };
    assert_eq!(strip(report(&args)), strip(report(&args)));
    let mut four = args.to_vec();
    four.extend(["--threads", "4"]);
    let v = strip(report(&four));
    // Each tree's seed comes from the one seed: four threads repeat too.
    assert_eq!(v, strip(report(&four)));
    // Four trees of 375 simulations each, their root statistics added up.
    assert_eq!(v["simulations"], 1500);
    let visits: u64 = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["visits"].as_u64().unwrap())
        .sum();
    assert_eq!(visits, 1500);
}

#[test]
fn the_trace_shows_what_mcts_saw() {
    snap!(
        "mcts_trace_tictactoe",
        report(&[
            "trace",
            "games/tictactoe.game",
            "--players",
            "mcts:500,random",
            "--seed",
            "4"
        ])
    );
}

#[test]
fn a_full_tree_stops_growing_and_keeps_searching() {
    let game = common::load_game("games/connect4.game", &[]);
    let root = game.initial_state().unwrap();
    let cfg = MctsConfig {
        simulations: 3000,
        max_nodes: 200,
        ..MctsConfig::default()
    };
    let mut search = Search::new(&game, &root, 0, cfg, 1).unwrap();
    search.run(&game).unwrap();
    let r = search.result(&game);
    assert!(r.full);
    assert!(r.nodes <= 200, "{} nodes", r.nodes);
    assert_eq!(r.simulations, 3000);
    assert_eq!(r.moves.iter().map(|m| m.visits).sum::<u64>(), 3000);
}

#[test]
fn the_tree_is_kept_for_the_next_move() {
    let game = common::load_game("games/connect4.game", &[]);
    let root = game.initial_state().unwrap();
    let mut search = Search::new(&game, &root, 0, config(3000), 1).unwrap();
    search.run(&game).unwrap();
    let r = search.result(&game);
    let best = &r.moves[r.best(&mut StdRng::seed_from_u64(1))];
    let mut s = root.clone();
    game.apply(&mut s, &best.mv).unwrap();
    let reply = game.parse_move(&s, &best.line[0]).unwrap();
    game.apply(&mut s, &reply).unwrap();
    assert!(search.advance_to(&game, &s, 0).unwrap());
    // The subtree's visits are there before any new simulation.
    let kept = search.result(&game).moves.iter().map(|m| m.visits).sum::<u64>();
    assert!(kept > 100, "{kept} visits kept");
    search.run(&game).unwrap();
    let after = search.result(&game).moves.iter().map(|m| m.visits).sum::<u64>();
    assert_eq!(after, kept + 3000);
    // A position that is not below the root is not found.
    assert!(!search.advance_to(&game, &root, 0).unwrap());
}

#[test]
fn with_hidden_cards_nothing_is_proven() {
    let game = common::load_game("games/kuhn-poker.game", &[]);
    let mut s = game.initial_state().unwrap();
    let mut outcomes = Vec::new();
    while game.turn(&s).unwrap() == Turn::Chance {
        game.chance_outcomes(&s, &mut outcomes).unwrap();
        game.apply(&mut s, &outcomes[0].0).unwrap();
    }
    let mut search = Search::new(&game, &s, 0, config(4000), 5).unwrap();
    search.run(&game).unwrap();
    let r = search.result(&game);
    assert!(!r.solving, "a world drawn is not the game: no proofs");
    assert_eq!(r.proven(), None);
    assert_eq!(r.moves.len(), 2);
    assert_eq!(r.moves.iter().map(|m| m.visits).sum::<u64>(), 4000);
}

#[test]
fn at_the_memory_limit_the_tree_stops_growing_and_the_search_goes_on() {
    let text = report(&[
        "solve",
        "games/connect4.game",
        "--mcts",
        "40000",
        "--max-memory",
        "16M",
        "--seed",
        "1",
    ]);
    assert!(text.contains("full: it stopped growing"), "{text}");
    assert!(
        text.contains("simulations 40,000 (stopped: the simulations asked for)"),
        "{text}"
    );
}

#[test]
fn regret_matching_finds_the_mixed_equilibrium_of_a_matrix_game() {
    // Each player's equilibrium plays 0 with probability 2/5 (`gdl solve`
    // says so; tests/cli_solvers.rs checks the matrix solver).
    let game = common::load_game("tests/inputs/solvers/biased_pennies.game", &[]);
    let root = game.initial_state().unwrap();
    for player in 0..2 {
        let cfg = MctsConfig {
            simulations: 40_000,
            simultaneous: gdl::solve::agents::mcts::SimultaneousSelect::RegretMatching,
            ..MctsConfig::default()
        };
        let mut search = Search::new(&game, &root, player, cfg, 3).unwrap();
        search.run(&game).unwrap();
        let result = search.result(&game);
        let total: f64 = result.moves.iter().map(|m| m.strategy).sum();
        let zero = result.moves.iter().find(|m| game.move_text(&m.mv) == "0").unwrap();
        let share = zero.strategy / total;
        assert!((share - 0.4).abs() < 0.05, "player {player} plays 0 with {share}");
    }
}

#[test]
fn each_way_of_choosing_at_simultaneous_moves_plays_goofspiel() {
    use gdl::solve::agents::mcts::SimultaneousSelect;
    let game = common::load_game("games/goofspiel.game", &[("cards", "3")]);
    let mut s = game.initial_state().unwrap();
    let mut outcomes = Vec::new();
    game.chance_outcomes(&s, &mut outcomes).unwrap();
    let three = outcomes
        .iter()
        .find(|(m, _)| game.move_text(m).contains('3'))
        .unwrap()
        .0;
    game.apply(&mut s, &three).unwrap();
    for how in [
        SimultaneousSelect::RegretMatching,
        SimultaneousSelect::RegretMatchingMixed,
        SimultaneousSelect::Ucb,
        SimultaneousSelect::OthersRandom,
        SimultaneousSelect::OthersHalfRandom,
    ] {
        let cfg = MctsConfig {
            simulations: 3000,
            simultaneous: how,
            ..MctsConfig::default()
        };
        let mut search = Search::new(&game, &s, 0, cfg, 1).unwrap();
        search.run(&game).unwrap();
        let r = search.result(&game);
        assert_eq!(r.moves.len(), 3, "{how:?}: every bid has statistics");
        assert_eq!(r.moves.iter().map(|m| m.visits).sum::<u64>(), 3000, "{how:?}");
        // Each visit adds a distribution over the moves (regret matching)
        // or one visit: either way the weights add up to the visits.
        let all: f64 = r.moves.iter().map(|m| m.strategy).sum();
        assert!((all - 3000.0).abs() < 1e-6, "{how:?}: {all}");
    }
}

#[test]
fn a_card_held_in_an_int_is_dealt_again_in_each_drawn_world() {
    // Kuhn poker keeps each player's card in a private `int`: a world drawn
    // for First must redraw Second's card from those First cannot see (the
    // deck's and Second's), or every search would see it.
    let game = common::load_game("games/kuhn-poker.game", &[]);
    let mut s = game.initial_state().unwrap();
    for card in ["deal(3)", "deal(2)"] {
        let mv = game.parse_move(&s, card).unwrap();
        game.apply(&mut s, &mv).unwrap();
    }
    assert!(
        game.position(&s).contains("deck: {1}, card: [3, 2]"),
        "{}",
        game.position(&s)
    );
    let mut rng = StdRng::seed_from_u64(4);
    let mut seen = std::collections::BTreeMap::new();
    for _ in 0..400 {
        let w = game.sample_hidden(&s, 0, &mut rng).unwrap();
        *seen.entry(game.position(&w)).or_insert(0) += 1;
    }
    let worlds: Vec<&String> = seen.keys().collect();
    assert_eq!(worlds.len(), 2, "{seen:?}");
    assert!(worlds[0].contains("deck: {1}, card: [3, 2]"), "{seen:?}");
    assert!(worlds[1].contains("deck: {2}, card: [3, 1]"), "{seen:?}");
    // Drawn uniformly: each about 200 of 400.
    assert!(seen.values().all(|&n| (150..=250).contains(&n)), "{seen:?}");
    // Before the deal there is no card to draw: the 0s stay.
    let start = game.initial_state().unwrap();
    assert_eq!(game.sample_hidden(&start, 0, &mut rng).unwrap(), start);
}

#[test]
fn backing_up_outcomes_proves_who_wins() {
    // Kalah 3×3's and dots-and-boxes 2×2's values are differences of
    // stores and boxes; with outcomes backed up MCTS-Solver proves their
    // sign, the winner, and nothing finer. Dots-and-boxes declares no range
    // for its returns, so backing them up proves nothing within 500,000
    // simulations (docs/SOLVERS.md); its outcomes are proven in about
    // 420,000.
    use gdl::solve::agents::mcts::Backup;
    for (file, params, simulations) in [
        ("games/kalah.game", &[("pits", "3"), ("seeds", "3")][..], 200_000),
        ("games/dots-and-boxes.game", &[], 1_000_000),
    ] {
        let game = common::load_game(file, params);
        let root = game.initial_state().unwrap();
        let exact = explain(&game, &root, &SolveOptions::default()).unwrap();
        let value = exact.iter().map(|e| e.value).fold(f64::NEG_INFINITY, f64::max);
        let cfg = MctsConfig {
            simulations,
            backup: Backup::Outcome,
            ..MctsConfig::default()
        };
        let mut search = Search::new(&game, &root, 0, cfg, 1).unwrap();
        search.run(&game).unwrap();
        let result = search.result(&game);
        assert_eq!(result.proven(), Some(value.signum()), "{file}: exact value {value}");
        for m in &result.moves {
            let truth = exact.iter().find(|e| e.mv == m.mv).unwrap().value;
            let sign = if truth == 0.0 { 0.0 } else { truth.signum() };
            assert!(
                m.lo <= sign && sign <= m.hi,
                "{file}: {}: {truth}",
                game.move_text(&m.mv)
            );
        }
    }
}

/// The most often `me` can win against a player who chooses uniformly at
/// random (at its turns and at simultaneous ones), with chance at its
/// odds: the best response's win probability, by expectimax over every
/// position (the game has no hidden information).
fn best_win_against_random(
    game: &Interpreted,
    state: &<Interpreted as Game>::State,
    me: usize,
    memo: &mut std::collections::HashMap<<Interpreted as Game>::State, f64>,
) -> f64 {
    if let Some(&v) = memo.get(state) {
        return v;
    }
    let other = 1 - me;
    let mut moves = Vec::new();
    let child = |moves: &[_]| {
        let mut s = state.clone();
        game.apply_joint(&mut s, moves).unwrap();
        s
    };
    let v = match game.turn(state).unwrap() {
        Turn::Terminal => {
            let (mine, theirs) = (game.returns(state, me).unwrap(), game.returns(state, other).unwrap());
            if mine > theirs { 1.0 } else { 0.0 }
        }
        Turn::Chance => {
            let mut outcomes = Vec::new();
            game.chance_outcomes(state, &mut outcomes).unwrap();
            outcomes
                .iter()
                .map(|(mv, p)| {
                    let mut s = state.clone();
                    game.apply(&mut s, mv).unwrap();
                    p * best_win_against_random(game, &s, me, memo)
                })
                .sum()
        }
        Turn::Simultaneous => {
            let (mut mine, mut theirs) = (Vec::new(), Vec::new());
            game.legal_moves_of(state, me, &mut mine).unwrap();
            game.legal_moves_of(state, other, &mut theirs).unwrap();
            let mut best = 0.0f64;
            for a in &mine {
                let mut total = 0.0;
                for b in &theirs {
                    let joint = if me == 0 { [*a, *b] } else { [*b, *a] };
                    total += best_win_against_random(game, &child(&joint), me, memo);
                }
                best = best.max(total / theirs.len() as f64);
            }
            best
        }
        Turn::Player(p) => {
            game.legal_moves(state, &mut moves).unwrap();
            let values: Vec<f64> = moves
                .iter()
                .map(|mv| {
                    let mut s = state.clone();
                    game.apply(&mut s, mv).unwrap();
                    best_win_against_random(game, &s, me, memo)
                })
                .collect();
            if p == me {
                values.iter().copied().fold(0.0, f64::max)
            } else {
                values.iter().sum::<f64>() / values.len() as f64
            }
        }
    };
    memo.insert(state.clone(), v);
    v
}

#[test]
fn the_best_response_to_random_bounds_goofspiel_win_rates() {
    // With 2 cards: bidding the card that matches the first prize (2 on
    // the 2, 1 on the 1) wins when random bids the other card, one time
    // in two; the other bid never wins. So one half.
    let two = common::load_game("games/goofspiel.game", &[("cards", "2")]);
    let root = two.initial_state().unwrap();
    let v = best_win_against_random(&two, &root, 0, &mut Default::default());
    assert!((v - 0.5).abs() < 1e-12, "{v}");
    // The game is symmetric: so is the bound.
    let w = best_win_against_random(&two, &root, 1, &mut Default::default());
    assert!((w - v).abs() < 1e-12, "{w}");
    // Five cards, the check: no agent wins more often than this
    // against random (docs/SOLVERS.md gives the figure).
    let five = common::load_game("games/goofspiel.game", &[("cards", "5")]);
    let root = five.initial_state().unwrap();
    let mut memo = Default::default();
    let v = best_win_against_random(&five, &root, 0, &mut memo);
    println!(
        "goofspiel 5: the best response to random wins {v:.4} ({} positions)",
        memo.len()
    );
    assert!(v > 0.5 && v < 1.0, "{v}");
}

#[test]
fn tree_parallelism_shares_one_tree_and_one_thread_repeats_itself() {
    use gdl::solve::agents::mcts::{Parallelism, search};
    // Three threads on one tree: every simulation counted once at the
    // root, the virtual losses all taken back.
    let c4 = common::load_game("games/connect4.game", &[]);
    let root = c4.initial_state().unwrap();
    let cfg = MctsConfig {
        simulations: 3000,
        threads: 3,
        parallel: Parallelism::Tree,
        ..MctsConfig::default()
    };
    let r = search(&c4, &root, &[], 0, &cfg, &mut StdRng::seed_from_u64(1), &mut None).unwrap();
    assert_eq!(r.simulations, 3000);
    assert_eq!(r.moves.len(), 7);
    assert_eq!(r.moves.iter().map(|m| m.visits).sum::<u64>(), 3000);
    for m in &r.moves {
        // Win, draw or loss, whatever order the threads backed up in.
        assert!((-1.0..=1.0).contains(&m.mean()), "{}", m.mean());
    }
    // Proofs made by several threads are alpha-beta's: tic-tac-toe is a draw.
    let ttt = common::load_game("games/tictactoe.game", &[]);
    let start = ttt.initial_state().unwrap();
    let cfg = MctsConfig {
        simulations: 200_000,
        threads: 2,
        parallel: Parallelism::Tree,
        ..MctsConfig::default()
    };
    let r = search(&ttt, &start, &[], 0, &cfg, &mut StdRng::seed_from_u64(2), &mut None).unwrap();
    assert_eq!(r.proven(), Some(0.0));
    // One thread with a seed: the same search every time.
    let one = MctsConfig {
        simulations: 2000,
        threads: 1,
        parallel: Parallelism::Tree,
        ..MctsConfig::default()
    };
    let a = search(&c4, &root, &[], 0, &one, &mut StdRng::seed_from_u64(5), &mut None).unwrap();
    let b = search(&c4, &root, &[], 0, &one, &mut StdRng::seed_from_u64(5), &mut None).unwrap();
    assert_eq!(a, b);
}

#[test]
fn backing_up_scores_counts_a_players_own_points_and_the_win_bonus() {
    // Goofspiel with 2 cards: prize 2, A bids 2 and B 1 (A takes 2 points);
    // prize 1, and each has one card left, B's the higher (B takes 1). The
    // last bid's mean is the return (the margin, 1 for A) by default, the
    // player's own points with scores backed up, and B more for the winner
    // and B fewer for the loser with a win bonus of B.
    use gdl::solve::agents::mcts::Backup;
    let game = common::load_game("games/goofspiel.game", &[("cards", "2")]);
    let mut s = game.initial_state().unwrap();
    let prize = |s: &<Interpreted as Game>::State, card: &str| {
        let mut outcomes = Vec::new();
        game.chance_outcomes(s, &mut outcomes).unwrap();
        outcomes
            .into_iter()
            .find(|(m, _)| game.move_text(m).contains(card))
            .unwrap()
            .0
    };
    let bid = |s: &<Interpreted as Game>::State, p: usize, card: &str| {
        let mut moves = Vec::new();
        game.legal_moves_of(s, p, &mut moves).unwrap();
        moves.into_iter().find(|m| game.move_text(m) == card).unwrap()
    };
    let two = prize(&s, "2");
    game.apply(&mut s, &two).unwrap();
    let joint = [bid(&s, 0, "2"), bid(&s, 1, "1")];
    game.apply_joint(&mut s, &joint).unwrap();
    let one = prize(&s, "1");
    game.apply(&mut s, &one).unwrap();
    let mean = |player: usize, backup: Backup, win_bonus: f64| {
        let cfg = MctsConfig {
            simulations: 50,
            backup,
            win_bonus,
            ..MctsConfig::default()
        };
        let mut search = Search::new(&game, &s, player, cfg, 1).unwrap();
        search.run(&game).unwrap();
        let r = search.result(&game);
        assert_eq!(r.moves.len(), 1);
        r.moves[0].mean()
    };
    assert_eq!(mean(0, Backup::Returns, 0.0), 1.0);
    assert_eq!(mean(1, Backup::Returns, 0.0), -1.0);
    assert_eq!(mean(0, Backup::Score, 0.0), 2.0);
    assert_eq!(mean(1, Backup::Score, 0.0), 1.0);
    assert_eq!(mean(0, Backup::Score, 3.0), 5.0);
    assert_eq!(mean(1, Backup::Score, 3.0), -2.0);
    // The bonus belongs to scores; returns are backed up as they are.
    assert_eq!(mean(0, Backup::Returns, 3.0), 1.0);
}

/// Two turns of taking points, the fewest points winning: A takes 3, 5 or
/// 9, then B has one move left, taking 4.
const TALLY: &str = "game Tally
players A, B
state points: per player int = 0
state taken: int = 0
move take(n in [3, 5, 9]) requires taken == 0 {
    points[current] += n
    taken += 1
}
move take_four() requires taken == 1 {
    points[current] += 4
    taken += 1
}
end when taken == 2 { lowest points wins }
";

#[test]
fn backing_up_scores_counts_points_the_right_way_round_where_the_fewest_win() {
    // B's one move: its mean with scores backed up is minus B's 4 points,
    // plus the bonus if A took more (a win) or minus it if A took fewer.
    use gdl::solve::agents::mcts::Backup;
    let game = Interpreted::new(gdl::compile::load("tally.game", TALLY, &[]).unwrap());
    let mean = |s: &<Interpreted as Game>::State, player: usize, win_bonus: f64| {
        let cfg = MctsConfig {
            simulations: 20,
            backup: Backup::Score,
            win_bonus,
            ..MctsConfig::default()
        };
        let mut search = Search::new(&game, s, player, cfg, 1).unwrap();
        search.run(&game).unwrap();
        search.result(&game)
    };
    let start = game.initial_state().unwrap();
    let mut firsts = Vec::new();
    game.legal_moves(&start, &mut firsts).unwrap();
    for (a, won) in [("3", -1.0), ("5", 1.0), ("9", 1.0)] {
        let mut s = start.clone();
        let mv = firsts.iter().find(|m| game.move_text(m).contains(a)).unwrap();
        game.apply(&mut s, mv).unwrap();
        for bonus in [0.0, 2.5] {
            let r = mean(&s, 1, bonus);
            assert_eq!(r.moves.len(), 1);
            assert_eq!(r.moves[0].mean(), -4.0 + bonus * won, "A took {a}, bonus {bonus}");
        }
    }
    // A, searching: taking 3 (3 points and the win) is worth -3 + 2.5, the
    // most; 9 (and the loss) -9 - 2.5.
    let r = mean(&start, 0, 2.5);
    let of = |a: &str| {
        r.moves
            .iter()
            .find(|m| game.move_text(&m.mv).contains(a))
            .unwrap()
            .mean()
    };
    assert_eq!(of("3"), -0.5);
    assert_eq!(of("9"), -11.5);
    assert_eq!(r.moves.len(), 3);
}

#[test]
fn implicit_minimax_sees_the_trap_that_random_playouts_hide() {
    // tests/inputs/solvers/trap.game: random playouts rate the trap +7/9
    // for Max, where Min wins it; the file's `evaluate` is exact. Without
    // proofs (which would see the trap by themselves), plain UCT walks into
    // it, and with the heuristic minimax value weighed in it takes the draw.
    let game = common::load_game("tests/inputs/solvers/trap.game", &[]);
    let root = game.initial_state().unwrap();
    let choice = |minimax: f64, seed: u64| {
        let cfg = MctsConfig {
            simulations: 60,
            solver: false,
            minimax,
            ..MctsConfig::default()
        };
        let mut search = Search::new(&game, &root, 0, cfg, seed).unwrap();
        search.run(&game).unwrap();
        let result = search.result(&game);
        let best = result.best(&mut StdRng::seed_from_u64(seed));
        game.move_text(&result.moves[best].mv)
    };
    let seeds = 0..20;
    let plain = seeds.clone().filter(|&s| choice(0.0, s) == "trap").count();
    let implicit: Vec<String> = seeds.map(|s| choice(0.5, s)).collect();
    assert!(plain >= 15, "plain UCT took the trap {plain} times of 20");
    assert!(implicit.iter().all(|m| m == "draw_now"), "{implicit:?}");
}
