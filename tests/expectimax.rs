//! Expectiminimax: against published values (Piglet), an independent value
//! iteration (Pig), brute force (tiny acyclic dice games) and alpha-beta
//! (games without chance, where both apply).

use crate::common;
use crate::native_extra;

use gdl::game::{Game, GameError, Player, Turn};
use gdl::solve::SolveError;
use gdl::solve::exact::expectimax::{self, ChanceOptions, LineEnd, Method, Root, Step};
use native_extra::kuhn::Kuhn;
use native_extra::pig::{Pig, PigMove};

/// Player 0's chance of winning, from its expected utility (+1 win, -1 loss)
/// in a game that ends with probability 1.
fn win_probability(value: f64) -> f64 {
    (value + 1.0) / 2.0
}

fn solve<G: Game>(game: &G, root: &G::State) -> expectimax::ChanceSolution<G::Move> {
    expectimax::solve(game, root, &ChanceOptions::default()).unwrap()
}

#[test]
fn piglet_to_two_has_the_published_values() {
    // Neller & Presser (2004), Piglet with goal 2: P(i, j, k) is the
    // chance that the player to move wins with score i, the opponent's
    // score j and turn total k.
    let published = [
        ((0, 0, 0), 4.0 / 7.0),
        ((0, 0, 1), 5.0 / 7.0),
        ((0, 1, 0), 2.0 / 5.0),
        ((0, 1, 1), 3.0 / 5.0),
        ((1, 0, 0), 4.0 / 5.0),
        ((1, 1, 0), 2.0 / 3.0),
    ];
    let game = Pig::piglet(2);
    for ((i, j, k), p) in published {
        for to_move in 0..2 {
            let root = game.position(i, j, k, to_move);
            let s = solve(&game, &root);
            assert!(matches!(s.method, Method::ValueIteration { .. }), "{:?}", s.method);
            let mover = if to_move == 0 { s.value } else { -s.value };
            assert!(
                (win_probability(mover) - p).abs() < 1e-9,
                "P({i}, {j}, {k}) = {} for player {to_move}, published {p}",
                win_probability(mover)
            );
        }
    }
    // Their optimal policy flips in every one of those positions.
    let s = solve(&game, &game.initial_state().unwrap());
    assert_eq!(s.best_moves(), vec![PigMove::Roll]);
}

/// Pig's win probabilities by value iteration on (my score, their score,
/// turn total), written from the rules, independently of the solver.
// Indices read like the equations here.
#[allow(clippy::needless_range_loop)]
fn pig_by_hand(goal: usize, faces: &[usize]) -> Vec<Vec<Vec<f64>>> {
    let mut p = vec![vec![vec![0.5; goal]; goal]; goal];
    let chance = 1.0 / faces.len() as f64;
    loop {
        let mut change = 0.0f64;
        for i in 0..goal {
            for j in 0..goal {
                for k in 0..goal - i {
                    let hold = 1.0 - p[j][i + k][0];
                    let mut roll = 0.0;
                    for &f in faces {
                        roll += chance
                            * if f == 0 {
                                1.0 - p[j][i][0]
                            } else if i + k + f >= goal {
                                1.0
                            } else {
                                p[i][j][k + f]
                            };
                    }
                    let v = hold.max(roll);
                    change = change.max((v - p[i][j][k]).abs());
                    p[i][j][k] = v;
                }
            }
        }
        if change < 1e-14 {
            return p;
        }
    }
}

#[test]
fn pig_to_a_small_goal_agrees_with_value_iteration_written_from_the_rules() {
    let game = Pig::dice(12);
    let p = pig_by_hand(12, &[0, 2, 3, 4, 5, 6]);
    for (i, j, k) in [(0, 0, 0), (5, 3, 0), (3, 5, 4), (10, 0, 0), (0, 10, 6)] {
        let s = solve(&game, &game.position(i, j, k, 0));
        let expected = p[i as usize][j as usize][k as usize];
        assert!(
            (win_probability(s.value) - expected).abs() < 1e-9,
            "({i}, {j}, {k}): solver {}, by hand {expected}",
            win_probability(s.value)
        );
    }
    // Moving first is an advantage (at goal 100 it is 0.53; at 12, larger).
    let first = p[0][0][0];
    assert!(first > 0.5, "{first}");
}

/// Expectiminimax by plain recursion, without a memo table: brute force.
fn brute_force<G: Game>(game: &G, s: &G::State) -> f64 {
    match game.turn(s).unwrap() {
        Turn::Terminal => game.returns(s, 0).unwrap(),
        Turn::Chance => {
            let mut outcomes = Vec::new();
            game.chance_outcomes(s, &mut outcomes).unwrap();
            outcomes
                .iter()
                .map(|(m, p)| {
                    let mut c = s.clone();
                    game.apply(&mut c, m).unwrap();
                    p * brute_force(game, &c)
                })
                .sum()
        }
        Turn::Player(p) => {
            let mut moves = Vec::new();
            game.legal_moves(s, &mut moves).unwrap();
            let values = moves.iter().map(|m| {
                let mut c = s.clone();
                game.apply(&mut c, m).unwrap();
                brute_force(game, &c)
            });
            if p == 0 {
                values.fold(f64::NEG_INFINITY, f64::max)
            } else {
                values.fold(f64::INFINITY, f64::min)
            }
        }
        Turn::Simultaneous => unreachable!("no simultaneous moves here"),
    }
}

#[test]
fn tiny_dice_games_agree_with_brute_force() {
    let games = [
        Pig {
            goal: 3,
            faces: vec![0, 1],
            max_turns: Some(4),
        },
        Pig {
            goal: 5,
            faces: vec![0, 2, 3],
            max_turns: Some(3),
        },
        Pig {
            goal: 8,
            faces: vec![0, 2, 3, 4, 5, 6],
            max_turns: Some(2),
        },
    ];
    for game in games {
        let root = game.initial_state().unwrap();
        let s = solve(&game, &root);
        assert_eq!(s.method, Method::BackwardInduction);
        let expected = brute_force(&game, &root);
        assert!(
            (s.value - expected).abs() < 1e-12,
            "{game:?}: {} vs {expected}",
            s.value
        );
        // Every root move's value, too.
        let Root::Player { moves, .. } = &s.root else {
            panic!("the first player moves first")
        };
        for m in moves {
            let mut c = root;
            game.apply(&mut c, &m.mv).unwrap();
            assert!((m.value - brute_force(&game, &c)).abs() < 1e-12);
        }
        assert!(
            s.memo_hits > 0 && s.states > 0 && s.nodes == s.states + s.memo_hits,
            "{s:?}"
        );
        assert_eq!(s.line_end, LineEnd::Terminal);
    }
}

/// One choice, then a biased coin: a safe 0.2, or a gamble that wins 1 with
/// probability 0.7 and loses 1 otherwise (worth 0.4).
#[derive(Clone, Debug)]
struct Gamble;

impl Game for Gamble {
    type State = u8;
    type Move = &'static str;
    fn name(&self) -> &str {
        "Gamble"
    }
    fn num_players(&self) -> usize {
        2
    }
    fn player_name(&self, p: Player) -> &str {
        ["A", "B"][p]
    }
    fn initial_state(&self) -> Result<u8, GameError> {
        Ok(0)
    }
    fn turn(&self, s: &u8) -> Result<Turn, GameError> {
        Ok(match s {
            0 => Turn::Player(0),
            1 => Turn::Chance,
            _ => Turn::Terminal,
        })
    }
    fn legal_moves(&self, s: &u8, out: &mut Vec<&'static str>) -> Result<(), GameError> {
        out.clear();
        out.extend(match s {
            0 => ["safe", "gamble"],
            _ => ["lose", "win"],
        });
        Ok(())
    }
    fn chance_outcomes(&self, _: &u8, out: &mut Vec<(&'static str, f64)>) -> Result<(), GameError> {
        out.clear();
        out.extend([("lose", 0.3), ("win", 0.7)]);
        Ok(())
    }
    fn apply(&self, s: &mut u8, mv: &&'static str) -> Result<(), GameError> {
        *s = match *mv {
            "safe" => 2,
            "gamble" => 1,
            "lose" => 3,
            _ => 4,
        };
        Ok(())
    }
    fn returns(&self, s: &u8, p: Player) -> Result<f64, GameError> {
        let v = match s {
            2 => 0.2,
            3 => -1.0,
            _ => 1.0,
        };
        Ok(if p == 0 { v } else { -v })
    }
    fn move_text(&self, mv: &&'static str) -> String {
        mv.to_string()
    }
    fn state_text(&self, s: &u8) -> String {
        s.to_string()
    }
}

#[test]
fn the_line_follows_the_most_likely_outcome_and_every_root_move_has_its_value() {
    let s = solve(&Gamble, &0);
    assert!((s.value - 0.4).abs() < 1e-12);
    assert_eq!(
        s.line,
        vec![
            Step::Move {
                player: 0,
                mv: "gamble"
            },
            Step::Chance {
                outcome: "win",
                probability: 0.7
            }
        ]
    );
    let Root::Player { moves, best, .. } = &s.root else {
        panic!("{:?}", s.root)
    };
    assert_eq!(best, &vec!["gamble"]);
    let values: Vec<(&str, f64)> = moves.iter().map(|m| (m.mv, m.value)).collect();
    assert_eq!(values.len(), 2);
    assert!((values[0].1 - 0.2).abs() < 1e-12 && (values[1].1 - 0.4).abs() < 1e-12);
    // From the chance node itself: each outcome with its probability.
    let s = solve(&Gamble, &1);
    let Root::Chance { outcomes } = &s.root else { panic!() };
    assert_eq!(outcomes[1].probability, Some(0.7));
    assert_eq!(outcomes[1].value, 1.0);
}

#[test]
fn games_without_chance_agree_with_alpha_beta() {
    let cases: [(&str, &[(&str, &str)]); 5] = [
        ("games/nim.game", &[("piles", "1,2,3")]),
        ("games/nim.game", &[("piles", "2,2,3")]),
        ("games/nim-normal.game", &[("piles", "1,3,4")]),
        ("games/nimcala.game", &[("pits", "3"), ("tokens", "4")]),
        ("games/select19.game", &[]),
    ];
    for (path, params) in cases {
        let game = common::load_game(path, params);
        let root = game.initial_state().unwrap();
        let ours = solve(&game, &root);
        let theirs = gdl::solve::solve(&game, &root, &Default::default()).unwrap();
        assert_eq!(ours.value, theirs.value, "{path} {params:?}");
        assert_eq!(ours.best_moves(), theirs.best_moves, "{path} {params:?}");
        let explained = gdl::solve::explain(&game, &root, &Default::default()).unwrap();
        let Root::Player { moves, .. } = &ours.root else {
            panic!()
        };
        let ours: Vec<_> = moves.iter().map(|m| (m.mv, m.value)).collect();
        let theirs: Vec<_> = explained.into_iter().map(|m| (m.mv, m.value)).collect();
        assert_eq!(ours, theirs, "{path} {params:?}");
    }
}

#[test]
fn hidden_information_is_refused() {
    let err = expectimax::solve(&Kuhn, &Kuhn.initial_state().unwrap(), &ChanceOptions::default()).unwrap_err();
    let SolveError::NotApplicable { message, help } = &err else {
        panic!("{err:?}")
    };
    assert!(
        message.contains("cannot tell") && message.contains("hidden information"),
        "{message}"
    );
    assert!(help.contains("CFR"), "{help}");
    // X Nimmt!'s hands are private.
    let game = common::load_game("games/xnimmt.game", &[("K", "5"), ("R", "1"), ("N", "2"), ("X", "2")]);
    let err = expectimax::solve(&game, &game.initial_state().unwrap(), &ChanceOptions::default()).unwrap_err();
    assert!(matches!(err, SolveError::NotApplicable { .. }), "{err:?}");
}

#[test]
fn limits_stop_the_search_with_a_budget_error() {
    let game = Pig::dice(20);
    let opts = ChanceOptions {
        max_states: Some(100),
        ..ChanceOptions::default()
    };
    let err = expectimax::solve(&game, &game.initial_state().unwrap(), &opts).unwrap_err();
    assert!(matches!(err, SolveError::Budget { what: "states", .. }), "{err:?}");
    let opts = ChanceOptions {
        max_sweeps: 3,
        ..ChanceOptions::default()
    };
    let err = expectimax::solve(&game, &game.initial_state().unwrap(), &opts).unwrap_err();
    assert!(matches!(err, SolveError::Budget { what: "sweeps", .. }), "{err:?}");
}

/// A `canonical` block keys expectiminimax's table too: Nim whose first
/// move is a chance deal of one more object to a random row, with and
/// without the rows sorted, has the same value, best moves and line, from
/// fewer positions.
#[test]
fn a_canonical_form_keys_the_table_by_representatives() {
    let plain = "game DealtNim\nplayers A, B\n\
         state board: list<int> = [2, 1, 3, 1]\nstate dealt: bool = false\n\
         chance move deal(i in 0..3) requires not dealt {\n board[i] += 1\n dealt = true\n}\n\
         move take(row in 0..3, n in 1..board[row]) requires dealt {\n board[row] -= n\n}\n\
         end when dealt and sum(board) == 0 { loser previous }\n";
    let sorted = plain.replace("end when", "canonical { board.sort() }\nend when");
    let load = |text: &str| gdl::runtime::Interpreted::new(gdl::compile::load("dealt.game", text, &[]).unwrap());
    let (a, b) = (load(plain), load(&sorted));
    let root = a.initial_state().unwrap();
    assert_eq!(a.turn(&root).unwrap(), Turn::Chance);
    let (x, y) = (solve(&a, &root), solve(&b, &b.initial_state().unwrap()));
    assert!((x.value - y.value).abs() < 1e-12, "{} against {}", x.value, y.value);
    assert_eq!(x.line, y.line);
    assert!(y.states * 2 < x.states, "{} sorted, {} plain", y.states, x.states);
    // From a dealt position that is not its own representative.
    let from = "board: [3, 1, 0, 2], dealt: true; B to move";
    let (ra, rb) = (a.parse_position(from).unwrap(), b.parse_position(from).unwrap());
    let (x, y) = (solve(&a, &ra), solve(&b, &rb));
    assert_eq!((x.value, x.best_moves()), (y.value, y.best_moves()));
}

/// `gdl tree --values` on a game with dice: a chance node's value is the
/// expectation of its outcomes' values, a player's node the best of its
/// children for that player, the optimal moves are those that keep the
/// value, and the root's value is `gdl solve`'s.
#[test]
fn tree_values_at_chance_nodes_are_expectations() {
    let tree = common::gdl(&[
        "tree",
        "games/pig.game",
        "--target",
        "3",
        "--depth",
        "4",
        "--values",
        "--json",
    ]);
    assert_eq!(tree.code, 0, "{}", tree.stderr);
    let tree: serde_json::Value = serde_json::from_str(&tree.stdout).unwrap();
    let nodes = tree["nodes"].as_array().unwrap();
    let value = |i: &serde_json::Value| nodes[i.as_u64().unwrap() as usize]["value"].as_f64().unwrap();
    let (mut chance, mut chosen) = (0, 0);
    for n in nodes {
        let children = n["children"].as_array().unwrap();
        if children.is_empty() {
            continue;
        }
        let v = n["value"].as_f64().unwrap();
        match n["status"]["kind"].as_str().unwrap() {
            "chance" => {
                let p = |i: &serde_json::Value| {
                    nodes[i.as_u64().unwrap() as usize]["edge"]["probability"]
                        .as_f64()
                        .unwrap()
                };
                let expected: f64 = children.iter().map(|c| p(c) * value(c)).sum();
                assert!(
                    (v - expected).abs() < 1e-9,
                    "chance node {}: {v} against {expected}",
                    n["id"]
                );
                chance += 1;
            }
            "player" => {
                let first = n["status"]["player"] == "A";
                let best = children
                    .iter()
                    .map(value)
                    .fold(if first { f64::MIN } else { f64::MAX }, |a, b| {
                        if first { a.max(b) } else { a.min(b) }
                    });
                assert!(
                    (v - best).abs() < 1e-9,
                    "node {}: {v} against the best child {best}",
                    n["id"]
                );
                for c in children {
                    let optimal = nodes[c.as_u64().unwrap() as usize]["edge"]["optimal"]
                        .as_bool()
                        .unwrap();
                    assert_eq!(
                        optimal,
                        (value(c) - v).abs() < 1e-9,
                        "node {}: the mark of child {c}",
                        n["id"]
                    );
                }
                chosen += 1;
            }
            other => panic!("a {other} node in Pig"),
        }
    }
    assert!(
        chance >= 3 && chosen >= 3,
        "{chance} chance nodes and {chosen} choices checked"
    );
    let solve = common::gdl(&["solve", "games/pig.game", "--target", "3", "--json"]);
    let solved: serde_json::Value = serde_json::from_str(&solve.stdout).unwrap();
    assert!((solved["value"].as_f64().unwrap() - nodes[0]["value"].as_f64().unwrap()).abs() < 1e-9);
}

#[test]
fn tree_values_of_pig_read_as_expectations() {
    let run = common::gdl(&["tree", "games/pig.game", "--target", "2", "--depth", "2", "--values"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    common::snapshot_settings().bind(|| insta::assert_snapshot!("tree_pig_values", run.stdout));
}

/// The hidden-information check hashes what each player sees without
/// writing it out (`Game::observation_hash`): two positions get the same
/// hash exactly when they look the same (`Game::observation`), on games
/// with hidden and private state, along random games.
#[test]
fn observation_hashes_tell_apart_what_observations_do() {
    use rand::SeedableRng;
    use rand::seq::IndexedRandom;
    let games = [
        common::load_game("games/kuhn-poker.game", &[]),
        common::load_game("games/xnimmt.game", &[("K", "5"), ("R", "1"), ("N", "2"), ("X", "2")]),
        common::load_game("games/pig.game", &[("target", "8")]),
    ];
    let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    for game in &games {
        let mut seen = Vec::new();
        for _ in 0..40 {
            let mut s = game.initial_state().unwrap();
            for _ in 0..30 {
                seen.push(s.clone());
                let mut moves = Vec::new();
                match game.turn(&s).unwrap() {
                    Turn::Terminal => break,
                    Turn::Chance => {
                        let mut outcomes = Vec::new();
                        game.chance_outcomes(&s, &mut outcomes).unwrap();
                        let (m, _) = *outcomes.choose(&mut rng).unwrap();
                        game.apply(&mut s, &m).unwrap();
                    }
                    Turn::Simultaneous => {
                        let joint: Vec<_> = (0..game.num_players())
                            .map(|p| {
                                game.legal_moves_of(&s, p, &mut moves).unwrap();
                                *moves.choose(&mut rng).unwrap()
                            })
                            .collect();
                        game.apply_joint(&mut s, &joint).unwrap();
                    }
                    Turn::Player(_) => {
                        game.legal_moves(&s, &mut moves).unwrap();
                        let m = *moves.choose(&mut rng).unwrap();
                        game.apply(&mut s, &m).unwrap();
                    }
                }
            }
        }
        let mut alike = 0;
        for p in 0..game.num_players() {
            let texts: Vec<String> = seen.iter().map(|s| game.observation(s, p)).collect();
            let hashes: Vec<u64> = seen.iter().map(|s| game.observation_hash(s, p)).collect();
            for i in 0..seen.len() {
                for j in 0..i {
                    assert_eq!(
                        texts[i] == texts[j],
                        hashes[i] == hashes[j],
                        "{} and {}",
                        texts[i],
                        texts[j]
                    );
                    alike += usize::from(texts[i] == texts[j] && seen[i] != seen[j]);
                }
            }
        }
        // Kuhn poker and X Nimmt! have positions that differ and look alike.
        assert!(game.name() == "Pig" || alike > 0, "{}", game.name());
    }
}

/// One player against chance (issue 42: blackjack needed a dummy second
/// player): expectimax maximizes the expected payoff. A die and one
/// reroll: keep 4, 5 or 6, roll 1, 2 or 3 again, worth
/// (4 + 5 + 6) / 6 + 3 / 6 × 3.5 = 4.25; after a first roll of f the value
/// is max(f, 3.5). The command line solves it too, and says so in JSON.
#[test]
fn one_player_against_chance_gets_the_best_expected_payoff() {
    let game = common::load_game("tests/inputs/solvers/reroll.game", &[]);
    let root = game.initial_state().unwrap();
    let s = solve(&game, &root);
    assert_eq!(s.value, 4.25);
    let Root::Chance { outcomes } = &s.root else {
        panic!("a chance node at the start: {:?}", s.root)
    };
    for (f, o) in outcomes.iter().enumerate() {
        let face = (f + 1) as f64;
        assert_eq!(o.value, face.max(3.5), "{}", game.move_text(&o.mv));
    }
    let after_three =
        gdl::game::FileGame::parse_position(&game, "rolls: 1, face: 3, kept: false, rolling: false; You to move")
            .unwrap();
    let texts = |ms: Vec<gdl::runtime::Move>| ms.iter().map(|m| game.move_text(m)).collect::<Vec<_>>();
    assert_eq!(texts(solve(&game, &after_three).best_moves()), ["reroll"]);
    // `optimal` plays it: keeps 4, 5 and 6, rolls 1, 2 and 3 again.
    {
        use gdl::solve::agent_builder::{AgentOptions, MoveKinds, build_agent};
        let spec = "optimal".parse().unwrap();
        let mut agent = build_agent(&spec, &game, MoveKinds::of(game.program()), 1, &AgentOptions::default()).unwrap();
        agent.new_game(&game, 1).unwrap();
        for face in 1..=6 {
            let s = gdl::game::FileGame::parse_position(
                &game,
                &format!("rolls: 1, face: {face}, kept: false, rolling: false; You to move"),
            )
            .unwrap();
            let mut moves = Vec::new();
            game.legal_moves(&s, &mut moves).unwrap();
            let chosen = agent.choose(&game, &s, 0, &moves).unwrap().mv;
            let want = if face >= 4 { "keep" } else { "reroll" };
            assert_eq!(game.move_text(&chosen), want, "face {face}");
        }
    }
    let run = common::gdl(&["solve", "tests/inputs/solvers/reroll.game", "--json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(json["value"].as_f64(), Some(4.25), "{}", run.stdout);
}
