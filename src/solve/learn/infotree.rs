//! `InfoTree`: the whole game tree of a small two-player zero-sum game with
//! hidden information, enumerated once, with each decision node assigned to
//! an information set. CFR and the exact best response run on it without
//! calling the game again.
//!
//! # Information sets
//!
//! A player's information set is what the player knows when choosing: the
//! sequence of what it observed at each of its own earlier decisions, the
//! move it made there, and what it observes now (`Game::observation`). Two
//! histories with the same sequence are indistinguishable to the player.
//! Keying by the whole sequence gives perfect recall even when an
//! observation forgets (the interpreter's observation shows the position as
//! it stands, not how it came about), and it is exactly what an agent can
//! rebuild while playing, from the states it is asked to move in.
//!
//! A simultaneous node becomes player 0's decision followed by player 1's,
//! where player 1's information set does not include player 0's choice.
//!
//! Every node of an information set must offer the same moves: a player
//! cannot choose among moves it does not know it has. A game where the
//! observation does not determine the legal moves is refused.

use crate::solve::exact::solve_error::SolveKind;
use rustc_hash::FxHashMap;

use crate::game::{Game, GameError, Player, Turn, no_legal_move};
use crate::solve::exact::expectimax::check_probabilities;
use crate::solve::exact::solve_error::SolveError;

/// The default limit on tree nodes: a few hundred megabytes at most.
pub const DEFAULT_MAX_NODES: u64 = 20_000_000;

/// A node of the tree. Children are `children[first..first + len]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum TreeNode {
    /// Player 0's utility, shifted so that the game is zero-sum.
    Terminal { value: f64 },
    /// Chance; the outcomes' probabilities are `probs[first..first + len]`.
    Chance { first: u32, len: u32 },
    /// `player` chooses in information set `infoset`; the children follow
    /// the information set's moves in order.
    Decision {
        player: u8,
        infoset: u32,
        first: u32,
        len: u32,
    },
}

/// An information set: a player, the moves it chooses among, and what it
/// knows (observations and its own moves, alternating, ending with an
/// observation).
#[derive(Clone, Debug, PartialEq)]
pub struct InfoSet<M> {
    pub player: Player,
    pub moves: Vec<M>,
    /// Observation, move, observation, ..., observation: as text.
    pub history: Vec<String>,
    /// Where its moves start in a flat array of all information sets' moves.
    pub(crate) offset: usize,
}

/// The enumerated tree of a game.
#[derive(Clone, Debug)]
pub struct InfoTree<M> {
    pub(crate) nodes: Vec<TreeNode>,
    pub(crate) children: Vec<u32>,
    pub(crate) probs: Vec<f64>,
    pub infosets: Vec<InfoSet<M>>,
    /// Moves over all information sets: the length of a flat strategy.
    pub(crate) actions: usize,
    /// The sum of both players' returns at every terminal node (0 for a
    /// zero-sum game); values are reported with half of it added back.
    pub(crate) constant: f64,
    /// Decision nodes of each player.
    pub decisions: [u64; 2],
    pub terminals: u64,
}

/// A strategy for both players: for each information set, a probability
/// per move (flat, in the tree's order).
#[derive(Clone, Debug, PartialEq)]
pub struct Strategy {
    pub(crate) probs: Vec<f64>,
}

impl<M: Clone> InfoTree<M> {
    /// Enumerates the tree of `game` from `root`. Fails when the game is not
    /// for two players, not zero-sum (or constant-sum), bigger than
    /// `max_nodes`, or when an observation does not determine the moves.
    pub fn build<G: Game<Move = M>>(game: &G, root: &G::State, max_nodes: u64) -> Result<Self, SolveError> {
        crate::solve::exact::line::no_repetition_rule(game, "counterfactual regret minimization")?;
        if game.num_players() != 2 {
            return Err(SolveError::NotApplicable {
                message: format!(
                    "{} has {} players; CFR here solves two-player zero-sum games",
                    game.name(),
                    game.num_players()
                ),
                help: "use a search agent (`gdl match --players search,...`) for games of more players".into(),
            });
        }
        let mut b = Builder {
            game,
            max_nodes,
            tree: InfoTree {
                nodes: Vec::new(),
                children: Vec::new(),
                probs: Vec::new(),
                infosets: Vec::new(),
                actions: 0,
                constant: f64::NAN,
                decisions: [0, 0],
                terminals: 0,
            },
            observations: FxHashMap::default(),
            observation_texts: Vec::new(),
            infoset_ids: FxHashMap::default(),
            paths: [Vec::new(), Vec::new()],
            depth: 0,
        };
        b.visit(root)?;
        let mut tree = b.tree;
        // Shift to zero-sum: both players' utilities become ±(r0 - c/2).
        let half = tree.constant / 2.0;
        for n in &mut tree.nodes {
            if let TreeNode::Terminal { value } = n {
                *value -= half;
            }
        }
        Ok(tree)
    }
}

/// A lower bound on the number of nodes of the tree from `root`, found at
/// once: the nodes of one line (the first choice everywhere) and every
/// child of each. (The product of the branching factors along that line,
/// used before, is no bound: where the first choice leaves the most
/// choices, as the lowest bid does in Liar's dice, it overestimated the
/// tree a millionfold.) A game whose bound is already beyond reach is
/// refused before any time is spent building its tree.
pub fn size_lower_bound<G: Game>(game: &G, root: &G::State) -> Result<f64, SolveError> {
    let mut state = root.clone();
    let mut bound = 1.0f64;
    let mut moves = Vec::new();
    let mut outcomes = Vec::new();
    for _ in 0..crate::solve::DEFAULT_MAX_DEPTH {
        match game.turn(&state)? {
            Turn::Terminal => break,
            Turn::Chance => {
                game.chance_outcomes(&state, &mut outcomes)?;
                let Some((first, _)) = outcomes.first() else { break };
                bound += outcomes.len() as f64;
                let first = first.clone();
                game.apply(&mut state, &first)?;
            }
            Turn::Player(_) => {
                game.legal_moves(&state, &mut moves)?;
                let Some(first) = moves.first().cloned() else { break };
                bound += moves.len() as f64;
                game.apply(&mut state, &first)?;
            }
            Turn::Simultaneous => {
                let [rows, cols] = crate::solve::exact::simultaneous::stage_moves(game, &state)?;
                bound += (rows.len() * cols.len()) as f64;
                game.apply_joint(&mut state, &[rows[0].clone(), cols[0].clone()])?;
            }
        }
    }
    Ok(bound)
}

impl<M> InfoTree<M> {
    /// Nodes in the tree.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Player 0's utility as the game states it, from the shifted value.
    pub(crate) fn reported(&self, value: f64) -> f64 {
        value + self.constant / 2.0
    }

    /// Each player uniformly at random.
    pub fn uniform(&self) -> Strategy {
        let mut probs = vec![0.0; self.actions];
        for set in &self.infosets {
            let p = 1.0 / set.moves.len() as f64;
            probs[set.offset..set.offset + set.moves.len()].fill(p);
        }
        Strategy { probs }
    }

    /// A strategy from a function giving each information set's probabilities.
    pub fn strategy(&self, mut f: impl FnMut(&InfoSet<M>) -> Vec<f64>) -> Strategy {
        let mut probs = vec![0.0; self.actions];
        for set in &self.infosets {
            let p = f(set);
            assert_eq!(p.len(), set.moves.len(), "one probability per move");
            probs[set.offset..set.offset + p.len()].copy_from_slice(&p);
        }
        Strategy { probs }
    }

    pub(crate) fn node_children(&self, first: u32, len: u32) -> &[u32] {
        &self.children[first as usize..(first + len) as usize]
    }
}

impl Strategy {
    /// The probabilities of an information set's moves.
    pub fn of<'s, M>(&'s self, set: &InfoSet<M>) -> &'s [f64] {
        &self.probs[set.offset..set.offset + set.moves.len()]
    }
}

struct Builder<'g, G: Game> {
    game: &'g G,
    max_nodes: u64,
    tree: InfoTree<G::Move>,
    /// Observation texts, numbered, and by number.
    observations: FxHashMap<String, u32>,
    observation_texts: Vec<String>,
    /// (player, observations and moves as numbers) → information set.
    infoset_ids: FxHashMap<(u8, Vec<u32>), u32>,
    /// Each player's history on the current line: observation numbers and
    /// move indices, alternating.
    paths: [Vec<u32>; 2],
    depth: usize,
}

impl<G: Game> Builder<'_, G> {
    fn new_node(&mut self, node: TreeNode) -> Result<u32, SolveError> {
        if self.tree.nodes.len() as u64 >= self.max_nodes {
            return Err(SolveError::Budget {
                what: "nodes",
                limit: self.max_nodes.to_string(),
                nodes: self.tree.nodes.len() as u64,
            });
        }
        self.tree.nodes.push(node);
        Ok(self.tree.nodes.len() as u32 - 1)
    }

    /// Reserves `len` child slots; returns where they start.
    fn reserve(&mut self, len: usize) -> u32 {
        let first = self.tree.children.len();
        self.tree.children.resize(first + len, 0);
        first as u32
    }

    fn visit(&mut self, state: &G::State) -> Result<u32, SolveError> {
        self.depth += 1;
        if self.depth > crate::solve::DEFAULT_MAX_DEPTH {
            return Err(SolveError::TooDeep {
                depth: crate::solve::DEFAULT_MAX_DEPTH,
                position: self.game.state_text(state),
            });
        }
        let r = self.visit_inner(state);
        self.depth -= 1;
        r
    }

    fn visit_inner(&mut self, state: &G::State) -> Result<u32, SolveError> {
        let game = self.game;
        match game.turn(state)? {
            Turn::Terminal => {
                let r0 = game.returns(state, 0)?;
                let r1 = game.returns(state, 1)?;
                let sum = r0 + r1;
                if self.tree.constant.is_nan() {
                    self.tree.constant = sum;
                } else if (sum - self.tree.constant).abs() > 1e-9 * (1.0 + sum.abs()) {
                    return Err(SolveError::NotApplicable {
                        message: format!(
                            "{} is not zero-sum: the returns add up to {} in one end and {sum} in `{}`",
                            game.name(),
                            self.tree.constant,
                            game.state_text(state)
                        ),
                        help: "CFR here solves two-player games where one player's gain is the other's loss".into(),
                    });
                }
                if !r0.is_finite() {
                    return Err(GameError::new(SolveKind::Nan, "the game's utility is not a number")
                        .in_state(game.state_text(state))
                        .into());
                }
                self.tree.terminals += 1;
                self.new_node(TreeNode::Terminal { value: r0 })
            }
            Turn::Chance => {
                let mut outcomes = Vec::new();
                game.chance_outcomes(state, &mut outcomes)?;
                check_probabilities(game, state, &outcomes)?;
                let first = self.reserve(outcomes.len());
                let id = self.new_node(TreeNode::Chance {
                    first,
                    len: outcomes.len() as u32,
                })?;
                self.tree.probs.resize(self.tree.children.len(), 0.0);
                for (i, (m, p)) in outcomes.iter().enumerate() {
                    let mut child = state.clone();
                    game.apply(&mut child, m)?;
                    let c = self.visit(&child)?;
                    self.tree.children[first as usize + i] = c;
                    self.tree.probs[first as usize + i] = *p;
                }
                Ok(id)
            }
            Turn::Player(p) if p < 2 => {
                let mut moves = Vec::new();
                game.legal_moves(state, &mut moves)?;
                let (id, infoset, first) = self.decision(state, p, moves)?;
                for i in 0..self.tree.infosets[infoset as usize].moves.len() {
                    let mut child = state.clone();
                    game.apply(&mut child, &self.tree.infosets[infoset as usize].moves[i])?;
                    self.paths[p].push(i as u32);
                    let c = self.visit(&child);
                    self.paths[p].pop();
                    self.tree.children[first as usize + i] = c?;
                }
                self.paths[p].pop();
                Ok(id)
            }
            Turn::Player(p) => Err(SolveError::Inconsistent(format!(
                "player {p} is to move in `{}`, but the game has two players",
                game.state_text(state)
            ))),
            Turn::Simultaneous => {
                let [rows, cols] = crate::solve::exact::simultaneous::stage_moves(game, state)?;
                let (id, set0, first0) = self.decision(state, 0, rows)?;
                let n0 = self.tree.infosets[set0 as usize].moves.len();
                // Player 1's observation is taken once: it does not see player 0's choice.
                let obs1 = self.observe(state, 1);
                for i in 0..n0 {
                    self.paths[0].push(i as u32);
                    self.paths[1].push(obs1);
                    let r = self.second_mover(state, i, set0, cols.clone());
                    self.paths[1].pop();
                    self.paths[0].pop();
                    self.tree.children[first0 as usize + i] = r?;
                }
                self.paths[0].pop();
                Ok(id)
            }
        }
    }

    /// Player 1's decision at a simultaneous node, after player 0's `i`-th move.
    fn second_mover(&mut self, state: &G::State, i: usize, set0: u32, cols: Vec<G::Move>) -> Result<u32, SolveError> {
        let key = (1u8, self.paths[1].clone());
        let set1 = self.infoset(state, 1, key, cols)?;
        let n1 = self.tree.infosets[set1 as usize].moves.len();
        let first = self.reserve(n1);
        let id = self.new_node(TreeNode::Decision {
            player: 1,
            infoset: set1,
            first,
            len: n1 as u32,
        })?;
        self.tree.decisions[1] += 1;
        for j in 0..n1 {
            let mut child = state.clone();
            let joint = [
                self.tree.infosets[set0 as usize].moves[i].clone(),
                self.tree.infosets[set1 as usize].moves[j].clone(),
            ];
            self.game.apply_joint(&mut child, &joint)?;
            self.paths[1].push(j as u32);
            let c = self.visit(&child);
            self.paths[1].pop();
            self.tree.children[first as usize + j] = c?;
        }
        Ok(id)
    }

    /// The number of `player`'s observation of `state`.
    fn observe(&mut self, state: &G::State, player: Player) -> u32 {
        let text = self.game.observation(state, player);
        if let Some(&n) = self.observations.get(&text) {
            return n;
        }
        let n = self.observation_texts.len() as u32;
        self.observation_texts.push(text.clone());
        self.observations.insert(text, n);
        n
    }

    /// A decision node of `player` at `state`: pushes the player's
    /// observation on its path (the caller pops it) and reserves the
    /// children. Returns the node, its information set and where its
    /// children start.
    fn decision(
        &mut self,
        state: &G::State,
        player: Player,
        moves: Vec<G::Move>,
    ) -> Result<(u32, u32, u32), SolveError> {
        let obs = self.observe(state, player);
        self.paths[player].push(obs);
        let key = (player as u8, self.paths[player].clone());
        let set = self.infoset(state, player, key, moves)?;
        let n = self.tree.infosets[set as usize].moves.len();
        let first = self.reserve(n);
        let id = self.new_node(TreeNode::Decision {
            player: player as u8,
            infoset: set,
            first,
            len: n as u32,
        })?;
        self.tree.decisions[player] += 1;
        Ok((id, set, first))
    }

    /// The information set for `key`, made on first sight; its moves must
    /// be `moves` every time.
    fn infoset(
        &mut self,
        state: &G::State,
        player: Player,
        key: (u8, Vec<u32>),
        moves: Vec<G::Move>,
    ) -> Result<u32, SolveError> {
        let game = self.game;
        if moves.is_empty() {
            return Err(no_legal_move(game, state).into());
        }
        if let Some(&id) = self.infoset_ids.get(&key) {
            let set = &self.tree.infosets[id as usize];
            if set.moves != moves {
                let text = |ms: &[G::Move]| ms.iter().map(|m| game.move_text(m)).collect::<Vec<_>>().join(", ");
                return Err(SolveError::NotApplicable {
                    message: format!(
                        "{} sees the same in two positions with different moves ({} and {}); \
                         the last time at `{}`",
                        game.player_name(player),
                        text(&set.moves),
                        text(&moves),
                        game.state_text(state)
                    ),
                    help: "a player's observation must show everything its legal moves depend on \
                           (make that part of the state visible to it)"
                        .into(),
                });
            }
            return Ok(id);
        }
        let id = self.tree.infosets.len() as u32;
        let history = self.history_text(player, &key.1);
        let offset = self.tree.actions;
        self.tree.actions += moves.len();
        self.tree.infosets.push(InfoSet {
            player,
            moves,
            history,
            offset,
        });
        self.infoset_ids.insert(key, id);
        Ok(id)
    }

    /// The history of a key as text: observations, and the moves of the
    /// information sets along the way.
    fn history_text(&self, player: Player, key: &[u32]) -> Vec<String> {
        let mut out = Vec::with_capacity(key.len());
        for (k, &token) in key.iter().enumerate() {
            if k % 2 == 0 {
                out.push(self.observation_texts[token as usize].clone());
            } else {
                // The move's information set is the one keyed by the prefix.
                let prefix = (player as u8, key[..k].to_vec());
                let set = self.infoset_ids[&prefix];
                out.push(
                    self.game
                        .move_text(&self.tree.infosets[set as usize].moves[token as usize]),
                );
            }
        }
        out
    }
}
