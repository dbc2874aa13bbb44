//! The contract of [`Game`] (see its doc comment), checked the same way on
//! every game file and every native game, along seeded random games.
//!
//! At every position of every game:
//! - `turn` says the same when asked twice;
//! - a player to move has moves, listed in the promised order (move kinds in
//!   declaration order, then arguments ascending: checked as strictly
//!   ascending, so no move comes twice), the same list every time, the same
//!   as `legal_moves_of` for that player and none for the others; each move
//!   reads back from its text, and each can be applied and changes the state;
//! - at a chance node the outcomes are in the same order, each has a
//!   positive probability, they sum to 1 and each can be applied;
//! - at a simultaneous node every player has moves, in that order, each
//!   reading back from its text;
//! - what a player sees (`observation`) is the same in a state drawn by
//!   `sample_hidden` for them, and so are whose turn it is and the player's
//!   own moves;
//! - at the end, `returns` gives a finite value to every player, and the
//!   values sum as the game declares: to 0 for two players and for score
//!   outcomes; with more players, `winner P` gives P the opposite of
//!   everyone else.
//!
//! - a representative (`canonical`) is its own representative, has the
//!   same player to move, the same number of legal moves, and the same end
//!   (terminal or not, with the same returns).
//!
//! Every random game ends within `MAX_PLIES`, and at least one of them ends
//! with some player's return not 0: an end clause whose outcome came out 0
//! every time would decide nothing.

use std::collections::HashSet;
use std::fmt::Debug;

use gdl::game::{Game, Turn, all_returns};
use gdl::runtime::{Interpreted, Move, State};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// A random game longer than this is taken never to end.
const MAX_PLIES: usize = 10_000;

/// The most legal moves of one position whose text is read back and which
/// are played on a copy (see `check_moves`).
const MOVES_READ_BACK: usize = 12;

/// [`conformance`] for a game file: its moves come in the order the language
/// promises (every argument of the files in games/ is drawn from a range or
/// a set, so ascending), every position's text reads back as the same
/// position, and `returns` is refused before the game is over.
pub fn conformance_of_file(game: &Interpreted, plays: usize, seed: u64) -> Vec<State> {
    let promised = |m: &Move| (m.kind(), m.args().to_vec());
    conformance(game, plays, seed, promised, |s| {
        let text = game.position(s);
        let back = game.parse_position(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(game.position(&back), text, "a position reads back as itself");
        if game.turn(s).unwrap() != Turn::Terminal {
            assert!(
                game.returns(s, 0).is_err(),
                "{}: returns of an unfinished game in {text}",
                game.name()
            );
        }
    })
}

/// [`conformance`] for a native game, whose move type orders moves as its
/// game file does.
pub fn conformance_of_native<G: Game>(game: &G, plays: usize, seed: u64) -> Vec<G::State>
where
    G::Move: Ord,
{
    conformance(game, plays, seed, G::Move::clone, |_| {})
}

/// Plays `plays` random games of `game` (seeded by `seed`) and checks the
/// contract at every position (see the module's doc comment). `promised`
/// maps a move to its place in the promised order; `also` runs further
/// checks on each position. Returns where each game ended.
pub fn conformance<G, K>(
    game: &G,
    plays: usize,
    seed: u64,
    promised: impl Fn(&G::Move) -> K,
    also: impl Fn(&G::State),
) -> Vec<G::State>
where
    G: Game,
    K: Ord + Debug,
{
    let mut rng = StdRng::seed_from_u64(seed);
    let mut ends = Vec::with_capacity(plays);
    let mut decided = 0;
    for _ in 0..plays {
        let mut s = game.initial_state().unwrap();
        // A game with `end when repeated N` ends when a position comes back N times.
        let mut seen = gdl::game::Repetitions::of(game);
        if let Some(seen) = &mut seen {
            seen.restart(&s);
        }
        for plies in 0.. {
            assert!(plies < MAX_PLIES, "{}: a random game did not end", game.name());
            also(&s);
            let turn = game.turn(&s).unwrap();
            assert_eq!(
                game.turn(&s).unwrap(),
                turn,
                "{}: turn changed when asked again",
                at(game, &s)
            );
            if turn != Turn::Terminal {
                check_hidden(game, &s, turn, &mut rng);
            }
            check_canonical(game, &s, turn);
            match turn {
                Turn::Terminal => {
                    decided += usize::from(check_end(game, &s));
                    break;
                }
                Turn::Player(p) => {
                    assert!(p < game.num_players(), "{}: player {p}", at(game, &s));
                    let moves = check_moves(game, &s, &promised, p);
                    let m = moves[rng.random_range(0..moves.len())].clone();
                    game.apply(&mut s, &m).unwrap();
                }
                Turn::Chance => {
                    let m = check_chance(game, &s, &promised, &mut rng);
                    game.apply(&mut s, &m).unwrap();
                }
                Turn::Simultaneous => {
                    let joint = check_simultaneous(game, &s, &promised, &mut rng);
                    game.apply_joint(&mut s, &joint).unwrap();
                }
            }
            if let Some(seen) = &mut seen {
                seen.after_move(game, &mut s).unwrap();
            }
        }
        ends.push(s);
    }
    assert!(
        plays == 0 || decided > 0,
        "{}: {plays} random games all ended with every return 0",
        game.name()
    );
    ends
}

/// The representative of `s` plays as `s` does, as far as one position
/// shows: whose turn, how many moves, how it ended; and it is its own.
fn check_canonical<G: Game>(game: &G, s: &G::State, turn: Turn) {
    let Some(rep) = game.canonical(s).unwrap() else {
        return;
    };
    assert_eq!(
        game.turn(&rep).unwrap(),
        turn,
        "{}: the representative's turn",
        at(game, s)
    );
    let again = game.canonical(&rep).unwrap().unwrap_or_else(|| rep.clone());
    assert_eq!(again, rep, "{}: a representative is its own", at(game, s));
    match turn {
        Turn::Terminal => assert_eq!(
            all_returns(game, &rep).unwrap(),
            all_returns(game, s).unwrap(),
            "{}: the representative's returns",
            at(game, s)
        ),
        _ => {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            game.legal_moves(s, &mut a).unwrap();
            game.legal_moves(&rep, &mut b).unwrap();
            assert_eq!(a.len(), b.len(), "{}: the representative's moves", at(game, s));
        }
    }
}

/// The game and the position, for messages.
fn at<G: Game>(game: &G, s: &G::State) -> String {
    format!("{}, in {}", game.name(), game.state_text(s))
}

/// `moves` are strictly ascending in the promised order, and distinct.
fn check_order<G: Game, K: Ord + Debug>(game: &G, s: &G::State, moves: &[G::Move], promised: &impl Fn(&G::Move) -> K) {
    for w in moves.windows(2) {
        assert!(
            promised(&w[0]) < promised(&w[1]),
            "{}: {} is listed before {}, against the promised order",
            at(game, s),
            game.move_text(&w[0]),
            game.move_text(&w[1])
        );
    }
    let distinct: HashSet<&G::Move> = moves.iter().collect();
    assert_eq!(distinct.len(), moves.len(), "{}: a move is listed twice", at(game, s));
}

/// The checks of a position where player `p` moves; its legal moves.
fn check_moves<G: Game, K: Ord + Debug>(
    game: &G,
    s: &G::State,
    promised: &impl Fn(&G::Move) -> K,
    p: usize,
) -> Vec<G::Move> {
    let mut moves = Vec::new();
    game.legal_moves(s, &mut moves).unwrap();
    assert!(!moves.is_empty(), "{}: no moves", at(game, s));
    check_order(game, s, &moves, promised);
    let mut again = vec![moves[0].clone()];
    game.legal_moves(s, &mut again).unwrap();
    assert_eq!(moves, again, "{}: a second call lists other moves", at(game, s));
    for q in 0..game.num_players() {
        game.legal_moves_of(s, q, &mut again).unwrap();
        if q == p {
            assert_eq!(again, moves, "{}: legal_moves_of the player to move", at(game, s));
        } else {
            assert!(again.is_empty(), "{}: player {q} may move out of turn", at(game, s));
        }
    }
    // Every move where they are few; evenly spread ones (the last among
    // them) where there are hundreds, as in Amazons: reading one back lists
    // every move again.
    let step = moves.len().div_ceil(MOVES_READ_BACK).max(1);
    for m in moves
        .iter()
        .step_by(step)
        .chain((step > 1).then(|| &moves[moves.len() - 1]))
    {
        assert_eq!(
            game.parse_move(s, &game.move_text(m)).as_ref(),
            Ok(m),
            "{}",
            at(game, s)
        );
        let mut child = s.clone();
        game.apply(&mut child, m).unwrap();
        assert_ne!(&child, s, "{}: {} changes nothing", at(game, s), game.move_text(m));
    }
    moves
}

/// The checks of a chance node; an outcome drawn with its probability.
fn check_chance<G: Game, K: Ord + Debug>(
    game: &G,
    s: &G::State,
    promised: &impl Fn(&G::Move) -> K,
    rng: &mut StdRng,
) -> G::Move {
    let mut outcomes = Vec::new();
    game.chance_outcomes(s, &mut outcomes).unwrap();
    assert!(!outcomes.is_empty(), "{}: a chance node without outcomes", at(game, s));
    let moves: Vec<G::Move> = outcomes.iter().map(|(m, _)| m.clone()).collect();
    check_order(game, s, &moves, promised);
    assert!(outcomes.iter().all(|&(_, p)| p > 0.0), "{}: {outcomes:?}", at(game, s));
    let total: f64 = outcomes.iter().map(|(_, p)| p).sum();
    assert!(
        (total - 1.0).abs() < 1e-9,
        "{}: chance probabilities sum to {total}",
        at(game, s)
    );
    for m in &moves {
        let mut child = s.clone();
        game.apply(&mut child, m).unwrap();
    }
    let mut left = rng.random::<f64>() * total;
    for (m, p) in &outcomes {
        left -= p;
        if left < 0.0 {
            return m.clone();
        }
    }
    moves[moves.len() - 1].clone()
}

/// The checks of a simultaneous node; a random move for each player.
fn check_simultaneous<G: Game, K: Ord + Debug>(
    game: &G,
    s: &G::State,
    promised: &impl Fn(&G::Move) -> K,
    rng: &mut StdRng,
) -> Vec<G::Move> {
    let mut joint = Vec::new();
    let mut moves = Vec::new();
    for p in 0..game.num_players() {
        game.legal_moves_of(s, p, &mut moves).unwrap();
        assert!(!moves.is_empty(), "{}: player {p} has no move", at(game, s));
        check_order(game, s, &moves, promised);
        for m in &moves {
            assert_eq!(
                game.parse_move_of(s, p, &game.move_text(m)).as_ref(),
                Ok(m),
                "{}",
                at(game, s)
            );
        }
        joint.push(moves[rng.random_range(0..moves.len())].clone());
    }
    joint
}

/// What each player sees is the same in a state drawn for them, and so are
/// whose turn it is and their own moves.
fn check_hidden<G: Game>(game: &G, s: &G::State, turn: Turn, rng: &mut StdRng) {
    let (mut mine, mut drawn) = (Vec::new(), Vec::new());
    for p in 0..game.num_players() {
        let sampled = game.sample_hidden(s, p, rng).unwrap();
        assert_eq!(
            game.observation(&sampled, p),
            game.observation(s, p),
            "{}: player {p} could tell the drawn state apart",
            at(game, s)
        );
        assert_eq!(
            game.turn(&sampled).unwrap(),
            turn,
            "{}: a drawn state for player {p}",
            at(game, s)
        );
        if turn == Turn::Player(p) || turn == Turn::Simultaneous {
            game.legal_moves_of(s, p, &mut mine).unwrap();
            game.legal_moves_of(&sampled, p, &mut drawn).unwrap();
            assert_eq!(mine, drawn, "{}: player {p}'s moves in a drawn state", at(game, s));
        }
    }
}

/// The checks of a finished game; whether it was decided (some return not 0).
fn check_end<G: Game>(game: &G, s: &G::State) -> bool {
    let r = all_returns(game, s).unwrap();
    let n = game.num_players();
    assert_eq!(r.len(), n);
    assert!(r.iter().all(|v| v.is_finite()), "{}: returns {r:?}", at(game, s));
    if n == 2 || game.scores(s).unwrap().is_some() {
        let sum: f64 = r.iter().sum();
        assert!(sum.abs() < 1e-9, "{}: returns {r:?} are not zero-sum", at(game, s));
    } else {
        // `winner P` or `loser P`: P gets the opposite of every other player.
        let one_against_all = (0..n).any(|i| (0..n).all(|j| j == i || r[j] == -r[i]));
        assert!(one_against_all, "{}: returns {r:?}", at(game, s));
    }
    r.iter().any(|&v| v != 0.0)
}
