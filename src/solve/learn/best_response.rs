//! The exact best response to a fixed strategy, on an enumerated game tree
//! ([`InfoTree`]), and the exploitability it measures.
//!
//! The responder picks, in each of its information sets, the move with the
//! highest expected value summed over the set's histories, each weighted by
//! the chance that the opponent and chance reach it (the responder's own
//! choices are the ones being decided). Under perfect recall, the
//! information sets below a choice are decided before it, so one pass
//! suffices (as OpenSpiel's `TabularBestResponse`).

use super::infotree::{InfoTree, Strategy, TreeNode};
use crate::game::Player;

/// Ties within this are broken towards the first move.
const TIE: f64 = 1e-12;

/// A best response of one player.
#[derive(Clone, Debug, PartialEq)]
pub struct BestResponse {
    pub player: Player,
    /// The responder's expected utility, as the game states it.
    pub value: f64,
    /// The move (index into the information set's moves) chosen in each of
    /// the responder's information sets; `None` for the other player's.
    pub choices: Vec<Option<usize>>,
}

/// How far a strategy profile is from an equilibrium.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Exploitability {
    /// Player 0's expected utility when both play the profile.
    pub value: f64,
    /// Each player's utility when it best-responds to the other's strategy.
    pub best_responses: [f64; 2],
    /// What the two best responses gain over the profile, added: 0 exactly
    /// at an equilibrium.
    pub nash_conv: f64,
    /// `nash_conv / 2`, OpenSpiel's "exploitability": what a best response
    /// gains on average over the two seats.
    pub exploitability: f64,
}

/// Player 0's expected utility when both players follow `strategy`.
pub fn expected_value<M>(tree: &InfoTree<M>, strategy: &Strategy) -> f64 {
    let mut values = vec![0.0; tree.len()];
    // Children have larger numbers than their parents: go backwards.
    for n in (0..tree.len()).rev() {
        values[n] = match tree.nodes[n] {
            TreeNode::Terminal { value } => value,
            TreeNode::Chance { first, len } => tree
                .node_children(first, len)
                .iter()
                .zip(&tree.probs[first as usize..])
                .map(|(&c, p)| p * values[c as usize])
                .sum(),
            TreeNode::Decision {
                infoset, first, len, ..
            } => {
                let probs = strategy.of(&tree.infosets[infoset as usize]);
                tree.node_children(first, len)
                    .iter()
                    .zip(probs)
                    .map(|(&c, p)| p * values[c as usize])
                    .sum()
            }
        };
    }
    tree.reported(values[0])
}

/// `player`'s best response to the other player's part of `strategy`.
pub fn best_response<M>(tree: &InfoTree<M>, strategy: &Strategy, player: Player) -> BestResponse {
    let mut reach = vec![0.0; tree.len()];
    reach[0] = 1.0;
    let mut members: Vec<Vec<u32>> = vec![Vec::new(); tree.infosets.len()];
    for n in 0..tree.len() {
        match tree.nodes[n] {
            TreeNode::Terminal { .. } => {}
            TreeNode::Chance { first, len } => {
                for (i, &c) in tree.node_children(first, len).iter().enumerate() {
                    reach[c as usize] = reach[n] * tree.probs[first as usize + i];
                }
            }
            TreeNode::Decision {
                player: q,
                infoset,
                first,
                len,
            } => {
                let mine = q as usize == player;
                if mine {
                    members[infoset as usize].push(n as u32);
                }
                let probs = strategy.of(&tree.infosets[infoset as usize]);
                for (i, &c) in tree.node_children(first, len).iter().enumerate() {
                    reach[c as usize] = if mine { reach[n] } else { reach[n] * probs[i] };
                }
            }
        }
    }
    let mut br = Responder {
        tree,
        strategy,
        player,
        reach,
        members,
        values: vec![f64::NAN; tree.len()],
        choices: vec![None; tree.infosets.len()],
    };
    let v = br.value(0);
    // The responder's utility on the game's own scale: player 1's internal
    // utility is the negation of player 0's shifted one.
    let value = tree.reported(v);
    // Information sets the recursion never needed (below moves it does not
    // choose) get their best move too, for a complete strategy.
    for set in 0..tree.infosets.len() {
        if tree.infosets[set].player == player && br.choices[set].is_none() {
            br.choose(set);
        }
    }
    BestResponse {
        player,
        value,
        choices: br.choices,
    }
}

/// The best responses to `strategy` and what they gain.
pub fn exploitability<M>(tree: &InfoTree<M>, strategy: &Strategy) -> Exploitability {
    let value = expected_value(tree, strategy);
    let br = [best_response(tree, strategy, 0), best_response(tree, strategy, 1)];
    // Internally zero-sum: the gains add to the sum of the best responses'
    // shifted values.
    let shift = tree.reported(0.0);
    let nash_conv = (br[0].value - shift) + (br[1].value - shift);
    Exploitability {
        value,
        best_responses: [br[0].value, br[1].value],
        nash_conv,
        exploitability: nash_conv / 2.0,
    }
}

struct Responder<'a, M> {
    tree: &'a InfoTree<M>,
    strategy: &'a Strategy,
    player: Player,
    /// The chance that chance and the opponent reach each node.
    reach: Vec<f64>,
    /// The responder's decision nodes of each information set.
    members: Vec<Vec<u32>>,
    /// The responder's utility at each node (internal, zero-sum scale).
    values: Vec<f64>,
    choices: Vec<Option<usize>>,
}

impl<M> Responder<'_, M> {
    fn value(&mut self, n: usize) -> f64 {
        if !self.values[n].is_nan() {
            return self.values[n];
        }
        let tree = self.tree;
        let v = match tree.nodes[n] {
            TreeNode::Terminal { value } => {
                if self.player == 0 {
                    value
                } else {
                    -value
                }
            }
            TreeNode::Chance { first, len } => {
                let mut sum = 0.0;
                for (i, &c) in tree.node_children(first, len).iter().enumerate() {
                    sum += tree.probs[first as usize + i] * self.value(c as usize);
                }
                sum
            }
            TreeNode::Decision {
                player: q,
                infoset,
                first,
                len,
            } => {
                let children = tree.node_children(first, len);
                if q as usize == self.player {
                    let a = self.choose(infoset as usize);
                    self.value(children[a] as usize)
                } else {
                    let mut sum = 0.0;
                    for (i, &c) in children.iter().enumerate() {
                        let p = self.strategy.of(&tree.infosets[infoset as usize])[i];
                        if p > 0.0 {
                            sum += p * self.value(c as usize);
                        }
                    }
                    sum
                }
            }
        };
        self.values[n] = v;
        v
    }

    /// The best move of one of the responder's information sets.
    fn choose(&mut self, set: usize) -> usize {
        if let Some(a) = self.choices[set] {
            return a;
        }
        let tree = self.tree;
        let moves = tree.infosets[set].moves.len();
        let mut totals = vec![0.0; moves];
        for k in 0..self.members[set].len() {
            let h = self.members[set][k] as usize;
            let TreeNode::Decision { first, len, .. } = tree.nodes[h] else {
                unreachable!("members are decision nodes")
            };
            let weight = self.reach[h];
            for (a, &c) in tree.node_children(first, len).iter().enumerate() {
                totals[a] += weight * self.value(c as usize);
            }
        }
        let mut best = 0;
        for a in 1..moves {
            if totals[a] > totals[best] + TIE {
                best = a;
            }
        }
        self.choices[set] = Some(best);
        best
    }
}
