//! `Solver`: the state shared by every search of one solve (counters, limits,
//! buffers, the memo table), the root search and the principal line.

use std::hash::{Hash, Hasher};
use std::time::{Duration, Instant};

use rustc_hash::{FxHashSet, FxHasher};

use super::line::Line;
use super::memo::{Bound, Entry, Memo, NO_MOVE};
use super::options::{Algorithm, SolveOptions};
use super::score::Score;
use super::solution::{MoveValue, Solution};
use super::solve_error::{SolveError, SolveKind};
use crate::game::{Game, GameError, Turn, no_legal_move};

/// The clock is read at most every this many nodes.
const CLOCK_EVERY: u64 = 4096;

/// Solves positions of one game with one set of options.
///
/// [`solve`] and [`explain`] make a fresh one per call; keep one instead to
/// solve many positions of the same game (an agent playing a whole game):
/// the memo table is kept between calls, counters and limits are per call.
pub struct Solver<'g, G: Game> {
    pub(in crate::solve) game: &'g G,
    pub(in crate::solve) opts: SolveOptions,
    /// Move lists, one per level of recursion in use; popped and pushed back
    /// so that no node allocates once the stack is warm.
    pub(in crate::solve) move_bufs: Vec<Vec<G::Move>>,
    /// Child states to reuse with `clone_from`, likewise.
    pub(in crate::solve) state_bufs: Vec<G::State>,
    pub(in crate::solve) memo: Option<Memo<G::State>>,
    /// Hashes of the states seen, when counting states without the memo table.
    seen: Option<FxHashSet<u64>>,
    pub(in crate::solve) nodes: u64,
    max_nodes: u64,
    max_states: u64,
    started: Instant,
    /// The clock is read again at this node count; the step between readings
    /// adapts, so that slow nodes cannot overrun the time limit by much.
    next_clock: u64,
    clock_step: u64,
    /// The limits are checked again at this node count: the next clock
    /// reading, one past the node limit, or the next node once the memo
    /// table is full, whichever comes first.
    next_check: u64,
    last_clock: Instant,
    /// Plies from the root of the current search to the node being searched.
    pub(in crate::solve) depth: usize,
    /// Positions at this depth are scored 0 without a search (iterative deepening).
    pub(in crate::solve) cutoff: usize,
    /// Whether the cutoff scored some position since the last `start`.
    pub(in crate::solve) cut: bool,
    /// The line to a position past the depth limit, deepest first, collected
    /// as the error travels back up: (position, the move that led to it).
    trace: Vec<(G::State, String)>,
    /// Whether the score the search just returned is exact (not a bound).
    pub(in crate::solve) exact: bool,
    /// No position with moves scores above `top` or below `bottom`: from the
    /// game's utility range, `Score::MAX` and `Score::MIN` without one.
    pub(in crate::solve) top: Score,
    pub(in crate::solve) bottom: Score,
    /// The game's utility range, if it declares one.
    range: Option<(f64, f64)>,
    /// Whether the search keeps the principal line in `lines`: without the
    /// memo table, where no table holds it.
    track_lines: bool,
    /// `lines[d]`: the line from the position being searched at depth `d`,
    /// once its score is exact (a triangular principal-variation table).
    lines: Vec<Vec<G::Move>>,
    /// Nodes and memo hits of the threads that filled the memo table before
    /// this solver was handed it, and when they started
    /// ([`parallel`](super::parallel)): the next `solve` reports them as its own.
    pub(in crate::solve) carried: Option<(u64, u64, Instant)>,
    /// The line searched, for a game with a repetition rule ([`Line`]).
    pub(in crate::solve) rep: Option<Line<G::State>>,
}

/// What the search at the root found.
struct RootResult<M> {
    score: Score,
    /// Every optimal move, in legal-move order.
    best_moves: Vec<M>,
    /// The index of the first of them among the legal moves.
    first_at: u32,
    /// The principal line after the first best move, when the search kept it.
    line: Vec<M>,
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
        // A range that is empty, a single value or not finite tells nothing usable.
        let range = game
            .utility_range()
            .filter(|&(lo, hi)| lo.is_finite() && hi.is_finite() && lo < hi);
        let (top, bottom) = match range {
            Some((lo, hi)) => (
                Score::top_with_moves(hi, opts.prefer_short),
                Score::bottom_with_moves(lo, opts.prefer_short),
            ),
            None => (Score::MAX, Score::MIN),
        };
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
            next_check: u64::MAX,
            last_clock: Instant::now(),
            depth: 0,
            cutoff: usize::MAX,
            cut: false,
            trace: Vec::new(),
            exact: false,
            top,
            bottom,
            range,
            track_lines: false,
            lines: Vec::new(),
            carried: None,
            rep: game.repetition().map(Line::new),
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
    pub(in crate::solve) fn descend(
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
        } else if self.rep.is_some() {
            self.descend_on_line(child, search)
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

    /// See [`solve`]. A game with the repetition rule is solved on its
    /// position graph ([`retrograde`](super::retrograde)).
    pub fn solve(&mut self, root: &G::State) -> Result<Solution<G::Move>, SolveError> {
        self.start_at(root);
        if self.by_retrograde()
            && let Some(solution) = self.solve_cyclic(root)?
        {
            return Ok(solution);
        }
        let r = self.solve_from(root);
        r.map_err(|e| self.diagnose(root, e))
    }

    /// The value of `root` for player 0 and its best moves, without the
    /// principal line: the search at the root alone. With a cutoff
    /// (`set_cutoff`) the answer is proven only if `cutoff_reached` is false.
    pub fn search_root(&mut self, root: &G::State) -> Result<(f64, Vec<G::Move>), SolveError> {
        self.start_at(root);
        if self.by_retrograde()
            && let Some(found) = self.search_root_cyclic(root)?
        {
            return Ok(found);
        }
        let r = self.root_search(root).map(|r| (r.score.value, r.best_moves));
        r.map_err(|e| self.diagnose(root, e))
    }

    fn solve_from(&mut self, root: &G::State) -> Result<Solution<G::Move>, SolveError> {
        self.track_lines = self.memo.is_none();
        let RootResult {
            score,
            best_moves,
            first_at,
            line,
        } = self.root_search(root)?;
        if self.memo.is_some() {
            self.remember(root, Entry::exact(score, first_at))?;
        }
        let pv = match best_moves.first() {
            None => Vec::new(),
            Some(first) => {
                let mut pv = vec![first.clone()];
                if self.memo.is_some() {
                    let mut child = root.clone();
                    self.game.apply(&mut child, first)?;
                    let rest = self.line_from_table(&child, score.down(self.opts.prefer_short))?;
                    pv.extend(rest);
                } else {
                    pv.extend(line);
                }
                pv
            }
        };
        self.check_line(root, true, &pv, score)?;
        let (nodes, hits, started) = self.carried.take().unwrap_or((0, 0, self.started));
        Ok(Solution {
            value: score.value,
            best_moves,
            length: pv.len(),
            pv,
            nodes: self.nodes + nodes,
            states: self.states(),
            memo_entries: self.memo.as_ref().map_or(0, Memo::len),
            memo_hits: self.memo.as_ref().map_or(0, |m| m.hits) + hits,
            seconds: started.elapsed().as_secs_f64(),
            by_graph: false,
        })
    }

    fn root_search(&mut self, root: &G::State) -> Result<RootResult<G::Move>, SolveError> {
        let ps = self.opts.prefer_short;
        self.enter(root)?;
        let Some(maximize) = self.mover(root)? else {
            return Ok(RootResult {
                score: self.terminal_score(root)?,
                best_moves: Vec::new(),
                first_at: NO_MOVE,
                line: Vec::new(),
            });
        };
        let moves = self.legal_moves_of(root)?;
        let mut best: Option<Score> = None;
        let mut best_moves = Vec::new();
        let mut first_at = NO_MOVE;
        let mut line = Vec::new();
        let mut child = root.clone();
        for (i, mv) in moves.into_iter().enumerate() {
            child.clone_from(root);
            self.game.apply(&mut child, &mv)?;
            // The first child with a full window; the others with a window
            // that only just admits a tie with the best so far, so every tie
            // and every improvement comes back exact, and nothing else need be.
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
                    first_at = i as u32;
                    if self.track_lines {
                        line.clone_from(self.line_at(1));
                    }
                }
            }
        }
        Ok(RootResult {
            score: best.expect("legal_moves_of returns at least one move"),
            best_moves,
            first_at,
            line,
        })
    }

    /// See [`explain`].
    pub fn explain(&mut self, root: &G::State) -> Result<Vec<MoveValue<G::Move>>, SolveError> {
        self.start_at(root);
        if self.by_retrograde()
            && let Some(moves) = self.explain_cyclic(root)?
        {
            return Ok(moves);
        }
        let r = self.explain_from(root);
        r.map_err(|e| self.diagnose(root, e))
    }

    fn explain_from(&mut self, root: &G::State) -> Result<Vec<MoveValue<G::Move>>, SolveError> {
        self.track_lines = self.memo.is_none();
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
            let line = if self.memo.is_some() {
                self.line_from_table(&child, s)?
            } else {
                self.line_at(1).clone()
            };
            self.check_line(&child, false, &line, s)?;
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
        Memo::<G::State>::slot_bytes()
    }

    /// The state limit of this call.
    pub(in crate::solve) fn max_states(&self) -> u64 {
        self.max_states
    }

    /// When this call started.
    pub(in crate::solve) fn started(&self) -> Instant {
        self.started
    }

    /// Nodes searched by the last call.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// `start`, and the line of the repetition rule begins at `root`.
    fn start_at(&mut self, root: &G::State) {
        self.start();
        if let Some(line) = &mut self.rep {
            line.restart(root);
        }
    }

    /// Resets the per-call counters and limits.
    fn start(&mut self) {
        self.nodes = 0;
        self.started = Instant::now();
        self.max_nodes = self.opts.max_nodes.unwrap_or(u64::MAX);
        self.max_states = self.opts.max_states.unwrap_or(u64::MAX);
        self.clock_step = 1;
        self.last_clock = self.started;
        // A watched search reads the clock too, to publish its progress.
        let clocked = self.opts.time_limit.is_some() || self.opts.watch.is_some();
        self.next_clock = if clocked { 1 } else { u64::MAX };
        self.depth = 0;
        self.cut = false;
        self.trace.clear();
        self.track_lines = false;
        if let Some(memo) = &mut self.memo {
            memo.hits = 0;
        }
        self.arm_checks();
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
    pub(in crate::solve) fn value(&mut self, state: &G::State, alpha: Score, beta: Score) -> Result<Score, SolveError> {
        match self.opts.algorithm {
            Algorithm::Minimax => self.minimax(state),
            Algorithm::AlphaBeta => self.alphabeta(state, alpha, beta),
        }
    }

    /// The line from `from`, whose exact score is `score`, out of the memo
    /// table: at each position the first move in legal order whose child
    /// scores the position's score. The search leaves that move in the
    /// position's entry; where it could not tell (an entry that is a bound,
    /// or whose move was searched before the moves ahead of it), the moves
    /// are searched again in legal order, with a window that only admits the
    /// score, until one reaches it.
    fn line_from_table(&mut self, from: &G::State, mut score: Score) -> Result<Vec<G::Move>, SolveError> {
        let ps = self.opts.prefer_short;
        let mut line = Vec::new();
        let mut state = from.clone();
        let mut child = from.clone();
        let mut moves = Vec::new();
        let r = loop {
            // Under the repetition rule the line's positions stay on the
            // search's line while the moves after them are searched.
            if self.repeats(&state) || self.mover(&state)?.is_none() {
                break Ok(line);
            }
            if line.len() >= self.opts.max_depth {
                break Err(self.line_too_deep(from, &line));
            }
            if let Some(l) = &mut self.rep {
                let _ = l.reach(&state);
            }
            self.fill_moves(&state, &mut moves)?;
            let target = score.down(ps);
            let known = self
                .recall(&state)?
                .filter(|e| e.bound == Bound::Exact && e.first && e.score == score)
                .map(|e| e.best as usize)
                .filter(|&i| i < moves.len());
            let at = match known {
                Some(i) => i,
                None => self.first_reaching(&state, &moves, target)?,
            };
            let mv = moves[at].clone();
            child.clone_from(&state);
            self.game.apply(&mut child, &mv)?;
            line.push(mv);
            std::mem::swap(&mut state, &mut child);
            score = target;
        };
        if let (Some(l), Ok(line)) = (&mut self.rep, &r) {
            (0..line.len()).for_each(|_| l.pop());
        }
        r
    }

    /// The index of the first of `moves` whose child of `state` scores `target`.
    fn first_reaching(&mut self, state: &G::State, moves: &[G::Move], target: Score) -> Result<usize, SolveError> {
        let mut child = state.clone();
        for (i, mv) in moves.iter().enumerate() {
            child.clone_from(state);
            self.game.apply(&mut child, mv)?;
            let (alpha, beta) = (target.just_below(), target.just_above());
            let s = self.descend(&child, mv, |me, c| me.value(c, alpha, beta))?;
            if s == target && self.exact {
                return Ok(i);
            }
        }
        Err(self.inconsistent(state, "no move reaches the position's value"))
    }

    /// Checks that `line`, played from `from`, ends the game with the value
    /// of `score`; `on_line`: `from` is on the repetition rule's line already
    /// (the root), else a move just reached it.
    pub(in crate::solve) fn check_line(
        &mut self,
        from: &G::State,
        on_line: bool,
        line: &[G::Move],
        score: Score,
    ) -> Result<(), SolveError> {
        let mut state = from.clone();
        // Positions put on the repetition rule's line here, taken off after.
        let mut pushed = 0;
        let mut repeated = false;
        let mut reach = |me: &mut Self, state: &G::State| {
            if let Some(l) = &mut me.rep {
                match l.reach(state) {
                    super::line::Reached::Ends => return true,
                    super::line::Reached::Goes => pushed += 1,
                }
            }
            false
        };
        if !on_line {
            repeated = reach(self, &state);
        }
        let mut played = 0;
        for mv in line {
            if repeated {
                break;
            }
            self.game.apply(&mut state, mv)?;
            played += 1;
            repeated = reach(self, &state);
        }
        if let Some(l) = &mut self.rep {
            (0..pushed).for_each(|_| l.pop());
        }
        let end = if repeated {
            if played < line.len() {
                return Err(self.inconsistent(&state, "the principal line goes on after a repetition ended the game"));
            }
            self.repetition_score(&state)?
        } else {
            if self.mover(&state)?.is_some() {
                return Err(self.inconsistent(&state, "the principal line stops before the end of the game"));
            }
            self.terminal_score(&state)?
        };
        if end.value != score.value {
            return Err(self.inconsistent(&state, "the line ends with a different value"));
        }
        Ok(())
    }

    /// The error for a principal line longer than the depth limit, with the
    /// line, so that `diagnose` can find the cycle on it.
    fn line_too_deep(&mut self, from: &G::State, line: &[G::Move]) -> SolveError {
        let mut state = from.clone();
        self.trace.clear();
        for mv in line {
            if self.game.apply(&mut state, mv).is_err() {
                break;
            }
            self.trace.push((state.clone(), self.game.move_text(mv)));
        }
        self.trace.reverse();
        SolveError::TooDeep {
            depth: self.opts.max_depth,
            position: String::new(),
        }
    }

    /// The line kept for the position at `depth` (empty if none was kept).
    fn line_at(&mut self, depth: usize) -> &Vec<G::Move> {
        if self.lines.len() <= depth {
            self.lines.resize_with(depth + 1, Vec::new);
        }
        &self.lines[depth]
    }

    /// The position being searched is terminal: its line is empty.
    #[inline]
    pub(in crate::solve) fn clear_line(&mut self) {
        if self.track_lines {
            let d = self.depth;
            if self.lines.len() <= d {
                self.lines.resize_with(d + 1, Vec::new);
            }
            self.lines[d].clear();
        }
    }

    /// `mv` is the best move of the position being searched, and its child's
    /// score exact: the position's line is `mv`, then the child's.
    #[inline]
    pub(in crate::solve) fn extend_line(&mut self, mv: &G::Move) {
        if self.track_lines {
            let d = self.depth;
            if self.lines.len() <= d + 1 {
                self.lines.resize_with(d + 2, Vec::new);
            }
            let (here, below) = self.lines.split_at_mut(d + 1);
            let line = &mut here[d];
            line.clear();
            line.push(mv.clone());
            line.extend_from_slice(&below[0]);
        }
    }

    fn inconsistent(&self, state: &G::State, what: &str) -> SolveError {
        // With a canonical form, the likelier cause is a block that is not a
        // symmetry of the rules (the fuzzer found one).
        let question = match self.game.canonical(state) {
            Ok(Some(_)) => {
                "is the `canonical` block a symmetry of the rules, mapping each position to one that plays alike?"
            }
            _ => "are the rules deterministic?",
        };
        SolveError::Inconsistent(format!("{what} in {} ({question})", self.game.state_text(state)))
    }

    /// Counts a node, enforces the limits, and records the state when
    /// counting states without the memo table.
    #[inline(always)]
    pub(in crate::solve) fn enter(&mut self, state: &G::State) -> Result<(), SolveError> {
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.check_limits()?;
        }
        if let Some(seen) = &mut self.seen {
            let mut h = FxHasher::default();
            state.hash(&mut h);
            seen.insert(h.finish());
        }
        Ok(())
    }

    /// Where the memo table keeps `state`: `None` when the state stands for
    /// itself (no table, no canonical form, or the state is its own
    /// representative), else its representative. A search computes it once
    /// per node and passes it to [`Self::recall_at`] and [`Self::remember_at`],
    /// so that a game's `canonical` block runs once per node, not once per probe.
    #[inline]
    pub(in crate::solve) fn memo_key(&self, state: &G::State) -> Result<Option<G::State>, SolveError> {
        if self.memo.is_none() {
            return Ok(None);
        }
        Ok(self.game.canonical(state)?.filter(|rep| rep != state))
    }

    /// [`Self::remember_at`] with the key computed here.
    pub(in crate::solve) fn remember(&mut self, state: &G::State, entry: Entry) -> Result<(), SolveError> {
        let key = self.memo_key(state)?;
        self.remember_at(state, key.as_ref(), entry);
        Ok(())
    }

    /// Stores `entry` for `state`, whose [`Self::memo_key`] is `key`, in the
    /// memo table (if there is one); once the table holds `max_states`, the
    /// next node stops the search.
    ///
    /// A game with a canonical form shares one entry among the positions
    /// of a class, kept under their representative: the entry's move index
    /// is kept only when it is the representative's own (a move index of
    /// another position of the class names another move there).
    #[inline]
    pub(in crate::solve) fn remember_at(&mut self, state: &G::State, key: Option<&G::State>, mut entry: Entry) {
        let Some(memo) = self.memo.as_mut() else {
            return;
        };
        // Under a repetition rule, only what holds on every line (see `line`).
        if self.rep.as_ref().is_some_and(|l| !l.storable()) {
            return;
        }
        match key {
            None => memo.store(state, entry),
            Some(rep) => {
                entry.best = NO_MOVE;
                entry.first = false;
                memo.store(rep, entry);
            }
        }
        if memo.len() as u64 >= self.max_states {
            self.next_check = self.nodes + 1;
        }
    }

    /// [`Self::recall_at`] with the key computed here.
    pub(in crate::solve) fn recall(&self, state: &G::State) -> Result<Option<Entry>, SolveError> {
        let key = self.memo_key(state)?;
        Ok(self.recall_at(state, key.as_ref()))
    }

    /// What the memo table holds for `state`, whose [`Self::memo_key`] is
    /// `key` (see [`Self::remember_at`]).
    #[inline]
    pub(in crate::solve) fn recall_at(&self, state: &G::State, key: Option<&G::State>) -> Option<Entry> {
        let memo = self.memo.as_ref()?;
        match key {
            None => memo.get(state),
            Some(rep) => memo.get(rep).map(|mut e| {
                e.best = NO_MOVE;
                e.first = false;
                e
            }),
        }
    }

    /// Counts a search answered by the memo table.
    #[inline]
    pub(in crate::solve) fn count_hit(&mut self) {
        if let Some(memo) = &mut self.memo {
            memo.hits += 1;
        }
    }

    /// The node, time and state limits, in that order, at `next_check`.
    #[cold]
    fn check_limits(&mut self) -> Result<(), SolveError> {
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
        self.arm_checks();
        Ok(())
    }

    /// Sets `next_check` from the limits.
    fn arm_checks(&mut self) {
        let full = self.memo.as_ref().is_some_and(|m| m.len() as u64 >= self.max_states);
        self.next_check = if full {
            self.nodes + 1
        } else {
            self.max_nodes.saturating_add(1).min(self.next_clock)
        };
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
        if let Some(watch) = &self.opts.watch {
            use std::sync::atomic::Ordering::Relaxed;
            watch.nodes.store(self.nodes, Relaxed);
            watch.states.store(self.states(), Relaxed);
            if watch.stopped() {
                return Err(SolveError::Budget {
                    what: crate::solve::STOPPED,
                    limit: String::new(),
                    nodes: self.nodes,
                });
            }
        }
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
    pub(in crate::solve) fn mover(&self, state: &G::State) -> Result<Option<bool>, SolveError> {
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
    pub(in crate::solve) fn terminal_score(&self, state: &G::State) -> Result<Score, SolveError> {
        let value = self.game.returns(state, 0)?;
        self.checked_score(state, value)
    }

    /// The score of an end of the game worth `value` to player 0, checked
    /// against the game's range.
    pub(in crate::solve) fn checked_score(&self, state: &G::State, value: f64) -> Result<Score, SolveError> {
        if value.is_nan() {
            return Err(GameError::new(SolveKind::Nan, "the game's utility is not a number")
                .in_state(self.game.state_text(state))
                .into());
        }
        if let Some((lo, hi)) = self.range
            && !(lo..=hi).contains(&value)
        {
            return Err(self.inconsistent(
                state,
                &format!("the utility {value} lies outside the game's range [{lo}, {hi}]"),
            ));
        }
        Ok(Score::terminal(value))
    }

    /// Fills `out` with the legal moves of a non-terminal state; an empty list is an error.
    #[inline]
    pub(in crate::solve) fn fill_moves(&self, state: &G::State, out: &mut Vec<G::Move>) -> Result<(), SolveError> {
        self.game.legal_moves(state, out)?;
        if out.is_empty() {
            return Err(no_legal_move(self.game, state).into());
        }
        Ok(())
    }

    fn legal_moves_of(&self, state: &G::State) -> Result<Vec<G::Move>, SolveError> {
        let mut moves = Vec::new();
        self.fill_moves(state, &mut moves)?;
        Ok(moves)
    }
}

fn format_duration(d: Duration) -> String {
    format!("{}s", d.as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Player;

    /// A heap of `n`; take 1, 2 or 3; whoever takes the last one wins
    /// (2 when it is player 0, -1 when player 1, so the utilities are lopsided).
    struct Take3;

    impl Game for Take3 {
        type State = (u8, u8);
        type Move = u8;
        fn name(&self) -> &str {
            "take3"
        }
        fn num_players(&self) -> usize {
            2
        }
        fn player_name(&self, p: Player) -> &str {
            ["A", "B"][p]
        }
        fn initial_state(&self) -> Result<(u8, u8), GameError> {
            Ok((9, 0))
        }
        fn turn(&self, s: &(u8, u8)) -> Result<Turn, GameError> {
            Ok(if s.0 == 0 {
                Turn::Terminal
            } else {
                Turn::Player(s.1 as usize)
            })
        }
        fn legal_moves(&self, s: &(u8, u8), out: &mut Vec<u8>) -> Result<(), GameError> {
            out.clear();
            out.extend((1..=3).filter(|&n| n <= s.0));
            Ok(())
        }
        fn apply(&self, s: &mut (u8, u8), mv: &u8) -> Result<(), GameError> {
            *s = (s.0 - mv, 1 - s.1);
            Ok(())
        }
        fn returns(&self, s: &(u8, u8), player: Player) -> Result<f64, GameError> {
            // The player who just moved took the last one.
            let v = if s.1 == 1 { 2.0 } else { -1.0 };
            Ok(if player == 0 { v } else { -v })
        }
        fn move_text(&self, mv: &u8) -> String {
            mv.to_string()
        }
        fn state_text(&self, s: &(u8, u8)) -> String {
            format!("heap {}", s.0)
        }
        fn utility_range(&self) -> Option<(f64, f64)> {
            Some((-1.0, 2.0))
        }
    }

    #[test]
    fn without_the_table_the_line_is_found_by_searching_again() {
        for prefer_short in [false, true] {
            let opts = SolveOptions {
                prefer_short,
                ..SolveOptions::default()
            };
            for heap in 1..=12 {
                let root = (heap, 0);
                let mut solver = Solver::new(&Take3, opts.clone()).unwrap();
                let sol = solver.solve(&root).unwrap();
                let plain = solve(
                    &Take3,
                    &root,
                    &SolveOptions {
                        memo: false,
                        ..opts.clone()
                    },
                )
                .unwrap();
                assert_eq!((sol.value, &sol.pv), (plain.value, &plain.pv), "heap {heap}");
                // With the table forgotten, every step of the line is searched for.
                let mut child = root;
                Take3.apply(&mut child, &sol.pv[0]).unwrap();
                let root_score = solver.memo.as_ref().unwrap().get(&root).unwrap().score;
                solver.memo = Some(Memo::new());
                solver.start();
                let line = solver.line_from_table(&child, root_score.down(prefer_short)).unwrap();
                assert_eq!(line, sol.pv[1..], "heap {heap}");
                assert_eq!(solver.nodes() > 0, !line.is_empty(), "heap {heap}");
            }
        }
    }
}
