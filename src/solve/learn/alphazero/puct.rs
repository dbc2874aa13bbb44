//! PUCT search guided by the network (AlphaZero's): from a position, each
//! simulation walks down the tree by `Q + c·P·√N / (1 + n)`, evaluates the
//! position it reaches with the network (or by the rules at the end of the
//! game), and backs the value up. Values are kept for player 0 and read
//! from the side of whoever moves at each node, so a player who moves twice
//! in a row (Kalah's extra turn) is handled as any other move.
//!
//! For two-player, zero-sum games taken in turns, without chance or hidden
//! information (the trainer and the agent refuse others).

use rand::Rng;

use super::net::{Net, Trace, masked_softmax};
use crate::game::{Game, GameError, Player, RuntimeKind, Turn, no_legal_move};
use crate::solve::agents::move_budget::Clock;

/// How the search explores.
#[derive(Clone, Copy, Debug)]
pub struct PuctConfig {
    /// The weight of the prior against the values found.
    pub c_puct: f32,
    /// Dirichlet noise mixed into the root's priors (self-play only): its
    /// concentration and its share.
    pub noise: Option<(f32, f32)>,
}

impl Default for PuctConfig {
    fn default() -> Self {
        PuctConfig {
            c_puct: 1.5,
            noise: None,
        }
    }
}

struct Node<S> {
    state: S,
    /// Who moves here; `None` at the end of the game.
    mover: Option<Player>,
    /// The node's edges: `edges[first..first + count]`; none until expanded.
    first: u32,
    count: u32,
    expanded: bool,
    /// At the end of the game: player 0's utility, within [-1, 1].
    terminal: f32,
}

struct Edge<M> {
    mv: M,
    action: u32,
    prior: f32,
    visits: u32,
    /// The sum of the values backed up through this edge, for the player
    /// who moves at its parent.
    total: f32,
    /// The node it leads to; `u32::MAX` until visited.
    child: u32,
}

/// What a search of a position found at its root.
#[derive(Clone, Debug)]
pub struct RootStats<M> {
    /// Each legal move, its action number and how often it was visited, in
    /// the game's order of moves.
    pub moves: Vec<(M, u32, u32)>,
    /// The root's value for the player to move, by the network.
    pub value: f32,
    /// The mean value of the most visited move, for the player to move.
    pub best_value: f32,
    pub simulations: u64,
}

impl<M: Clone> RootStats<M> {
    /// The most visited move (ties to the first in the game's order).
    pub fn best(&self) -> usize {
        let mut best = 0;
        for (k, m) in self.moves.iter().enumerate() {
            if m.2 > self.moves[best].2 {
                best = k;
            }
        }
        best
    }
}

/// The search's tree and buffers, reused from move to move.
pub struct Puct<'a, G: Game> {
    game: &'a G,
    net: &'a Net,
    config: PuctConfig,
    nodes: Vec<Node<G::State>>,
    edges: Vec<Edge<G::Move>>,
    moves: Vec<G::Move>,
    obs: Vec<f32>,
    trace: Trace,
    legal: Vec<u32>,
}

/// A utility as a value within [-1, 1]: a win, a loss or a draw, whatever
/// margin the game counts.
fn clamp_utility(u: f64) -> f32 {
    (u as f32).clamp(-1.0, 1.0)
}

impl<'a, G: Game> Puct<'a, G> {
    pub fn new(game: &'a G, net: &'a Net, config: PuctConfig) -> Self {
        Puct {
            game,
            net,
            config,
            nodes: Vec::new(),
            edges: Vec::new(),
            moves: Vec::new(),
            obs: Vec::new(),
            trace: Trace::default(),
            legal: Vec::new(),
        }
    }

    /// Searches `state` (where `mover` is to move) until `clock` says stop.
    pub fn search(
        &mut self,
        state: &G::State,
        clock: &Clock,
        rng: &mut impl Rng,
    ) -> Result<RootStats<G::Move>, GameError> {
        self.nodes.clear();
        self.edges.clear();
        self.add_node(state.clone())?;
        let root_value = self.expand(0)?;
        if self.nodes[0].mover.is_none() {
            return Err(GameError::new(
                RuntimeKind::Internal,
                "a search of a finished game (a bug in gdl)",
            ));
        }
        if let Some((alpha, share)) = self.config.noise {
            let (first, count) = (self.nodes[0].first as usize, self.nodes[0].count as usize);
            let noise = dirichlet(alpha, count, rng);
            for (e, n) in self.edges[first..first + count].iter_mut().zip(noise) {
                e.prior = (1.0 - share) * e.prior + share * n;
            }
        }
        let mut done = 0u64;
        let mut path: Vec<u32> = Vec::new();
        while clock.go_on(done) {
            self.simulate(&mut path)?;
            done += 1;
        }
        let root = &self.nodes[0];
        let mover = root.mover.unwrap_or(0);
        let edges = &self.edges[root.first as usize..(root.first + root.count) as usize];
        let moves: Vec<(G::Move, u32, u32)> = edges.iter().map(|e| (e.mv.clone(), e.action, e.visits)).collect();
        let mut stats = RootStats {
            moves,
            value: side(root_value, mover),
            best_value: 0.0,
            simulations: done,
        };
        let best = &edges[stats.best()];
        stats.best_value = if best.visits > 0 {
            best.total / best.visits as f32
        } else {
            stats.value
        };
        Ok(stats)
    }

    fn add_node(&mut self, state: G::State) -> Result<u32, GameError> {
        let (mover, terminal) = match self.game.turn(&state)? {
            Turn::Player(p) => (Some(p), 0.0),
            Turn::Terminal => (None, clamp_utility(self.game.returns(&state, 0)?)),
            Turn::Chance | Turn::Simultaneous => {
                return Err(GameError::new(
                    RuntimeKind::Internal,
                    format!(
                        "{} has chance or simultaneous moves, which `az` agents do not search",
                        self.game.name()
                    ),
                ));
            }
        };
        self.nodes.push(Node {
            state,
            mover,
            first: 0,
            count: 0,
            expanded: false,
            terminal,
        });
        Ok((self.nodes.len() - 1) as u32)
    }

    /// Evaluates node `n`: by the rules at the end of the game, else by the
    /// network, whose priors become the node's edges. Player 0's value.
    fn expand(&mut self, n: u32) -> Result<f32, GameError> {
        let node = &self.nodes[n as usize];
        let Some(mover) = node.mover else {
            return Ok(node.terminal);
        };
        let (v, first) = evaluate(
            self.game,
            self.net,
            &node.state,
            mover,
            &mut self.moves,
            &mut self.obs,
            &mut self.trace,
            &mut self.legal,
        )?;
        let first_edge = self.edges.len() as u32;
        for ((mv, &action), prior) in self.moves.drain(..).zip(&self.legal).zip(first) {
            self.edges.push(Edge {
                mv,
                action,
                prior,
                visits: 0,
                total: 0.0,
                child: u32::MAX,
            });
        }
        let node = &mut self.nodes[n as usize];
        node.first = first_edge;
        node.count = self.edges.len() as u32 - first_edge;
        node.expanded = true;
        // `evaluate` gives player 0's value already.
        Ok(v)
    }

    /// One simulation: down to a leaf, evaluate it, back the value up.
    fn simulate(&mut self, path: &mut Vec<u32>) -> Result<(), GameError> {
        path.clear();
        let mut n = 0u32;
        let value = loop {
            let node = &self.nodes[n as usize];
            if node.mover.is_none() {
                break node.terminal;
            }
            if !node.expanded {
                break self.expand(n)?;
            }
            let e = self.select(n);
            path.push(e);
            let child = self.edges[e as usize].child;
            if child == u32::MAX {
                let mut state = self.nodes[n as usize].state.clone();
                self.game.apply(&mut state, &self.edges[e as usize].mv)?;
                let c = self.add_node(state)?;
                self.edges[e as usize].child = c;
                n = c;
            } else {
                n = child;
            }
        };
        // The edges of the path, each for the player who moved through it.
        let mut parent = 0u32;
        for &e in path.iter() {
            let mover = self.nodes[parent as usize].mover.unwrap_or(0);
            let edge = &mut self.edges[e as usize];
            edge.visits += 1;
            edge.total += side(value, mover);
            parent = edge.child;
        }
        Ok(())
    }

    /// The edge of node `n` with the highest `Q + U` for its mover.
    fn select(&self, n: u32) -> u32 {
        let node = &self.nodes[n as usize];
        let edges = &self.edges[node.first as usize..(node.first + node.count) as usize];
        let visits: u32 = edges.iter().map(|e| e.visits).sum();
        let sqrt = (visits.max(1) as f32).sqrt();
        let mut best = 0;
        let mut best_score = f32::NEG_INFINITY;
        for (k, e) in edges.iter().enumerate() {
            let q = if e.visits > 0 { e.total / e.visits as f32 } else { 0.0 };
            let score = q + self.config.c_puct * e.prior * sqrt / (1.0 + e.visits as f32);
            if score > best_score {
                best_score = score;
                best = k;
            }
        }
        node.first + best as u32
    }
}

/// Player 0's value `v` for `player`: the game is zero-sum between two.
fn side(v: f32, player: Player) -> f32 {
    if player == 0 { v } else { -v }
}

/// The network's view of `state`, where `mover` moves: player 0's value,
/// and the priors of the legal moves (left in `moves`, their action
/// numbers in `legal`).
#[allow(clippy::too_many_arguments)]
pub fn evaluate<G: Game>(
    game: &G,
    net: &Net,
    state: &G::State,
    mover: Player,
    moves: &mut Vec<G::Move>,
    obs: &mut Vec<f32>,
    trace: &mut Trace,
    legal: &mut Vec<u32>,
) -> Result<(f32, Vec<f32>), GameError> {
    game.legal_moves(state, moves)?;
    if moves.is_empty() {
        return Err(no_legal_move(game, state));
    }
    legal.clear();
    for m in moves.iter() {
        let a = game.action_index(m).ok_or_else(|| {
            GameError::new(
                RuntimeKind::Internal,
                format!(
                    "the move {} is outside the numbering of {}'s moves",
                    game.move_text(m),
                    game.name()
                ),
            )
        })?;
        legal.push(a as u32);
    }
    observe(game, state, mover, obs)?;
    net.forward(obs, trace);
    Ok((side(trace.value, mover), masked_softmax(&trace.logits, legal)))
}

/// What `player` sees of `state`, as the network reads it.
pub fn observe<G: Game>(game: &G, state: &G::State, player: Player, obs: &mut Vec<f32>) -> Result<(), GameError> {
    if !game.observe_tensor(state, player, obs)? {
        return Err(GameError::new(
            RuntimeKind::Internal,
            format!("{} gives no observation vector", game.name()),
        ));
    }
    Ok(())
}

/// `count` numbers drawn from a symmetric Dirichlet distribution of
/// concentration `alpha`.
pub fn dirichlet(alpha: f32, count: usize, rng: &mut impl Rng) -> Vec<f32> {
    let mut draws: Vec<f32> = (0..count).map(|_| gamma(f64::from(alpha), rng) as f32).collect();
    let sum: f32 = draws.iter().sum();
    if sum > 0.0 {
        for d in &mut draws {
            *d /= sum;
        }
    } else {
        draws.fill(1.0 / count as f32);
    }
    draws
}

/// A draw from Gamma(`shape`, 1): Marsaglia and Tsang's method, with the
/// boost `U^(1/shape)` below shape 1.
fn gamma(shape: f64, rng: &mut impl Rng) -> f64 {
    if shape < 1.0 {
        let u: f64 = rng.random::<f64>().max(f64::MIN_POSITIVE);
        return gamma(shape + 1.0, rng) * u.powf(1.0 / shape);
    }
    let d = shape - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        let x = normal(rng);
        let v = (1.0 + c * x).powi(3);
        if v <= 0.0 {
            continue;
        }
        let u: f64 = rng.random::<f64>();
        if u < 1.0 - 0.0331 * x.powi(4) || u.max(f64::MIN_POSITIVE).ln() < 0.5 * x * x + d * (1.0 - v + v.ln()) {
            return d * v;
        }
    }
}

/// A standard normal draw (Box-Muller).
fn normal(rng: &mut impl Rng) -> f64 {
    let u1: f64 = rng.random::<f64>().max(f64::MIN_POSITIVE);
    let u2: f64 = rng.random::<f64>();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::super::net::Shape;
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    /// Take 1 or 2 counters from a pile; whoever takes the last wins. The
    /// positions of a multiple of 3 are lost for the player to move.
    #[derive(Clone)]
    pub(crate) struct Take(pub u8);

    impl Game for Take {
        type State = (u8, u8);
        type Move = u8;
        fn name(&self) -> &str {
            "take"
        }
        fn num_players(&self) -> usize {
            2
        }
        fn player_name(&self, p: Player) -> &str {
            ["A", "B"][p]
        }
        fn initial_state(&self) -> Result<(u8, u8), GameError> {
            Ok((self.0, 0))
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
            out.extend((1..=2).filter(|&k| k <= s.0));
            Ok(())
        }
        fn apply(&self, s: &mut (u8, u8), mv: &u8) -> Result<(), GameError> {
            s.0 -= mv;
            s.1 = 1 - s.1;
            Ok(())
        }
        fn returns(&self, s: &(u8, u8), p: Player) -> Result<f64, GameError> {
            // The player to move at the end did not take the last counter.
            Ok(if s.1 as usize == p { -1.0 } else { 1.0 })
        }
        fn move_text(&self, mv: &u8) -> String {
            mv.to_string()
        }
        fn state_text(&self, s: &(u8, u8)) -> String {
            s.0.to_string()
        }
        fn observation_size(&self) -> Option<usize> {
            Some(self.0 as usize + 3)
        }
        fn observe_tensor(&self, s: &(u8, u8), p: Player, out: &mut Vec<f32>) -> Result<bool, GameError> {
            out.clear();
            out.resize(self.0 as usize + 3, 0.0);
            out[p] = 1.0;
            out[2 + s.0 as usize] = 1.0;
            Ok(true)
        }
        fn action_count(&self) -> Option<usize> {
            Some(2)
        }
        fn action_index(&self, mv: &u8) -> Option<usize> {
            Some(*mv as usize - 1)
        }
    }

    pub(crate) fn take_net(game: &Take, seed: u64) -> Net {
        Net::new(
            Shape {
                inputs: game.observation_size().unwrap(),
                hidden: vec![8, 8],
                actions: 2,
            },
            seed,
        )
    }

    #[test]
    fn an_untrained_network_still_finds_the_winning_moves() {
        let game = Take(8);
        let mut rng = StdRng::seed_from_u64(0);
        for seed in 0..4 {
            let net = take_net(&game, seed);
            let mut search = Puct::new(&game, &net, PuctConfig::default());
            // From 4, 5, 7 and 8 counters only one move leaves a multiple
            // of 3; from 2, taking both wins at once.
            for (pile, winning) in [(2, 2), (4, 1), (5, 2), (7, 1), (8, 2)] {
                let stats = search.search(&(pile, 0), &Clock::start(300, None), &mut rng).unwrap();
                let best = &stats.moves[stats.best()];
                assert_eq!(best.0, winning, "pile {pile}, network {seed}: {:?}", stats.moves);
                assert!(stats.best_value > 0.5, "pile {pile}: {}", stats.best_value);
            }
        }
    }

    #[test]
    fn the_root_value_is_the_networks_for_the_player_to_move() {
        // A search of one simulation reads the network at the root and at
        // one child, and tells the root's value for whoever moves there.
        let game = Take(8);
        let net = take_net(&game, 2);
        let mut rng = StdRng::seed_from_u64(0);
        let mut trace = Trace::default();
        let mut obs = Vec::new();
        for mover in [0u8, 1] {
            let state = (8, mover);
            game.observe_tensor(&state, mover as usize, &mut obs).unwrap();
            net.forward(&obs, &mut trace);
            let mut search = Puct::new(&game, &net, PuctConfig::default());
            let stats = search.search(&state, &Clock::start(1, None), &mut rng).unwrap();
            assert!(
                (stats.value - trace.value).abs() < 1e-6,
                "{} against {}",
                stats.value,
                trace.value
            );
            // The child's value, backed up for the root's mover, is the
            // opposite of the network's value for the child's mover.
            let (mv, _, visits) = &stats.moves[stats.best()];
            assert_eq!(*visits, 1);
            let child = (8 - mv, 1 - mover);
            game.observe_tensor(&child, child.1 as usize, &mut obs).unwrap();
            net.forward(&obs, &mut trace);
            assert!(
                (stats.best_value + trace.value).abs() < 1e-6,
                "{} against {}",
                stats.best_value,
                trace.value
            );
        }
    }

    #[test]
    fn dirichlet_draws_sum_to_one() {
        let mut rng = StdRng::seed_from_u64(7);
        for alpha in [0.03, 0.3, 1.0, 3.0] {
            let d = dirichlet(alpha, 9, &mut rng);
            assert!((d.iter().sum::<f32>() - 1.0).abs() < 1e-5);
            assert!(d.iter().all(|x| (0.0..=1.0).contains(x)));
        }
    }
}
