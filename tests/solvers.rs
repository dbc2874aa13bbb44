//! The solvers checked against each other, against independent reference
//! searches, and against theory (Bouton's formula for Nim, the seed's
//! statements about Nimcala).

use crate::native;

use std::collections::{HashMap, HashSet};
use std::fmt::Debug;
use std::hash::Hash;
use std::time::Duration;

use gdl::game::*;
use gdl::solve::*;
use miette::Diagnostic;
use native::{Nim, Nimcala, Select19};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

// ---------------------------------------------------------------- helpers

/// The four searches of the design: minimax and alpha-beta, each with and without the memo table.
fn configurations(prefer_short: bool) -> Vec<SolveOptions> {
    let mut out = Vec::new();
    for algorithm in [Algorithm::Minimax, Algorithm::AlphaBeta] {
        for memo in [false, true] {
            out.push(SolveOptions {
                algorithm,
                memo,
                prefer_short,
                ..SolveOptions::default()
            });
        }
    }
    out
}

fn children<G: Game>(game: &G, s: &G::State) -> Vec<(G::Move, G::State)> {
    let mut moves = Vec::new();
    game.legal_moves(s, &mut moves).unwrap();
    moves
        .into_iter()
        .map(|m| {
            let mut c = s.clone();
            game.apply(&mut c, &m).unwrap();
            (m, c)
        })
        .collect()
}

fn is_terminal<G: Game>(game: &G, s: &G::State) -> bool {
    game.turn(s).unwrap() == Turn::Terminal
}

/// Every state reachable from `root`, in the order first found.
fn reachable<G: Game>(game: &G, root: &G::State) -> Vec<G::State> {
    let mut seen = HashSet::new();
    let mut order = Vec::new();
    let mut stack = vec![root.clone()];
    while let Some(s) = stack.pop() {
        if !seen.insert(s.clone()) {
            continue;
        }
        order.push(s.clone());
        if !is_terminal(game, &s) {
            stack.extend(children(game, &s).into_iter().map(|(_, c)| c));
        }
    }
    order
}

/// `G` declaring a utility range (`Game::utility_range`), with which the
/// searches stop at a move that reaches the best the mover can get, or
/// declaring none.
struct Ranged<'g, G: Game> {
    game: &'g G,
    range: Option<(f64, f64)>,
}

impl<'g, G: Game> Ranged<'g, G> {
    /// No range, whatever the game declares.
    fn none(game: &'g G) -> Self {
        Ranged { game, range: None }
    }

    /// The tightest range: the lowest and highest utility of the terminal
    /// states reachable from the start.
    fn tight(game: &'g G) -> Self {
        let ends: Vec<f64> = reachable(game, &game.initial_state().unwrap())
            .iter()
            .filter(|s| is_terminal(game, s))
            .map(|s| game.returns(s, 0).unwrap())
            .collect();
        let lo = ends.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = ends.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        Ranged {
            game,
            range: Some((lo, hi)),
        }
    }
}

impl<G: Game> Game for Ranged<'_, G> {
    type State = G::State;
    type Move = G::Move;
    fn name(&self) -> &str {
        self.game.name()
    }
    fn num_players(&self) -> usize {
        self.game.num_players()
    }
    fn player_name(&self, p: Player) -> &str {
        self.game.player_name(p)
    }
    fn initial_state(&self) -> Result<G::State, GameError> {
        self.game.initial_state()
    }
    fn turn(&self, s: &G::State) -> Result<Turn, GameError> {
        self.game.turn(s)
    }
    fn legal_moves(&self, s: &G::State, out: &mut Vec<G::Move>) -> Result<(), GameError> {
        self.game.legal_moves(s, out)
    }
    fn apply(&self, s: &mut G::State, mv: &G::Move) -> Result<(), GameError> {
        self.game.apply(s, mv)
    }
    fn returns(&self, s: &G::State, player: Player) -> Result<f64, GameError> {
        self.game.returns(s, player)
    }
    fn move_text(&self, mv: &G::Move) -> String {
        self.game.move_text(mv)
    }
    fn state_text(&self, s: &G::State) -> String {
        self.game.state_text(s)
    }
    fn utility_range(&self) -> Option<(f64, f64)> {
        self.range
    }
}

/// An independent reference: the value for player 0 and the game length under
/// "win fast, lose slow" play, by plain recursion over the rules' definition
/// (no windows, no score encoding). On a draw the first drawing move is taken.
struct Reference<'g, G: Game> {
    game: &'g G,
    cache: HashMap<G::State, (f64, usize)>,
    /// The game with its tightest utility range declared, and with none.
    ranged: Ranged<'g, G>,
    unranged: Ranged<'g, G>,
}

impl<'g, G: Game> Reference<'g, G> {
    fn new(game: &'g G) -> Self {
        Reference {
            game,
            cache: HashMap::new(),
            ranged: Ranged::tight(game),
            unranged: Ranged::none(game),
        }
    }

    fn value(&mut self, s: &G::State) -> f64 {
        self.eval(s).0
    }

    fn eval(&mut self, s: &G::State) -> (f64, usize) {
        if let Some(&r) = self.cache.get(s) {
            return r;
        }
        let r = match self.game.turn(s).unwrap() {
            Turn::Terminal => (self.game.returns(s, 0).unwrap(), 0),
            Turn::Simultaneous | Turn::Chance => unreachable!("the reference search covers turn-taking games"),
            Turn::Player(p) => {
                let kids: Vec<(f64, usize)> = children(self.game, s).iter().map(|(_, c)| self.eval(c)).collect();
                let values = kids.iter().map(|k| k.0);
                let v = if p == 0 {
                    values.fold(f64::MIN, f64::max)
                } else {
                    values.fold(f64::MAX, f64::min)
                };
                let optimal = kids.iter().filter(|k| k.0 == v).map(|k| k.1);
                let mover_wins = (p == 0 && v > 0.0) || (p == 1 && v < 0.0);
                let mover_loses = (p == 0 && v < 0.0) || (p == 1 && v > 0.0);
                let len = if mover_wins {
                    optimal.min().unwrap()
                } else if mover_loses {
                    optimal.max().unwrap()
                } else {
                    kids.iter().find(|k| k.0 == v).unwrap().1
                };
                (v, len + 1)
            }
        };
        self.cache.insert(s.clone(), r);
        r
    }

    /// Whether moving to a child worth `child` is optimal at a node worth `node`.
    fn optimal(&mut self, prefer_short: bool, node: (f64, usize), child: (f64, usize)) -> bool {
        child.0 == node.0 && (!prefer_short || node.0 == 0.0 || child.1 + 1 == node.1)
    }
}

/// Plays `line` from `from`; returns the final state, which must be terminal.
fn replay<G: Game>(game: &G, from: &G::State, line: &[G::Move]) -> G::State {
    let mut s = from.clone();
    for m in line {
        assert!(!is_terminal(game, &s), "the line goes past the end of the game");
        let mut legal = Vec::new();
        game.legal_moves(&s, &mut legal).unwrap();
        assert!(
            legal.contains(m),
            "{} is not legal in {}",
            game.move_text(m),
            game.state_text(&s)
        );
        game.apply(&mut s, m).unwrap();
    }
    assert!(
        is_terminal(game, &s),
        "the line stops before the end: {}",
        game.state_text(&s)
    );
    s
}

/// Solves `s` with all four searches (with and without `prefer_short`), on
/// the game as it is, with its tightest utility range declared and with none,
/// and checks them against each other and against the reference.
fn check_position<G: Game>(game: &G, reference: &mut Reference<'_, G>, s: &G::State)
where
    G::Move: Debug,
{
    let what = game.state_text(s);
    let kids = children(game, s);
    let (v, len) = reference.eval(s);
    for prefer_short in [false, true] {
        let configs = configurations(prefer_short);
        let solutions: Vec<Solution<G::Move>> = configs
            .iter()
            .map(|o| solve(game, s, o).unwrap())
            // The declarations the game does not make itself.
            .chain(
                configs
                    .iter()
                    .filter(|_| game.utility_range() != reference.ranged.range)
                    .map(|o| solve(&reference.ranged, s, o).unwrap()),
            )
            .chain(
                configs
                    .iter()
                    .filter(|_| game.utility_range().is_some())
                    .map(|o| solve(&reference.unranged, s, o).unwrap()),
            )
            .collect();
        let first = &solutions[0];
        for other in &solutions[1..] {
            assert_eq!(first.value, other.value, "{what}");
            assert_eq!(first.best_moves, other.best_moves, "{what}");
            assert_eq!(first.pv, other.pv, "{what}");
        }
        for sol in &solutions {
            assert!(sol.nodes >= 1 && sol.states >= 1, "{what}");
        }
        assert_eq!(first.value, v, "{what}");
        assert_eq!(first.length, first.pv.len());
        let end = replay(game, s, &first.pv);
        assert_eq!(game.returns(&end, 0).unwrap(), v, "{what}: the pv ends elsewhere");
        if prefer_short {
            assert_eq!(first.length, len, "{what}: length under win-fast-lose-slow");
        }
        let expected: Vec<G::Move> = kids
            .iter()
            .filter(|(_, c)| {
                let child = reference.eval(c);
                reference.optimal(prefer_short, (v, len), child)
            })
            .map(|(m, _)| m.clone())
            .collect();
        assert_eq!(first.best_moves, expected, "{what} (prefer_short {prefer_short})");
        assert_eq!(first.pv.first(), expected.first(), "{what}");
    }
}

// ---------------------------------------------------- solvers agree

/// Every position of each Nim, misère and normal, by every search.
fn all_searches_agree_on_every_position_of(nims: &[&[u8]]) {
    for &piles in nims {
        for game in [Nim::misere(piles), Nim::normal(piles)] {
            let mut reference = Reference::new(&game);
            let positions = reachable(&game, &game.initial_state().unwrap());
            assert!(positions.len() > 20);
            for s in &positions {
                check_position(&game, &mut reference, s);
            }
        }
    }
}

#[test]
fn all_searches_agree_on_every_position_of_small_nim() {
    // Four piles, three, and piles of 4: the search without memo table
    // visits the whole tree at every position, so the piles stay small.
    all_searches_agree_on_every_position_of(&[&[3, 3, 2], &[1, 2, 3, 2], &[4, 1, 2]]);
}

/// `cargo test --test main solvers:: -- --ignored --skip cli_solvers`: the same on a bigger Nim (a minute or more).
#[test]
#[ignore = "slow: a bigger instance of all_searches_agree_on_every_position_of_small_nim"]
fn all_searches_agree_on_every_position_of_nim_3_3_3_3() {
    all_searches_agree_on_every_position_of(&[&[3, 3, 3, 3]]);
}

#[test]
fn all_searches_agree_on_every_position_of_small_nimcala() {
    for pits in 1..=4 {
        for tokens in 1..=4 {
            let game = Nimcala::new(pits, tokens);
            let mut reference = Reference::new(&game);
            for s in &reachable(&game, &game.initial_state().unwrap()) {
                check_position(&game, &mut reference, s);
            }
        }
    }
}

#[test]
fn all_searches_agree_on_the_1_9_game_after_one_to_three_picks() {
    let game = Select19;
    let mut reference = Reference::new(&game);
    let root = game.initial_state().unwrap();
    let mut rng = StdRng::seed_from_u64(19);
    let mut checked = 0;
    for depth in [1, 2, 3] {
        for _ in 0..6 {
            let mut s = root;
            for _ in 0..depth {
                let kids = children(&game, &s);
                s = kids[rng.random_range(0..kids.len())].1;
            }
            check_position(&game, &mut reference, &s);
            checked += 1;
        }
    }
    assert_eq!(checked, 18);
}

#[test]
fn the_1_9_game_from_the_start() {
    let game = Select19;
    let root = game.initial_state().unwrap();
    let mut reference = Reference::new(&game);
    let expected = reference.value(&root);
    for opts in configurations(false)
        .into_iter()
        .filter(|o| o.memo || o.algorithm == Algorithm::AlphaBeta)
    {
        let sol = solve(&game, &root, &opts).unwrap();
        assert_eq!(sol.value, expected, "{opts:?}");
        let end = replay(&game, &root, &sol.pv);
        assert_eq!(game.returns(&end, 0).unwrap(), expected);
        // The winner's utility is the last number picked.
        let last = game.move_text(sol.pv.last().unwrap());
        assert_eq!(sol.value.abs().to_string(), last);
    }
}

// ------------------------------------------- random game graphs

/// A random acyclic game graph: any player may move at any node (so a player
/// often moves twice in a row), positions recur by different paths, values tie.
struct Dag {
    nodes: Vec<Node>,
}

/// The kind of the error a broken node raises: a code no rule of gdl has.
#[derive(Clone, Copy)]
struct BrokenRule;

impl gdl::error_kind::ErrorKind for BrokenRule {
    fn code(self) -> &'static str {
        "test::broken"
    }
    fn exit_code(self) -> i32 {
        gdl::error_kind::EXIT_RUNTIME
    }
}

#[derive(Clone, Debug)]
enum Node {
    Leaf(f64),
    Inner {
        player: Player,
        next: Vec<u32>,
    },
    /// Rules that fail when asked whose turn it is.
    Broken,
}

impl Dag {
    fn random(rng: &mut StdRng, size: usize) -> Dag {
        let mut nodes = Vec::with_capacity(size);
        for i in 0..size {
            let left = size - i - 1;
            if left == 0 || (left < size / 2 && rng.random_bool(0.3)) {
                nodes.push(Node::Leaf(f64::from(rng.random_range(-2..=2))));
            } else {
                let k = rng.random_range(1..=left.min(4));
                let mut next: Vec<u32> = (0..k).map(|_| rng.random_range(i + 1..size) as u32).collect();
                next.sort_unstable();
                next.dedup();
                nodes.push(Node::Inner {
                    player: rng.random_range(0..2),
                    next,
                });
            }
        }
        Dag { nodes }
    }
}

impl Game for Dag {
    type State = u32;
    type Move = u32;

    fn name(&self) -> &str {
        "dag"
    }
    fn num_players(&self) -> usize {
        2
    }
    fn player_name(&self, p: Player) -> &str {
        ["P0", "P1"][p]
    }
    fn initial_state(&self) -> Result<u32, GameError> {
        Ok(0)
    }
    fn turn(&self, s: &u32) -> Result<Turn, GameError> {
        match &self.nodes[*s as usize] {
            Node::Leaf(_) => Ok(Turn::Terminal),
            Node::Inner { player, .. } => Ok(Turn::Player(*player)),
            Node::Broken => Err(GameError::new(BrokenRule, "broken rule")),
        }
    }
    fn legal_moves(&self, s: &u32, out: &mut Vec<u32>) -> Result<(), GameError> {
        out.clear();
        if let Node::Inner { next, .. } = &self.nodes[*s as usize] {
            out.extend(next);
        }
        Ok(())
    }
    fn apply(&self, s: &mut u32, mv: &u32) -> Result<(), GameError> {
        *s = *mv;
        Ok(())
    }
    fn returns(&self, s: &u32, player: Player) -> Result<f64, GameError> {
        match self.nodes[*s as usize] {
            Node::Leaf(v) if player == 0 => Ok(v),
            Node::Leaf(v) => Ok(-v),
            _ => panic!("returns on a non-terminal state"),
        }
    }
    fn move_text(&self, mv: &u32) -> String {
        mv.to_string()
    }
    fn state_text(&self, s: &u32) -> String {
        format!("node {s}")
    }
}

#[test]
fn all_searches_agree_on_random_game_graphs_with_any_turn_order() {
    let mut rng = StdRng::seed_from_u64(7);
    let mut repeated_turns = 0;
    for round in 0..300 {
        let game = Dag::random(&mut rng, 6 + round % 30);
        for node in &game.nodes {
            if let Node::Inner { player, next } = node {
                repeated_turns += next
                    .iter()
                    .filter(|&&c| matches!(&game.nodes[c as usize], Node::Inner { player: q, .. } if q == player))
                    .count();
            }
        }
        let mut reference = Reference::new(&game);
        for s in reachable(&game, &0) {
            check_position(&game, &mut reference, &s);
        }
    }
    assert!(repeated_turns > 100, "the graphs should often let a player move twice");
}

// ------------------------------------------------------- explain

/// Checks `explain` on `s`, on the game as it is, with its tightest utility
/// range declared and with none: the same values and lines every way.
fn check_explain<G: Game>(game: &G, s: &G::State) {
    check_explain_of(game, s);
    let (ranged, unranged) = (Ranged::tight(game), Ranged::none(game));
    check_explain_of(&ranged, s);
    check_explain_of(&unranged, s);
    for opts in configurations(false).iter().chain(&configurations(true)) {
        let plain = explain(game, s, opts).unwrap();
        assert_eq!(plain, explain(&ranged, s, opts).unwrap());
        assert_eq!(plain, explain(&unranged, s, opts).unwrap());
    }
}

fn check_explain_of<G: Game>(game: &G, s: &G::State) {
    let mut reference = Reference::new(game);
    let kids = children(game, s);
    for opts in configurations(false).iter().chain(&configurations(true)) {
        let explained = explain(game, s, opts).unwrap();
        assert_eq!(explained.len(), kids.len());
        for (mv, (m, child)) in explained.iter().zip(&kids) {
            assert_eq!(&mv.mv, m);
            assert_eq!(mv.value, reference.value(child), "{}", game.move_text(m));
            assert_eq!(mv.value, solve(game, child, opts).unwrap().value);
            let end = replay(game, child, &mv.line);
            assert_eq!(game.returns(&end, 0).unwrap(), mv.value);
            if opts.prefer_short && mv.value != 0.0 {
                assert_eq!(mv.line.len(), reference.eval(child).1);
            }
        }
        // The best moves are the moves whose value is the position's.
        let sol = solve(game, s, opts).unwrap();
        if !opts.prefer_short {
            let best: Vec<G::Move> = explained
                .iter()
                .filter(|m| m.value == sol.value)
                .map(|m| m.mv.clone())
                .collect();
            assert_eq!(sol.best_moves, best);
        }
    }
}

#[test]
fn explain_gives_every_move_its_exact_value() {
    let nim = Nim::misere(&[3, 2, 2]);
    check_explain(&nim, &nim.initial_state().unwrap());
    check_explain(&nim, &Nim::state(&[0, 2, 3, 1], 1));
    let nimcala = Nimcala::new(4, 3);
    check_explain(&nimcala, &nimcala.initial_state().unwrap());
    let select = Select19;
    let mut s = select.initial_state().unwrap();
    select.apply(&mut s, &4).unwrap();
    check_explain(&select, &s);
}

#[test]
fn explain_on_the_seed_nimcala_example() {
    // Seed 002: on 0,0,0,2, taking both stones from pit 4 wins; taking one
    // lets the opponent win on the next move.
    let game = Nimcala::new(4, 2);
    let s = Nimcala::state(&[0, 0, 0, 2], 0);
    let explained = explain(&game, &s, &SolveOptions::default()).unwrap();
    let values: Vec<(String, f64, usize)> = explained
        .iter()
        .map(|m| (game.move_text(&m.mv), m.value, m.line.len()))
        .collect();
    assert_eq!(
        values,
        [("(4, 1)".to_string(), -1.0, 1), ("(4, 2)".to_string(), 1.0, 0)]
    );
}

#[test]
fn explain_on_a_terminal_position_is_empty() {
    let game = Nim::misere(&[1]);
    let end = Nim::state(&[0], 1);
    assert!(explain(&game, &end, &SolveOptions::default()).unwrap().is_empty());
    let sol = solve(&game, &end, &SolveOptions::default()).unwrap();
    assert_eq!((sol.value, sol.length, sol.best_moves.len()), (-1.0, 0, 0));
}

// ------------------------------------------------------- theory

/// Bouton: in normal play the mover wins iff the xor of the piles is not 0.
/// In misère play the same, except when every pile is at most 1: then the
/// mover wins iff the number of non-empty piles is even.
fn mover_wins(piles: &[u8], misere: bool) -> bool {
    let xor = piles.iter().fold(0, |a, &p| a ^ p);
    if misere && piles.iter().all(|&p| p <= 1) {
        piles.iter().filter(|&&p| p == 1).count() % 2 == 0
    } else {
        xor != 0
    }
}

#[test]
fn nim_matches_boutons_formula_up_to_four_piles_of_five() {
    let mut checked = 0;
    for misere in [true, false] {
        for n in 1..=4u32 {
            let game = Nim {
                piles: vec![5; n as usize],
                misere,
            };
            checked += check_bouton(&game, n, misere);
            checked += check_bouton(&Ranged::none(&game), n, misere);
        }
    }
    assert_eq!(checked, 2 * 2 * 2 * (6 + 36 + 216 + 1296));
}

/// Solves every position of `n` piles of at most 5 with one solver (its memo
/// table carries over between positions) and checks the value and the best
/// moves against Bouton's formula; returns the positions checked.
fn check_bouton<G: Game<State = native::BoardState>>(game: &G, n: u32, misere: bool) -> usize {
    let mut solver = Solver::new(game, SolveOptions::default()).unwrap();
    let mut checked = 0;
    for code in 0..6u32.pow(n) {
        let piles: Vec<u8> = (0..n).map(|i| (code / 6u32.pow(i) % 6) as u8).collect();
        for to_move in [0, 1] {
            let s = Nim::state(&piles, to_move);
            let sol = solver.solve(&s).unwrap();
            let mover_value = if to_move == 0 { sol.value } else { -sol.value };
            let wins = mover_wins(&piles, misere);
            assert_eq!(
                mover_value,
                if wins { 1.0 } else { -1.0 },
                "{piles:?} misere {misere} mover {to_move}"
            );
            // A winner's best moves leave the opponent lost; a loser's are all its moves.
            for (mv, child) in children(game, &s) {
                let leaves_lost = !mover_wins(child.board.cells(), misere);
                assert_eq!(sol.best_moves.contains(&mv), !wins || leaves_lost, "{piles:?} {mv:?}");
            }
            checked += 1;
        }
    }
    checked
}

#[test]
fn misere_nim_7_5_3_1_by_every_search_with_memo() {
    let game = Nim::misere(&[7, 5, 3, 1]);
    let root = game.initial_state().unwrap();
    let expected = if mover_wins(&[7, 5, 3, 1], true) { 1.0 } else { -1.0 };
    for opts in configurations(false).into_iter().filter(|o| o.memo) {
        let sol = solve(&game, &root, &opts).unwrap();
        assert_eq!(sol.value, expected);
        // A winning mover's optimal moves leave the opponent a lost position;
        // a losing mover's optimal moves are all its moves.
        let mut legal = Vec::new();
        game.legal_moves(&root, &mut legal).unwrap();
        let mover_won = expected > 0.0;
        let lost_for_opponent: Vec<_> = legal
            .iter()
            .filter(|mv| {
                let mut s = root;
                game.apply(&mut s, mv).unwrap();
                !mover_wins(s.board.cells(), true)
            })
            .cloned()
            .collect();
        assert_eq!(sol.best_moves, if mover_won { lost_for_opponent } else { legal });
        assert_eq!(sol.memo_entries as u64, sol.states);
    }
    // At most every board (8*6*4*2 of them) with either player to move.
    let sol = solve(&game, &root, &SolveOptions::default()).unwrap();
    assert!(sol.states <= 2 * 8 * 6 * 4 * 2);
}

// ----------------------------------------------------- prefer_short

/// Shortest and longest possible games from `s` (any moves, not optimal play),
/// with the winners (player index who gets a positive return) of the shortest.
fn game_lengths<G: Game>(
    game: &G,
    s: &G::State,
    memo: &mut HashMap<G::State, (usize, usize, HashSet<Player>)>,
) -> (usize, usize, HashSet<Player>)
where
    G::State: Hash + Eq,
{
    if let Some(r) = memo.get(s) {
        return r.clone();
    }
    let r = if is_terminal(game, s) {
        let winners = (0..2).filter(|&p| game.returns(s, p).unwrap() > 0.0).collect();
        (0, 0, winners)
    } else {
        let kids: Vec<_> = children(game, s)
            .iter()
            .map(|(_, c)| game_lengths(game, c, memo))
            .collect();
        let min = kids.iter().map(|k| k.0).min().unwrap();
        let max = kids.iter().map(|k| k.1).max().unwrap();
        let winners = kids
            .iter()
            .filter(|k| k.0 == min)
            .flat_map(|k| k.2.iter().copied())
            .collect();
        (min + 1, max + 1, winners)
    };
    memo.insert(s.clone(), r.clone());
    r
}

#[test]
fn nimcala_4_pits_5_tokens_is_4_to_20_moves_and_the_shortest_is_won_by_player_2() {
    let game = Nimcala::new(4, 5);
    let (min, max, winners) = game_lengths(&game, &game.initial_state().unwrap(), &mut HashMap::new());
    assert_eq!(min, 4);
    assert_eq!(max, 4 * 5);
    assert_eq!(winners, HashSet::from([1]));
}

/// Every line of optimal play (each move keeps the value) from `s`: its length.
fn optimal_line_lengths<G: Game>(game: &G, reference: &mut Reference<'_, G>, s: &G::State, out: &mut Vec<usize>) {
    fn walk<G: Game>(game: &G, r: &mut Reference<'_, G>, s: &G::State, depth: usize, out: &mut Vec<usize>) {
        if is_terminal(game, s) {
            out.push(depth);
            return;
        }
        let v = r.value(s);
        for (_, c) in children(game, s) {
            if r.value(&c) == v {
                walk(game, r, &c, depth + 1, out);
            }
        }
    }
    walk(game, reference, s, 0, out);
}

#[test]
fn prefer_short_wins_fast_and_loses_slowly_on_small_nimcala() {
    let mut compared = 0;
    for pits in 2..=4 {
        for tokens in 2..=4 {
            let game = Nimcala::new(pits, tokens);
            let root = game.initial_state().unwrap();
            let mut reference = Reference::new(&game);
            let mut lengths = Vec::new();
            optimal_line_lengths(&game, &mut reference, &root, &mut lengths);
            let (shortest, longest) = (*lengths.iter().min().unwrap(), *lengths.iter().max().unwrap());
            for opts in configurations(true) {
                let sol = solve(&game, &root, &opts).unwrap();
                // Against the value-optimal lines: a winning first player can
                // never do better than the shortest of them, a losing one can
                // never last longer than the longest.
                if sol.value > 0.0 {
                    assert!(sol.length >= shortest);
                } else {
                    assert!(sol.length <= longest);
                }
                assert_eq!(sol.length, reference.eval(&root).1, "{pits} pits {tokens} tokens");
                // Without the preference the line is some optimal line, never a
                // faster win (or slower loss) than with it.
                let plain = solve(
                    &game,
                    &root,
                    &SolveOptions {
                        prefer_short: false,
                        ..opts.clone()
                    },
                )
                .unwrap();
                assert_eq!(plain.value, sol.value);
                if sol.value > 0.0 {
                    assert!(plain.length >= sol.length);
                } else {
                    assert!(plain.length <= sol.length);
                }
                compared += 1;
            }
        }
    }
    assert_eq!(compared, 3 * 3 * 4);
}

#[test]
fn prefer_short_lengths_are_the_minimax_of_lengths_over_all_lines() {
    // Brute force without any cache: every line, the winner choosing the
    // shortest and the loser the longest among value-optimal moves.
    fn brute<G: Game>(game: &G, r: &mut Reference<'_, G>, s: &G::State) -> usize {
        let Turn::Player(p) = game.turn(s).unwrap() else {
            return 0;
        };
        let v = r.value(s);
        let mut lens = Vec::new();
        for (_, c) in children(game, s) {
            if r.value(&c) == v {
                lens.push(brute(game, r, &c));
            }
        }
        let winning = (p == 0) == (v > 0.0);
        1 + if winning {
            *lens.iter().min().unwrap()
        } else {
            *lens.iter().max().unwrap()
        }
    }
    for (pits, tokens) in [(3, 3), (4, 3), (3, 4), (4, 4)] {
        let game = Nimcala::new(pits, tokens);
        let mut reference = Reference::new(&game);
        for s in reachable(&game, &game.initial_state().unwrap()) {
            if is_terminal(&game, &s) {
                continue;
            }
            let expected = brute(&game, &mut reference, &s);
            let sol = solve(
                &game,
                &s,
                &SolveOptions {
                    prefer_short: true,
                    ..SolveOptions::default()
                },
            )
            .unwrap();
            assert_eq!(sol.length, expected, "{}", game.state_text(&s));
        }
    }
}

// ------------------------------------------------ limits and errors

#[test]
fn a_node_budget_stops_the_search() {
    let game = Nim::misere(&[7, 5, 3, 1]);
    let opts = SolveOptions {
        memo: false,
        max_nodes: Some(100),
        ..SolveOptions::default()
    };
    match solve(&game, &game.initial_state().unwrap(), &opts) {
        Err(
            e @ SolveError::Budget {
                what: "nodes",
                nodes: 100,
                ..
            },
        ) => {
            assert_eq!(e.code().unwrap().to_string(), "gdl::solve::budget");
            assert!(e.to_string().contains("100"), "{e}");
        }
        other => panic!("expected a node budget error, got {other:?}"),
    }
    // The same budget is plenty for a small position.
    let small = Nim::misere(&[2, 1]);
    assert!(solve(&small, &small.initial_state().unwrap(), &opts).is_ok());
}

#[test]
fn a_time_budget_stops_the_search() {
    let game = Nim::misere(&[7, 5, 3, 1]);
    let opts = SolveOptions {
        memo: false,
        time_limit: Some(Duration::ZERO),
        ..SolveOptions::default()
    };
    let err = solve(&game, &game.initial_state().unwrap(), &opts).unwrap_err();
    assert!(matches!(err, SolveError::Budget { what: "time", .. }), "{err:?}");
}

#[test]
fn a_position_without_moves_that_is_not_over_is_an_error() {
    let game = Dag {
        nodes: vec![
            Node::Inner {
                player: 0,
                next: vec![1, 2],
            },
            Node::Leaf(1.0),
            Node::Inner {
                player: 1,
                next: vec![],
            },
        ],
    };
    for opts in configurations(false) {
        let err = solve(&game, &0, &opts).unwrap_err();
        let SolveError::Game(e) = &err else { panic!("{err:?}") };
        assert_eq!(e.code_str(), "gdl::runtime::no_moves");
        assert!(err.to_string().contains("node 2"), "{err}");
        assert_eq!(err.code().unwrap().to_string(), "gdl::runtime::no_moves");
    }
}

#[test]
fn errors_from_the_rules_propagate() {
    let game = Dag {
        nodes: vec![
            Node::Inner {
                player: 0,
                next: vec![1, 2],
            },
            Node::Leaf(1.0),
            Node::Broken,
        ],
    };
    for opts in configurations(false) {
        match solve(&game, &0, &opts) {
            Err(SolveError::Game(e)) => assert_eq!(e.code_str(), "test::broken"),
            other => panic!("{other:?}"),
        }
        assert!(explain(&game, &0, &opts).is_err());
    }
}

#[test]
fn three_players_are_refused() {
    struct Three;
    impl Game for Three {
        type State = u8;
        type Move = u8;
        fn name(&self) -> &str {
            "three"
        }
        fn num_players(&self) -> usize {
            3
        }
        fn player_name(&self, _: Player) -> &str {
            "p"
        }
        fn initial_state(&self) -> Result<u8, GameError> {
            Ok(0)
        }
        fn turn(&self, _: &u8) -> Result<Turn, GameError> {
            Ok(Turn::Terminal)
        }
        fn legal_moves(&self, _: &u8, out: &mut Vec<u8>) -> Result<(), GameError> {
            out.clear();
            Ok(())
        }
        fn apply(&self, _: &mut u8, _: &u8) -> Result<(), GameError> {
            Ok(())
        }
        fn returns(&self, _: &u8, _: Player) -> Result<f64, GameError> {
            Ok(0.0)
        }
        fn move_text(&self, m: &u8) -> String {
            m.to_string()
        }
        fn state_text(&self, s: &u8) -> String {
            s.to_string()
        }
    }
    let err = solve(&Three, &0, &SolveOptions::default()).unwrap_err();
    assert_eq!(err.code().unwrap().to_string(), "gdl::solve::unsupported");
}

// ------------------------------------------------------- counters

#[test]
fn memo_and_pruning_visit_fewer_nodes_and_count_states() {
    let game = Nim::misere(&[3, 3, 2, 1]);
    let root = game.initial_state().unwrap();
    let run = |algorithm, memo| {
        solve(
            &game,
            &root,
            &SolveOptions {
                algorithm,
                memo,
                ..SolveOptions::default()
            },
        )
        .unwrap()
    };
    let minimax = run(Algorithm::Minimax, false);
    let alphabeta = run(Algorithm::AlphaBeta, false);
    let minimax_memo = run(Algorithm::Minimax, true);
    let alphabeta_memo = run(Algorithm::AlphaBeta, true);
    assert!(alphabeta.nodes < minimax.nodes);
    assert!(minimax_memo.nodes < minimax.nodes);
    assert!(alphabeta_memo.nodes < alphabeta.nodes);
    // Minimax sees every reachable state, with or without the memo table.
    let all = reachable(&game, &root).len() as u64;
    assert_eq!(minimax.states, all);
    assert_eq!(minimax_memo.states, all);
    assert_eq!(minimax_memo.memo_entries as u64, all);
    assert!(minimax_memo.memo_hits > 0);
    assert_eq!((minimax.memo_entries, minimax.memo_hits), (0, 0));
    assert!(alphabeta.states <= all && alphabeta_memo.states <= all);
    let uncounted = solve(
        &game,
        &root,
        &SolveOptions {
            memo: false,
            count_states: false,
            ..SolveOptions::default()
        },
    )
    .unwrap();
    assert_eq!(uncounted.states, 0);
    assert_eq!(uncounted.nodes, alphabeta.nodes);
}

#[test]
fn a_reused_solver_answers_like_fresh_ones() {
    let game = Nimcala::new(4, 4);
    let mut solver = Solver::new(
        &game,
        SolveOptions {
            prefer_short: true,
            ..SolveOptions::default()
        },
    )
    .unwrap();
    for s in reachable(&game, &game.initial_state().unwrap()) {
        let fresh = solve(
            &game,
            &s,
            &SolveOptions {
                prefer_short: true,
                ..SolveOptions::default()
            },
        )
        .unwrap();
        let reused = solver.solve(&s).unwrap();
        assert_eq!(
            (fresh.value, &fresh.best_moves, &fresh.pv),
            (reused.value, &reused.best_moves, &reused.pv)
        );
    }
}

/// The positions the counter tests run on: Nim, Nimcala and the 1-9 game,
/// each solved as it is and with its utility range declared.
/// `big` adds the bigger positions (the searches without memo table visit
/// millions of nodes there: a minute and more in a debug build).
fn counted_positions(big: bool, mut check: impl FnMut(&str, &dyn Fn(&SolveOptions) -> (Solution<String>, u64))) {
    fn run<G: Game>(game: &G, s: &G::State, o: &SolveOptions) -> (Solution<String>, u64) {
        let sol = solve(game, s, o).unwrap();
        let mut solver = Solver::new(game, o.clone()).unwrap();
        solver.search_root(s).unwrap();
        let texts = |ms: &[G::Move]| ms.iter().map(|m| game.move_text(m)).collect::<Vec<_>>();
        let sol = Solution {
            best_moves: texts(&sol.best_moves),
            pv: texts(&sol.pv),
            value: sol.value,
            length: sol.length,
            nodes: sol.nodes,
            states: sol.states,
            memo_entries: sol.memo_entries,
            memo_hits: sol.memo_hits,
            seconds: sol.seconds,
            by_graph: sol.by_graph,
        };
        (sol, solver.nodes())
    }
    let nims = if big {
        vec![Nim::misere(&[4, 3, 2, 1]), Nim::normal(&[4, 3, 2, 1])]
    } else {
        vec![
            Nim::misere(&[3, 2, 1]),
            Nim::normal(&[3, 2, 1]),
            Nim::misere(&[2, 2, 3]),
        ]
    };
    for nim in &nims {
        let root = nim.initial_state().unwrap();
        check(&format!("{nim:?}"), &|o| run(&Ranged::none(nim), &root, o));
        let ranged = Ranged::tight(nim);
        check(&format!("{nim:?} ranged"), &|o| run(&ranged, &root, o));
    }
    let nimcala = if big { Nimcala::new(4, 5) } else { Nimcala::new(3, 4) };
    let root = nimcala.initial_state().unwrap();
    check("nimcala", &|o| run(&Ranged::none(&nimcala), &root, o));
    let ranged = Ranged::tight(&nimcala);
    check("nimcala ranged", &|o| run(&ranged, &root, o));
    let select = Select19;
    let mut s = select.initial_state().unwrap();
    select.apply(&mut s, &3).unwrap();
    check("1-9 after 3", &|o| run(&Ranged::none(&select), &s, o));
    let ranged = Ranged::tight(&select);
    check("1-9 after 3 ranged", &|o| run(&ranged, &s, o));
}

/// The line comes from the search (without the memo table) or from the
/// table: a solve visits the nodes of the search at the root and no more.
fn principal_line_costs_no_second_search(big: bool) {
    counted_positions(big, |what, run| {
        for prefer_short in [false, true] {
            for opts in configurations(prefer_short) {
                let (sol, search_nodes) = run(&opts);
                assert_eq!(sol.nodes, search_nodes, "{what} {opts:?}");
            }
        }
    });
}

/// With the utility range known, a move that reaches the best its mover
/// can get ends the search of its position: fewer nodes for alpha-beta,
/// the same answers.
fn declared_range_cuts_the_search_short(big: bool) {
    let mut plain = HashMap::new();
    counted_positions(big, |what, run| {
        for opts in configurations(false).into_iter().chain(configurations(true)) {
            let (sol, _) = run(&opts);
            let key = (what.trim_end_matches(" ranged").to_string(), format!("{opts:?}"));
            if !what.ends_with(" ranged") {
                plain.insert(key, sol);
                continue;
            }
            let before = &plain[&key];
            assert_eq!(
                (sol.value, &sol.best_moves, &sol.pv),
                (before.value, &before.best_moves, &before.pv)
            );
            match opts.algorithm {
                Algorithm::AlphaBeta => assert!(
                    sol.nodes < before.nodes,
                    "{what} {opts:?}: {} >= {}",
                    sol.nodes,
                    before.nodes
                ),
                Algorithm::Minimax => assert_eq!(sol.nodes, before.nodes, "{what} {opts:?}"),
            }
        }
    });
}

#[test]
fn the_principal_line_costs_no_second_search() {
    principal_line_costs_no_second_search(false);
}

#[test]
fn a_declared_range_cuts_the_search_short() {
    declared_range_cuts_the_search_short(false);
}

/// `cargo test --test main solvers:: -- --ignored --skip cli_solvers`: both on Nim [4, 3, 2, 1] and
/// Nimcala 4/5 (several minutes in a debug build).
#[test]
#[ignore = "slow: the counter tests on bigger positions"]
fn the_counter_tests_on_bigger_positions() {
    principal_line_costs_no_second_search(true);
    declared_range_cuts_the_search_short(true);
}
