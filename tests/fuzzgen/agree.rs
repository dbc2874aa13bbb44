//! Two runs of one game held equal: the same seeded random games played on
//! both, and everything the `Game` trait says compared at every position.
//! Code lowered with and without its optimisations (tests/inlining.rs, the
//! library fuzzer) must agree error for error.

use std::time::Instant;

use gdl::error_kind::RuntimeKind;
use gdl::game::{Game, GameError, Turn};
use gdl::runtime::{Interpreted, State};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// An error as the two runs must agree on it. Inlining does not spend a
/// call's step of the budget or its level of the call depth (src/ir/inline.rs
/// says why), so a rule that runs out of either stops at another point of
/// its loop, or in another function of a mutual recursion: the half-played
/// position, and the function the recursion names, may differ. A rule that
/// needs nearly the whole budget may even run out in the plain code alone
/// (see `out_of_budget_only_in_b`).
fn err(e: &GameError) -> String {
    if e.is(RuntimeKind::Steps) || e.is(RuntimeKind::Recursion) {
        e.code_str().to_string()
    } else {
        e.to_string()
    }
}

/// The errors of a spent budget, as `err` writes them.
const BUDGET: [&str; 2] = ["gdl::runtime::steps", "gdl::runtime::recursion"];

/// Whether `b` (the less optimised run) differs from `a` only where it ran
/// out of budget: optimisations never spend more than the plain code, so a
/// rule near the limit may fail plainly and succeed optimised, never the
/// other way round.
fn out_of_budget_only_in_b(a: &str, b: &str) -> bool {
    a.lines().count() == b.lines().count()
        && a.lines()
            .zip(b.lines())
            .all(|(x, y)| x == y || BUDGET.iter().any(|code| y.contains(&format!("Err(\"{code}\")"))))
}

/// What the game says about one position, errors as their messages.
pub fn describe(game: &Interpreted, s: &State) -> String {
    let mut out = String::new();
    let mut line = |what: &str, v: String| out.push_str(&format!("{what}: {v}\n"));
    line("position", game.position(s));
    line("turn", format!("{:?}", game.turn(s).map_err(|e| err(&e))));
    let mut moves = Vec::new();
    line(
        "moves",
        format!("{:?} {moves:?}", game.legal_moves(s, &mut moves).map_err(|e| err(&e))),
    );
    for p in 0..game.num_players() {
        let mut mine = Vec::new();
        let r = game.legal_moves_of(s, p, &mut mine).map_err(|e| err(&e));
        line("moves of", format!("{p} {r:?} {mine:?}"));
        line(
            "evaluate",
            format!("{p} {:?}", game.evaluate(s, p).map_err(|e| err(&e))),
        );
        line("returns", format!("{p} {:?}", game.returns(s, p).map_err(|e| err(&e))));
    }
    let mut outcomes = Vec::new();
    let r = game.chance_outcomes(s, &mut outcomes).map_err(|e| err(&e));
    line("chance", format!("{r:?} {outcomes:?}"));
    let canonical = game.canonical(s).map(|c| c.map(|c| game.position(&c)));
    line("canonical", format!("{:?}", canonical.map_err(|e| err(&e))));
    line("scores", format!("{:?}", game.scores(s).map_err(|e| err(&e))));
    out
}

/// Plays `games` seeded random games of at most `plies` moves on `a` and
/// `b` (the same rules, run two ways); the first position where they
/// differ, if any. Stops early, agreeing, at `deadline`.
pub fn agree(
    a: &Interpreted,
    b: &Interpreted,
    games: usize,
    plies: usize,
    seed: u64,
    deadline: Option<Instant>,
) -> Result<(), String> {
    let mut rng = StdRng::seed_from_u64(seed);
    let (ra, rb) = (a.initial_state(), b.initial_state());
    let (ta, tb) = (
        ra.as_ref().map(|s| a.position(s)).map_err(err),
        rb.as_ref().map(|s| b.position(s)).map_err(err),
    );
    if ta != tb {
        return Err(format!("the initial states differ: {ta:?} against {tb:?}"));
    }
    let (Ok(root_a), Ok(root_b)) = (ra, rb) else {
        return Ok(());
    };
    for game in 0..games {
        let (mut x, mut y) = (root_a.clone(), root_b.clone());
        for ply in 0..plies {
            if deadline.is_some_and(|d| Instant::now() > d) {
                return Ok(());
            }
            let (dx, dy) = (describe(a, &x), describe(b, &y));
            if dx != dy {
                if out_of_budget_only_in_b(&dx, &dy) {
                    break;
                }
                return Err(format!("game {game}, ply {ply}:\n{dx}\nagainst\n{dy}"));
            }
            let step = match a.turn(&x) {
                Ok(Turn::Player(_)) => {
                    let mut moves = Vec::new();
                    a.legal_moves(&x, &mut moves)
                        .ok()
                        .filter(|_| !moves.is_empty())
                        .map(|_| {
                            let m = moves[rng.random_range(0..moves.len())];
                            (
                                a.apply(&mut x, &m).map_err(|e| err(&e)),
                                b.apply(&mut y, &m).map_err(|e| err(&e)),
                            )
                        })
                }
                Ok(Turn::Chance) => {
                    let mut outcomes = Vec::new();
                    a.chance_outcomes(&x, &mut outcomes)
                        .ok()
                        .filter(|_| !outcomes.is_empty())
                        .map(|_| {
                            let m = outcomes[rng.random_range(0..outcomes.len())].0;
                            (
                                a.apply(&mut x, &m).map_err(|e| err(&e)),
                                b.apply(&mut y, &m).map_err(|e| err(&e)),
                            )
                        })
                }
                Ok(Turn::Simultaneous) => {
                    let mut joint = Vec::new();
                    for p in 0..a.num_players() {
                        let mut moves = Vec::new();
                        if a.legal_moves_of(&x, p, &mut moves).is_err() || moves.is_empty() {
                            break;
                        }
                        joint.push(moves[rng.random_range(0..moves.len())]);
                    }
                    (joint.len() == a.num_players()).then(|| {
                        (
                            a.apply_joint(&mut x, &joint).map_err(|e| err(&e)),
                            b.apply_joint(&mut y, &joint).map_err(|e| err(&e)),
                        )
                    })
                }
                Ok(Turn::Terminal) | Err(_) => None,
            };
            match step {
                Some((Ok(()), Err(e))) if BUDGET.contains(&e.as_str()) => break,
                Some((sa, sb)) if sa != sb => {
                    return Err(format!(
                        "game {game}, ply {ply}, applying the move: {sa:?} against {sb:?}"
                    ));
                }
                Some((Ok(()), _)) => {}
                Some((Err(_), _)) | None => break,
            }
        }
    }
    Ok(())
}
