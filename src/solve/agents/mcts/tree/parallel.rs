//! Tree parallelism: one tree searched by several threads (Chaslot, Winands
//! & van den Herik 2008). A thread holds the tree's lock while it walks down
//! and expands, and while it backs up; the playout between, where most of
//! the time goes, runs outside the lock. A walk marks its path with a
//! virtual loss (a visit that returned the lowest return seen to every
//! player) so that the threads spread over the tree instead of all
//! following the same line; the real return replaces it at the backup.

use std::sync::Mutex;

use super::*;

/// What a thread carries from its walk down to its backup: the parts of the
/// tree's buffers that describe its simulation, swapped out of the tree
/// while other threads use them.
struct Pending<G: Game> {
    state: G::State,
    /// Under a repetition rule, the line of positions that led to `state`.
    line: Vec<G::State>,
    path: Vec<u32>,
    chosen: Vec<u32>,
    rm_chosen: Vec<RegretDraw>,
    rm_avail: Vec<u32>,
    ret: Vec<f64>,
    /// The virtual loss added to each node and statistic of the path.
    loss: f64,
}

impl<G: Game> Search<G> {
    /// Runs simulations on `threads` threads sharing this tree until the
    /// budget is spent or the root is proven. The seeds of the threads'
    /// playouts are drawn from the tree's; the order in which threads take
    /// the lock is the scheduler's, so two runs differ (one thread: `run`).
    pub fn run_parallel(&mut self, game: &G, threads: usize) -> Result<(), GameError>
    where
        G: Sync,
        G::State: Send,
        G::Move: Send,
    {
        if threads <= 1 {
            return self.run(game);
        }
        let clock = Clock::start(self.cfg.simulations, self.cfg.time).stopped_by(self.cfg.stop);
        let seeds: Vec<u64> = (0..threads).map(|_| self.rng.random()).collect();
        let cfg = self.cfg.clone();
        let (np, root) = (self.np, self.root_state.clone());
        let repeated = self.repeated.is_some();
        let shared = Mutex::new((&mut *self, 0u64));
        let results: Vec<Result<(), GameError>> = std::thread::scope(|scope| {
            let handles: Vec<_> = seeds
                .iter()
                .map(|&seed| {
                    let (shared, clock, cfg, root) = (&shared, &clock, &cfg, root.clone());
                    scope.spawn(move || -> Result<(), GameError> {
                        let mut rng = StdRng::seed_from_u64(seed);
                        let mut scratch = Scratch::default();
                        let mut mine = Pending::<G> {
                            state: root,
                            line: Vec::new(),
                            path: Vec::new(),
                            chosen: Vec::new(),
                            rm_chosen: Vec::new(),
                            rm_avail: Vec::new(),
                            ret: vec![0.0; np],
                            loss: 0.0,
                        };
                        loop {
                            let mut guard = shared.lock().expect("a search thread does not panic");
                            let (tree, done) = &mut *guard;
                            if !clock.go_on(*done) || tree.root_proven() {
                                return Ok(());
                            }
                            if done.is_multiple_of(256) && memory::exceeded() {
                                tree.full = true;
                            }
                            *done += 1;
                            let (node, leaf) = tree.descend(game)?;
                            if leaf != Leaf::Playout {
                                tree.backup(node, leaf == Leaf::Ended);
                                continue;
                            }
                            tree.value_leaf(game, node)?;
                            tree.lend(&mut mine);
                            drop(guard);
                            let line = repeated.then_some(mine.line.as_slice());
                            playout(game, cfg, &mut mine.state, line, &mut rng, &mut scratch, &mut mine.ret)?;
                            let mut guard = shared.lock().expect("a search thread does not panic");
                            let (tree, _) = &mut *guard;
                            tree.take_back(&mut mine);
                            tree.backup(node, false);
                        }
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a search thread does not panic"))
                .collect()
        });
        results.into_iter().collect()
    }

    /// Swaps the walk just made out into `p`, with a virtual loss on its path.
    fn lend(&mut self, p: &mut Pending<G>) {
        p.loss = if self.seen.0.is_finite() { self.seen.0 } else { 0.0 };
        for &n in &self.path {
            let n = n as usize;
            self.nodes[n].visits += 1;
            for q in 0..self.np {
                self.sums[n * self.np + q] += p.loss;
            }
        }
        for &s in &self.chosen {
            self.stats[s as usize].visits += 1;
            self.stats[s as usize].sum += p.loss;
        }
        p.state.clone_from(&self.state);
        if self.repeated.is_some() {
            p.line.clone_from(&self.line);
        }
        std::mem::swap(&mut p.path, &mut self.path);
        std::mem::swap(&mut p.chosen, &mut self.chosen);
        std::mem::swap(&mut p.rm_chosen, &mut self.rm_chosen);
        std::mem::swap(&mut p.rm_avail, &mut self.rm_avail);
    }

    /// Takes a walk back from `p`, its virtual loss removed and its returns
    /// in `ret`, ready to be backed up.
    fn take_back(&mut self, p: &mut Pending<G>) {
        std::mem::swap(&mut p.path, &mut self.path);
        std::mem::swap(&mut p.chosen, &mut self.chosen);
        std::mem::swap(&mut p.rm_chosen, &mut self.rm_chosen);
        std::mem::swap(&mut p.rm_avail, &mut self.rm_avail);
        self.ret.copy_from_slice(&p.ret);
        for &n in &self.path {
            let n = n as usize;
            self.nodes[n].visits -= 1;
            for q in 0..self.np {
                self.sums[n * self.np + q] -= p.loss;
            }
        }
        for &s in &self.chosen {
            self.stats[s as usize].visits -= 1;
            self.stats[s as usize].sum -= p.loss;
        }
    }
}
