//! Alpha-beta to a depth limit, for games too big to solve exactly:
//! iterative deepening, a transposition table, and positions at the limit
//! scored by the game's evaluation (`Game::evaluate`; in a game file,
//! `fn evaluate(p: player) -> int`).
//!
//! What it knows is kept apart from what it guesses. A result computed
//! without scoring any position at the limit is exact (*proven*); so is a
//! win or a loss when the game declares its utility range, because the
//! estimates are kept strictly inside it: a score at the end of the range
//! can only come from the ends of the game.
//!
//! Under a repetition rule (`end when repeated N`) the search keeps the
//! line: the game's positions so far, the root, and the positions down to
//! the node searched, with how often each occurs; a move that reaches a
//! position for the Nth time scores the rule's outcome, exactly. A value
//! then depends on the line, so the transposition table keeps only each
//! position's best move (to order the moves), never a value.

use std::time::{Duration, Instant};

use rustc_hash::FxHashMap;

use crate::game::{Game, GameError, Turn, no_legal_move};
use crate::solve::exact::solve_error::SolveError;

/// Limits of a depth-limited search; all optional.
#[derive(Clone, Debug, Default)]
pub struct DepthOptions {
    /// The deepest iteration, in moves (plies).
    pub max_depth: Option<usize>,
    pub time_limit: Option<Duration>,
    pub max_nodes: Option<u64>,
    /// The most positions the transposition table holds (`--max-states`):
    /// when full it is cleared, as at its own cap.
    pub max_states: Option<u64>,
    /// Set from outside (Ctrl-C): the search stops in the middle of a move.
    pub stop: Option<super::move_budget::Interrupt>,
}

/// The most plies an iteration may go: beyond this a game that has not ended is not small.
const DEEPEST: usize = 1_000;

/// A root move and what the last completed iteration says of it.
#[derive(Clone, Debug, PartialEq)]
pub struct RootMove<M> {
    pub mv: M,
    /// For player 0.
    pub value: f64,
    /// Whether `value` is exact (no estimate decided it).
    pub proven: bool,
}

/// What a depth-limited search found.
#[derive(Clone, Debug, PartialEq)]
pub struct DepthResult<M> {
    /// The last depth completed, in plies (0: not even depth 1).
    pub depth: usize,
    /// For player 0: exact if `proven`, else the evaluation's best guess.
    pub value: f64,
    pub proven: bool,
    /// The moves with the best value, in legal order.
    pub best_moves: Vec<M>,
    /// Every root move, in legal order (empty at the end of the game).
    pub moves: Vec<RootMove<M>>,
    /// Why the next depth was not completed: `"time"`, `"nodes"`,
    /// `"interrupt"` (a signal), `"depth"` (the `max_depth` asked for), or
    /// `None` when the result is proven.
    pub stopped: Option<&'static str>,
    pub nodes: u64,
    /// Positions scored by the evaluation.
    pub evaluations: u64,
    /// Whether the game gives an evaluation (without one, estimates are 0).
    pub has_evaluation: bool,
    /// The most positions the transposition table held at once.
    pub stored: usize,
}

#[derive(Clone, Copy, PartialEq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

/// A transposition-table entry: the value for player 0, searched `draft`
/// plies deep (`PROVEN`: to the end of every line).
#[derive(Clone, Copy)]
struct Entry {
    value: f64,
    draft: u32,
    bound: Bound,
    best: u32,
}

const PROVEN: u32 = u32::MAX;
const NO_MOVE: u32 = u32::MAX;
/// The table is cleared when it holds this many positions (about 100 MB),
/// or fewer when the memory limit leaves less ([`table_cap`]).
const TABLE_CAP: usize = 2_000_000;

/// The most positions the table holds before it is cleared: [`TABLE_CAP`],
/// or what a quarter of the memory left under the limit (`--max-memory`)
/// holds, each entry a copy of a state like `root`.
fn table_cap<G: Game>(root: &G::State) -> usize {
    let left = crate::memory::headroom();
    if !crate::memory::counting() || left == usize::MAX {
        return TABLE_CAP;
    }
    // What a state owns on the heap, in the allocator's blocks, measured on
    // a copy of the root.
    let before = crate::memory::live();
    let copy = std::hint::black_box(root.clone());
    let owned = crate::memory::live().saturating_sub(before);
    drop(copy);
    let slot = std::mem::size_of::<(G::State, Entry)>();
    crate::memory::table_entries_within(left / 4, slot, owned).clamp(64, TABLE_CAP)
}

/// Stopped by a limit (not an error of the game).
struct Stop(&'static str);

enum Halt {
    Stop(Stop),
    Error(SolveError),
}

impl From<GameError> for Halt {
    fn from(e: GameError) -> Self {
        Halt::Error(e.into())
    }
}

struct Search<'g, G: Game> {
    game: &'g G,
    /// Under a repetition rule: N, and how often each position occurs on
    /// the line (the positions before the root, the root, the path searched).
    line: Option<(u32, FxHashMap<G::State, u32>)>,
    table: FxHashMap<G::State, Entry>,
    table_cap: usize,
    /// The most positions `table` held at once.
    stored: usize,
    /// Estimates are clamped to this open interval when the range is known.
    clamp: Option<(f64, f64)>,
    range: Option<(f64, f64)>,
    nodes: u64,
    evaluations: u64,
    max_nodes: u64,
    deadline: Option<Instant>,
    stop: Option<super::move_budget::Interrupt>,
}

/// Searches `root` deeper and deeper until the answer is proven or a limit
/// stops it; the answer is that of the last depth completed.
pub fn search<G: Game>(game: &G, root: &G::State, opts: &DepthOptions) -> Result<DepthResult<G::Move>, SolveError> {
    search_after(game, root, &[], opts)
}

/// [`search`] from `root` after the game's positions `before` it (oldest
/// first), which a repetition rule counts; ignored without one.
pub fn search_after<G: Game>(
    game: &G,
    root: &G::State,
    before: &[G::State],
    opts: &DepthOptions,
) -> Result<DepthResult<G::Move>, SolveError> {
    if game.num_players() != 2 {
        return Err(SolveError::Unsupported(format!(
            "{} has {} players; the depth-limited search handles two",
            game.name(),
            game.num_players()
        )));
    }
    let started = Instant::now();
    let range = game.utility_range().filter(|(lo, hi)| lo < hi);
    let has_evaluation = match game.turn(root)? {
        Turn::Terminal => false,
        _ => game.evaluate(root, 0)?.is_some(),
    };
    let line = game.repetition().map(|times| {
        let mut counts: FxHashMap<G::State, u32> = FxHashMap::default();
        for p in before.iter().chain([root]) {
            *counts.entry(p.clone()).or_insert(0) += 1;
        }
        (times, counts)
    });
    let mut s = Search {
        game,
        line,
        table: FxHashMap::default(),
        table_cap: opts
            .max_states
            .map_or(usize::MAX, |n| usize::try_from(n).unwrap_or(usize::MAX))
            .min(table_cap::<G>(root)),
        stored: 0,
        clamp: range.map(|(lo, hi)| {
            let margin = (hi - lo) * 1e-3;
            (lo + margin, hi - margin)
        }),
        range,
        nodes: 0,
        evaluations: 0,
        max_nodes: opts.max_nodes.unwrap_or(u64::MAX),
        deadline: opts.time_limit.map(|t| started + t),
        stop: opts.stop,
    };
    let mut out = DepthResult {
        depth: 0,
        value: 0.0,
        proven: false,
        best_moves: Vec::new(),
        moves: Vec::new(),
        stopped: None,
        nodes: 0,
        evaluations: 0,
        has_evaluation,
        stored: 0,
    };
    let maximize = match game.turn(root)? {
        Turn::Terminal => {
            out.value = game.returns(root, 0)?;
            out.proven = true;
            return Ok(out);
        }
        Turn::Player(p) => p == 0,
        Turn::Chance | Turn::Simultaneous => return Err(unsupported(game)),
    };
    let mut moves = Vec::new();
    game.legal_moves(root, &mut moves)?;
    if moves.is_empty() {
        return Err(no_legal_move(game, root).into());
    }
    let children: Vec<G::State> = moves
        .iter()
        .map(|m| {
            let mut c = root.clone();
            game.apply(&mut c, m).map(|()| c)
        })
        .collect::<Result<_, _>>()?;
    // Searched best first, by the last iteration's values.
    let mut order: Vec<usize> = (0..moves.len()).collect();
    let deepest = opts.max_depth.unwrap_or(DEEPEST).min(DEEPEST);
    for depth in 1..=deepest {
        let mut values = vec![(0.0, false); moves.len()];
        let mut stopped = None;
        for &i in &order {
            match s.child_value(&children[i], depth - 1, f64::NEG_INFINITY, f64::INFINITY) {
                Ok((v, cut)) => values[i] = (v, !cut || s.at_end(v)),
                Err(Halt::Stop(Stop(why))) => {
                    stopped = Some(why);
                    break;
                }
                Err(Halt::Error(e)) => return Err(e),
            }
        }
        if let Some(why) = stopped {
            out.stopped = Some(why);
            break;
        }
        let best = if maximize {
            values.iter().map(|v| v.0).fold(f64::NEG_INFINITY, f64::max)
        } else {
            values.iter().map(|v| v.0).fold(f64::INFINITY, f64::min)
        };
        out.depth = depth;
        out.value = best;
        out.best_moves = (0..moves.len())
            .filter(|&i| values[i].0 == best)
            .map(|i| moves[i].clone())
            .collect();
        out.moves = (0..moves.len())
            .map(|i| RootMove {
                mv: moves[i].clone(),
                value: values[i].0,
                proven: values[i].1,
            })
            .collect();
        // The root's value is known when every move's is, or when a move
        // reaches the best the mover can get at all.
        let top = |v: f64| s.range.is_some_and(|(lo, hi)| v == if maximize { hi } else { lo });
        out.proven = values.iter().all(|v| v.1) || values.iter().any(|v| v.1 && top(v.0));
        // Deeper still while some move is not proven: the best moves are
        // all the moves that reach the value, not only the first found.
        if values.iter().all(|v| v.1) {
            out.stopped = None;
            break;
        }
        if depth == deepest {
            out.stopped = Some("depth");
        }
        order.sort_by(|&a, &b| {
            let (x, y) = (values[a].0, values[b].0);
            if maximize { y.total_cmp(&x) } else { x.total_cmp(&y) }
        });
    }
    out.nodes = s.nodes;
    out.evaluations = s.evaluations;
    out.stored = s.stored;
    Ok(out)
}

fn unsupported<G: Game>(game: &G) -> SolveError {
    SolveError::Unsupported(format!(
        "{} has simultaneous or chance moves; the depth-limited search handles turn-taking games",
        game.name()
    ))
}

impl<G: Game> Search<'_, G> {
    /// Whether `v` is an end of the utility range: only the game's ends score it.
    fn at_end(&self, v: f64) -> bool {
        self.range.is_some_and(|(lo, hi)| v == lo || v == hi)
    }

    /// [`Self::value`] of `child`, which a move just reached: under the
    /// repetition rule its Nth occurrence on the line ends the game (exactly),
    /// else it is searched with itself on the line.
    fn child_value(&mut self, child: &G::State, left: usize, alpha: f64, beta: f64) -> Result<(f64, bool), Halt> {
        let Some((times, counts)) = &mut self.line else {
            return self.value(child, left, alpha, beta);
        };
        let seen = counts.get(child).copied().unwrap_or(0);
        if seen + 1 >= *times {
            return Ok((self.game.repetition_returns(child, 0)?, false));
        }
        counts.insert(child.clone(), seen + 1);
        let r = self.value(child, left, alpha, beta);
        if let Some((_, counts)) = &mut self.line {
            if seen == 0 {
                counts.remove(child);
            } else {
                counts.insert(child.clone(), seen);
            }
        }
        r
    }

    /// The value of `state` for player 0, fail-soft in `(alpha, beta)`, looking
    /// `left` plies ahead; and whether an estimate was used (`true`: not proven).
    fn value(&mut self, state: &G::State, left: usize, mut alpha: f64, mut beta: f64) -> Result<(f64, bool), Halt> {
        if self.nodes >= self.max_nodes {
            return Err(Halt::Stop(Stop("nodes")));
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(1024) {
            if self.deadline.is_some_and(|d| Instant::now() >= d) {
                return Err(Halt::Stop(Stop("time")));
            }
            if super::move_budget::Interrupt::came(self.stop) {
                return Err(Halt::Stop(Stop("interrupt")));
            }
        }
        let maximize = match self.game.turn(state)? {
            Turn::Terminal => return Ok((self.game.returns(state, 0)?, false)),
            Turn::Player(p) => p == 0,
            Turn::Chance | Turn::Simultaneous => return Err(Halt::Error(unsupported(self.game))),
        };
        let mut hint = NO_MOVE;
        if let Some(e) = self.table.get(state) {
            // Under the repetition rule a value holds only on its own line.
            if self.line.is_none() && (e.draft == PROVEN || e.draft as usize >= left) {
                let fits = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => e.value >= beta,
                    Bound::Upper => e.value <= alpha,
                };
                if fits {
                    return Ok((e.value, e.draft != PROVEN));
                }
            }
            hint = e.best;
        }
        if left == 0 {
            self.evaluations += 1;
            let v = self.game.evaluate(state, 0)?.unwrap_or(0.0);
            let v = match self.clamp {
                Some((lo, hi)) => v.clamp(lo, hi),
                None => v,
            };
            return Ok((v, true));
        }
        let mut moves = Vec::new();
        self.game.legal_moves(state, &mut moves)?;
        if moves.is_empty() {
            return Err(no_legal_move(self.game, state).into());
        }
        let (alpha0, beta0) = (alpha, beta);
        let mut best = if maximize { f64::NEG_INFINITY } else { f64::INFINITY };
        let mut best_move = NO_MOVE;
        let mut cut = false;
        let mut child = state.clone();
        let first = (hint as usize) < moves.len();
        let order = first
            .then_some(hint as usize)
            .into_iter()
            .chain((0..moves.len()).filter(|&i| !first || i != hint as usize));
        for i in order {
            child.clone_from(state);
            self.game.apply(&mut child, &moves[i])?;
            let (v, c) = self.child_value(&child, left - 1, alpha, beta)?;
            cut |= c;
            if (maximize && v > best) || (!maximize && v < best) {
                best = v;
                best_move = i as u32;
            }
            if maximize {
                alpha = alpha.max(v);
            } else {
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta0 {
            Bound::Lower
        } else {
            Bound::Exact
        };
        if self.table.len() >= self.table_cap {
            self.table.clear();
        }
        self.table.insert(
            state.clone(),
            Entry {
                value: best,
                draft: if cut { left as u32 } else { PROVEN },
                bound,
                best: best_move,
            },
        );
        self.stored = self.stored.max(self.table.len());
        Ok((best, cut))
    }
}

/// `alphabeta:D`: plays a best move of a depth-limited search `D` plies
/// deep, the first of equally good ones drawn at random (seeded). Under a
/// node or time limit it plays the best move of the deepest iteration the
/// limit let it finish; when not even the first finished, the game stops
/// with an error that says so.
pub struct DepthAgent<S> {
    limits: DepthOptions,
    rng: rand::rngs::StdRng,
    /// Under a repetition rule, the game's positions so far.
    history: Option<Vec<S>>,
}

impl<S> DepthAgent<S> {
    pub fn new(depth: usize, seed: u64) -> Self {
        Self::with_limits(
            DepthOptions {
                max_depth: Some(depth),
                ..DepthOptions::default()
            },
            seed,
        )
    }

    /// An agent searching as `limits` says (`max_depth`: its `D`).
    pub fn with_limits(limits: DepthOptions, seed: u64) -> Self {
        use rand::SeedableRng;
        DepthAgent {
            limits,
            rng: rand::rngs::StdRng::seed_from_u64(seed),
            history: None,
        }
    }
}

impl<G: Game> super::agent::Agent<G> for DepthAgent<G::State> {
    fn name(&self) -> String {
        format!("alphabeta:{}", self.limits.max_depth.unwrap_or(DEEPEST))
    }

    fn new_game(&mut self, game: &G, seed: u64) -> Result<(), super::agent::AgentError> {
        use rand::SeedableRng;
        self.rng = rand::rngs::StdRng::seed_from_u64(seed);
        self.history = game.repetition().map(|_| Vec::new());
        Ok(())
    }

    /// Under a repetition rule the agent keeps the game's positions.
    fn wants_steps(&self) -> bool {
        self.history.is_some()
    }

    fn after_step(
        &mut self,
        _game: &G,
        _seat: crate::game::Player,
        before: &G::State,
        _step: &super::step::Step<G::Move>,
        _after: &G::State,
    ) {
        if let Some(h) = &mut self.history {
            h.push(before.clone());
        }
    }

    fn set_history(&mut self, _game: &G, before: &[G::State]) {
        crate::solve::agents::agent::replace_history(&mut self.history, before);
    }

    fn choose(
        &mut self,
        game: &G,
        state: &G::State,
        player: crate::game::Player,
        moves: &[G::Move],
    ) -> Result<super::agent::Choice<G::Move>, super::agent::AgentError> {
        use rand::Rng;
        let before = self.history.as_deref().unwrap_or_default();
        let found = search_after(game, state, before, &self.limits)?;
        if found.stopped == Some("interrupt") {
            // What the depths done so far found is not what was asked for.
            return Err(super::agent::AgentError::Failed(format!(
                "the search of `{}` was stopped by a signal",
                super::agent::Agent::<G>::name(self)
            )));
        }
        if found.depth == 0
            && let Some(why @ ("nodes" | "time")) = found.stopped
        {
            let limit = match why {
                "nodes" => format!(
                    "the node limit of {} (--max-nodes)",
                    self.limits.max_nodes.unwrap_or_default()
                ),
                _ => format!(
                    "the time limit of {} s (--time-limit)",
                    self.limits.time_limit.unwrap_or_default().as_secs_f64()
                ),
            };
            return Err(super::agent::AgentError::Failed(format!(
                "the search of `{}` for {} ran out before it finished looking one move ahead, at `{}`: it stopped after {} node{}, when {limit} was reached; raise the limit",
                super::agent::Agent::<G>::name(self),
                game.player_name(player),
                super::budgeted::shortened(&game.state_text(state)),
                found.nodes,
                if found.nodes == 1 { "" } else { "s" }
            )));
        }
        let best = if found.best_moves.is_empty() {
            moves
        } else {
            &found.best_moves[..]
        };
        Ok(super::agent::Choice::plain(
            best[self.rng.random_range(0..best.len())].clone(),
        ))
    }
}
