//! The search tree and one search: selection, expansion, playout,
//! backpropagation, and the bounds of MCTS-Solver.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rustc_hash::FxHashMap;

use super::{Backup, MctsConfig, REGRET_EXPLORATION, SimultaneousSelect};

mod parallel;
mod result;
mod reuse;
mod simultaneous;
use crate::error_kind::RuntimeKind;
use crate::game::{Game, GameError, Player, Repetitions, Turn};
use crate::memory;
use crate::solve::agents::move_budget::Clock;
use crate::solve::agents::simulate::{MAX_PLAYOUT_PLIES, Scratch, play_at_random, random_step, sample_chance};

/// No node (an index that is never one).
const NONE: u32 = u32::MAX;

/// Who acts at a node, once a simulation has been there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Unknown,
    Player(u32),
    Chance,
    Simultaneous,
    Terminal,
}

/// Where a walk down the tree stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Leaf {
    /// At the end of the game (or a position proven elsewhere): the
    /// returns are in `ret`, and prove what they can.
    Ended,
    /// At a proven node below chance or simultaneous moves: its value is in `ret`.
    Valued,
    /// A new leaf, or the tree is full: a playout from `state` gives the returns.
    Playout,
}

/// One node of the arena. Its children are the `block` nodes created
/// together when it was expanded (contiguous from `first_child`: all the
/// legal moves of the position), then those added later (a move legal only
/// in some worlds, a chance outcome, a joint move), linked from `extra`
/// through `next_sibling`.
#[derive(Clone, Debug)]
struct Node<M> {
    /// The move from the parent (`None` at the root and below a
    /// simultaneous node, whose children are keyed by `joint`).
    mv: Option<M>,
    /// Below a simultaneous node: where the joint move starts in `joints`.
    joint: u32,
    parent: u32,
    first_child: u32,
    block: u32,
    extra: u32,
    next_sibling: u32,
    /// A simultaneous node's decoupled statistics: the head of its list in `stats`.
    stats: u32,
    visits: u32,
    /// How many times the node's move was legal when its parent was visited
    /// (the parent's visits, with perfect information).
    avail: u32,
    kind: Kind,
    /// Bounds on player 0's return under optimal play (MCTS-Solver).
    lo: f64,
    hi: f64,
    /// Implicit minimax: player 0's heuristic value of the node (the
    /// game's `evaluate` at a leaf, max and min of the children's above),
    /// NaN until a simulation reaches it.
    heur: f64,
}

/// One player's statistics for one of its moves at a simultaneous node.
#[derive(Clone, Debug)]
struct MoveStat<M> {
    mv: M,
    player: u32,
    next: u32,
    visits: u32,
    avail: u32,
    sum: f64,
    /// Regret matching: the cumulative regret of not playing the move, and
    /// the cumulative probability the strategy gave it (the average strategy).
    regret: f64,
    strategy: f64,
}

/// A move drawn by regret matching at a simultaneous node, for the update
/// of the regrets once the simulation's returns are known.
#[derive(Clone, Copy, Debug)]
struct RegretDraw {
    stat: u32,
    /// The probability it was drawn with (exploration included).
    probability: f64,
    /// The statistics of every move the player could play there, as a
    /// range of `rm_avail`.
    start: u32,
    end: u32,
}

/// A root move as the search saw it.
#[derive(Clone, Debug, PartialEq)]
pub struct RootMove<M> {
    pub mv: M,
    pub visits: u64,
    /// The sum of the mover's returns over the simulations through the move.
    pub total: f64,
    /// Bounds on player 0's return after the move (equal: proven).
    pub lo: f64,
    pub hi: f64,
    /// The most visited line after the move, as text.
    pub line: Vec<String>,
    /// At a simultaneous root searched by regret matching, the weight of
    /// the move in the average strategy (else its visits).
    pub strategy: f64,
}

impl<M> RootMove<M> {
    /// The mover's mean return through the move (0 unvisited).
    pub fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            self.total / self.visits as f64
        }
    }

    /// Player 0's return after the move, when it is proven.
    pub fn proven(&self) -> Option<f64> {
        (self.lo == self.hi).then_some(self.lo)
    }
}

/// What one move's search found.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsResult<M> {
    /// The player who chooses at the root.
    pub player: Player,
    pub moves: Vec<RootMove<M>>,
    pub simulations: u64,
    /// Nodes in the tree (all threads together).
    pub nodes: usize,
    /// Bounds on player 0's return at the root (equal: proven).
    pub lo: f64,
    pub hi: f64,
    /// Whether proofs were sought (two players, zero-sum, perfect information, turns).
    pub solving: bool,
    /// Whether the tree stopped growing at its cap.
    pub full: bool,
    /// The two players' returns add up to this at every end seen (for
    /// proofs: player 1's value is this less player 0's).
    pub zero_sum: f64,
}

impl<M: Clone> MctsResult<M> {
    /// Player 0's return at the root, when it is proven.
    pub fn proven(&self) -> Option<f64> {
        (self.solving && self.lo == self.hi).then_some(self.lo)
    }

    /// Adds another search's statistics of the same root (root parallelism).
    pub fn merge(&mut self, other: MctsResult<M>)
    where
        M: PartialEq,
    {
        self.simulations += other.simulations;
        self.nodes += other.nodes;
        self.full |= other.full;
        self.solving &= other.solving;
        for o in other.moves {
            match self.moves.iter_mut().find(|m| m.mv == o.mv) {
                Some(m) => {
                    if o.visits > m.visits {
                        m.line = o.line;
                    }
                    m.visits += o.visits;
                    m.total += o.total;
                    m.strategy += o.strategy;
                    // Both are true bounds: so is their intersection.
                    m.lo = m.lo.max(o.lo);
                    m.hi = m.hi.min(o.hi);
                }
                None => self.moves.push(o),
            }
        }
        self.lo = self.lo.max(other.lo);
        self.hi = self.hi.min(other.hi);
    }

    /// The move to play: a proven best move first, then the most visited
    /// among those not proven worse than another; ties drawn by `rng`.
    pub fn best<R: Rng + ?Sized>(&self, rng: &mut R) -> usize {
        let maximizes = self.player == 0;
        let keep: Vec<usize> = match self.proven() {
            Some(v) => (0..self.moves.len())
                .filter(|&i| self.moves[i].proven() == Some(v))
                .collect(),
            None if self.solving => (0..self.moves.len())
                .filter(|&i| {
                    let m = &self.moves[i];
                    if maximizes { m.hi >= self.lo } else { m.lo <= self.hi }
                })
                .collect(),
            None => (0..self.moves.len()).collect(),
        };
        let keep = if keep.is_empty() {
            (0..self.moves.len()).collect()
        } else {
            keep
        };
        let most = keep.iter().map(|&i| self.moves[i].visits).max().unwrap_or(0);
        let tied: Vec<usize> = keep.into_iter().filter(|&i| self.moves[i].visits == most).collect();
        tied[rng.random_range(0..tied.len())]
    }
}

/// One search tree, rooted at a position, for one player.
pub struct Search<G: Game> {
    cfg: MctsConfig,
    np: usize,
    player: Player,
    nodes: Vec<Node<G::Move>>,
    /// Every player's summed returns, `np` per node.
    sums: Vec<f64>,
    joints: Vec<G::Move>,
    stats: Vec<MoveStat<G::Move>>,
    root_state: G::State,
    /// Each simulation draws the hidden part of the position anew.
    determinized: bool,
    /// Proofs are sought (and still valid: the returns were zero-sum so far).
    solving: bool,
    /// Implicit minimax backups are kept (see `MctsConfig::minimax`).
    implicit: bool,
    /// The sum of the two players' returns at every end seen.
    zero_sum: Option<f64>,
    /// Bounds on player 0's return before anything is known.
    range: (f64, f64),
    /// The lowest and highest return seen, to scale means to 0..1.
    seen: (f64, f64),
    full: bool,
    simulations: u64,
    /// Proven values (player 0's) of positions, shared by every node of the
    /// same position: the tree has no transpositions, the proofs do.
    proofs: FxHashMap<G::State, f64>,
    /// N of the game's rule `end when repeated N`, if it has one. A node of
    /// the tree is a line of play from the root, so whether the rule ends
    /// the game there is settled when the node is reached (see `line`).
    repeated: Option<u32>,
    /// Under a repetition rule: the game's positions before the root, then
    /// (during a simulation) the root's and each one the walk down reached.
    history: Vec<G::State>,
    line: Vec<G::State>,
    rng: StdRng,
    // Buffers reused by every simulation.
    scratch: Scratch<G::Move>,
    state: G::State,
    moves: Vec<G::Move>,
    path: Vec<u32>,
    /// The position at each node of `path` (while proofs are sought).
    path_states: Vec<G::State>,
    probe: G::State,
    chosen: Vec<u32>,
    /// Regret matching's draws in this simulation, and the statistics of
    /// the moves each was drawn among.
    rm_chosen: Vec<RegretDraw>,
    rm_avail: Vec<u32>,
    avail: Vec<u32>,
    joint: Vec<G::Move>,
    ret: Vec<f64>,
}

impl<G: Game> Search<G> {
    /// A tree with only its root, `state`, searched for `player`.
    pub fn new(game: &G, state: &G::State, player: Player, cfg: MctsConfig, seed: u64) -> Result<Self, GameError> {
        let np = game.num_players();
        let mut rng = StdRng::seed_from_u64(seed);
        // Hidden information shows as a drawn world that differs from the
        // position given; a few draws tell (Kuhn poker's first move fools
        // one draw in two).
        let mut determinized = false;
        for _ in 0..32 {
            if game.sample_hidden(state, player, &mut rng)? != *state {
                determinized = true;
                break;
            }
        }
        // Players who see different things hold something private, even
        // where drawing cannot vary it (a card kept in an `int`): a proof
        // in the true world would not be one in the player's.
        let private = (0..np).any(|q| game.observation(state, q) != game.observation(state, player));
        let range = match cfg.backup {
            Backup::Outcome => (-1.0, 1.0),
            Backup::Returns => game.utility_range().unwrap_or((f64::NEG_INFINITY, f64::INFINITY)),
            Backup::Score => (f64::NEG_INFINITY, f64::INFINITY),
        };
        let mut search = Search {
            np,
            player,
            nodes: Vec::new(),
            sums: Vec::new(),
            joints: Vec::new(),
            stats: Vec::new(),
            root_state: state.clone(),
            determinized,
            // Scores need not sum to a constant: nothing to prove by. Under
            // a repetition rule a position's value depends on the line that
            // reached it, so proofs could not be shared between nodes.
            solving: cfg.solver
                && np == 2
                && !determinized
                && !private
                && cfg.backup != Backup::Score
                && game.repetition().is_none(),
            implicit: cfg.minimax > 0.0 && np == 2 && !determinized && !private && game.evaluate(state, 0)?.is_some(),
            zero_sum: None,
            range,
            seen: (f64::INFINITY, f64::NEG_INFINITY),
            full: false,
            simulations: 0,
            proofs: FxHashMap::default(),
            repeated: game.repetition(),
            history: Vec::new(),
            line: Vec::new(),
            rng,
            scratch: Scratch::default(),
            state: state.clone(),
            moves: Vec::new(),
            path: Vec::new(),
            path_states: Vec::new(),
            probe: state.clone(),
            chosen: Vec::new(),
            rm_chosen: Vec::new(),
            rm_avail: Vec::new(),
            avail: Vec::new(),
            joint: Vec::new(),
            ret: vec![0.0; np],
            cfg,
        };
        search.push_node(None, NONE, NONE);
        Ok(search)
    }

    /// The game's positions before the root, the first one first, for a
    /// game with a repetition rule (ignored without one).
    pub fn set_history(&mut self, history: &[G::State]) {
        if self.repeated.is_some() {
            self.history.clear();
            self.history.extend_from_slice(history);
        }
    }

    /// Runs simulations until the budget is spent or the root is proven.
    pub fn run(&mut self, game: &G) -> Result<(), GameError> {
        let clock = Clock::start(self.cfg.simulations, self.cfg.time).stopped_by(self.cfg.stop);
        let mut done = 0u64;
        while clock.go_on(done) {
            if self.root_proven() {
                break;
            }
            if done.is_multiple_of(256) && memory::exceeded() {
                self.full = true;
            }
            self.simulate(game)?;
            done += 1;
        }
        Ok(())
    }

    /// Whether the root's value is proven.
    pub fn root_proven(&self) -> bool {
        self.solving && self.nodes[0].lo == self.nodes[0].hi
    }

    /// Simulations run in this tree since its root was set.
    pub fn simulations(&self) -> u64 {
        self.simulations
    }

    fn proven(&self, n: usize) -> bool {
        self.solving && self.nodes[n].lo == self.nodes[n].hi
    }

    fn push_node(&mut self, mv: Option<G::Move>, joint: u32, parent: u32) -> u32 {
        let i = self.nodes.len() as u32;
        self.nodes.push(Node {
            mv,
            joint,
            parent,
            first_child: NONE,
            block: 0,
            extra: NONE,
            next_sibling: NONE,
            stats: NONE,
            visits: 0,
            avail: 0,
            kind: Kind::Unknown,
            lo: self.range.0,
            hi: self.range.1,
            heur: f64::NAN,
        });
        self.sums.extend(std::iter::repeat_n(0.0, self.np));
        i
    }

    /// Whether `extra` more nodes (and `stats` more statistics, `joints`
    /// more joint moves) fit under the caps; once they do not, the tree is
    /// full for good.
    fn can_grow(&mut self, extra: usize, stats: usize, joints: usize) -> bool {
        if self.full {
            return false;
        }
        if self.nodes.len() + extra > self.cfg.max_nodes {
            self.full = true;
            return false;
        }
        // The vectors double when they grow: ask for the new blocks first.
        fn growth<T>(v: &Vec<T>, extra: usize) -> usize {
            if v.len() + extra > v.capacity() {
                v.capacity().max(extra).max(4) * 2 * size_of::<T>()
            } else {
                0
            }
        }
        let need = growth(&self.nodes, extra)
            + growth(&self.sums, extra * self.np)
            + growth(&self.stats, stats)
            + growth(&self.joints, joints);
        if need > 0 && !memory::fits(need) {
            self.full = true;
            return false;
        }
        true
    }

    /// One simulation: down the tree, one expansion, a playout, and back up.
    fn simulate(&mut self, game: &G) -> Result<(), GameError> {
        let (node, leaf) = self.descend(game)?;
        let ended = match leaf {
            Leaf::Ended => true,
            Leaf::Valued => false,
            Leaf::Playout => {
                self.value_leaf(game, node)?;
                self.playout(game)?;
                false
            }
        };
        self.backup(node, ended);
        Ok(())
    }

    /// Down the tree from a world drawn anew, choosing and expanding, into
    /// `path` and `state`: the last node, and what is left to do there.
    pub(super) fn descend(&mut self, game: &G) -> Result<(u32, Leaf), GameError> {
        if self.determinized {
            self.state = game.sample_hidden(&self.root_state, self.player, &mut self.rng)?;
        } else {
            self.state.clone_from(&self.root_state);
        }
        self.path.clear();
        self.chosen.clear();
        self.rm_chosen.clear();
        self.rm_avail.clear();
        self.path.push(0);
        if self.repeated.is_some() {
            self.line.clone_from(&self.history);
            self.line.push(self.state.clone());
        }
        let mut node = 0u32;
        loop {
            let n = node as usize;
            if self.solving {
                let depth = self.path.len() - 1;
                if self.path_states.len() <= depth {
                    self.path_states.push(self.state.clone());
                } else {
                    self.path_states[depth].clone_from(&self.state);
                }
            }
            let turn = game.turn(&self.state)?;
            if self.nodes[n].kind == Kind::Unknown {
                self.nodes[n].kind = match turn {
                    Turn::Player(p) => Kind::Player(p as u32),
                    Turn::Chance => Kind::Chance,
                    Turn::Simultaneous => Kind::Simultaneous,
                    Turn::Terminal => Kind::Terminal,
                };
            }
            if turn == Turn::Terminal {
                self.end_returns(game)?;
                if self.implicit && self.nodes[n].heur.is_nan() {
                    self.set_heuristic(node, self.ret[0]);
                }
                return Ok((node, Leaf::Ended));
            }
            if self.solving
                && n != 0
                && !self.proven(n)
                && let Some(&v) = self.proofs.get(&self.state)
            {
                // Proven where the same position was met in another branch.
                self.ret[0] = v;
                self.ret[1] = self.zero_sum.unwrap_or(0.0) - v;
                return Ok((node, Leaf::Ended));
            }
            if n != 0 && self.proven(n) {
                // Only a chance or simultaneous parent leads here: a proven
                // node is worth its value.
                self.ret[0] = self.nodes[n].lo;
                self.ret[1] = self.zero_sum.unwrap_or(0.0) - self.nodes[n].lo;
                return Ok((node, Leaf::Valued));
            }
            if n != 0 && self.nodes[n].visits == 0 {
                return Ok((node, Leaf::Playout));
            }
            let next = match turn {
                Turn::Player(p) => self.select_player(game, node, p)?,
                Turn::Chance => self.select_chance(game, node)?,
                Turn::Simultaneous => self.select_joint(game, node)?,
                Turn::Terminal => unreachable!("handled above"),
            };
            match next {
                Some(child) => {
                    node = child;
                    self.path.push(child);
                    if self.end_if_repeated(game)? {
                        // A game that cannot mark the state over: the rule's returns.
                        repetition_returns(game, &self.cfg, &self.state, &mut self.ret)?;
                        return Ok((node, Leaf::Ended));
                    }
                }
                // The tree is full: play out from where the moves led.
                None => return Ok((node, Leaf::Playout)),
            }
        }
    }

    /// Implicit minimax, where a walk down stopped at `node` before its
    /// playout: the game's `evaluate` of the position (its value, once the
    /// game is over) becomes the node's heuristic value, and the nodes above
    /// take the max or min of their children's known values, as far up as
    /// they change.
    pub(super) fn value_leaf(&mut self, game: &G, node: u32) -> Result<(), GameError> {
        if !self.implicit || !self.nodes[node as usize].heur.is_nan() {
            return Ok(());
        }
        let Some(h) = game.evaluate(&self.state, 0)? else {
            return Ok(());
        };
        self.set_heuristic(node, h);
        Ok(())
    }

    /// Sets `node`'s heuristic value and carries it up the path.
    fn set_heuristic(&mut self, node: u32, h: f64) {
        self.nodes[node as usize].heur = h;
        let Some(at) = self.path.iter().rposition(|&n| n == node) else {
            return;
        };
        for depth in (0..at).rev() {
            let a = self.path[depth] as usize;
            let Kind::Player(p) = self.nodes[a].kind else {
                break;
            };
            let (first, count) = (self.nodes[a].first_child as usize, self.nodes[a].block as usize);
            let known = self.nodes[first..first + count]
                .iter()
                .map(|c| c.heur)
                .filter(|h| !h.is_nan());
            let best = if p == 0 {
                known.fold(f64::NEG_INFINITY, f64::max)
            } else {
                known.fold(f64::INFINITY, f64::min)
            };
            if best == self.nodes[a].heur || !best.is_finite() {
                break;
            }
            self.nodes[a].heur = best;
        }
    }

    /// Under a repetition rule, after a step of the walk down: the new
    /// position joins the line, and where it occurred N − 1 times before,
    /// the rule ends the game there. The state is marked over where the
    /// game can mark it (`turn` then says so); true where it cannot, and
    /// the rule's returns stand for the end.
    fn end_if_repeated(&mut self, game: &G) -> Result<bool, GameError> {
        let Some(times) = self.repeated else {
            return Ok(false);
        };
        let before = self.line.iter().filter(|s| **s == self.state).count();
        self.line.push(self.state.clone());
        Ok(before + 1 >= times as usize && !game.end_by_repetition(&mut self.state))
    }

    /// Adds the returns in `ret` along `path` (and to the moves chosen at
    /// simultaneous nodes), and proves what an end of the game proves.
    pub(super) fn backup(&mut self, node: u32, ended: bool) {
        for p in 0..self.np {
            let r = self.ret[p];
            self.seen.0 = self.seen.0.min(r);
            self.seen.1 = self.seen.1.max(r);
        }
        for &n in &self.path {
            let n = n as usize;
            self.nodes[n].visits += 1;
            for p in 0..self.np {
                self.sums[n * self.np + p] += self.ret[p];
            }
        }
        for &s in &self.chosen {
            let stat = &mut self.stats[s as usize];
            stat.visits += 1;
            stat.sum += self.ret[stat.player as usize];
        }
        for k in 0..self.rm_chosen.len() {
            // The sampled reward estimate: u / q for the move drawn, 0 for
            // the others; each move's regret grows by its estimate less u.
            let draw = self.rm_chosen[k];
            let p = self.stats[draw.stat as usize].player as usize;
            let u = self.unit(self.ret[p]);
            for i in draw.start..draw.end {
                let s = self.rm_avail[i as usize] as usize;
                self.stats[s].regret -= u;
            }
            self.stats[draw.stat as usize].regret += u / draw.probability;
        }
        if ended && self.solving {
            self.prove_end(node as usize);
        }
        self.simulations += 1;
    }

    /// A node's value became known (the end of the game, or a position
    /// proven before): the bounds of the nodes above it tighten as far as
    /// they can, and each position proven is remembered.
    fn prove_end(&mut self, n: usize) {
        let sum = self.ret[0] + self.ret[1];
        match self.zero_sum {
            None => self.zero_sum = Some(sum),
            Some(z) if (z - sum).abs() > 1e-9 => {
                // Not zero-sum: max and min of player 0's return would be wrong.
                self.solving = false;
                return;
            }
            Some(_) => {}
        }
        if self.nodes[n].lo == self.ret[0] && self.nodes[n].hi == self.ret[0] {
            return;
        }
        self.nodes[n].lo = self.ret[0];
        self.nodes[n].hi = self.ret[0];
        if self.path.len() > 1 {
            self.tighten(self.path.len() - 2);
        }
    }

    /// Recomputes the bounds of `path[depth]` from its children, and of the
    /// nodes above it while they change; each position proven is remembered.
    fn tighten(&mut self, mut depth: usize) {
        loop {
            let a = self.path[depth] as usize;
            let Some((mut lo, mut hi)) = self.bounds_from_children(a) else {
                break;
            };
            if depth > 0 {
                // Both are true bounds; a position proven elsewhere keeps its value.
                lo = lo.max(self.nodes[a].lo);
                hi = hi.min(self.nodes[a].hi);
            }
            if lo == self.nodes[a].lo && hi == self.nodes[a].hi {
                break;
            }
            self.nodes[a].lo = lo;
            self.nodes[a].hi = hi;
            if lo == hi {
                self.remember(depth, lo);
            }
            if depth == 0 {
                break;
            }
            depth -= 1;
        }
    }

    /// A player's node's bounds as its children's say (max or min of
    /// theirs); `None` for other nodes and those not expanded. At the root
    /// only these are kept, so that a proven root always has a child
    /// proven to reach its value.
    fn bounds_from_children(&self, a: usize) -> Option<(f64, f64)> {
        let node = &self.nodes[a];
        let Kind::Player(p) = node.kind else {
            return None;
        };
        if node.block == 0 {
            return None;
        }
        let (first, count) = (node.first_child as usize, node.block as usize);
        let children = &self.nodes[first..first + count];
        Some(if p == 0 {
            children
                .iter()
                .fold((f64::NEG_INFINITY, f64::NEG_INFINITY), |(l, h), c| {
                    (l.max(c.lo), h.max(c.hi))
                })
        } else {
            children
                .iter()
                .fold((f64::INFINITY, f64::INFINITY), |(l, h), c| (l.min(c.lo), h.min(c.hi)))
        })
    }

    /// After an expansion, while proofs are sought: the children that end
    /// the game are proven at once, so that a win one move away is seen
    /// the first time its parent is (the usual check of MCTS-Solver).
    fn prove_children(&mut self, game: &G, node: usize) -> Result<(), GameError> {
        let (first, count) = (self.nodes[node].first_child as usize, self.nodes[node].block as usize);
        let mut any = false;
        for c in first..first + count {
            self.probe.clone_from(&self.state);
            let mv = self.nodes[c].mv.as_ref().expect("a child has a move");
            game.apply(&mut self.probe, mv)?;
            if game.turn(&self.probe)? != Turn::Terminal {
                continue;
            }
            let (mut r0, mut r1) = (game.returns(&self.probe, 0)?, game.returns(&self.probe, 1)?);
            if self.cfg.backup == Backup::Outcome {
                (r0, r1) = ((r0 - r1).signum(), (r1 - r0).signum());
                // signum(0.0) is 1: a tie is a draw.
                if r0 == r1 {
                    (r0, r1) = (0.0, 0.0);
                }
            }
            match self.zero_sum {
                None => self.zero_sum = Some(r0 + r1),
                Some(z) if (z - r0 - r1).abs() > 1e-9 => {
                    self.solving = false;
                    return Ok(());
                }
                Some(_) => {}
            }
            self.nodes[c].kind = Kind::Terminal;
            self.nodes[c].lo = r0;
            self.nodes[c].hi = r0;
            any = true;
        }
        if any {
            self.tighten(self.path.len() - 1);
        }
        Ok(())
    }

    /// Remembers the value of the position at `path[depth]`, if it fits.
    fn remember(&mut self, depth: usize, value: f64) {
        let slot = size_of::<(G::State, f64)>() + 1;
        let need = if self.proofs.len() == self.proofs.capacity() {
            self.proofs.capacity().max(4) * 2 * slot
        } else {
            0
        };
        if self.full || (need > 0 && !memory::fits(need)) {
            return;
        }
        self.proofs.insert(self.path_states[depth].clone(), value);
    }

    /// The mean of `sum` over `visits`, scaled to 0..1 by the returns seen.
    fn scaled(&self, sum: f64, visits: u32) -> f64 {
        self.unit(sum / f64::from(visits))
    }

    /// A return scaled to 0..1 by the returns seen.
    fn unit(&self, r: f64) -> f64 {
        let (lo, hi) = self.seen;
        if hi > lo { (r - lo) / (hi - lo) } else { 0.5 }
    }

    /// The children of `node`, in order: the block, then the later ones.
    fn child_after(&self, node: usize, prev: u32) -> u32 {
        let nd = &self.nodes[node];
        let block_end = nd.first_child.wrapping_add(nd.block);
        if prev == NONE {
            return if nd.block > 0 { nd.first_child } else { nd.extra };
        }
        if nd.block > 0 && prev >= nd.first_child && prev < block_end {
            return if prev + 1 < block_end { prev + 1 } else { nd.extra };
        }
        self.nodes[prev as usize].next_sibling
    }

    fn find_child(&self, node: usize, mv: &G::Move) -> u32 {
        let mut c = self.child_after(node, NONE);
        while c != NONE {
            if self.nodes[c as usize].mv.as_ref() == Some(mv) {
                return c;
            }
            c = self.child_after(node, c);
        }
        NONE
    }

    /// Adds a child after the block, in the list of later ones.
    fn push_extra(&mut self, node: u32, mv: Option<G::Move>, joint: u32) -> u32 {
        let c = self.push_node(mv, joint, node);
        let n = node as usize;
        self.nodes[c as usize].next_sibling = self.nodes[n].extra;
        self.nodes[n].extra = c;
        c
    }

    /// At a node where `p` moves: UCB1 among the moves legal here, the
    /// move played on the state; `None` when the tree could not grow.
    fn select_player(&mut self, game: &G, node: u32, p: Player) -> Result<Option<u32>, GameError> {
        let n = node as usize;
        let expanded = self.nodes[n].block > 0 || self.nodes[n].extra != NONE;
        // With perfect information an expanded node's children are its
        // legal moves, in order: they need not be listed again.
        if !expanded || self.determinized {
            game.legal_moves(&self.state, &mut self.moves)?;
            if self.moves.is_empty() {
                return Err(GameError::new(
                    RuntimeKind::NoMoves,
                    format!("{} has no legal move", game.player_name(p)),
                )
                .in_state(game.state_text(&self.state)));
            }
        }
        self.avail.clear();
        if !expanded {
            if !self.can_grow(self.moves.len(), 0, 0) {
                return Ok(None);
            }
            let first = self.nodes.len() as u32;
            for i in 0..self.moves.len() {
                let mv = self.moves[i].clone();
                self.push_node(Some(mv), NONE, node);
            }
            self.nodes[n].first_child = first;
            self.nodes[n].block = self.moves.len() as u32;
            if self.solving {
                self.prove_children(game, n)?;
            }
        }
        if self.determinized {
            // The moves legal in this world: children found by move, and
            // added when this world is the first to allow one.
            for i in 0..self.moves.len() {
                let mut c = self.find_child(n, &self.moves[i]);
                if c == NONE {
                    if !self.can_grow(1, 0, 0) {
                        continue;
                    }
                    c = self.push_extra(node, Some(self.moves[i].clone()), NONE);
                }
                self.avail.push(c);
            }
            if self.avail.is_empty() {
                return Ok(None);
            }
        } else {
            let first = self.nodes[n].first_child;
            self.avail.extend(first..first + self.nodes[n].block);
        }
        let prune = self.solving && p < 2;
        let (node_lo, node_hi) = (self.nodes[n].lo, self.nodes[n].hi);
        let log_scale = self.cfg.exploration;
        let mut best = NONE;
        let mut best_score = f64::NEG_INFINITY;
        let mut unvisited = 0u32;
        let mut first_open = NONE;
        for k in 0..self.avail.len() {
            let c = self.avail[k];
            let ci = c as usize;
            self.nodes[ci].avail += 1;
            let child = &self.nodes[ci];
            // A child that cannot change the node's value is not sampled again.
            if prune
                && if p == 0 {
                    child.hi <= node_lo
                } else {
                    child.lo >= node_hi
                }
            {
                continue;
            }
            if first_open == NONE {
                first_open = c;
            }
            if child.visits == 0 {
                unvisited += 1;
                if self.rng.random_range(0..unvisited) == 0 {
                    best = c;
                }
                continue;
            }
            if unvisited > 0 {
                continue;
            }
            let (visits, avail) = (child.visits, child.avail);
            let mut mean = self.scaled(self.sums[ci * self.np + p], visits);
            if self.implicit && !child.heur.is_nan() {
                let h = if p == 0 {
                    child.heur
                } else {
                    self.zero_sum.unwrap_or(0.0) - child.heur
                };
                mean = (1.0 - self.cfg.minimax) * mean + self.cfg.minimax * self.unit(h);
            }
            let score = mean + log_scale * (f64::from(avail).ln() / f64::from(visits)).sqrt();
            if score > best_score {
                best_score = score;
                best = c;
            }
        }
        if best == NONE {
            // Every move is pruned (the node is proven by now): any will do.
            best = if first_open != NONE { first_open } else { self.avail[0] };
        }
        let mv = self.nodes[best as usize].mv.clone().expect("a child has a move");
        game.apply(&mut self.state, &mv)?;
        Ok(Some(best))
    }

    /// At a chance node: an outcome drawn by its probability.
    fn select_chance(&mut self, game: &G, node: u32) -> Result<Option<u32>, GameError> {
        let mv = sample_chance(game, &self.state, &mut self.rng, &mut self.scratch)?;
        game.apply(&mut self.state, &mv)?;
        let mut c = self.find_child(node as usize, &mv);
        if c == NONE {
            if !self.can_grow(1, 0, 0) {
                return Ok(None);
            }
            c = self.push_extra(node, Some(mv), NONE);
        }
        self.nodes[c as usize].avail += 1;
        Ok(Some(c))
    }

    /// Random play from the state to the end, or to the cutoff where the
    /// game's `evaluate` scores the position; the returns in `ret`.
    fn playout(&mut self, game: &G) -> Result<(), GameError> {
        let line = self.repeated.map(|_| self.line.as_slice());
        playout(
            game,
            &self.cfg,
            &mut self.state,
            line,
            &mut self.rng,
            &mut self.scratch,
            &mut self.ret,
        )
    }

    /// Every player's return at the end of the game (the state) into
    /// `ret`, as the backup asks.
    fn end_returns(&mut self, game: &G) -> Result<(), GameError> {
        end_returns(game, &self.cfg, &self.state, &mut self.ret)
    }
}

/// Random play from `state` to the end, or to the cutoff where the game's
/// `evaluate` scores the position; the returns in `ret`. Apart from the
/// tree, so that threads sharing one tree play out on their own. `line`:
/// under a repetition rule, the positions of the game up to `state` (the
/// last), which the playout goes on counting.
pub(super) fn playout<G: Game>(
    game: &G,
    cfg: &MctsConfig,
    state: &mut G::State,
    line: Option<&[G::State]>,
    rng: &mut StdRng,
    scratch: &mut Scratch<G::Move>,
    ret: &mut [f64],
) -> Result<(), GameError> {
    let mut seen = match (line, Repetitions::of(game)) {
        (Some(line), Some(mut seen)) => {
            seen.resume(line);
            Some(seen)
        }
        _ => None,
    };
    // Random moves, at most `limit`; true when the game ended. Under a
    // repetition rule one at a time, each position counted; a game that
    // cannot mark a state over by the rule ends with the rule's returns
    // in `ret` (`Some(true)` from `play`).
    let mut by_rule = false;
    let mut play = |state: &mut G::State, limit: usize| -> Result<bool, GameError> {
        match &mut seen {
            None => play_at_random(game, state, rng, scratch, limit),
            Some(seen) => {
                for _ in 0..limit {
                    if !random_step(game, state, rng, scratch)? {
                        return Ok(true);
                    }
                    if seen.push(state) && !game.end_by_repetition(state) {
                        by_rule = true;
                        return Ok(true);
                    }
                }
                Ok(game.turn(state)? == Turn::Terminal)
            }
        }
    };
    // To the cutoff, where `evaluate` may score the position (not the end
    // of the game), then on to the end.
    let mut left = MAX_PLAYOUT_PLIES;
    let mut ended = false;
    if let Some(cutoff) = cfg.cutoff.filter(|&c| c < MAX_PLAYOUT_PLIES) {
        ended = play(state, cutoff)?;
        if !ended {
            if game.turn(state)? != Turn::Terminal && evaluated(game, state, ret)? {
                return Ok(());
            }
            left -= cutoff;
        }
    }
    if ended || play(state, left)? {
        return match by_rule {
            true => repetition_returns(game, cfg, state, ret),
            false => end_returns(game, cfg, state, ret),
        };
    }
    Err(GameError::new(
        RuntimeKind::Endless,
        format!("a game ran {MAX_PLAYOUT_PLIES} moves without ending"),
    )
    .in_state(game.state_text(state))
    .with_help("check that every `end when` clause can become true"))
}

/// Every player's `evaluate` of `state` into `ret`; false when the game
/// gives none.
fn evaluated<G: Game>(game: &G, state: &G::State, ret: &mut [f64]) -> Result<bool, GameError> {
    for (p, r) in ret.iter_mut().enumerate() {
        match game.evaluate(state, p)? {
            Some(v) => *r = v,
            None => return Ok(false),
        }
    }
    Ok(true)
}

/// Every player's return where the repetition rule ends the game in
/// `state`, for a game that cannot mark a state over (`Game::end_by_repetition`),
/// into `ret` as the backup asks (a game without scores backs up its
/// returns for `Backup::Score`).
fn repetition_returns<G: Game>(game: &G, cfg: &MctsConfig, state: &G::State, ret: &mut [f64]) -> Result<(), GameError> {
    for (p, r) in ret.iter_mut().enumerate() {
        *r = game.repetition_returns(state, p)?;
    }
    if cfg.backup == Backup::Outcome {
        outcomes(ret);
    }
    Ok(())
}

/// Every player's return at the end of the game into `ret`, as the backup asks.
fn end_returns<G: Game>(game: &G, cfg: &MctsConfig, state: &G::State, ret: &mut [f64]) -> Result<(), GameError> {
    if cfg.backup == Backup::Score
        && let Some(scores) = game.scores(state)?
    {
        let sign = if game.lowest_score_wins() { -1.0 } else { 1.0 };
        for (r, s) in ret.iter_mut().zip(scores) {
            *r = sign * s;
        }
        if cfg.win_bonus != 0.0 && ret.len() > 1 {
            with_outcomes(ret, |score, won| score + cfg.win_bonus * won);
        }
        return Ok(());
    }
    for (p, r) in ret.iter_mut().enumerate() {
        *r = game.returns(state, p)?;
    }
    if cfg.backup == Backup::Outcome && ret.len() > 1 {
        outcomes(ret);
    }
    Ok(())
}

/// Each player's return replaced by its outcome against the others: +1
/// above all of them, 0 tied with the best of them, -1 below.
fn outcomes(ret: &mut [f64]) {
    with_outcomes(ret, |_, won| won);
}

/// Each player's return replaced by `f(return, outcome)`, the outcome
/// against the others as [`outcomes`] gives it, in place.
fn with_outcomes(ret: &mut [f64], f: impl Fn(f64, f64) -> f64) {
    let mut best = [f64::NEG_INFINITY; 2];
    let mut who = usize::MAX;
    // The highest return and its player, and the highest of the rest.
    for (p, &r) in ret.iter().enumerate() {
        if r > best[0] {
            best[1] = best[0];
            best[0] = r;
            who = p;
        } else if r > best[1] {
            best[1] = r;
        }
    }
    for (p, r) in ret.iter_mut().enumerate() {
        let others = if p == who { best[1] } else { best[0] };
        let won = if *r > others {
            1.0
        } else if *r == others {
            0.0
        } else {
            -1.0
        };
        *r = f(*r, won);
    }
}

/// Marks a parent index in `reroot`'s queue as one of whose later children this is.
const EXTRA_FLAG: u32 = 1 << 31;

#[cfg(test)]
mod tests {
    use super::outcomes;

    #[test]
    fn outcomes_are_wins_draws_and_losses_against_the_best_other() {
        let cases: [(&[f64], &[f64]); 5] = [
            (&[5.0, -5.0], &[1.0, -1.0]),
            (&[0.0, 0.0], &[0.0, 0.0]),
            // Tied at the top: both draw; below them: a loss.
            (&[3.0, 3.0, 1.0], &[0.0, 0.0, -1.0]),
            (&[2.0, 7.0, 4.0], &[-1.0, 1.0, -1.0]),
            (&[-1.0, -4.0, -2.0, -1.5], &[1.0, -1.0, -1.0, -1.0]),
        ];
        for (ret, want) in cases {
            let mut got = ret.to_vec();
            outcomes(&mut got);
            assert_eq!(got, want, "{ret:?}");
        }
    }
}
