//! Exact solving on several threads: the threads fill one shared memo table
//! with every position's exact score, then the one-thread [`Solver`] reads
//! the answers (value, best moves, principal line, `--explain`) out of it.
//!
//! Each thread searches from the root for exact scores (no alpha-beta
//! window: a score stored is always exact), over one table split into
//! [`SHARDS`] locked shards. A position's search stops at the first move
//! that reaches the best its mover can get (the end of the game's utility
//! range: a win, in a game of wins and losses), except at the root, where
//! every move is scored, since the answer lists every best move and
//! `--explain` every move's value. A thread marks a position
//! [`Packed::PENDING`] when it starts on it; another thread that meets the
//! mark searches the position's other moves first and comes back to it last
//! (ABDADA), when it is usually done, and searches it as well otherwise (the
//! same answer, the work done twice; waiting could deadlock in a game whose
//! positions repeat).
//!
//! Each thread also keeps the last exact scores it read or wrote in a small
//! table of its own ([`Recent`]): an exact score never changes once stored,
//! so a position found there needs no lock. Most probes are hits (about five
//! in six in Nimcala 12/12), and a lock taken is a cache line written: with
//! every thread taking every shard's lock, about half the locks a thread
//! takes on 2 threads were last written by the other core.
//!
//! Why exact scores and not alpha-beta bounds: an exact score does not
//! depend on which thread found it, or in what order, so the one-thread
//! reading of the table gives one thread's value, best moves, line and
//! `--explain`, bit for bit. Which positions are stored does depend on the
//! race between the threads: `states` (every position stored) and `nodes`
//! (every position searched, by all threads) change from run to run; a
//! search without cut-offs would store every reachable position, the same
//! every time, at about twice the work.
//!
//! The parallel fill gives up, and the caller solves on one thread, when the
//! table would outgrow `max_states` (alpha-beta may need fewer positions),
//! when the node limit is set (one thread counts nodes the same every time),
//! or when anything goes wrong in the rules (one thread then reports the
//! error exactly as it always does). The time limit and Ctrl-C stop it as
//! they stop one thread.

use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

use rustc_hash::FxHashMap;

use super::memo::{Entry, Memo, NO_MOVE, Packed, SHARDS, hash_of, shard_of_hash};
use super::options::SolveOptions;
use super::score::Score;
use super::solution::{MoveValue, Solution};
use super::solve_error::SolveError;
use super::solver::Solver;
use crate::game::{Game, Turn};

/// How often (in nodes) a thread looks whether to stop.
const CHECK_EVERY: u64 = 1024;
/// How many new positions a thread adds before it adds them to the shared count.
const COUNT_BATCH: u64 = 4096;
/// Slots of a thread's own table of recent exact scores ([`Recent`]): a
/// power of two; about 3 MB a thread for Nimcala's states, left out where
/// that is more than a sixteenth of the memory left.
const RECENT_SLOTS: usize = 1 << 16;

/// A thread's own direct-mapped table of exact scores it has seen in the
/// shared table, looked in before the shared table's lock is taken. A slot
/// holds the last position that hashed to it.
struct Recent<S> {
    slots: Vec<Option<(S, Score)>>,
    /// Whether the slots were asked for (they are not taken when memory is short).
    asked: bool,
}

impl<S: Eq + Clone> Recent<S> {
    fn new() -> Self {
        Recent {
            slots: Vec::new(),
            asked: false,
        }
    }

    #[inline]
    fn get(&self, hash: u64, key: &S) -> Option<Score> {
        match self.slots.get(hash as usize & (RECENT_SLOTS - 1)) {
            Some(Some((k, s))) if k == key => Some(*s),
            _ => None,
        }
    }

    #[inline]
    fn put(&mut self, hash: u64, key: &S, score: Score) {
        if self.slots.is_empty() {
            // Allocated at the first score: a solve that ends in a few nodes
            // needs none. Only from a small share of the memory left: under
            // a tight `--max-memory` the shared table needs it more.
            if self.asked {
                return;
            }
            self.asked = true;
            let bytes = RECENT_SLOTS * std::mem::size_of::<Option<(S, Score)>>();
            if crate::memory::headroom() / 16 < bytes {
                return;
            }
            self.slots.resize(RECENT_SLOTS, None);
        }
        let slot = &mut self.slots[hash as usize & (RECENT_SLOTS - 1)];
        match slot {
            Some((k, s)) => {
                k.clone_from(key);
                *s = score;
            }
            None => *slot = Some((key.clone(), score)),
        }
    }
}

/// A solve on `threads` threads, answered as one thread answers it: see the
/// module's documentation. `states` counts every position reachable from
/// the root (what one thread's minimax with the memo table stores); `nodes`
/// the positions searched by all threads together, memo hits included,
/// which changes from run to run.
pub fn solve<G>(game: &G, root: &G::State, opts: &SolveOptions, threads: usize) -> Result<Solution<G::Move>, SolveError>
where
    G: Game + Sync,
    G::State: Send + Sync,
{
    let mut solver = solver(game, root, opts, threads)?;
    solver.solve(root)
}

/// [`explain`](crate::solve::explain) on `threads` threads (see [`solve`]).
pub fn explain<G>(
    game: &G,
    root: &G::State,
    opts: &SolveOptions,
    threads: usize,
) -> Result<Vec<MoveValue<G::Move>>, SolveError>
where
    G: Game + Sync,
    G::State: Send + Sync,
{
    let mut solver = solver(game, root, opts, threads)?;
    solver.explain(root)
}

/// A one-thread solver whose memo table `threads` threads have filled with
/// the exact score of every position reachable from `root`, where they
/// could (see the module's documentation); a fresh one where they could
/// not. Its `solve` and `explain` of `root` then give one thread's answers;
/// `solve` adds the filling threads' nodes and memo hits to its own.
pub fn solver<'g, G>(
    game: &'g G,
    root: &G::State,
    opts: &SolveOptions,
    threads: usize,
) -> Result<Solver<'g, G>, SolveError>
where
    G: Game + Sync,
    G::State: Send + Sync,
{
    let mut solver = Solver::new(game, opts.clone())?;
    // A repetition rule makes values depend on the line searched, which
    // threads filling one table do not share: one thread solves those.
    if threads < 2
        || !opts.memo
        || opts.max_nodes.is_some()
        || solver.mover(root).is_err()
        || game.repetition().is_some()
    {
        return Ok(solver);
    }
    let started = Instant::now();
    match fill(game, root, opts, threads, started) {
        // The count the threads keep lags: the table may hold more than the cap.
        Ok(filled) if opts.max_states.is_some_and(|max| filled.memo.len() as u64 >= max) => {}
        Ok(filled) => {
            solver.memo = Some(filled.memo);
            solver.carried = Some((filled.nodes, filled.hits, started));
        }
        Err(Abort::Budget(e)) => return Err(e),
        Err(Abort::OneThread) => {}
    }
    Ok(solver)
}

/// Why the threads stopped without filling the table.
enum Abort {
    /// A time limit or Ctrl-C: one thread would have stopped too.
    Budget(SolveError),
    /// Anything else: solve on one thread, which answers as it always does.
    OneThread,
}

/// What the threads left.
struct Filled<S> {
    memo: Memo<S>,
    nodes: u64,
    hits: u64,
}

/// One shard of the shared table, its lock on cache lines of its own: two
/// locks side by side would make each lock taken a write to the other's
/// line as well.
#[repr(align(128))]
struct Shard<S>(Mutex<FxHashMap<S, Packed>>);

/// What the threads share.
struct Shared<'g, G: Game> {
    game: &'g G,
    opts: &'g SolveOptions,
    shards: Vec<Shard<G::State>>,
    /// Positions stored, added in batches.
    stored: AtomicU64,
    /// Set when one thread has finished the root, or has given up: the others stop.
    done: AtomicBool,
    started: Instant,
    /// The game's utility range, when it gives a usable one.
    range: Option<(f64, f64)>,
    /// No position with moves scores above `top` or below `bottom` (as
    /// [`Solver`] has them).
    top: Score,
    bottom: Score,
}

impl<G: Game> Shared<'_, G> {
    /// The shard of a state whose hash ([`hash_of`]) is `hash`.
    #[inline]
    fn shard(&self, hash: u64) -> MutexGuard<'_, FxHashMap<G::State, Packed>> {
        // A thread that panicked holding a lock is reported by the join.
        self.shards[shard_of_hash(hash)]
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// What a thread found in the table for a position it is about to search.
enum Probe {
    /// Its exact score.
    Known(Score),
    /// Nothing: this thread has marked it and searches it now.
    Mine,
    /// Another thread is searching it.
    Theirs,
}

fn fill<G>(
    game: &G,
    root: &G::State,
    opts: &SolveOptions,
    threads: usize,
    started: Instant,
) -> Result<Filled<G::State>, Abort>
where
    G: Game + Sync,
    G::State: Send + Sync,
{
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
    let shared = Shared {
        game,
        opts,
        shards: (0..SHARDS).map(|_| Shard(Mutex::new(FxHashMap::default()))).collect(),
        stored: AtomicU64::new(0),
        done: AtomicBool::new(false),
        started,
        range,
        top,
        bottom,
    };
    let results: Vec<Result<(u64, u64, bool), Abort>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let shared = &shared;
                std::thread::Builder::new()
                    .stack_size(crate::solve::SEARCH_STACK)
                    .spawn_scoped(scope, move || {
                        let mut worker = Worker {
                            shared,
                            thread: t,
                            nodes: 0,
                            hits: 0,
                            new: 0,
                            depth: 0,
                            stopped_by_others: false,
                            moves: Vec::new(),
                            scores: Vec::new(),
                            recent: Recent::new(),
                        };
                        let r = worker.search(root);
                        // Whatever happened, the others need not go on.
                        shared.done.store(true, Relaxed);
                        r.map(|_| (worker.nodes, worker.hits, true)).or_else(|e| match e {
                            // Stopped because another thread finished first.
                            Abort::OneThread if worker.stopped_by_others => Ok((worker.nodes, worker.hits, false)),
                            e => Err(e),
                        })
                    })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| match h {
                Ok(h) => h.join().unwrap_or(Err(Abort::OneThread)),
                Err(_) => Err(Abort::OneThread),
            })
            .collect()
    });
    let mut nodes = 0;
    let mut hits = 0;
    let mut finished = false;
    for r in results {
        let (n, h, f) = r?;
        nodes += n;
        hits += h;
        finished |= f;
    }
    if !finished {
        return Err(Abort::OneThread);
    }
    let shards = shared
        .shards
        .into_iter()
        .map(|m| m.0.into_inner().unwrap_or_else(|p| p.into_inner()))
        .collect();
    Ok(Filled {
        memo: Memo::from_shards(shards),
        nodes,
        hits,
    })
}

/// One thread's search.
struct Worker<'s, 'g, G: Game> {
    shared: &'s Shared<'g, G>,
    thread: usize,
    nodes: u64,
    hits: u64,
    /// Positions stored since the last batch was counted.
    new: u64,
    depth: usize,
    /// Whether the thread stopped because another had finished or given up.
    stopped_by_others: bool,
    /// Buffers, one per level of recursion in use.
    moves: Vec<Vec<G::Move>>,
    scores: Vec<Vec<Option<Score>>>,
    /// Exact scores this thread has seen, looked in before the shared table.
    recent: Recent<G::State>,
}

impl<G: Game> Worker<'_, '_, G> {
    /// The memo key of `state`, as [`Solver::memo_key`] has it: its
    /// representative, or the state itself.
    fn key(&self, state: &G::State) -> Result<Option<G::State>, Abort> {
        let rep = self.shared.game.canonical(state).map_err(|_| Abort::OneThread)?;
        Ok(rep.filter(|r| r != state))
    }

    /// Looks `state` (whose key is `key`) up, marking it as this thread's when absent.
    fn probe(&mut self, state: &G::State, key: Option<&G::State>) -> Probe {
        let k = key.unwrap_or(state);
        let hash = hash_of(k);
        if let Some(score) = self.recent.get(hash, k) {
            return Probe::Known(score);
        }
        let mut shard = self.shared.shard(hash);
        match shard.get(k) {
            Some(p) if p.is_pending() => Probe::Theirs,
            Some(p) => {
                let score = p.unpack().score;
                drop(shard);
                self.recent.put(hash, k, score);
                Probe::Known(score)
            }
            None => {
                shard.insert(k.clone(), Packed::PENDING);
                Probe::Mine
            }
        }
    }

    /// Stores the exact score of `state` (whose key is `key`), as
    /// [`Solver::remember_at`] does.
    fn store(&mut self, state: &G::State, key: Option<&G::State>, score: Score, best: u32, first: bool) {
        let mut entry = Entry::exact(score, best);
        entry.first = first;
        if key.is_some() {
            entry.best = NO_MOVE;
            entry.first = false;
        }
        let k = key.unwrap_or(state);
        let hash = hash_of(k);
        let mut shard = self.shared.shard(hash);
        match Packed::pack(entry) {
            Some(p) => {
                if shard.insert(k.clone(), p).is_none() {
                    self.new += 1;
                }
                drop(shard);
                self.recent.put(hash, k, score);
            }
            // Too far from the end to keep, as one thread does not keep it.
            None => {
                shard.remove(k);
            }
        }
    }

    /// Counts a node; every so often, looks whether to stop.
    fn enter(&mut self) -> Result<(), Abort> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_EVERY) {
            self.check()?;
        }
        Ok(())
    }

    #[cold]
    fn check(&mut self) -> Result<(), Abort> {
        let shared = self.shared;
        if shared.done.load(Relaxed) {
            self.stopped_by_others = true;
            return Err(Abort::OneThread);
        }
        if self.new >= COUNT_BATCH {
            let stored = shared.stored.fetch_add(self.new, Relaxed) + self.new;
            self.new = 0;
            if shared.opts.max_states.is_some_and(|max| stored >= max) {
                return Err(Abort::OneThread);
            }
        }
        if let Some(watch) = &shared.opts.watch {
            // Each thread publishes its own count: the line shows one thread's progress.
            if self.thread == 0 {
                watch.nodes.store(self.nodes, Relaxed);
                watch.states.store(shared.stored.load(Relaxed), Relaxed);
            }
            if watch.stopped() {
                return Err(Abort::Budget(SolveError::Budget {
                    what: crate::solve::STOPPED,
                    limit: String::new(),
                    nodes: self.nodes,
                }));
            }
        }
        if let Some(limit) = shared.opts.time_limit
            && shared.started.elapsed() >= limit
        {
            return Err(Abort::Budget(SolveError::Budget {
                what: "time",
                limit: format!("{}s", limit.as_secs_f64()),
                nodes: self.nodes,
            }));
        }
        Ok(())
    }

    /// Searches `state` from scratch (it is not in the table, or another
    /// thread is still on it) and stores its exact score; every move of the
    /// root is searched (the root's best moves are all of them that tie).
    fn search(&mut self, state: &G::State) -> Result<Score, Abort> {
        self.enter()?;
        let key = self.key(state)?;
        let (score, best, first) = self.expand(state, false)?;
        self.store(state, key.as_ref(), score, best, first);
        Ok(score)
    }

    /// The exact score of `state`, the index of its best move, and whether
    /// that is the first best one in legal order. With `cut`, the search of
    /// a position ends at the first move that reaches the best its mover can
    /// get (the top or the bottom of the game's utility range).
    fn expand(&mut self, state: &G::State, cut: bool) -> Result<(Score, u32, bool), Abort> {
        let shared = self.shared;
        let game = shared.game;
        let ps = shared.opts.prefer_short;
        let maximize = match game.turn(state).map_err(|_| Abort::OneThread)? {
            Turn::Terminal => {
                let v = game.returns(state, 0).map_err(|_| Abort::OneThread)?;
                // One thread checks the utility against the game's range.
                let outside = shared.range.is_some_and(|(lo, hi)| !(lo..=hi).contains(&v));
                if v.is_nan() || outside {
                    return Err(Abort::OneThread);
                }
                return Ok((Score::terminal(v), NO_MOVE, true));
            }
            Turn::Player(0) => true,
            Turn::Player(1) => false,
            _ => return Err(Abort::OneThread),
        };
        self.depth += 1;
        if self.depth > shared.opts.max_depth {
            // A cycle, or a line too long: one thread says which.
            return Err(Abort::OneThread);
        }
        let mut moves = self.moves.pop().unwrap_or_default();
        game.legal_moves(state, &mut moves).map_err(|_| Abort::OneThread)?;
        if moves.is_empty() {
            return Err(Abort::OneThread);
        }
        let n = moves.len();
        let mut scores = self.scores.pop().unwrap_or_default();
        scores.clear();
        scores.resize(n, None);
        // The best the mover can get: a move that reaches it settles the position.
        let enough = |s: Score| cut && if maximize { s >= shared.top } else { s <= shared.bottom };
        let mut child = state.clone();
        let mut cut_at = None;
        // Moves another thread is on are left for a second pass (ABDADA):
        // by then they are usually done.
        let mut deferred = false;
        for (i, mv) in moves.iter().enumerate() {
            child.clone_from(state);
            game.apply(&mut child, mv).map_err(|_| Abort::OneThread)?;
            self.enter()?;
            let key = self.key(&child)?;
            let s = match self.probe(&child, key.as_ref()) {
                Probe::Known(s) => {
                    self.hits += 1;
                    s
                }
                Probe::Mine => {
                    let (s, best, first) = self.expand(&child, true)?;
                    self.store(&child, key.as_ref(), s, best, first);
                    s
                }
                Probe::Theirs => {
                    deferred = true;
                    continue;
                }
            };
            scores[i] = Some(s);
            if enough(s.up(ps)) {
                cut_at = Some((i, !deferred));
                break;
            }
        }
        if deferred && cut_at.is_none() {
            for (i, mv) in moves.iter().enumerate() {
                if scores[i].is_some() {
                    continue;
                }
                child.clone_from(state);
                game.apply(&mut child, mv).map_err(|_| Abort::OneThread)?;
                self.enter()?;
                let key = self.key(&child)?;
                let known = {
                    let k = key.as_ref().unwrap_or(&child);
                    self.shared.shard(hash_of(k)).get(k).copied()
                };
                let s = match known {
                    Some(p) if !p.is_pending() => {
                        self.hits += 1;
                        p.unpack().score
                    }
                    // Still searched by the other: searched here too (the
                    // same answer; waiting could deadlock in a game with cycles).
                    _ => {
                        let (s, best, first) = self.expand(&child, true)?;
                        self.store(&child, key.as_ref(), s, best, first);
                        s
                    }
                };
                scores[i] = Some(s);
                if enough(s.up(ps)) {
                    // First in legal order only if every move before it was scored.
                    cut_at = Some((i, scores[..i].iter().all(Option::is_some)));
                    break;
                }
            }
        }
        let answer = match cut_at {
            Some((i, first)) => (scores[i].expect("scored").up(ps), i as u32, first),
            None => {
                // The first best move in legal order, as one thread keeps it.
                let mut best = if maximize { Score::MIN } else { Score::MAX };
                let mut best_at = NO_MOVE;
                for (i, s) in scores.iter().enumerate() {
                    let s = s.expect("every move was scored").up(ps);
                    if Score::better(maximize, s, best) {
                        best = s;
                        best_at = i as u32;
                    }
                }
                (best, best_at, true)
            }
        };
        self.moves.push(moves);
        self.scores.push(scores);
        self.depth -= 1;
        Ok(answer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A slot answers only for the position it holds, and the last position
    /// put in it replaces the one before.
    #[test]
    fn recent_scores_answer_only_for_their_own_position() {
        let mut recent: Recent<u64> = Recent::new();
        let win = Score::terminal(1.0);
        let loss = Score::terminal(-1.0);
        assert_eq!(recent.get(5, &5), None);
        recent.put(5, &5, win);
        assert_eq!(recent.get(5, &5), Some(win));
        // Another position with the same slot is not the one stored.
        let same_slot = 5 + RECENT_SLOTS as u64;
        assert_eq!(recent.get(same_slot, &same_slot), None);
        recent.put(same_slot, &same_slot, loss);
        assert_eq!(recent.get(same_slot, &same_slot), Some(loss));
        assert_eq!(recent.get(5, &5), None);
        assert_eq!(recent.get(6, &6), None);
    }
}
