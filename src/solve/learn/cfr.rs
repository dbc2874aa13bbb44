//! CFR+ (Tammelin, 2014): counterfactual regret minimization over the
//! information sets of an enumerated game tree ([`InfoTree`]), for
//! two-player zero-sum games with hidden information, chance and
//! simultaneous moves that are small enough to enumerate.
//!
//! Each iteration walks the whole tree once per player (alternating
//! updates): the player's counterfactual value of each move, weighted by the
//! chance that the opponent and chance reach the node, updates its
//! cumulative regrets, which are floored at 0 (the "+"); the current
//! strategy plays each move in proportion to its positive regret. The
//! average of the current strategies, iteration t weighted by t, converges
//! to an equilibrium; its exploitability
//! ([`exploitability`](super::best_response::exploitability)) says how far
//! it still is.

use smallvec::SmallVec;

use super::infotree::{InfoTree, Strategy, TreeNode};

/// The state of a CFR+ run on one tree.
pub struct CfrPlus<'t, M> {
    tree: &'t InfoTree<M>,
    /// Cumulative regrets, floored at 0, per move of every information set.
    regrets: Vec<f64>,
    /// The strategy of the current iteration.
    current: Vec<f64>,
    /// Each move's weighted probability, summed over iterations.
    average: Vec<f64>,
    /// The iteration in which each information set last added to `average`.
    averaged: Vec<u64>,
    iterations: u64,
}

impl<'t, M> CfrPlus<'t, M> {
    /// A run starting from the uniform strategy.
    pub fn new(tree: &'t InfoTree<M>) -> Self {
        CfrPlus {
            tree,
            regrets: vec![0.0; tree.actions],
            current: tree.uniform().probs,
            average: vec![0.0; tree.actions],
            averaged: vec![0; tree.infosets.len()],
            iterations: 0,
        }
    }

    /// Iterations run so far.
    pub fn iterations(&self) -> u64 {
        self.iterations
    }

    /// Runs `n` more iterations.
    pub fn run(&mut self, n: u64) {
        for _ in 0..n {
            self.iterations += 1;
            for player in 0..2 {
                self.walk(0, player, 1.0, 1.0);
                self.update_current(player);
            }
        }
    }

    /// The average strategy: what converges to an equilibrium. An
    /// information set never reached by its own player's choices keeps the
    /// uniform strategy.
    pub fn average(&self) -> Strategy {
        self.tree.strategy(|set| {
            let sums = &self.average[set.offset..set.offset + set.moves.len()];
            let total: f64 = sums.iter().sum();
            if total > 0.0 {
                sums.iter().map(|s| s / total).collect()
            } else {
                vec![1.0 / sums.len() as f64; sums.len()]
            }
        })
    }

    /// The strategy of the last iteration.
    pub fn current(&self) -> Strategy {
        Strategy {
            probs: self.current.clone(),
        }
    }

    /// Player `player`'s counterfactual utility at node `n`, reached with
    /// probability `mine` by its own choices and `others` by chance and the
    /// opponent; updates the player's regrets and average strategy.
    fn walk(&mut self, n: u32, player: usize, mine: f64, others: f64) -> f64 {
        if mine == 0.0 && others == 0.0 {
            return 0.0;
        }
        let tree = self.tree;
        match tree.nodes[n as usize] {
            TreeNode::Terminal { value } => {
                if player == 0 {
                    value
                } else {
                    -value
                }
            }
            TreeNode::Chance { first, len } => {
                let mut v = 0.0;
                for (i, &c) in tree.node_children(first, len).iter().enumerate() {
                    let p = tree.probs[first as usize + i];
                    v += p * self.walk(c, player, mine, others * p);
                }
                v
            }
            TreeNode::Decision {
                player: q,
                infoset,
                first,
                len,
            } => {
                let offset = tree.infosets[infoset as usize].offset;
                let children = tree.node_children(first, len);
                if q as usize != player {
                    // Moves the opponent never plays are walked too: below
                    // them the player's own reach still counts for its average.
                    let mut v = 0.0;
                    for (i, &c) in children.iter().enumerate() {
                        let p = self.current[offset + i];
                        v += p * self.walk(c, player, mine, others * p);
                    }
                    return v;
                }
                let mut values: SmallVec<[f64; 8]> = SmallVec::with_capacity(children.len());
                let mut v = 0.0;
                for (i, &c) in children.iter().enumerate() {
                    let p = self.current[offset + i];
                    let u = self.walk(c, player, mine * p, others);
                    values.push(u);
                    v += p * u;
                }
                for (i, u) in values.iter().enumerate() {
                    self.regrets[offset + i] += others * (u - v);
                }
                // The average weighs each information set by the player's own
                // reach, once per iteration however many of its histories
                // are walked (all share that reach, by perfect recall).
                if self.averaged[infoset as usize] != self.iterations {
                    self.averaged[infoset as usize] = self.iterations;
                    let weight = self.iterations as f64 * mine;
                    for i in 0..children.len() {
                        self.average[offset + i] += weight * self.current[offset + i];
                    }
                }
                v
            }
        }
    }

    /// Floors `player`'s regrets at 0 and plays in proportion to them.
    fn update_current(&mut self, player: usize) {
        for set in &self.tree.infosets {
            if set.player != player {
                continue;
            }
            let range = set.offset..set.offset + set.moves.len();
            let regrets = &mut self.regrets[range.clone()];
            for r in regrets.iter_mut() {
                *r = r.max(0.0);
            }
            let total: f64 = regrets.iter().sum();
            let current = &mut self.current[range];
            if total > 0.0 {
                for (c, r) in current.iter_mut().zip(regrets.iter()) {
                    *c = r / total;
                }
            } else {
                current.fill(1.0 / set.moves.len() as f64);
            }
        }
    }
}
