//! Exact values of games with the repetition rule (`end when repeated N`),
//! by retrograde analysis of the position graph instead of a search of
//! every line.
//!
//! A search that keeps the line's history ([`line`](super::line)) cannot
//! share a position's value between lines that reach it with different
//! histories, and a game whose positions repeat has astronomically many
//! lines: three men's morris has 5,466 positions, and the search did not
//! finish in ten minutes. Its positions' values do not depend on the
//! history after all, when the rule's outcome `r` is the same wherever a
//! position repeats (a draw):
//!
//! - Player 0 can force a value of `t > r` exactly when it can force its
//!   way to an end worth at least `t` (its *attractor* of those ends in
//!   the graph). Playing so, each move brings the end strictly nearer, so
//!   no position comes back and the rule never intervenes.
//! - Likewise player 1 for `t < r`.
//! - Otherwise neither can force better than `r`: each can keep away from
//!   the ends worse for it forever, and play that goes on forever meets a
//!   position for the Nth time, worth `r`.
//!
//! So the value of a position is the largest `t > r` whose attractor holds
//! it, else the smallest `t < r` whose attractor for player 1 holds it,
//! else `r`: one attractor per value the game's ends take (three for a
//! game of wins, draws and losses), each linear in the graph.
//!
//! The history of the game so far enters as ends: a position that already
//! occurs N − 1 times on the line before the root (the root counted) ends
//! the game when a move reaches it, so it is a terminal worth its outcome
//! in the graph searched. A strategy that forces an end visits no position
//! twice, so the others (seen fewer times) cannot reach N on it: the values
//! are those of the search that keeps the history, move for move (the test
//! `retrograde_values_are_the_line_search_s` compares them).
//!
//! Where the rule's outcome differs between positions (`winner previous`),
//! what endless play is worth depends on where it repeats, and the solver
//! searches the lines instead.

use rustc_hash::FxHashMap;

use super::score::Score;
use super::solution::{MoveValue, Solution};
use super::solve_error::SolveError;
use super::solver::Solver;
use crate::game::Game;

/// Who acts at a position of the graph.
const MAX: u8 = 0;
const MIN: u8 = 1;
const END: u8 = 2;
/// No distance: play goes on until a position repeats.
const ENDLESS: u32 = u32::MAX;

/// Every position reachable from a root, valued.
pub(in crate::solve) struct Cyclic<G: Game> {
    /// Position 0 is the root; an end by repetition is a position of its own.
    states: Vec<G::State>,
    /// Who acts (`MAX`, `MIN` or `END`).
    who: Vec<u8>,
    /// Position `i`'s successors, in legal-move order, are
    /// `children[first[i]..first[i + 1]]`.
    first: Vec<usize>,
    children: Vec<u32>,
    /// Each position's moves, as `children` lists their successors.
    moves: Vec<G::Move>,
    /// Player 0's utility under optimal play.
    value: Vec<f64>,
    /// Plies to the end under optimal play, when the value is not the
    /// rule's: the winner hurries, the loser delays.
    dist: Vec<u32>,
    /// The rule's outcome for player 0: what endless play is worth.
    endless: f64,
    /// Whether position `i` is an end by repetition.
    repeats: Vec<bool>,
}

/// The root's value for player 0 and its best moves.
type RootFound<G> = (f64, Vec<<G as Game>::Move>);

/// Why the graph cannot be valued this way.
pub(in crate::solve) enum NotCyclic {
    /// The search of lines does it: the rule's outcome differs between positions.
    SearchLines,
    Fail(SolveError),
}

impl From<SolveError> for NotCyclic {
    fn from(e: SolveError) -> Self {
        NotCyclic::Fail(e)
    }
}

impl From<crate::game::GameError> for NotCyclic {
    fn from(e: crate::game::GameError) -> Self {
        NotCyclic::Fail(e.into())
    }
}

impl<G: Game> Cyclic<G> {
    fn len(&self) -> usize {
        self.who.len()
    }

    fn children(&self, i: usize) -> &[u32] {
        &self.children[self.first[i]..self.first[i + 1]]
    }

    fn moves(&self, i: usize) -> &[G::Move] {
        &self.moves[self.first[i]..self.first[i + 1]]
    }

    /// Player 0's score at position `i`, the distance folded in as the line
    /// search folds it with `prefer_short`.
    fn score(&self, i: usize, prefer_short: bool) -> Score {
        let value = self.value[i] + 0.0;
        let key = match self.dist[i] {
            d if !prefer_short || d == ENDLESS => 0,
            d if value > 0.0 => -(d as i64),
            d if value < 0.0 => d as i64,
            _ => 0,
        };
        Score { value, key }
    }

    /// The best moves at position `i` (indices into its moves), in
    /// legal-move order.
    fn best(&self, i: usize, prefer_short: bool) -> Vec<usize> {
        let scores: Vec<Score> = self
            .children(i)
            .iter()
            .map(|&c| self.score(c as usize, prefer_short).up(prefer_short))
            .collect();
        let maximize = self.who[i] == MAX;
        let Some(best) = scores
            .iter()
            .copied()
            .reduce(|a, b| if Score::better(maximize, b, a) { b } else { a })
        else {
            return Vec::new();
        };
        (0..scores.len()).filter(|&k| scores[k] == best).collect()
    }

    /// The move at `i` that plays for its value: towards the end for the
    /// winner (the nearest) and the loser (the farthest); where the value is
    /// the rule's, the first move that keeps it.
    fn line_move(&self, i: usize) -> usize {
        let children = self.children(i);
        let v = self.value[i];
        let keeps = |k: &usize| self.value[children[*k] as usize] == v;
        if self.dist[i] == ENDLESS {
            return (0..children.len()).find(keeps).expect("a move keeps the value");
        }
        let winner = if v > self.endless { MAX } else { MIN };
        let d = |k: usize| self.dist[children[k] as usize];
        let pick = (0..children.len()).filter(keeps);
        if self.who[i] == winner {
            pick.min_by_key(|&k| d(k))
        } else {
            // The first of the farthest.
            pick.rev().max_by_key(|&k| d(k))
        }
        .expect("a move keeps the value")
    }

    /// The line from position `i` under optimal play, until the game ends:
    /// at an end, or when a move reaches a position the Nth time (`seen`
    /// counts the line before `i`).
    fn line(&self, mut i: usize, times: u32, mut seen: FxHashMap<u32, u32>) -> Vec<G::Move> {
        *seen.entry(i as u32).or_insert(0) += 1;
        let mut line = Vec::new();
        while self.who[i] != END {
            let k = self.line_move(i);
            line.push(self.moves(i)[k].clone());
            i = self.children(i)[k] as usize;
            let n = seen.entry(i as u32).or_insert(0);
            *n += 1;
            if *n >= times {
                break;
            }
        }
        line
    }
}

impl<G: Game> Solver<'_, G> {
    /// Whether this solve values the position graph (see the module's
    /// documentation): a repetition rule, no depth cutoff, and not told to
    /// search the lines.
    pub(in crate::solve) fn by_retrograde(&self) -> bool {
        self.rep.is_some() && self.cutoff == usize::MAX && !self.opts.search_lines
    }

    /// Explores and values every position reachable from `root`, after the
    /// line of the repetition rule (restarted at `root`).
    pub(in crate::solve) fn cyclic(&mut self, root: &G::State) -> Result<Cyclic<G>, NotCyclic> {
        let line = self.rep.as_ref().expect("a repetition rule");
        let times = line.times();
        // Positions on the line N − 1 times end the game when reached again.
        let ending: rustc_hash::FxHashSet<G::State> = line
            .counts()
            .filter(|&(_, n)| n + 1 >= times)
            .map(|(s, _)| s.clone())
            .collect();
        let mut index: FxHashMap<G::State, u32> = FxHashMap::default();
        let mut ends: FxHashMap<G::State, u32> = FxHashMap::default();
        let mut g: Cyclic<G> = Cyclic {
            states: vec![root.clone()],
            who: Vec::new(),
            first: vec![0],
            children: Vec::new(),
            moves: Vec::new(),
            value: Vec::new(),
            dist: Vec::new(),
            endless: f64::NAN,
            repeats: vec![false],
        };
        index.insert(root.clone(), 0);
        let mut buf = Vec::new();
        let mut next = 0;
        while next < g.states.len() {
            let state = g.states[next].clone();
            self.enter(&state)?;
            if g.states.len() as u64 > self.max_states() {
                return Err(SolveError::Budget {
                    what: "states",
                    limit: self.max_states().to_string(),
                    nodes: self.nodes,
                }
                .into());
            }
            if g.repeats[next] {
                let value = self.repetition_score(&state)?.value;
                g.who.push(END);
                g.value.push(value);
                g.first.push(g.children.len());
                next += 1;
                continue;
            }
            let Some(maximize) = self.mover(&state)? else {
                g.who.push(END);
                g.value.push(self.terminal_score(&state)?.value);
                g.first.push(g.children.len());
                next += 1;
                continue;
            };
            let r = self.repetition_score(&state)?.value;
            if g.endless.is_nan() {
                g.endless = r;
            } else if r != g.endless {
                return Err(NotCyclic::SearchLines);
            }
            g.who.push(if maximize { MAX } else { MIN });
            g.value.push(f64::NAN);
            self.fill_moves(&state, &mut buf)?;
            for mv in buf.drain(..) {
                let mut child = state.clone();
                self.game.apply(&mut child, &mv)?;
                let (table, repeats) = if ending.contains(&child) {
                    (&mut ends, true)
                } else {
                    (&mut index, false)
                };
                let id = match table.get(&child) {
                    Some(&id) => id,
                    None => {
                        let id = u32::try_from(g.states.len()).map_err(|_| SolveError::Budget {
                            what: "states",
                            limit: u32::MAX.to_string(),
                            nodes: self.nodes,
                        })?;
                        table.insert(child.clone(), id);
                        g.states.push(child);
                        g.repeats.push(repeats);
                        id
                    }
                };
                g.children.push(id);
                g.moves.push(mv);
            }
            g.first.push(g.children.len());
            next += 1;
        }
        if g.endless.is_nan() {
            // No position with moves: the root is over.
            g.endless = 0.0;
        }
        if (0..g.len()).any(|i| g.repeats[i] && g.value[i] != g.endless) {
            return Err(NotCyclic::SearchLines);
        }
        if self.opts.prefer_short && g.endless != 0.0 {
            // Its distances are to wins and losses, counted from a draw.
            return Err(NotCyclic::SearchLines);
        }
        settle(&mut g);
        Ok(g)
    }

    /// [`Self::cyclic`], or `None` where the lines must be searched instead.
    fn graph(&mut self, root: &G::State) -> Result<Option<Cyclic<G>>, SolveError> {
        match self.cyclic(root) {
            Ok(g) => Ok(Some(g)),
            Err(NotCyclic::SearchLines) => Ok(None),
            Err(NotCyclic::Fail(e)) => Err(e),
        }
    }

    /// [`solve`](Solver::solve) by retrograde analysis; `None` where the
    /// lines must be searched instead.
    pub(in crate::solve) fn solve_cyclic(&mut self, root: &G::State) -> Result<Option<Solution<G::Move>>, SolveError> {
        let Some(g) = self.graph(root)? else {
            return Ok(None);
        };
        let ps = self.opts.prefer_short;
        let best_moves: Vec<G::Move> = if g.who[0] == END {
            Vec::new()
        } else {
            let best = g.best(0, ps);
            best.into_iter().map(|k| g.moves(0)[k].clone()).collect()
        };
        let pv = match best_moves.first() {
            None => Vec::new(),
            Some(first) => {
                let k = g.moves(0).iter().position(|m| m == first).expect("a move at the root");
                let child = g.children(0)[k] as usize;
                let mut pv = vec![first.clone()];
                if !g.repeats[child] {
                    pv.extend(g.line(child, self.times(), self.line_counts(&g)));
                }
                pv
            }
        };
        self.check_line(root, true, &pv, Score::terminal(g.value[0]))?;
        Ok(Some(Solution {
            value: g.value[0],
            best_moves,
            length: pv.len(),
            pv,
            nodes: self.nodes,
            states: g.len() as u64,
            memo_entries: g.len(),
            memo_hits: 0,
            seconds: self.started().elapsed().as_secs_f64(),
            by_graph: true,
        }))
    }

    /// [`explain`](Solver::explain) by retrograde analysis; `None` where the
    /// lines must be searched instead.
    pub(in crate::solve) fn explain_cyclic(
        &mut self,
        root: &G::State,
    ) -> Result<Option<Vec<MoveValue<G::Move>>>, SolveError> {
        let Some(g) = self.graph(root)? else {
            return Ok(None);
        };
        let mut out = Vec::new();
        if g.who[0] == END {
            return Ok(Some(out));
        }
        let before = self.line_counts(&g);
        for (k, mv) in g.moves(0).iter().enumerate() {
            let child = g.children(0)[k] as usize;
            let line = if g.repeats[child] {
                Vec::new()
            } else {
                g.line(child, self.times(), before.clone())
            };
            let mut at = root.clone();
            self.game.apply(&mut at, mv)?;
            self.check_line(&at, false, &line, Score::terminal(g.value[child]))?;
            out.push(MoveValue {
                mv: mv.clone(),
                value: g.value[child],
                line,
            });
        }
        Ok(Some(out))
    }

    /// The root's value and best moves by retrograde analysis; `None` where
    /// the lines must be searched instead.
    pub(in crate::solve) fn search_root_cyclic(&mut self, root: &G::State) -> Result<Option<RootFound<G>>, SolveError> {
        let Some(g) = self.graph(root)? else {
            return Ok(None);
        };
        let best = if g.who[0] == END {
            Vec::new()
        } else {
            let ps = self.opts.prefer_short;
            g.best(0, ps).into_iter().map(|k| g.moves(0)[k].clone()).collect()
        };
        Ok(Some((g.value[0], best)))
    }

    fn times(&self) -> u32 {
        self.rep.as_ref().map_or(u32::MAX, |l| l.times())
    }

    /// How often each position of `g` occurs on the line before the root
    /// and at the root, by number.
    fn line_counts(&self, g: &Cyclic<G>) -> FxHashMap<u32, u32> {
        let line = self.rep.as_ref().expect("a repetition rule");
        let mut seen = FxHashMap::default();
        for (i, s) in g.states.iter().enumerate() {
            if g.repeats[i] {
                continue;
            }
            let n = line.count(s);
            if n > 0 {
                seen.insert(i as u32, n);
            }
        }
        seen
    }
}

/// Values every position of `g` (see the module's documentation) and the
/// distance to the end where the value is not the rule's.
fn settle<G: Game>(g: &mut Cyclic<G>) {
    let n = g.len();
    // Predecessors, one entry per move (a position reached by two moves
    // counts twice, as its parent's count of moves left does).
    let mut rfirst = vec![0usize; n + 1];
    for &c in &g.children {
        rfirst[c as usize + 1] += 1;
    }
    for i in 0..n {
        rfirst[i + 1] += rfirst[i];
    }
    let mut fill = rfirst.clone();
    let mut parents = vec![0u32; g.children.len()];
    for i in 0..n {
        for &c in g.children(i) {
            parents[fill[c as usize]] = i as u32;
            fill[c as usize] += 1;
        }
    }
    let parents_of = |c: usize| &parents[rfirst[c]..rfirst[c + 1]];
    let r = g.endless;
    let mut ends: Vec<f64> = (0..n).filter(|&i| g.who[i] == END).map(|i| g.value[i]).collect();
    ends.sort_by(f64::total_cmp);
    ends.dedup();
    let mut attracted = vec![false; n];
    let mut left = vec![0u32; n];
    let mut queue = std::collections::VecDeque::new();
    // Player 0's thresholds from the top, then player 1's from the bottom:
    // a position takes the first value whose attractor holds it.
    let thresholds = ends
        .iter()
        .rev()
        .filter(|&&t| t > r)
        .map(|&t| (MAX, t))
        .chain(ends.iter().filter(|&&t| t < r).map(|&t| (MIN, t)));
    for (player, t) in thresholds {
        attracted.iter_mut().for_each(|a| *a = false);
        queue.clear();
        for i in 0..n {
            left[i] = g.children(i).len() as u32;
            let target = g.who[i] == END
                && if player == MAX {
                    g.value[i] >= t
                } else {
                    g.value[i] <= t
                };
            if target {
                attracted[i] = true;
                queue.push_back(i);
            }
        }
        while let Some(c) = queue.pop_front() {
            if g.value[c].is_nan() {
                g.value[c] = t;
            }
            for &p in parents_of(c) {
                let p = p as usize;
                if attracted[p] {
                    continue;
                }
                let joins = if g.who[p] == player {
                    true
                } else {
                    left[p] -= 1;
                    left[p] == 0
                };
                if joins {
                    attracted[p] = true;
                    queue.push_back(p);
                }
            }
        }
    }
    for v in &mut g.value {
        if v.is_nan() {
            *v = r;
        }
    }
    // Distances, within each value: from the ends outwards, breadth first;
    // the winner's position takes its first successor of the same value,
    // the loser's its last (every successor of the same value is the
    // loser's best: it cannot do better than the value).
    g.dist = vec![ENDLESS; n];
    queue.clear();
    for (i, left) in left.iter_mut().enumerate() {
        *left = g
            .children(i)
            .iter()
            .filter(|&&c| g.value[c as usize] == g.value[i])
            .count() as u32;
        if g.who[i] == END && g.value[i] != r {
            g.dist[i] = 0;
            queue.push_back(i);
        }
    }
    while let Some(c) = queue.pop_front() {
        let (v, d) = (g.value[c], g.dist[c]);
        for &p in parents_of(c) {
            let p = p as usize;
            if g.dist[p] != ENDLESS || g.value[p] != v || g.who[p] == END {
                continue;
            }
            let winner = if v > r { MAX } else { MIN };
            let joins = if g.who[p] == winner {
                true
            } else {
                left[p] -= 1;
                left[p] == 0
            };
            if joins {
                g.dist[p] = d + 1;
                queue.push_back(p);
            }
        }
    }
}
