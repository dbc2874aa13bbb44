//! games/xnimmt.game against the rules of seed 000, on hand-made situations,
//! and on many random games of many configurations.

use crate::common;

use common::conformance_of_file;
use gdl::compile::{self, Value};
use gdl::game::{Game, Turn};
use gdl::runtime::{Interpreted, State};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn load(bindings: &[(&str, String)]) -> Result<Interpreted, compile::CompileErrors> {
    let text = std::fs::read_to_string("games/xnimmt.game").unwrap();
    let b: Vec<(String, String)> = bindings.iter().map(|(a, v)| (a.to_string(), v.clone())).collect();
    compile::load("xnimmt.game", &text, &b).map(Interpreted::new)
}

fn game(p: usize, k: usize, r: usize, n: usize, x: usize) -> Interpreted {
    load(&[
        ("P", p.to_string()),
        ("K", k.to_string()),
        ("R", r.to_string()),
        ("N", n.to_string()),
        ("X", x.to_string()),
    ])
    .unwrap_or_else(|e| panic!("{e}"))
}

/// Seed 000's point values, written independently of the game file.
fn points(card: i64, k: i64) -> i64 {
    if card == k / 2 {
        7
    } else if card % 7 == 0 {
        5
    } else if card % 5 == 0 {
        3
    } else if card % 3 == 0 {
        2
    } else {
        1
    }
}

fn ints(v: Value) -> Vec<i64> {
    match v {
        Value::List(items) => items
            .into_iter()
            .map(|i| match i {
                Value::Int(n) => n,
                other => panic!("{other:?}"),
            })
            .collect(),
        other => panic!("{other:?}"),
    }
}

fn rows(g: &Interpreted, s: &State) -> Vec<Vec<i64>> {
    match g.value_of(s, "rows").unwrap() {
        Value::List(rows) => rows.into_iter().map(ints).collect(),
        other => panic!("{other:?}"),
    }
}

/// A two-player position mid-game: the deal done, these hands and rows.
fn position(g: &Interpreted, hands: [&str; 2], rows: &str, dealt: usize) -> State {
    let text = format!(
        "deck: {{}}, hands: [{{{}}}, {{{}}}], rows: {rows}, collected: [0, 0], played: [0, 0], dealt: {dealt}, round: 0, starts: {{}}",
        hands[0], hands[1]
    );
    g.parse_position(&text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Both players play these cards at once.
fn play(g: &Interpreted, s: &State, cards: [i64; 2]) -> State {
    assert_eq!(g.turn(s).unwrap(), Turn::Simultaneous);
    let moves: Vec<_> = (0..2)
        .map(|p| g.parse_move_of(s, p, &cards[p].to_string()).unwrap())
        .collect();
    let mut next = s.clone();
    g.apply_joint(&mut next, &moves).unwrap();
    next
}

#[test]
fn card_values_of_a_17_card_deck() {
    // One row holding card c; P1 plays 1, below every row, and so takes the row: c's points.
    let g = game(2, 17, 1, 1, 4);
    for c in 2..=17 {
        let b = if c == 17 { 16 } else { 17 };
        let s = position(&g, ["1", &b.to_string()], &format!("[[{c}]]"), 3);
        let after = play(&g, &s, [1, b]);
        assert_eq!(
            ints(g.value_of(&after, "collected").unwrap()),
            vec![points(c, 17), 0],
            "card {c}"
        );
    }
    // As the seed says: card 15 is worth 3, card 8 of a 17-card deck 7.
    assert_eq!((points(15, 17), points(8, 17)), (3, 7));
}

#[test]
fn a_card_goes_after_the_largest_last_card_below_it_and_the_xth_card_takes_the_row() {
    // Seed 000's figure 2, in kind: 8 fits only after 2; 17 goes after 16 as the
    // 4th card of its row, so its player takes the three cards before it.
    let g = game(2, 17, 3, 2, 4);
    let s = position(&g, ["8, 3", "17, 6"], "[[2], [10, 13], [4, 15, 16]]", 7);
    let after = play(&g, &s, [8, 17]);
    assert_eq!(rows(&g, &after), vec![vec![2, 8], vec![10, 13], vec![17]]);
    let taken = points(4, 17) + points(15, 17) + points(16, 17);
    assert_eq!(ints(g.value_of(&after, "collected").unwrap()), vec![0, taken]);
    assert_eq!(ints(g.value_of(&after, "played").unwrap()), vec![8, 17]);
}

#[test]
fn no_row_fits_takes_the_row_with_fewest_points_the_first_on_a_tie() {
    let g = game(2, 17, 3, 2, 4);
    // Rows worth 1, 1, 1: P1's card 1 fits nowhere and takes the first row.
    let s = position(&g, ["1, 3", "16, 6"], "[[4], [2], [11]]", 7);
    let after = play(&g, &s, [1, 16]);
    assert_eq!(rows(&g, &after), vec![vec![1], vec![2], vec![11, 16]]);
    assert_eq!(ints(g.value_of(&after, "collected").unwrap()), vec![1, 0]);
    // Rows worth 3 (10), 3 (5) and 2 (12): the cheapest is the third.
    let s = position(&g, ["1, 3", "16, 6"], "[[10], [5], [12]]", 7);
    let after = play(&g, &s, [1, 16]);
    // 16 then goes after the largest last card below it: 10.
    assert_eq!(rows(&g, &after), vec![vec![10, 16], vec![5], vec![1]]);
    assert_eq!(ints(g.value_of(&after, "collected").unwrap()), vec![2, 0]);
}

#[test]
fn cards_are_placed_in_ascending_order_not_seat_order() {
    let g = game(2, 17, 1, 2, 4);
    // The row is full (3 cards): the lower card, P2's 10, comes first and takes it.
    let s = position(&g, ["12, 1", "10, 2"], "[[3, 6, 9]]", 5);
    let after = play(&g, &s, [12, 10]);
    assert_eq!(rows(&g, &after), vec![vec![10, 12]]);
    assert_eq!(ints(g.value_of(&after, "collected").unwrap()), vec![0, 6]);
}

#[test]
fn the_variant_lets_a_row_hold_x_cards() {
    let text = std::fs::read_to_string("games/xnimmt.game").unwrap();
    let b = [("R", "1"), ("N", "2"), ("holds", "4")].map(|(a, v)| (a.to_string(), v.to_string()));
    let g = Interpreted::new(compile::load("xnimmt.game", &text, &b).unwrap());
    let s = position(&g, ["12, 1", "10, 2"], "[[3, 6, 9]]", 5);
    let after = play(&g, &s, [12, 10]);
    // 10 is the 4th card and stays; 12 is the 5th and takes the four before it.
    assert_eq!(rows(&g, &after), vec![vec![12]]);
    assert_eq!(ints(g.value_of(&after, "collected").unwrap()), vec![2 + 2 + 2 + 3, 0]);
}

#[test]
fn the_last_round_leaves_no_choice_and_the_fewest_points_win() {
    let g = game(2, 17, 1, 1, 4);
    let s = position(&g, ["5", "9"], "[[3]]", 3);
    for p in 0..2 {
        let mut moves = Vec::new();
        g.legal_moves_of(&s, p, &mut moves).unwrap();
        assert_eq!(moves.len(), 1);
    }
    let end = play(&g, &s, [5, 9]);
    assert_eq!(g.turn(&end).unwrap(), Turn::Terminal);
    assert_eq!(rows(&g, &end), vec![vec![3, 5, 9]]);
    assert_eq!(g.scores(&end).unwrap(), Some(vec![0.0, 0.0]));
    assert!(g.lowest_score_wins());
    assert_eq!((g.returns(&end, 0).unwrap(), g.returns(&end, 1).unwrap()), (0.0, 0.0));
}

/// (That a state drawn for a player looks the same to them is checked along
/// random games, by `random_games_of_many_configurations_keep_every_point`.)
#[test]
fn a_player_sees_their_own_hand_and_not_the_others() {
    let g = game(2, 17, 3, 2, 4);
    let s = position(&g, ["8, 3", "17, 6"], "[[2], [10, 13], [4, 15, 16]]", 7);
    let seen = g.observation(&s, 0);
    assert!(seen.contains("hands: [{3, 8}, ?]"), "{seen}");
    assert!(seen.contains("deck: ?"), "{seen}");
    assert!(
        g.observation(&s, 1).contains("hands: [?, {6, 17}]"),
        "{}",
        g.observation(&s, 1)
    );
}

#[test]
fn invalid_configurations_are_clear_errors() {
    let cases: [(&[(&str, &str)], &str); 4] = [
        (&[("K", "12")], "gdl::compile::requirement"),
        (&[("P", "4"), ("N", "5")], "gdl::compile::requirement"),
        (&[("P", "1")], "gdl::compile::param_range"),
        (&[("X", "0")], "gdl::compile::param_range"),
    ];
    for (bindings, code) in cases {
        let b: Vec<(&str, String)> = bindings.iter().map(|(a, v)| (*a, v.to_string())).collect();
        let e = load(&b)
            .err()
            .unwrap_or_else(|| panic!("{bindings:?} must be rejected"));
        assert_eq!(e.errors[0].code, code, "{bindings:?}");
    }
}

/// Random games of many valid configurations keep the contract of `Game`
/// (tests/common/conformance.rs), and at the end every point dealt is
/// either collected or on the table.
#[test]
fn random_games_of_many_configurations_keep_every_point() {
    let configs = [
        (2, 17, 3, 5, 4),
        (2, 25, 4, 6, 5),
        (2, 13, 2, 4, 3),
        (3, 17, 3, 4, 4),
        (4, 40, 4, 8, 6),
        (2, 5, 1, 2, 2),
        (5, 104, 4, 10, 6),
    ];
    for (seed, (p, k, r, n, x)) in configs.into_iter().enumerate() {
        let g = game(p, k, r, n, x);
        for s in conformance_of_file(&g, 40, seed as u64) {
            let deck: Vec<i64> = match g.value_of(&s, "deck").unwrap() {
                Value::Set(d) => d.into_iter().collect(),
                other => panic!("{other:?}"),
            };
            let k = k as i64;
            let dealt_points: i64 = (1..=k).filter(|c| !deck.contains(c)).map(|c| points(c, k)).sum();
            let collected: i64 = ints(g.value_of(&s, "collected").unwrap()).iter().sum();
            let table: i64 = rows(&g, &s).iter().flatten().map(|&c| points(c, k)).sum();
            assert_eq!(collected + table, dealt_points, "P{p} K{k} R{r} N{n} X{x}");
            assert_eq!(deck.len() as i64, k - (p * n + r) as i64);
            for row in rows(&g, &s) {
                assert!(!row.is_empty() && row.len() < x, "{row:?}");
            }
        }
    }
}

/// Plays `games` games of `search` (seat alternating) against random players;
/// returns (search's average points, the others' average points).
fn search_against_random(g: &Interpreted, games: usize, samples: usize) -> (f64, f64) {
    use gdl::solve::agents::agent::Agent;
    use gdl::solve::agents::search::{SearchAgent, SearchBudget};
    use gdl::solve::agents::simulate::{Scratch, sample_chance};
    let p = g.num_players();
    let mut rng = StdRng::seed_from_u64(11);
    let mut search = SearchAgent::new(
        SearchBudget {
            samples,
            time: None,
            stop: None,
        },
        5,
    );
    let (mut mine, mut theirs) = (0.0, 0.0);
    let mut scratch = Scratch::default();
    for i in 0..games {
        let seat = i % p;
        let mut s = g.initial_state().unwrap();
        let mut moves = Vec::new();
        loop {
            match g.turn(&s).unwrap() {
                Turn::Terminal => break,
                Turn::Chance => {
                    let m = sample_chance(g, &s, &mut rng, &mut scratch).unwrap();
                    g.apply(&mut s, &m).unwrap();
                }
                Turn::Simultaneous => {
                    let mut joint = Vec::new();
                    for q in 0..p {
                        g.legal_moves_of(&s, q, &mut moves).unwrap();
                        joint.push(if q == seat {
                            search.choose(g, &s, q, &moves).unwrap().mv
                        } else {
                            moves[rng.random_range(0..moves.len())]
                        });
                    }
                    g.apply_joint(&mut s, &joint).unwrap();
                }
                Turn::Player(_) => unreachable!(),
            }
        }
        let scores = g.scores(&s).unwrap().unwrap();
        mine += scores[seat];
        theirs += (0..p).filter(|&q| q != seat).map(|q| scores[q]).sum::<f64>() / (p - 1) as f64;
    }
    (mine / games as f64, theirs / games as f64)
}

#[test]
fn the_search_agent_collects_far_fewer_points_than_random() {
    // Measured with 100 worlds per move over 200 games: 4.2 points against
    // random's 10.8 at the defaults. Here, a smaller budget and fewer games,
    // with a margin for chance: under 70% of random's points.
    for (p, k) in [(2, 17), (3, 20)] {
        let g = game(p, k, 3, 5, 4);
        let (mine, theirs) = search_against_random(&g, 40, 30);
        assert!(mine < 0.7 * theirs, "P{p}: search {mine:.2} against random {theirs:.2}");
    }
}

#[test]
fn the_greedy_agent_avoids_the_card_that_takes_a_row() {
    use gdl::solve::agents::agent::Agent;
    use gdl::solve::agents::search::GreedyAgent;
    let g = game(2, 17, 3, 2, 4);
    // P1 holds 17 (the 4th card of the last row: takes 3 cards) and 9 (safe after 8).
    let s = position(&g, ["9, 17", "1, 3"], "[[8], [10, 13], [4, 15, 16]]", 7);
    let mut moves = Vec::new();
    g.legal_moves_of(&s, 0, &mut moves).unwrap();
    let choice = GreedyAgent::new(10, 1).choose(&g, &s, 0, &moves).unwrap();
    assert_eq!(g.move_text(&choice.mv), "9");
}

/// Plays `games` games of `agent` against `others` (seats rotating), each
/// game's deal drawn from its own seed; returns (the agent's average points,
/// the others' average points).
fn match_points(
    g: &Interpreted,
    agent: &mut dyn gdl::solve::agents::agent::Agent<Interpreted>,
    others: &mut dyn FnMut(u64) -> Box<dyn gdl::solve::agents::agent::Agent<Interpreted>>,
    games: usize,
) -> (f64, f64) {
    match_points_from(g, agent, others, 0, games)
}

/// `match_points` from game number `first` on: its deals and seeds.
fn match_points_from(
    g: &Interpreted,
    agent: &mut dyn gdl::solve::agents::agent::Agent<Interpreted>,
    others: &mut dyn FnMut(u64) -> Box<dyn gdl::solve::agents::agent::Agent<Interpreted>>,
    first: usize,
    games: usize,
) -> (f64, f64) {
    use gdl::solve::agents::simulate::{Scratch, sample_chance};
    let p = g.num_players();
    let (mut mine, mut theirs) = (0.0, 0.0);
    let mut scratch = Scratch::default();
    for i in first..first + games {
        let seat = i % p;
        let mut rng = StdRng::seed_from_u64(100 + i as u64);
        agent.new_game(g, 7 + i as u64).unwrap();
        let mut opponents: Vec<_> = (0..p).map(|q| others(1000 * i as u64 + q as u64)).collect();
        for (q, o) in opponents.iter_mut().enumerate() {
            o.new_game(g, 1000 * i as u64 + q as u64).unwrap();
        }
        let mut s = g.initial_state().unwrap();
        let mut moves = Vec::new();
        loop {
            match g.turn(&s).unwrap() {
                Turn::Terminal => break,
                Turn::Chance => {
                    let m = sample_chance(g, &s, &mut rng, &mut scratch).unwrap();
                    g.apply(&mut s, &m).unwrap();
                }
                Turn::Simultaneous => {
                    let mut joint = Vec::new();
                    for (q, other) in opponents.iter_mut().enumerate() {
                        g.legal_moves_of(&s, q, &mut moves).unwrap();
                        let chooser: &mut dyn gdl::solve::agents::agent::Agent<Interpreted> =
                            if q == seat { agent } else { &mut **other };
                        let mv = chooser.choose(g, &s, q, &moves).unwrap().mv;
                        assert!(moves.contains(&mv), "an illegal move");
                        joint.push(mv);
                    }
                    g.apply_joint(&mut s, &joint).unwrap();
                }
                Turn::Player(_) => unreachable!(),
            }
        }
        let scores = g.scores(&s).unwrap().unwrap();
        mine += scores[seat];
        theirs += (0..p).filter(|&q| q != seat).map(|q| scores[q]).sum::<f64>() / (p - 1) as f64;
    }
    (mine / games as f64, theirs / games as f64)
}

fn random_agent(seed: u64) -> Box<dyn gdl::solve::agents::agent::Agent<Interpreted>> {
    Box::new(gdl::solve::agents::agent::RandomAgent::new(seed))
}

fn greedy_agent(seed: u64) -> Box<dyn gdl::solve::agents::agent::Agent<Interpreted>> {
    Box::new(gdl::solve::agents::search::GreedyAgent::new(20, seed))
}

/// `dsearch` with a small budget, so that the tests run in a debug build.
fn small_dsearch(work: u64, worlds: usize) -> gdl::solve::agents::determinized::DsearchAgent<Interpreted> {
    use gdl::solve::agents::determinized::{DsearchAgent, DsearchConfig};
    DsearchAgent::new(
        DsearchConfig {
            work,
            max_worlds: worlds,
            ..DsearchConfig::default()
        },
        3,
    )
}

/// With no card left in the deck the agent's worlds are the true position,
/// and with two cards each the rest of the game is searched exactly: the
/// agent plays the card with the fewest expected points against a random
/// player, counted here by playing out every pair of cards. Greedy's
/// one-round view prefers the other card (5 takes nothing now, 1 takes a row).
#[test]
fn dsearch_searches_the_last_rounds_exactly() {
    use gdl::solve::agents::agent::Agent;
    let g = game(2, 7, 3, 2, 4);
    let s = position(&g, ["1, 5", "3, 7"], "[[2], [4], [6]]", 7);
    let mut expected = Vec::new();
    for a in [1, 5] {
        let mut total = 0.0;
        for b in [3, 7] {
            let after = play(&g, &s, [a, b]);
            let last = play(&g, &after, [6 - a, 10 - b]);
            total += g.scores(&last).unwrap().unwrap()[0];
        }
        expected.push((a, total / 2.0));
    }
    // 1 takes a row of 1 point now and nothing after; 5 takes nothing now,
    // and a row after when the other player kept 7 for last.
    assert_eq!(expected, vec![(1, 1.0), (5, 1.5)]);
    let mut moves = Vec::new();
    g.legal_moves_of(&s, 0, &mut moves).unwrap();
    // Its own points alone, the others at random: what `expected` counts.
    let mut agent = gdl::solve::agents::determinized::DsearchAgent::new(
        gdl::solve::agents::determinized::DsearchConfig {
            work: 100,
            max_worlds: 10,
            prior_greedy: 0.0,
            win_bonus: 0.0,
            ..Default::default()
        },
        3,
    );
    agent.new_game(&g, 1).unwrap();
    let choice = agent.choose(&g, &s, 0, &moves).unwrap();
    assert_eq!(g.move_text(&choice.mv), "1", "{:?}", choice.note);
    assert!(
        choice.note.as_deref().unwrap().contains("(10 searched to the end)"),
        "{:?}",
        choice.note
    );
    let mut greedy = gdl::solve::agents::search::GreedyAgent::new(20, 1);
    assert_eq!(g.move_text(&greedy.choose(&g, &s, 0, &moves).unwrap().mv), "5");
}

/// Every kind of configuration, the variant rule included, plays to the end
/// with legal moves: two players and ten, one row and twenty, the smallest
/// deck and a long game (a small budget, a few games each).
#[test]
fn dsearch_plays_many_configurations_to_the_end() {
    let configs: [(usize, usize, usize, usize, usize, Option<usize>); 10] = [
        (2, 5, 1, 2, 2, None),
        (2, 17, 3, 5, 4, None),
        (2, 13, 2, 4, 3, Some(3)),
        (3, 18, 3, 5, 4, None),
        (4, 40, 4, 8, 6, None),
        (10, 60, 5, 5, 2, None),
        (2, 60, 20, 20, 50, None),
        (5, 104, 4, 10, 6, None),
        (2, 3, 1, 1, 2, None),
        (3, 256, 1, 12, 2, Some(2)),
    ];
    for (p, k, r, n, x, holds) in configs {
        let mut bindings = vec![
            ("P", p.to_string()),
            ("K", k.to_string()),
            ("R", r.to_string()),
            ("N", n.to_string()),
            ("X", x.to_string()),
        ];
        if let Some(h) = holds {
            bindings.push(("holds", h.to_string()));
        }
        let g = load(&bindings).unwrap_or_else(|e| panic!("{e}"));
        let mut agent = small_dsearch(60, 4);
        let (mine, theirs) = match_points(&g, &mut agent, &mut random_agent, 2);
        assert!(mine >= 0.0 && theirs >= 0.0, "P{p} K{k} R{r} N{n} X{x}");
    }
}

#[test]
fn dsearch_collects_far_fewer_points_than_random() {
    // At full budget (docs/XNIMMT.md) it collects a third of random's points;
    // here a tenth of the budget and 40 games, with a margin for chance.
    let g = game(2, 17, 3, 5, 4);
    // The model of the others off: at a tenth of the budget its estimates
    // of greedy's card would leave few worlds (with it on, 5.85 against
    // 8.28 here).
    let mut agent = gdl::solve::agents::determinized::DsearchAgent::new(
        gdl::solve::agents::determinized::DsearchConfig {
            work: 300,
            max_worlds: 40,
            prior_greedy: 0.0,
            win_bonus: 0.0,
            ..Default::default()
        },
        3,
    );
    let (mine, theirs) = match_points(&g, &mut agent, &mut random_agent, 40);
    assert!(mine < 0.6 * theirs, "dsearch {mine:.2} against random {theirs:.2}");
}

/// With the model of the others switched on, the agent's belief that a
/// player plays greedily rises against greedy players and falls against
/// random ones.
#[test]
fn dsearch_learns_whether_the_others_play_greedily() {
    use gdl::solve::agents::agent::Agent;
    use gdl::solve::agents::determinized::{DsearchAgent, DsearchConfig};
    let g = game(2, 17, 3, 5, 4);
    let belief = |others: &mut dyn FnMut(u64) -> Box<dyn Agent<Interpreted>>| {
        let mut total = 0.0;
        let games = 12;
        for i in 0..games {
            let mut agent = DsearchAgent::new(
                DsearchConfig {
                    work: 100,
                    max_worlds: 4,
                    prior_greedy: 0.5,
                    ..DsearchConfig::default()
                },
                i,
            );
            // One game from seat 0, each with its own deal: the belief
            // about seat 1 after it.
            let mut one = |seed: u64| others(seed + 17 * i);
            match_points_from(&g, &mut agent, &mut one, 2 * i as usize, 1);
            total += agent.greedy_belief()[1];
        }
        total / games as f64
    };
    let against_greedy = belief(&mut greedy_agent);
    let against_random = belief(&mut random_agent);
    assert!(
        against_greedy > 0.5 && against_random < 0.5 && against_greedy - against_random > 0.25,
        "against greedy {against_greedy:.2}, against random {against_random:.2}"
    );
}

/// The model judges a card seen played with as many draws as `greedy` makes,
/// so that its ties fall as greedy's do.
#[test]
fn dsearch_judges_greedy_with_greedys_own_draws() {
    let config = gdl::solve::agents::determinized::DsearchConfig::default();
    assert_eq!(config.infer_samples, gdl::solve::agent_builder::GREEDY_SAMPLES);
}
