//! Value iteration for games whose positions recur (Pig: a bust hands the
//! turn back and forth), one strongly connected component of the position
//! graph at a time.
//!
//! [`expectimax`](super::expectimax) explores every reachable position into
//! a [`Graph`]; [`settle`] then splits it into its strongly connected
//! components (Tarjan) and values them from the end of the game backwards:
//! when a component's turn comes, every position outside it that it leads
//! to already has its final value. A position on no cycle is valued once
//! from its successors; the positions of a cycle start at 0 and are swept
//! (deepest first, each sweep reading the values it has just written:
//! Gauss-Seidel) until no value moves by more than the tolerance. In Pig a
//! component is the few hundred positions of one pair of scores, and a
//! sweep over it costs what a sweep over the whole game cost for each of its
//! positions: far fewer updates than sweeping everything until the slowest
//! part has settled.
//!
//! **Threads.** A component's values depend only on its own positions and on
//! the final values below it, never on which thread valued them or when, so
//! the components no path connects are valued on several threads at once
//! (those of one *level*: the longest path to the end of the game), and the
//! values are one thread's, bit for bit.

use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicU64, AtomicUsize};

use super::matrix::Matrix;
use super::simultaneous::solve_stage;
use super::solve_error::SolveError;

/// Who acts at a position of the graph besides players 0 and 1.
pub(super) const CHANCE: u8 = 2;
pub(super) const SIMULTANEOUS: u8 = 3;
pub(super) const TERMINAL: u8 = 4;

/// A level with fewer positions than this is valued on one thread: starting
/// threads would cost more than they save.
pub(super) const PARALLEL_MIN: usize = 1024;
/// Position updates between two looks at the clock and the watch.
const CHECK_EVERY: u64 = 1 << 16;

/// How a position's value follows from its children's values.
#[derive(Clone, Copy, Debug)]
pub(super) enum Rule<'a> {
    Terminal(f64),
    /// Player 0 maximizes, player 1 minimizes.
    Player(u8),
    /// Each child's probability.
    Chance(&'a [f64]),
    /// The children row by row (player 0's move, then player 1's).
    Simultaneous {
        rows: usize,
        cols: usize,
    },
}

/// A position's value from its children's, and (with `best`) its best
/// moves as bits of their indices (the first 64 moves); `tie` says which
/// values are equally good.
pub(super) fn evaluate(
    rule: Rule<'_>,
    values: &[f64],
    best: bool,
    tie: fn(f64, f64) -> bool,
) -> Result<(f64, u64), SolveError> {
    Ok(match rule {
        Rule::Terminal(v) => (v, 0),
        Rule::Player(player) => {
            let maximize = player == 0;
            let value = values
                .iter()
                .copied()
                .reduce(|a, b| if maximize { a.max(b) } else { a.min(b) })
                .expect("a player's node has moves");
            let mut bits = 0u64;
            if best {
                for (i, v) in values.iter().enumerate().take(64) {
                    if tie(*v, value) {
                        bits |= 1 << i;
                    }
                }
            }
            (value, bits)
        }
        Rule::Chance(probs) => (probs.iter().zip(values).map(|(p, v)| p * v).sum(), 0),
        Rule::Simultaneous { rows, cols } => (solve_stage(&Matrix::new(rows, cols, values.to_vec()))?.value, 0),
    })
}

/// Every position reachable from the root (position 0), numbered, with its
/// successors by number.
#[derive(Default)]
pub(super) struct Graph {
    /// Who acts: 0, 1, [`CHANCE`], [`SIMULTANEOUS`] or [`TERMINAL`].
    pub who: Vec<u8>,
    /// Position `i`'s children are `children[first[i]..first[i + 1]]`.
    first: Vec<usize>,
    children: Vec<u32>,
    /// At a chance node, where its probabilities start in `probs`; at a
    /// simultaneous node, its rows.
    extra: Vec<usize>,
    probs: Vec<f64>,
    /// A terminal position's value (0 elsewhere).
    terminal: Vec<f64>,
}

impl Graph {
    pub fn new() -> Self {
        Graph {
            first: vec![0],
            ..Graph::default()
        }
    }

    pub fn len(&self) -> usize {
        self.who.len()
    }

    /// Adds the next position: who acts there, its children, and at a chance
    /// node their probabilities, at a simultaneous node its rows, at the end
    /// of the game its value.
    pub fn push(&mut self, who: u8, children: &[u32], probs: &[f64], rows: usize, terminal: f64) {
        self.who.push(who);
        self.children.extend_from_slice(children);
        self.first.push(self.children.len());
        self.extra.push(match who {
            CHANCE => {
                self.probs.extend_from_slice(probs);
                self.probs.len() - probs.len()
            }
            SIMULTANEOUS => rows,
            _ => 0,
        });
        self.terminal.push(if who == TERMINAL { terminal } else { 0.0 });
    }

    #[inline]
    pub fn children(&self, i: usize) -> &[u32] {
        &self.children[self.first[i]..self.first[i + 1]]
    }

    /// How position `i`'s value follows from its children's.
    #[inline]
    pub fn rule(&self, i: usize) -> Rule<'_> {
        match self.who[i] {
            TERMINAL => Rule::Terminal(self.terminal[i]),
            CHANCE => {
                let at = self.extra[i];
                Rule::Chance(&self.probs[at..at + self.children(i).len()])
            }
            SIMULTANEOUS => {
                let rows = self.extra[i];
                Rule::Simultaneous {
                    rows,
                    cols: self.children(i).len() / rows.max(1),
                }
            }
            p => Rule::Player(p),
        }
    }
}

/// What the sweeps took.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Summary {
    /// Components of more than one position (or a position that leads to itself).
    pub cycles: u64,
    /// The most sweeps one of them took.
    pub sweeps: u64,
    /// The largest change in the last sweep of any of them.
    pub residual: f64,
    /// Matrix games solved at simultaneous nodes.
    pub stages: u64,
}

impl Summary {
    fn add(&mut self, other: Summary) {
        self.cycles += other.cycles;
        self.sweeps = self.sweeps.max(other.sweeps);
        self.residual = self.residual.max(other.residual);
        self.stages += other.stages;
    }
}

/// When to stop and what to look at meanwhile.
pub(super) struct Limits<'a> {
    pub tolerance: f64,
    pub max_sweeps: u64,
    /// Asked every so often whether to stop (the clock and the watch): an
    /// error ends the solve.
    pub check: &'a (dyn Fn() -> Result<(), SolveError> + Sync),
    /// Levels with fewer positions are valued on one thread.
    pub parallel_min: usize,
}

/// The value of every position of `graph` (see the module's documentation),
/// on `threads` threads.
pub(super) fn settle(graph: &Graph, limits: &Limits<'_>, threads: usize) -> Result<(Vec<f64>, Summary), SolveError> {
    let (members, starts) = components(graph);
    let values: Vec<AtomicU64> = graph.terminal.iter().map(|v| AtomicU64::new(v.to_bits())).collect();
    let mut summary = Summary::default();
    let count = starts.len() - 1;
    let component = |c: usize| &members[starts[c]..starts[c + 1]];
    if threads < 2 {
        let mut sweeper = Sweeper::new(graph, &values, limits);
        for c in 0..count {
            summary.add(sweeper.component(component(c))?);
        }
    } else {
        let (order, level_starts) = levels(graph, &members, &starts);
        for level in level_starts.windows(2) {
            let comps = &order[level[0]..level[1]];
            let size: usize = comps.iter().map(|&c| component(c as usize).len()).sum();
            if size < limits.parallel_min {
                let mut sweeper = Sweeper::new(graph, &values, limits);
                for &c in comps {
                    summary.add(sweeper.component(component(c as usize))?);
                }
                continue;
            }
            // Each thread takes the next component left: their sweeps differ too much
            // for shares fixed in advance.
            let taken = AtomicUsize::new(0);
            let take_all = || -> Result<Summary, SolveError> {
                let mut sweeper = Sweeper::new(graph, &values, limits);
                let mut summary = Summary::default();
                loop {
                    let k = taken.fetch_add(1, Relaxed);
                    let Some(&c) = comps.get(k) else { return Ok(summary) };
                    match sweeper.component(component(c as usize)) {
                        Ok(s) => summary.add(s),
                        Err(e) => {
                            // The others stop at their next component.
                            taken.store(comps.len(), Relaxed);
                            return Err(e);
                        }
                    }
                }
            };
            let results: Vec<Result<Summary, SolveError>> = std::thread::scope(|scope| {
                let handles: Vec<_> = (1..threads).map(|_| scope.spawn(take_all)).collect();
                let mut results = vec![take_all()];
                results.extend(
                    handles
                        .into_iter()
                        .map(|h| h.join().unwrap_or_else(|_| Err(thread_failed()))),
                );
                results
            });
            // An error is of the kind one thread meets (sweeps, time, a matrix game).
            for r in results {
                summary.add(r?);
            }
        }
    }
    Ok((
        values.into_iter().map(|v| f64::from_bits(v.into_inner())).collect(),
        summary,
    ))
}

fn thread_failed() -> SolveError {
    SolveError::Inconsistent("a thread of the solve failed (a bug in gdl)".into())
}

/// Values components, one after another, on one thread.
struct Sweeper<'a> {
    graph: &'a Graph,
    values: &'a [AtomicU64],
    limits: &'a Limits<'a>,
    /// Position updates until the next look at the clock.
    until_check: u64,
    /// Children's values of a simultaneous node.
    scratch: Vec<f64>,
    stages: u64,
}

impl<'a> Sweeper<'a> {
    fn new(graph: &'a Graph, values: &'a [AtomicU64], limits: &'a Limits<'a>) -> Self {
        Sweeper {
            graph,
            values,
            limits,
            until_check: CHECK_EVERY,
            scratch: Vec::new(),
            stages: 0,
        }
    }

    fn get(&self, i: u32) -> f64 {
        f64::from_bits(self.values[i as usize].load(Relaxed))
    }

    /// Values one component (its positions deepest first).
    fn component(&mut self, members: &[u32]) -> Result<Summary, SolveError> {
        let g = self.graph;
        let cyclic = members.len() > 1 || g.children(members[0] as usize).contains(&members[0]);
        self.stages = 0;
        if !cyclic {
            let i = members[0] as usize;
            if g.who[i] != TERMINAL {
                let v = self.update(i)?;
                self.values[i].store(v.to_bits(), Relaxed);
            }
            return Ok(Summary {
                stages: self.stages,
                ..Summary::default()
            });
        }
        let mut sweeps = 0;
        loop {
            if sweeps >= self.limits.max_sweeps {
                return Err(SolveError::Budget {
                    what: "sweeps",
                    limit: self.limits.max_sweeps.to_string(),
                    nodes: 0,
                });
            }
            sweeps += 1;
            let mut residual = 0.0f64;
            for &m in members {
                let i = m as usize;
                if g.who[i] == TERMINAL {
                    continue;
                }
                let v = self.update(i)?;
                residual = residual.max((v - self.get(m)).abs());
                self.values[i].store(v.to_bits(), Relaxed);
            }
            if residual <= self.limits.tolerance {
                return Ok(Summary {
                    cycles: 1,
                    sweeps,
                    residual,
                    stages: self.stages,
                });
            }
        }
    }

    /// Position `i`'s value from its children's current values.
    #[inline]
    fn update(&mut self, i: usize) -> Result<f64, SolveError> {
        self.until_check -= 1;
        if self.until_check == 0 {
            self.until_check = CHECK_EVERY;
            (self.limits.check)()?;
        }
        let g = self.graph;
        let children = g.children(i);
        Ok(match g.rule(i) {
            Rule::Player(0) => children.iter().map(|&c| self.get(c)).fold(f64::NEG_INFINITY, f64::max),
            Rule::Player(_) => children.iter().map(|&c| self.get(c)).fold(f64::INFINITY, f64::min),
            Rule::Chance(probs) => children.iter().zip(probs).map(|(&c, p)| p * self.get(c)).sum(),
            rule => {
                self.stages += 1;
                let mut scratch = std::mem::take(&mut self.scratch);
                scratch.clear();
                scratch.extend(children.iter().map(|&c| self.get(c)));
                let v = evaluate(rule, &scratch, false, |_, _| false);
                self.scratch = scratch;
                v?.0
            }
        })
    }
}

/// The strongly connected components of `graph` (Tarjan's algorithm, without
/// recursion), each after every component it leads to: the positions of
/// each, deepest first (by number, the last explored first), and where each
/// starts in that list.
fn components(graph: &Graph) -> (Vec<u32>, Vec<usize>) {
    let n = graph.len();
    let mut t = Tarjan {
        graph,
        index: vec![UNSEEN; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        calls: Vec::new(),
        next: 0,
    };
    let mut members: Vec<u32> = Vec::with_capacity(n);
    let mut starts = vec![0];
    for root in 0..n as u32 {
        if t.index[root as usize] != UNSEEN {
            continue;
        }
        t.visit(root);
        while let Some(&(v, edge)) = t.calls.last() {
            let vi = v as usize;
            if edge < graph.first[vi + 1] {
                t.calls.last_mut().expect("a call").1 += 1;
                let w = graph.children[edge] as usize;
                if t.index[w] == UNSEEN {
                    t.visit(w as u32);
                } else if t.on_stack[w] {
                    t.low[vi] = t.low[vi].min(t.index[w]);
                }
                continue;
            }
            t.calls.pop();
            if let Some(&(u, _)) = t.calls.last() {
                t.low[u as usize] = t.low[u as usize].min(t.low[vi]);
            }
            if t.low[vi] == t.index[vi] {
                let from = members.len();
                loop {
                    let w = t.stack.pop().expect("v is on the stack");
                    t.on_stack[w as usize] = false;
                    members.push(w);
                    if w == v {
                        break;
                    }
                }
                members[from..].sort_unstable_by(|a, b| b.cmp(a));
                starts.push(members.len());
            }
        }
    }
    (members, starts)
}

const UNSEEN: u32 = u32::MAX;

/// The state of [`components`]' search.
struct Tarjan<'g> {
    graph: &'g Graph,
    /// The order in which each position was first seen ([`UNSEEN`] before).
    index: Vec<u32>,
    /// The earliest position on the stack that each one reaches.
    low: Vec<u32>,
    on_stack: Vec<bool>,
    stack: Vec<u32>,
    /// The positions being visited, each with the next of its children to look at.
    calls: Vec<(u32, usize)>,
    next: u32,
}

impl Tarjan<'_> {
    fn visit(&mut self, v: u32) {
        let vi = v as usize;
        self.index[vi] = self.next;
        self.low[vi] = self.next;
        self.next += 1;
        self.stack.push(v);
        self.on_stack[vi] = true;
        self.calls.push((v, self.graph.first[vi]));
    }
}

/// The components grouped by level (the most components on a path from one
/// to the end of the game; no path joins two of one level): the components
/// by number, level after level, and where each level starts.
fn levels(graph: &Graph, members: &[u32], starts: &[usize]) -> (Vec<u32>, Vec<usize>) {
    let count = starts.len() - 1;
    let mut component_of = vec![0u32; graph.len()];
    for c in 0..count {
        for &m in &members[starts[c]..starts[c + 1]] {
            component_of[m as usize] = c as u32;
        }
    }
    // Every component comes after those it leads to, so theirs are known.
    let mut level = vec![0u32; count];
    for c in 0..count {
        let mut l = 0;
        for &m in &members[starts[c]..starts[c + 1]] {
            for &child in graph.children(m as usize) {
                let d = component_of[child as usize] as usize;
                if d != c {
                    l = l.max(level[d] + 1);
                }
            }
        }
        level[c] = l;
    }
    let top = level.iter().copied().max().unwrap_or(0) as usize;
    let mut level_starts = vec![0usize; top + 2];
    for &l in &level {
        level_starts[l as usize + 1] += 1;
    }
    for l in 0..=top {
        level_starts[l + 1] += level_starts[l];
    }
    let mut order = vec![0u32; count];
    let mut at = level_starts.clone();
    for (c, &l) in level.iter().enumerate() {
        order[at[l as usize]] = c as u32;
        at[l as usize] += 1;
    }
    (order, level_starts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// A random game graph: players' and chance nodes whose children are
    /// mostly further on, sometimes back (cycles), and terminal positions.
    fn random_graph(rng: &mut StdRng, n: usize) -> Graph {
        let mut g = Graph::new();
        for i in 0..n {
            if i + 3 >= n || rng.random_bool(0.15) {
                g.push(TERMINAL, &[], &[], 0, rng.random_range(-3..=3) as f64);
                continue;
            }
            let k = rng.random_range(1..=3);
            let children: Vec<u32> = (0..k)
                .map(|_| {
                    if rng.random_bool(0.1) {
                        rng.random_range(0..=i) as u32
                    } else {
                        rng.random_range(i + 1..n) as u32
                    }
                })
                .collect();
            if rng.random_bool(0.4) {
                // Chance: a move that can come back also ends the game with
                // some probability, so that the values converge.
                let mut probs: Vec<f64> = (0..k).map(|_| rng.random_range(1..5) as f64).collect();
                let total: f64 = probs.iter().sum::<f64>() * 1.25;
                probs.iter_mut().for_each(|p| *p /= total);
                let mut children = children;
                children.push((n - 1) as u32);
                probs.push(0.2);
                g.push(CHANCE, &children, &probs, 0, 0.0);
            } else {
                g.push(rng.random_range(0..2), &children, &[], 0, 0.0);
            }
        }
        g
    }

    fn ok() -> Result<(), SolveError> {
        Ok(())
    }

    fn limits(parallel_min: usize) -> Limits<'static> {
        Limits {
            tolerance: 1e-13,
            max_sweeps: 100_000,
            check: &ok,
            parallel_min,
        }
    }

    /// Which positions each reaches, by brute force.
    fn reaches(g: &Graph) -> Vec<Vec<bool>> {
        (0..g.len())
            .map(|i| {
                let mut seen = vec![false; g.len()];
                let mut todo = vec![i];
                while let Some(v) = todo.pop() {
                    for &c in g.children(v) {
                        if !seen[c as usize] {
                            seen[c as usize] = true;
                            todo.push(c as usize);
                        }
                    }
                }
                seen
            })
            .collect()
    }

    #[test]
    fn components_are_the_strongly_connected_ones_each_after_those_it_reaches() {
        let mut rng = StdRng::seed_from_u64(7);
        for n in [1, 2, 5, 20, 60] {
            for _ in 0..20 {
                let g = random_graph(&mut rng, n);
                let (members, starts) = components(&g);
                let r = reaches(&g);
                let mut component = vec![usize::MAX; n];
                for c in 0..starts.len() - 1 {
                    for &m in &members[starts[c]..starts[c + 1]] {
                        assert_eq!(component[m as usize], usize::MAX, "one component each");
                        component[m as usize] = c;
                    }
                    // Deepest first.
                    assert!(members[starts[c]..starts[c + 1]].windows(2).all(|w| w[0] > w[1]));
                }
                for a in 0..n {
                    for b in 0..n {
                        let together = a == b || (r[a][b] && r[b][a]);
                        assert_eq!(component[a] == component[b], together, "{a} {b}");
                        // What a position reaches was valued before it.
                        if r[a][b] && !together {
                            assert!(component[b] < component[a], "{a} reaches {b}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn threads_give_one_thread_s_values_bit_for_bit_and_the_fixed_point() {
        let mut rng = StdRng::seed_from_u64(11);
        for _ in 0..30 {
            let g = random_graph(&mut rng, 300);
            let (one, summary) = settle(&g, &limits(usize::MAX), 1).unwrap();
            for threads in [2, 3, 8] {
                // Every level on the threads, however small.
                let (many, s) = settle(&g, &limits(1), threads).unwrap();
                let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&many), bits(&one), "{threads} threads");
                assert_eq!(s, summary);
            }
            // The values are the fixed point: each is what its children make it.
            for i in 0..g.len() {
                let children: Vec<f64> = g.children(i).iter().map(|&c| one[c as usize]).collect();
                let (v, _) = evaluate(g.rule(i), &children, false, |_, _| false).unwrap();
                assert!((v - one[i]).abs() < 1e-10, "position {i}: {v} against {}", one[i]);
            }
        }
    }

    #[test]
    fn sweeps_and_the_clock_stop_a_component_with_a_budget_error() {
        // Two positions that hand the turn back and forth, each ending the
        // game now and then: a cycle that converges slowly.
        let mut g = Graph::new();
        g.push(CHANCE, &[1, 2], &[0.99, 0.01], 0, 0.0);
        g.push(CHANCE, &[0, 2], &[0.99, 0.01], 0, 0.0);
        g.push(TERMINAL, &[], &[], 0, 1.0);
        let few = Limits {
            max_sweeps: 5,
            ..limits(usize::MAX)
        };
        let e = settle(&g, &few, 1).unwrap_err();
        assert!(matches!(e, SolveError::Budget { what: "sweeps", .. }), "{e:?}");
        let stop = || {
            Err(SolveError::Budget {
                what: "time",
                limit: "1s".into(),
                nodes: 0,
            })
        };
        let stopped = Limits {
            check: &stop,
            ..limits(1)
        };
        let big = {
            let mut g = Graph::new();
            for i in 0..200_000u32 {
                g.push(CHANCE, &[(i + 1) % 200_000, 200_000], &[0.999, 0.001], 0, 0.0);
            }
            g.push(TERMINAL, &[], &[], 0, 1.0);
            g
        };
        for threads in [1, 2] {
            let e = settle(&big, &stopped, threads).unwrap_err();
            assert!(matches!(e, SolveError::Budget { what: "time", .. }), "{e:?}");
        }
        let (values, _) = settle(&g, &limits(usize::MAX), 1).unwrap();
        assert!(
            (values[0] - 1.0).abs() < 1e-9 && (values[1] - 1.0).abs() < 1e-9,
            "{values:?}"
        );
    }
}
