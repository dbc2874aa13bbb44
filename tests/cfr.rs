//! CFR+ and the exact best response: Kuhn poker's value and equilibrium,
//! OpenSpiel's published NashConv values (Kuhn and Leduc poker), a best
//! response computed by hand, agreement with backward induction where the
//! information is perfect, and the strategy file.

use crate::common;
use crate::native_extra;

use gdl::game::{Game, GameError, Player, Turn};
use gdl::solve::SolveError;
use gdl::solve::exact::expectimax::{self, ChanceOptions};
use gdl::solve::learn::best_response::{best_response, exploitability};
use gdl::solve::learn::cfr::CfrPlus;
use gdl::solve::learn::infotree::{DEFAULT_MAX_NODES, InfoTree};
use gdl::solve::learn::strategy_file::{self, GameId, Policy, StrategyFileError, Training};
use native_extra::goofspiel::{Goofspiel, Prizes};
use native_extra::kuhn::{Kuhn, KuhnMove};
use native_extra::leduc::Leduc;
use native_extra::one_shot::OneShot;

fn tree<G: Game>(game: &G) -> InfoTree<G::Move> {
    InfoTree::build(game, &game.initial_state().unwrap(), DEFAULT_MAX_NODES).unwrap()
}

/// Runs CFR+ until the average strategy's exploitability is below
/// `target`, checking every `step` iterations; returns the iterations.
fn run_until<M>(cfr: &mut CfrPlus<'_, M>, tree: &InfoTree<M>, target: f64, step: u64, most: u64) -> u64 {
    while cfr.iterations() < most {
        cfr.run(step);
        if exploitability(tree, &cfr.average()).exploitability < target {
            return cfr.iterations();
        }
    }
    panic!("exploitability still above {target} after {most} iterations")
}

/// The probability that `player` bets holding `card` after `bets`.
fn kuhn_bet(tree: &InfoTree<KuhnMove>, s: &gdl::solve::learn::infotree::Strategy, card: &str, bets: &str) -> f64 {
    let want = format!("card: {card}, bets: {bets}");
    let set = tree
        .infosets
        .iter()
        .find(|set| set.history.last() == Some(&want))
        .unwrap_or_else(|| panic!("no information set `{want}`"));
    s.of(set)[1]
}

#[test]
fn kuhn_poker_has_twelve_information_sets_with_perfect_recall() {
    let t = tree(&Kuhn);
    assert_eq!(t.infosets.len(), 12);
    // Six deals; player 0 at the start and after pass-bet, player 1 after
    // pass and after bet.
    assert_eq!(t.decisions, [12, 12]);
    // Player 0's second decision remembers its first.
    let set = t
        .infosets
        .iter()
        .find(|s| s.history.last().is_some_and(|h| h == "card: Q, bets: pb"))
        .unwrap();
    assert_eq!(set.player, 0);
    assert_eq!(set.history, vec!["card: Q, bets: ", "pass", "card: Q, bets: pb"]);
}

#[test]
fn kuhn_poker_nash_conv_of_uniform_and_always_pass_are_openspiels() {
    let t = tree(&Kuhn);
    // OpenSpiel's exploitability_test.py: 11/12 for uniform random, 2 for
    // always the first action (pass).
    let e = exploitability(&t, &t.uniform());
    assert!((e.nash_conv - 11.0 / 12.0).abs() < 1e-12, "{e:?}");
    let first = t.strategy(|set| {
        let mut p = vec![0.0; set.moves.len()];
        p[0] = 1.0;
        p
    });
    assert!((exploitability(&t, &first).nash_conv - 2.0).abs() < 1e-12);
    // The best responses to uniform, as OpenSpiel lists them (ties go to
    // the first move: pass).
    let expected = [
        (0, "card: J, bets: ", KuhnMove::Bet),
        (0, "card: Q, bets: ", KuhnMove::Bet),
        (0, "card: K, bets: ", KuhnMove::Pass),
        (0, "card: J, bets: pb", KuhnMove::Pass),
        (0, "card: Q, bets: pb", KuhnMove::Bet),
        (0, "card: K, bets: pb", KuhnMove::Bet),
        (1, "card: J, bets: p", KuhnMove::Bet),
        (1, "card: Q, bets: p", KuhnMove::Bet),
        (1, "card: K, bets: p", KuhnMove::Bet),
        (1, "card: J, bets: b", KuhnMove::Pass),
        (1, "card: Q, bets: b", KuhnMove::Bet),
        (1, "card: K, bets: b", KuhnMove::Bet),
    ];
    let brs = [best_response(&t, &t.uniform(), 0), best_response(&t, &t.uniform(), 1)];
    for (player, seen, mv) in expected {
        let i = t
            .infosets
            .iter()
            .position(|s| s.player == player && s.history.last().map(String::as_str) == Some(seen))
            .unwrap();
        let chosen = brs[player].choices[i].expect("the responder's own sets are decided");
        assert_eq!(t.infosets[i].moves[chosen], mv, "player {player} at `{seen}`");
    }
}

#[test]
fn cfr_plus_finds_kuhn_pokers_value_and_equilibrium() {
    let t = tree(&Kuhn);
    let mut cfr = CfrPlus::new(&t);
    let iterations = run_until(&mut cfr, &t, 0.001, 50, 20_000);
    let avg = cfr.average();
    let e = exploitability(&t, &avg);
    assert!(
        (e.value - (-1.0 / 18.0)).abs() < 0.001,
        "value {} after {iterations}",
        e.value
    );
    // Kuhn's equilibria: the first player bets a king three times as often
    // as a jack; the second calls a bet with a king, folds a jack, and
    // bluffs a third of its jacks after a pass.
    let (j, k) = (kuhn_bet(&t, &avg, "J", ""), kuhn_bet(&t, &avg, "K", ""));
    assert!((k - 3.0 * j).abs() < 0.05, "bet J {j}, bet K {k}");
    assert!(kuhn_bet(&t, &avg, "K", "b") > 0.99);
    assert!(kuhn_bet(&t, &avg, "J", "b") < 0.01);
    assert!((kuhn_bet(&t, &avg, "J", "p") - 1.0 / 3.0).abs() < 0.05);
}

#[test]
fn exploitability_falls_as_iterations_double() {
    let kuhn = tree(&Kuhn);
    let goof = tree(&Goofspiel::new(3, Prizes::Ascending, true));
    fn curve<M>(t: &InfoTree<M>) -> Vec<f64> {
        let mut cfr = CfrPlus::new(t);
        // The first iteration plays uniformly, as the average starts.
        cfr.run(1);
        let mut out = vec![exploitability(t, &cfr.average()).exploitability];
        for k in 0..9 {
            cfr.run(1 << k);
            out.push(exploitability(t, &cfr.average()).exploitability);
        }
        out
    }
    for curve in [curve(&kuhn), curve(&goof)] {
        assert!(
            curve.windows(2).all(|w| w[1] < w[0]),
            "not falling at every doubling: {curve:?}"
        );
    }
}

#[test]
fn best_response_to_uniform_matches_a_hand_computation() {
    // Row payoffs [[3, -1], [-2, 1]]. Against a uniform column player the
    // rows earn 1 and -1/2: the row's best response earns 1. Against a
    // uniform row player the columns give the row 1/2 and 0: the column
    // player's best response is the second column, earning it 0. Both
    // uniform: 1/4 to the row. NashConv = (1 - 1/4) + (0 + 1/4) = 1.
    let game = OneShot::new("hand", vec![vec![3.0, -1.0], vec![-2.0, 1.0]]);
    let t = tree(&game);
    let u = t.uniform();
    let row = best_response(&t, &u, 0);
    let col = best_response(&t, &u, 1);
    assert_eq!(row.value, 1.0);
    assert_eq!(col.value, 0.0);
    let col_set = t.infosets.iter().position(|s| s.player == 1).unwrap();
    assert_eq!(col.choices[col_set], Some(1));
    let e = exploitability(&t, &u);
    assert_eq!(e.value, 0.25);
    assert_eq!(e.nash_conv, 1.0);
}

#[test]
fn leduc_poker_matches_openspiel() {
    let t = tree(&Leduc);
    // OpenSpiel: 936 information states; NashConv of uniform random 4.747222...
    assert_eq!(t.infosets.len(), 936);
    let e = exploitability(&t, &t.uniform());
    assert!((e.nash_conv - 4.747222222222222).abs() < 1e-9, "{e:?}");
    let mut cfr = CfrPlus::new(&t);
    cfr.run(50);
    let after = exploitability(&t, &cfr.average()).exploitability;
    assert!(after < 0.1, "exploitability {after} after 50 iterations");
}

#[test]
fn with_public_bids_cfr_agrees_with_backward_induction() {
    let g = Goofspiel::new(3, Prizes::Random, false);
    for root in [
        g.position([&[1, 3], &[2, 3]], &[1, 2], [0, 0]),
        g.position([&[1, 2, 3], &[1, 2, 3]], &[1, 2, 3], [0, 2]),
    ] {
        let exact = expectimax::solve(&g, &root, &ChanceOptions::default()).unwrap().value;
        let t = InfoTree::build(&g, &root, DEFAULT_MAX_NODES).unwrap();
        let mut cfr = CfrPlus::new(&t);
        run_until(&mut cfr, &t, 1e-4, 50, 20_000);
        let e = exploitability(&t, &cfr.average());
        assert!(
            (e.value - exact).abs() < 1e-3,
            "CFR {} vs backward induction {exact}",
            e.value
        );
        // An exploitability of 1e-4 brackets the value: each best response
        // bounds it from its side.
        assert!(-e.best_responses[1] <= exact + 1e-9 && exact <= e.best_responses[0] + 1e-9);
    }
}

#[test]
fn goofspiel_with_hidden_bids_converges() {
    let g = Goofspiel::new(3, Prizes::Ascending, true);
    let t = tree(&g);
    let mut cfr = CfrPlus::new(&t);
    run_until(&mut cfr, &t, 0.001, 50, 20_000);
    // The players are symmetric: the value is 0.
    let e = exploitability(&t, &cfr.average());
    assert!(e.value.abs() < 0.002, "{e:?}");
}

#[test]
fn tiny_x_nimmt_from_the_game_file() {
    // Two players, 5 cards, one row, two cards each: the deal is 120
    // equally likely orders, then two rounds of secret choices.
    let game = common::load_game("games/xnimmt.game", &[("K", "5"), ("R", "1"), ("N", "2"), ("X", "2")]);
    let t = tree(&game);
    assert_eq!(t.terminals, 120 * 4);
    let mut cfr = CfrPlus::new(&t);
    let start = exploitability(&t, &cfr.average()).exploitability;
    run_until(&mut cfr, &t, 0.001, 20, 5_000);
    let e = exploitability(&t, &cfr.average());
    assert!(e.exploitability < start);
    // Seats are symmetric up to the deal: no big edge either way.
    assert!(e.value.abs() < 1.0, "{e:?}");
    // The strategy file round-trips on an interpreted game, and names its
    // information sets as the game prints observations.
    let dir = std::env::temp_dir().join(format!("gdl-cfr-xnimmt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("xnimmt.strategy.json");
    let id = GameId::of(&game);
    let file = strategy_file::to_file(&t, &cfr.average(), &id, training(cfr.iterations(), &e), |m| {
        game.move_text(m)
    });
    strategy_file::save(&path, &file).unwrap();
    let loaded = strategy_file::load(&path, &id).unwrap();
    assert_eq!(loaded, file);
    assert!(
        loaded.strategy[0].history[0].contains("hands"),
        "{:?}",
        loaded.strategy[0].history
    );
    let back = Policy::new(&loaded).strategy_for(&t, |m| game.move_text(m)).unwrap();
    assert_eq!(back, cfr.average());
    let other = common::load_game("games/xnimmt.game", &[("K", "6"), ("R", "1"), ("N", "2"), ("X", "2")]);
    let err = strategy_file::load(&path, &GameId::of(&other)).unwrap_err();
    assert!(matches!(err, StrategyFileError::OtherParams { .. }), "{err:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

fn training(iterations: u64, e: &gdl::solve::learn::best_response::Exploitability) -> Training {
    Training {
        algorithm: "cfr+".into(),
        iterations,
        value: e.value,
        exploitability: e.exploitability,
        seconds: 0.0,
    }
}

fn kuhn_id() -> GameId {
    GameId {
        game: "Kuhn poker".into(),
        file: "native".into(),
        source_hash: "0".into(),
        params: vec![],
        players: vec!["first".into(), "second".into()],
    }
}

#[test]
fn strategy_files_round_trip_and_refuse_what_is_not_theirs() {
    let t = tree(&Kuhn);
    let mut cfr = CfrPlus::new(&t);
    cfr.run(200);
    let avg = cfr.average();
    let e = exploitability(&t, &avg);
    let dir = std::env::temp_dir().join(format!("gdl-cfr-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("kuhn.json");
    let file = strategy_file::to_file(&t, &avg, &kuhn_id(), training(200, &e), |m| Kuhn.move_text(m));
    strategy_file::save(&path, &file).unwrap();
    let loaded = strategy_file::load(&path, &kuhn_id()).unwrap();
    let back = Policy::new(&loaded).strategy_for(&t, |m| Kuhn.move_text(m)).unwrap();
    assert_eq!(back, avg, "probabilities survive the round trip exactly");
    let policy = Policy::new(&loaded);
    let history = ["card: K, bets: ".to_string()];
    let moves = policy.get(0, &history).unwrap();
    assert_eq!(
        moves.iter().map(|(m, _)| m.as_str()).collect::<Vec<_>>(),
        ["pass", "bet"]
    );

    // Another game, changed rules.
    let mut other = kuhn_id();
    other.game = "Leduc poker".into();
    assert!(matches!(
        strategy_file::load(&path, &other),
        Err(StrategyFileError::OtherGame { .. })
    ));
    let mut changed = kuhn_id();
    changed.source_hash = "1".into();
    assert!(matches!(
        strategy_file::load(&path, &changed),
        Err(StrategyFileError::ChangedGame { .. })
    ));
    // Damaged files.
    let text = std::fs::read_to_string(&path).unwrap();
    let cases = [
        (text.replacen("gdl-strategy", "gdl-qtable", 1), "format"),
        (text.replacen("\"version\": 1", "\"version\": 7", 1), "format"),
        (text[..text.len() / 2].to_string(), "broken JSON"),
        (text.replacen("\"pass\": ", "\"pass\": -", 1), "probability"),
        (text.replacen("\"infosets\": 12", "\"infosets\": 13", 1), "holds"),
    ];
    for (bad, what) in cases {
        std::fs::write(&path, &bad).unwrap();
        let err = strategy_file::load(&path, &kuhn_id()).unwrap_err();
        let shown = format!("{err}");
        assert!(
            shown.contains(what) || format!("{err:?}").contains(what),
            "{what}: {shown}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Chance hides a bit from player 0, whose moves depend on it.
#[derive(Clone, Debug)]
struct Blind;

impl Game for Blind {
    type State = (Option<bool>, bool);
    type Move = u8;
    fn name(&self) -> &str {
        "Blind"
    }
    fn num_players(&self) -> usize {
        2
    }
    fn player_name(&self, p: Player) -> &str {
        ["A", "B"][p]
    }
    fn initial_state(&self) -> Result<Self::State, GameError> {
        Ok((None, false))
    }
    fn turn(&self, s: &Self::State) -> Result<Turn, GameError> {
        Ok(match s {
            (None, _) => Turn::Chance,
            (Some(_), false) => Turn::Player(0),
            _ => Turn::Terminal,
        })
    }
    fn legal_moves(&self, s: &Self::State, out: &mut Vec<u8>) -> Result<(), GameError> {
        out.clear();
        match s.0 {
            None => out.extend([0, 1]),
            Some(bit) => out.extend(if bit { vec![0, 1] } else { vec![0] }),
        }
        Ok(())
    }
    fn chance_outcomes(&self, _: &Self::State, out: &mut Vec<(u8, f64)>) -> Result<(), GameError> {
        out.clear();
        out.extend([(0, 0.5), (1, 0.5)]);
        Ok(())
    }
    fn apply(&self, s: &mut Self::State, mv: &u8) -> Result<(), GameError> {
        if s.0.is_none() {
            s.0 = Some(*mv == 1);
        } else {
            s.1 = true;
        }
        Ok(())
    }
    fn returns(&self, _: &Self::State, p: Player) -> Result<f64, GameError> {
        Ok(if p == 0 { 1.0 } else { -1.0 })
    }
    fn move_text(&self, mv: &u8) -> String {
        mv.to_string()
    }
    fn state_text(&self, s: &Self::State) -> String {
        format!("{s:?}")
    }
    fn observation(&self, _: &Self::State, _: Player) -> String {
        "nothing".into()
    }
}

#[test]
fn an_observation_that_hides_the_moves_is_refused() {
    let err = InfoTree::build(&Blind, &(None, false), DEFAULT_MAX_NODES).unwrap_err();
    let SolveError::NotApplicable { message, .. } = &err else {
        panic!("{err:?}")
    };
    assert!(
        message.contains("same") && message.contains("different moves"),
        "{message}"
    );
}

#[test]
fn a_tree_too_big_is_a_budget_error() {
    let err = InfoTree::build(&Leduc, &Leduc.initial_state().unwrap(), 1000).unwrap_err();
    assert!(matches!(err, SolveError::Budget { what: "nodes", .. }), "{err:?}");
}

#[test]
fn a_policy_agent_plays_the_strategy_it_was_given() {
    use gdl::solve::agents::agent::Agent;
    use gdl::solve::learn::policy_agent::PolicyAgent;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    let t = tree(&Kuhn);
    let mut cfr = CfrPlus::new(&t);
    run_until(&mut cfr, &t, 0.001, 50, 20_000);
    let e = exploitability(&t, &cfr.average());
    let file = strategy_file::to_file(&t, &cfr.average(), &kuhn_id(), training(cfr.iterations(), &e), |m| {
        Kuhn.move_text(m)
    });
    let mut agent = PolicyAgent::new("policy:kuhn".into(), Policy::new(&file), 7);
    // Both seats played by the agent, the cards dealt at random: the mean
    // return of the first player tends to the value, -1/18.
    let mut rng = StdRng::seed_from_u64(16);
    let games = 40_000;
    let mut total = 0.0;
    for g in 0..games {
        Agent::<Kuhn>::new_game(&mut agent, &Kuhn, g).unwrap();
        let mut s = Kuhn.initial_state().unwrap();
        loop {
            match Kuhn.turn(&s).unwrap() {
                Turn::Terminal => break,
                Turn::Chance => {
                    let mut moves = Vec::new();
                    Kuhn.legal_moves(&s, &mut moves).unwrap();
                    let m = moves[rng.random_range(0..moves.len())];
                    Kuhn.apply(&mut s, &m).unwrap();
                }
                Turn::Player(p) => {
                    let mut moves = Vec::new();
                    Kuhn.legal_moves(&s, &mut moves).unwrap();
                    let m = agent.choose(&Kuhn, &s, p, &moves).unwrap().mv;
                    Kuhn.apply(&mut s, &m).unwrap();
                }
                Turn::Simultaneous => unreachable!(),
            }
        }
        total += Kuhn.returns(&s, 0).unwrap();
    }
    let mean = total / games as f64;
    // The standard error of 40,000 games is about 0.007.
    assert!((mean - (-1.0 / 18.0)).abs() < 0.025, "mean return {mean}");
}

/// `train --time-limit` stops between two CFR+ iterations (or two Q-learning
/// games), saves what was learned, and says how far it got; the saved file
/// records the same count and loads as an agent.
#[test]
fn train_stops_at_its_time_limit_and_saves_what_it_learned() {
    let dir = common::scratch("train_time_limit", "kuhn", &[]);
    let out = dir.join("kuhn.json");
    let out = out.to_str().unwrap();
    let r = common::gdl(&[
        "train",
        "games/kuhn-poker.game",
        "--algorithm",
        "cfr",
        "--iterations",
        "1000000000",
        "--time-limit",
        "0.3",
        "--out",
        out,
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(out).unwrap()).unwrap();
    let done = json["training"]["iterations"].as_u64().unwrap();
    assert!((1..1_000_000_000).contains(&done), "{done}");
    assert!(
        r.stdout.contains(&format!("algorithm   CFR+, {done} iterations over")),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains(&format!(
            "\nstopped     at the time limit of 0.3 s, after {done} of 1000000000 iterations\n"
        )),
        "{}",
        r.stdout
    );
    let played = common::gdl(&[
        "match",
        "games/kuhn-poker.game",
        "--players",
        &format!("policy:{out},random"),
        "--games",
        "10",
    ]);
    assert_eq!(played.code, 0, "{}", played.stderr);

    let q = dir.join("nim.json");
    let q = q.to_str().unwrap();
    let r = common::gdl(&[
        "train",
        "games/nim.game",
        "--piles",
        "1,3,5",
        "--episodes",
        "1000000000",
        "--time-limit",
        "0.3",
        "--out",
        q,
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let line = r.stdout.lines().find(|l| l.starts_with("episodes")).unwrap();
    assert!(
        line.contains(" of 1000000000: stopped at the time limit of 0.3 s"),
        "{line}"
    );
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(q).unwrap()).unwrap();
    let done = json["training"]["episodes"].as_u64().unwrap();
    assert!(line.starts_with(&format!("episodes    {done} of")), "{line}");
    assert_eq!(json["training"]["interrupted"], true);
}

/// The size CFR's tree is refused by at once is a lower bound: never more
/// nodes than the tree has. A game whose first choice leaves the most
/// choices (bids that must rise, the lowest first, as in Liar's dice) has a
/// tree far smaller than the product of the branching along its first line
/// (issue 42, item 9: a millionfold over for Liar's dice).
#[test]
fn the_size_refused_at_once_is_a_lower_bound() {
    use gdl::game::{Game, Turn};
    let text = "game Bids\nplayers A, B\nstate last: int = 0\n\
                move bid(b in 1..8) requires b > last { last = b }\n\
                end when last == 8 { winner previous }\n";
    let game = gdl::runtime::Interpreted::new(gdl::compile::load("bids.game", text, &[]).unwrap());
    fn nodes(game: &gdl::runtime::Interpreted, s: &gdl::runtime::State) -> u64 {
        if game.turn(s).unwrap() == Turn::Terminal {
            return 1;
        }
        let mut moves = Vec::new();
        game.legal_moves(s, &mut moves).unwrap();
        1 + moves
            .iter()
            .map(|m| {
                let mut c = s.clone();
                game.apply(&mut c, m).unwrap();
                nodes(game, &c)
            })
            .sum::<u64>()
    }
    let root = game.initial_state().unwrap();
    let all = nodes(&game, &root) as f64;
    let bound = gdl::solve::learn::infotree::size_lower_bound(&game, &root).unwrap();
    // 8! = 40,320 along the first line, where the tree has 256 nodes.
    assert!(bound <= all, "{bound} > {all}");
    assert!(bound > 8.0, "{bound}");
}
