//! `Solver`: the state shared by every search of one solve (counters, limits,
//! buffers, the memo table), the root search and the principal line.

use std::hash::{Hash, Hasher};
use std::time::{Duration, Instant};

use rustc_hash::{FxHashSet, FxHasher};

use super::memo::{Bound, Entry, Memo};
use super::options::{Algorithm, SolveOptions};
use super::score::Score;
use super::solution::{MoveValue, Solution};
use super::solve_error::SolveError;
use crate::game::{Game, GameError, Turn};

/// The clock is read at most every this many nodes.
const CLOCK_EVERY: u64 = 4096;

/// Solves positions of one game with one set of options.
///
/// [`solve`] and [`explain`] make a fresh one per call; keep one instead to
/// solve many positions of the same game (an agent playing a whole game):
/// the memo table is kept between calls, counters and limits are per call.
pub struct Solver<'g, G: Game> {
    pub(super) game: &'g G,
    pub(super) opts: SolveOptions,
    /// Move lists, one per level of recursion in use; popped and pushed back
    /// so that no node allocates once the stack is warm.
    pub(super) move_bufs: Vec<Vec<G::Move>>,
    /// Child states to reuse with `clone_from`, likewise.
    pub(super) state_bufs: Vec<G::State>,
    pub(super) memo: Option<Memo<G::State>>,
    /// Hashes of the states seen, when counting states without the memo table.
    seen: Option<FxHashSet<u64>>,
    pub(super) nodes: u64,
    max_nodes: u64,
    max_states: u64,
    started: Instant,
    /// The clock is read again at this node count; the step between readings
    /// adapts, so that slow nodes cannot overrun the time limit by much.
    next_clock: u64,
    clock_step: u64,
    last_clock: Instant,
    /// Plies from the root of the current search to the node being searched.
    pub(super) depth: usize,
    /// Positions at this depth are scored 0 without a search (iterative deepening).
    pub(super) cutoff: usize,
    /// Whether the cutoff scored some position since the last `start`.
    pub(super) cut: bool,
    /// The line to a position past the depth limit, deepest first, collected
    /// as the error travels back up: (position, the move that led to it).
    trace: Vec<(G::State, String)>,
}

/// Solves `root`: its value for player 0, every optimal move, the principal
/// line and what the search cost.
pub fn solve<G: Game>(game: &G, root: &G::State, opts: &SolveOptions) -> Result<Solution<G::Move>, SolveError> {
    Solver::new(game, opts.clone())?.solve(root)
}

/// Every legal move at `root`, in legal-move order, with its exact value for
/// player 0 and the line that proves it. Empty when `root` is terminal.
pub fn explain<G: Game>(game: &G, root: &G::State, opts: &SolveOptions) -> Result<Vec<MoveValue<G::Move>>, SolveError> {
    Solver::new(game, opts.clone())?.explain(root)
}

impl<'g, G: Game> Solver<'g, G> {
    /// A solver for `game`; fails unless the game has two players.
    pub fn new(game: &'g G, opts: SolveOptions) -> Result<Self, SolveError> {
        if game.num_players() != 2 {
            return Err(SolveError::Unsupported(format!(
                "{} has {} players; minimax and alpha-beta need exactly two",
                game.name(),
                game.num_players()
            )));
        }
        let memo = opts.memo.then(Memo::new);
        Ok(Solver {
            game,
            opts,
            move_bufs: Vec::new(),
            state_bufs: Vec::new(),
            memo,
            seen: None,
            nodes: 0,
            max_nodes: u64::MAX,
            max_states: u64::MAX,
            started: Instant::now(),
            next_clock: u64::MAX,
            clock_step: 1,
            last_clock: Instant::now(),
            depth: 0,
            cutoff: usize::MAX,
            cut: false,
            trace: Vec::new(),
        })
    }

    /// Scores every non-terminal position `plies` moves below the root 0,
    /// without searching it (`None`: no cutoff). Results are then not proven
    /// unless `cutoff_reached` stays false. Use it without the memo table.
    pub fn set_cutoff(&mut self, plies: Option<usize>) {
        self.cutoff = plies.unwrap_or(usize::MAX);
    }

    /// Whether the last call scored a position at the cutoff instead of searching it.
    pub fn cutoff_reached(&self) -> bool {
        self.cut
    }

    /// Searches `child`, reached by `mv`, one ply deeper, within the depth
    /// limit; a search past the limit records its line on the way back up.
    #[inline]
    pub(super) fn descend(
        &mut self,
        child: &G::State,
        mv: &G::Move,
        search: impl FnOnce(&mut Self, &G::State) -> Result<Score, SolveError>,
    ) -> Result<Score, SolveError> {
        self.depth += 1;
        let r = if self.depth > self.opts.max_depth {
            Err(SolveError::TooDeep {
                depth: self.opts.max_depth,
                position: String::new(),
            })
        } else {
            search(self, child)
        };
        self.depth -= 1;
        if let Err(SolveError::TooDeep { .. }) = &r {
            self.trace.push((child.clone(), self.game.move_text(mv)));
        }
        r
    }

    /// Turns a search that went past the depth limit into the error that
    /// explains it: the cycle on its line if a position repeated, else the
    /// position where it was cut.
    fn diagnose(&mut self, root: &G::State, e: SolveError) -> SolveError {
        let SolveError::TooDeep { depth, .. } = e else {
            return e;
        };
        let mut line: Vec<(G::State, String)> = std::mem::take(&mut self.trace);
        line.reverse();
        let mut seen: rustc_hash::FxHashMap<&G::State, usize> = rustc_hash::FxHashMap::default();
        seen.insert(root, 0);
        for (j, (state, _)) in line.iter().enumerate() {
            if let Some(&i) = seen.get(state) {
                // Positions 0 (the root), 1, ... ; line[k] is position k + 1.
                return SolveError::Cycle {
                    position: self.position_text(state),
                    moves: line[i..=j].iter().map(|(_, m)| m.clone()).collect(),
                };
            }
            seen.insert(state, j + 1);
        }
        let last = line.last().map_or(root, |(s, _)| s);
        SolveError::TooDeep {
            depth,
            position: self.position_text(last),
        }
    }

    /// A position with whose move it is, as gdl prints one.
    fn position_text(&self, state: &G::State) -> String {
        let text = self.game.state_text(state);
        match self.game.turn(state) {
            Ok(Turn::Player(p)) => format!("{text}; {} to move", self.game.player_name(p)),
            _ => text,
        }
    }

    /// See [`solve`].
    pub fn solve(&mut self, root: &G::State) -> Result<Solution<G::Move>, SolveError> {
        self.start();
        let r = self.solve_from(root);
        r.map_err(|e| self.diagnose(root, e))
    }

    /// The value of `root` for player 0 and its best moves, without the
    /// principal line: the search at the root alone. With a cutoff
    /// (`set_cutoff`) the answer is proven only if `cutoff_reached` is false.
    pub fn search_root(&mut self, root: &G::State) -> Result<(f64, Vec<G::Move>), SolveError> {
        self.start();
        let r = self.root_search(root).map(|(s, best)| (s.value, best));
        r.map_err(|e| self.diagnose(root, e))
    }

    fn solve_from(&mut self, root: &G::State) -> Result<Solution<G::Move>, SolveError> {
        let (score, best_moves) = self.root_search(root)?;
        if let Some(memo) = &mut self.memo {
            memo.store(
                root,
                Entry {
                    score,
                    bound: Bound::Exact,
                },
            );
        }
        let pv = self.principal_line(root, score)?;
        Ok(Solution {
            value: score.value,
            best_moves,
            length: pv.len(),
            pv,
            nodes: self.nodes,
            states: self.states(),
            memo_entries: self.memo.as_ref().map_or(0, Memo::len),
            memo_hits: self.memo.as_ref().map_or(0, |m| m.hits),
            seconds: self.started.elapsed().as_secs_f64(),
        })
    }

    fn root_search(&mut self, root: &G::State) -> Result<(Score, Vec<G::Move>), SolveError> {
        let ps = self.opts.prefer_short;
        self.enter(root)?;
        let (score, best_moves) = match self.mover(root)? {
            None => (self.terminal_score(root)?, Vec::new()),
            Some(maximize) => {
                let moves = self.legal_moves_of(root)?;
                let mut best: Option<Score> = None;
                let mut best_moves = Vec::new();
                let mut child = root.clone();
                for mv in moves {
                    child.clone_from(root);
                    self.game.apply(&mut child, &mv)?;
                    // The first child with a full window; the others with a
                    // window that only just admits a tie with the best so far,
                    // so every tie and every improvement comes back exact.
                    let (alpha, beta) = match best {
                        None => (Score::MIN, Score::MAX),
                        Some(b) if maximize => (b.just_below(), Score::MAX),
                        Some(b) => (Score::MIN, b.just_above()),
                    };
                    let s = self
                        .descend(&child, &mv, |me, c| me.value(c, alpha.down(ps), beta.down(ps)))?
                        .up(ps);
                    match best {
                        Some(b) if s == b => best_moves.push(mv),
                        Some(b) if !Score::better(maximize, s, b) => {}
                        _ => {
                            best = Some(s);
                            best_moves.clear();
                            best_moves.push(mv);
                        }
                    }
                }
                (best.expect("legal_moves_of returns at least one move"), best_moves)
            }
        };
        Ok((score, best_moves))
    }

    /// See [`explain`].
    pub fn explain(&mut self, root: &G::State) -> Result<Vec<MoveValue<G::Move>>, SolveError> {
        self.start();
        let r = self.explain_from(root);
        r.map_err(|e| self.diagnose(root, e))
    }

    fn explain_from(&mut self, root: &G::State) -> Result<Vec<MoveValue<G::Move>>, SolveError> {
        self.enter(root)?;
        if self.mover(root)?.is_none() {
            return Ok(Vec::new());
        }
        let mut out = Vec::new();
        let mut child = root.clone();
        for mv in self.legal_moves_of(root)? {
            child.clone_from(root);
            self.game.apply(&mut child, &mv)?;
            let s = self.descend(&child, &mv, |me, c| me.value(c, Score::MIN, Score::MAX))?;
            let line = self.principal_line(&child, s)?;
            out.push(MoveValue {
                mv,
                value: s.value,
                line,
            });
        }
        Ok(out)
    }

    /// Bytes one memo table slot takes, besides what the state owns on the
    /// heap: the state and its entry side by side, and the hash table's
    /// control byte. For `--stats`' estimate of the table's memory.
    pub fn memo_slot_bytes() -> usize {
        std::mem::size_of::<(G::State, Entry)>() + 1
    }

    /// Nodes searched by the last call.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Resets the per-call counters and limits.
    fn start(&mut self) {
        self.nodes = 0;
        self.started = Instant::now();
        self.max_nodes = self.opts.max_nodes.unwrap_or(u64::MAX);
        self.max_states = self.opts.max_states.unwrap_or(u64::MAX);
        self.clock_step = 1;
        self.last_clock = self.started;
        self.next_clock = if self.opts.time_limit.is_some() { 1 } else { u64::MAX };
        self.depth = 0;
        self.cut = false;
        self.trace.clear();
        if let Some(memo) = &mut self.memo {
            memo.hits = 0;
        }
        self.seen = (self.opts.count_states && self.memo.is_none()).then(FxHashSet::default);
    }

    fn states(&self) -> u64 {
        match (&self.memo, &self.seen) {
            (Some(memo), _) => memo.len() as u64,
            (None, Some(seen)) => seen.len() as u64,
            (None, None) => 0,
        }
    }

    /// The score of `state` under the fail-soft contract for the window
    /// `(alpha, beta)`: exact when strictly inside it; otherwise a bound on
    /// the same side of the window as the true score.
    pub(super) fn value(&mut self, state: &G::State, alpha: Score, beta: Score) -> Result<Score, SolveError> {
        match self.opts.algorithm {
            Algorithm::Minimax => self.minimax(state),
            Algorithm::AlphaBeta => self.alphabeta(state, alpha, beta),
        }
    }

    /// The line from `from`, whose exact score is `score`: at each position
    /// the first move whose child's exact score is the position's, to the end.
    fn principal_line(&mut self, from: &G::State, mut score: Score) -> Result<Vec<G::Move>, SolveError> {
        let ps = self.opts.prefer_short;
        let mut line = Vec::new();
        let mut state = from.clone();
        let mut child = from.clone();
        while self.mover(&state)?.is_some() {
            let target = score.down(ps);
            let mut next = None;
            for mv in self.legal_moves_of(&state)? {
                child.clone_from(&state);
                self.game.apply(&mut child, &mv)?;
                // A window around the target: the answer is exact iff it hits.
                if self.value(&child, target.just_below(), target.just_above())? == target {
                    next = Some(mv);
                    break;
                }
            }
            let Some(mv) = next else {
                return Err(self.inconsistent(&state, "no move reaches the position's value"));
            };
            line.push(mv);
            std::mem::swap(&mut state, &mut child);
            score = target;
        }
        if self.terminal_score(&state)? != score {
            return Err(self.inconsistent(&state, "the line ends with a different value"));
        }
        Ok(line)
    }

    fn inconsistent(&self, state: &G::State, what: &str) -> SolveError {
        SolveError::Inconsistent(format!(
            "{what} in {} (are the rules deterministic?)",
            self.game.state_text(state)
        ))
    }

    /// Counts a node, enforces the limits, and records the state when
    /// counting states without the memo table.
    #[inline]
    pub(super) fn enter(&mut self, state: &G::State) -> Result<(), SolveError> {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            return Err(SolveError::Budget {
                what: "nodes",
                limit: self.max_nodes.to_string(),
                nodes: self.nodes - 1,
            });
        }
        if self.nodes >= self.next_clock {
            self.check_clock()?;
        }
        if let Some(memo) = &self.memo
            && memo.len() as u64 >= self.max_states
        {
            return Err(SolveError::Budget {
                what: "states",
                limit: self.max_states.to_string(),
                nodes: self.nodes - 1,
            });
        }
        if let Some(seen) = &mut self.seen {
            let mut h = FxHasher::default();
            state.hash(&mut h);
            seen.insert(h.finish());
        }
        Ok(())
    }

    #[cold]
    fn check_clock(&mut self) -> Result<(), SolveError> {
        // Read the clock about once a millisecond: twice as many nodes between
        // readings while they come fast, half as many when they are slow.
        let now = Instant::now();
        self.clock_step = if now - self.last_clock < Duration::from_millis(1) {
            (self.clock_step * 2).min(CLOCK_EVERY)
        } else {
            (self.clock_step / 2).max(1)
        };
        self.last_clock = now;
        self.next_clock = self.nodes + self.clock_step;
        match self.opts.time_limit {
            Some(limit) if self.started.elapsed() >= limit => Err(SolveError::Budget {
                what: "time",
                limit: format_duration(limit),
                nodes: self.nodes,
            }),
            _ => Ok(()),
        }
    }

    /// `Some(true)` when player 0 (who maximizes) moves, `Some(false)` for
    /// player 1, `None` when the game is over.
    #[inline]
    pub(super) fn mover(&self, state: &G::State) -> Result<Option<bool>, SolveError> {
        match self.game.turn(state)? {
            Turn::Terminal => Ok(None),
            Turn::Player(0) => Ok(Some(true)),
            Turn::Player(1) => Ok(Some(false)),
            Turn::Player(p) => Err(SolveError::Unsupported(format!(
                "player {p} is to move in {}, but the game has two players",
                self.game.state_text(state)
            ))),
            Turn::Simultaneous | Turn::Chance => Err(SolveError::Unsupported(format!(
                "{} has simultaneous or chance moves; the exact solver handles turn-taking games \
                 (use a search agent for this one)",
                self.game.name()
            ))),
        }
    }

    /// The score of a terminal state: player 0's utility, nothing to prefer.
    #[inline]
    pub(super) fn terminal_score(&self, state: &G::State) -> Result<Score, SolveError> {
        let value = self.game.returns(state, 0)?;
        if value.is_nan() {
            return Err(GameError::new("gdl::solve::nan", "the game's utility is not a number")
                .in_state(self.game.state_text(state))
                .into());
        }
        Ok(Score::terminal(value))
    }

    /// Fills `out` with the legal moves of a non-terminal state; an empty list is an error.
    #[inline]
    pub(super) fn fill_moves(&self, state: &G::State, out: &mut Vec<G::Move>) -> Result<(), SolveError> {
        self.game.legal_moves(state, out)?;
        if out.is_empty() {
            return Err(no_moves(self.game, state).into());
        }
        Ok(())
    }

    fn legal_moves_of(&self, state: &G::State) -> Result<Vec<G::Move>, SolveError> {
        let mut moves = Vec::new();
        self.fill_moves(state, &mut moves)?;
        Ok(moves)
    }
}

/// The error for a position that is not terminal but has no legal move.
fn no_moves<G: Game>(game: &G, state: &G::State) -> GameError {
    GameError::new(
        "gdl::runtime::no_moves",
        "the game is not over, but the player to move has no legal move",
    )
    .in_state(game.state_text(state))
    .with_help("end the game when no move is possible (e.g. `end when no moves`)")
}

fn format_duration(d: Duration) -> String {
    format!("{}s", d.as_secs_f64())
}
