//! AlphaZero-style training: the network plays itself with PUCT search,
//! and learns the search's visit distributions (the policy) and the games'
//! outcomes (the value) from a buffer of the latest positions.
//!
//! Each game of an iteration draws from a seed of its own (the run's seed,
//! the iteration, the game's number) and the samples are gathered in the
//! games' order, so a run gives the same network for any number of threads.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::net::{Adam, Net, Shape, Trace};
use super::puct::{Puct, PuctConfig, observe};
use crate::game::{Game, GameError, Player, RuntimeKind, Turn};
use crate::solve::agents::move_budget::Clock;

/// How a run trains.
#[derive(Clone, Debug)]
pub struct AzSettings {
    /// The hidden layers of a new network.
    pub hidden: Vec<usize>,
    /// Self-play games per iteration.
    pub games: u64,
    /// PUCT simulations per move of self-play.
    pub simulations: u64,
    pub c_puct: f32,
    /// The share of Dirichlet noise in the root's priors.
    pub noise_share: f32,
    /// Moves of each game drawn in proportion to the visits (temperature
    /// 1); the rest play the most visited.
    pub explore_moves: usize,
    pub learning_rate: f32,
    pub weight_decay: f32,
    /// Positions per gradient step.
    pub batch: usize,
    /// How many times, on average, each new position is drawn for a step.
    pub epochs: f32,
    /// The most positions kept for training (the latest).
    pub replay: usize,
    pub seed: u64,
    pub threads: usize,
}

impl Default for AzSettings {
    fn default() -> Self {
        AzSettings {
            hidden: vec![64, 64],
            games: 50,
            simulations: 200,
            c_puct: 1.5,
            noise_share: 0.25,
            explore_moves: 2,
            learning_rate: 0.002,
            weight_decay: 1e-4,
            batch: 64,
            epochs: 4.0,
            replay: 20_000,
            seed: 0,
            threads: 1,
        }
    }
}

/// One position of self-play, as it is learned.
#[derive(Clone, Debug)]
struct Sample {
    obs: Vec<f32>,
    /// The legal moves' action numbers, and the search's share of visits of each.
    legal: Vec<u32>,
    target: Vec<f32>,
    /// The outcome for the player to move, within [-1, 1].
    z: f32,
}

/// What an iteration did.
#[derive(Clone, Debug, Default)]
pub struct IterationStats {
    pub games: u64,
    pub samples: u64,
    pub steps: u64,
    /// Mean losses of the gradient steps: policy cross-entropy, value squared error.
    pub policy_loss: f32,
    pub value_loss: f32,
    /// Player 0's wins, draws, and losses in the self-play games.
    pub first_player: [u64; 3],
}

/// A training run in progress.
pub struct Trainer<'g, G: Game> {
    game: &'g G,
    settings: AzSettings,
    net: Net,
    adam: Adam,
    buffer: VecDeque<Sample>,
    rng: StdRng,
    /// Iterations, games and positions learned from.
    pub iterations: u64,
    pub games: u64,
    pub samples: u64,
}

/// The most moves of one self-play game before it counts as endless.
const MAX_PLIES: usize = 100_000;

impl<'g, G> Trainer<'g, G>
where
    G: Game + Sync,
    G::State: Send,
    G::Move: Send,
{
    /// A run for `game`, from `init` or a new network. The game must give an
    /// observation vector and number its moves (the caller checks that it
    /// is two-player, zero-sum, taken in turns).
    pub fn new(game: &'g G, settings: AzSettings, init: Option<Net>) -> Result<Self, String> {
        let shape = network_shape(game, &settings.hidden)?;
        let net = match init {
            Some(net) if *net.shape() != shape => {
                return Err(format!(
                    "the network to continue from has {} inputs and {} actions; {} has {} and {}",
                    net.shape().inputs,
                    net.shape().actions,
                    game.name(),
                    shape.inputs,
                    shape.actions
                ));
            }
            Some(net) => net,
            None => Net::new(shape, settings.seed),
        };
        Ok(Trainer {
            game,
            adam: Adam::new(net.params().len(), settings.learning_rate, settings.weight_decay),
            net,
            buffer: VecDeque::new(),
            rng: StdRng::seed_from_u64(settings.seed ^ 0x5eed_a1fa),
            settings,
            iterations: 0,
            games: 0,
            samples: 0,
        })
    }

    pub fn net(&self) -> &Net {
        &self.net
    }

    pub fn into_net(self) -> Net {
        self.net
    }

    /// Plays an iteration's games and learns from them; `None` when `stop`
    /// said so first (the network is then as the last iteration left it).
    pub fn iteration(&mut self, stop: &(dyn Fn() -> bool + Sync)) -> Result<Option<IterationStats>, GameError> {
        let games = self.settings.games;
        let next = AtomicU64::new(0);
        let results: Mutex<Vec<(u64, Vec<Sample>, f32)>> = Mutex::new(Vec::new());
        let failure: Mutex<Option<GameError>> = Mutex::new(None);
        let alpha = (10.0 / self.net.shape().actions as f32).clamp(0.03, 1.0);
        let (game, net, settings, iteration) = (self.game, &self.net, &self.settings, self.iterations);
        let threads = settings.threads.max(1).min(games.max(1) as usize);
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|| {
                    loop {
                        let g = next.fetch_add(1, Ordering::SeqCst);
                        if g >= games || stop() || failure.lock().map(|f| f.is_some()).unwrap_or(true) {
                            return;
                        }
                        let seed = game_seed(settings.seed, iteration, g);
                        match self_play(game, net, settings, alpha, seed, stop) {
                            Ok(Some((samples, outcome))) => {
                                if let Ok(mut r) = results.lock() {
                                    r.push((g, samples, outcome));
                                }
                            }
                            Ok(None) => return,
                            Err(e) => {
                                if let Ok(mut f) = failure.lock() {
                                    f.get_or_insert(e);
                                }
                                return;
                            }
                        }
                    }
                });
            }
        });
        if let Some(e) = failure.into_inner().ok().flatten() {
            return Err(e);
        }
        let mut results = results.into_inner().unwrap_or_default();
        if results.len() < games as usize {
            return Ok(None);
        }
        results.sort_by_key(|r| r.0);
        let mut stats = IterationStats {
            games,
            ..IterationStats::default()
        };
        for (_, samples, outcome) in results {
            stats.samples += samples.len() as u64;
            stats.first_player[if outcome > 0.0 {
                0
            } else if outcome == 0.0 {
                1
            } else {
                2
            }] += 1;
            self.buffer.extend(samples);
        }
        while self.buffer.len() > self.settings.replay.max(1) {
            self.buffer.pop_front();
        }
        let batch = self.settings.batch.max(1);
        let steps = ((stats.samples as f32 * self.settings.epochs) / batch as f32).ceil() as u64;
        let mut grad = vec![0.0; self.net.params().len()];
        let mut trace = Trace::default();
        let (mut policy, mut value) = (0.0, 0.0);
        for _ in 0..steps {
            if self.buffer.is_empty() {
                break;
            }
            grad.fill(0.0);
            for _ in 0..batch {
                let s = &self.buffer[self.rng.random_range(0..self.buffer.len())];
                self.net.forward(&s.obs, &mut trace);
                let (p, v) = self.net.backward(&trace, &s.legal, &s.target, s.z, &mut grad);
                policy += p;
                value += v;
            }
            for g in &mut grad {
                *g /= batch as f32;
            }
            self.adam.step(&mut self.net, &grad);
            stats.steps += 1;
        }
        let drawn = (stats.steps * batch as u64).max(1) as f32;
        stats.policy_loss = policy / drawn;
        stats.value_loss = value / drawn;
        self.iterations += 1;
        self.games += stats.games;
        self.samples += stats.samples;
        Ok(Some(stats))
    }
}

/// The shape of a network for `game` with these hidden layers; why there
/// is none, if the game gives no observation vector or numbering of moves.
pub fn network_shape<G: Game>(game: &G, hidden: &[usize]) -> Result<Shape, String> {
    let inputs = game
        .observation_size()
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("{} gives no observation vector for a network to read", game.name()))?;
    let actions = game.action_count().filter(|&n| n > 0).ok_or_else(|| {
        format!(
            "the moves of {} cannot be numbered for a network's policy (their arguments need ranges fixed before play)",
            game.name()
        )
    })?;
    let shape = Shape {
        inputs,
        hidden: hidden.to_vec(),
        actions,
    };
    if !shape.is_reasonable() {
        return Err(format!(
            "a network of {inputs} inputs, hidden layers {hidden:?} and {actions} actions is too large (at most 8 hidden layers of 4096 and 64 million parameters)"
        ));
    }
    Ok(shape)
}

/// The seed of game `g` of `iteration`: SplitMix64 of the three.
fn game_seed(seed: u64, iteration: u64, g: u64) -> u64 {
    let mut z = seed ^ iteration.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ g.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// One game of self-play: its positions with their search targets and
/// outcomes, and player 0's outcome; `None` when `stop` said so.
#[allow(clippy::type_complexity)]
fn self_play<G: Game>(
    game: &G,
    net: &Net,
    settings: &AzSettings,
    alpha: f32,
    seed: u64,
    stop: &(dyn Fn() -> bool + Sync),
) -> Result<Option<(Vec<Sample>, f32)>, GameError> {
    let mut rng = StdRng::seed_from_u64(seed);
    let config = PuctConfig {
        c_puct: settings.c_puct,
        noise: Some((alpha, settings.noise_share)),
    };
    let mut search = Puct::new(game, net, config);
    let mut state = game.initial_state()?;
    let mut moves = Vec::new();
    let mut pending: Vec<(Sample, Player)> = Vec::new();
    let mut plies = 0;
    loop {
        let mover = match game.turn(&state)? {
            Turn::Terminal => break,
            Turn::Player(p) => p,
            Turn::Chance | Turn::Simultaneous => {
                return Err(GameError::new(
                    RuntimeKind::Internal,
                    format!(
                        "{} has chance or simultaneous moves, which self-play does not learn",
                        game.name()
                    ),
                ));
            }
        };
        if stop() {
            return Ok(None);
        }
        plies += 1;
        if plies > MAX_PLIES {
            return Err(GameError::new(
                RuntimeKind::Endless,
                format!("a game of self-play ran {MAX_PLIES} moves without ending"),
            ));
        }
        game.legal_moves(&state, &mut moves)?;
        if moves.len() == 1 {
            // Nothing to choose, nothing to learn.
            let only = moves[0].clone();
            game.apply(&mut state, &only)?;
            continue;
        }
        let stats = search.search(&state, &Clock::start(settings.simulations.max(1), None), &mut rng)?;
        let total: u32 = stats.moves.iter().map(|m| m.2).sum();
        let mut obs = Vec::new();
        observe(game, &state, mover, &mut obs)?;
        let sample = Sample {
            obs,
            legal: stats.moves.iter().map(|m| m.1).collect(),
            target: stats.moves.iter().map(|m| m.2 as f32 / total.max(1) as f32).collect(),
            z: 0.0,
        };
        let pick = if pending.len() < settings.explore_moves && total > 0 {
            let mut draw = rng.random_range(0..total);
            let mut k = 0;
            while draw >= stats.moves[k].2 {
                draw -= stats.moves[k].2;
                k += 1;
            }
            k
        } else {
            stats.best()
        };
        pending.push((sample, mover));
        game.apply(&mut state, &stats.moves[pick].0)?;
    }
    let outcome = (game.returns(&state, 0)? as f32).clamp(-1.0, 1.0);
    let mut samples = Vec::with_capacity(pending.len());
    for (mut s, mover) in pending {
        s.z = if mover == 0 { outcome } else { -outcome };
        samples.push(s);
    }
    Ok(Some((samples, outcome)))
}

#[cfg(test)]
mod tests {
    use super::super::puct::tests::Take;
    use super::*;

    fn settings(threads: usize) -> AzSettings {
        AzSettings {
            hidden: vec![16, 16],
            games: 12,
            simulations: 20,
            threads,
            seed: 5,
            ..AzSettings::default()
        }
    }

    #[test]
    fn the_same_seed_learns_the_same_network_on_any_number_of_threads() {
        let game = Take(7);
        let never = || false;
        let mut nets = Vec::new();
        for threads in [1, 3] {
            let mut t = Trainer::new(&game, settings(threads), None).unwrap();
            for _ in 0..2 {
                t.iteration(&never).unwrap().unwrap();
            }
            nets.push(t.into_net());
        }
        assert_eq!(nets[0], nets[1]);
    }

    #[test]
    fn training_learns_the_values_of_take() {
        let game = Take(7);
        let never = || false;
        // Only the first move drawn: later ones are the search's best, so
        // that the outcomes learned are those of good play.
        let learning = AzSettings {
            explore_moves: 1,
            simulations: 40,
            games: 24,
            ..settings(2)
        };
        let mut t = Trainer::new(&game, learning, None).unwrap();
        for _ in 0..40 {
            t.iteration(&never).unwrap().unwrap();
        }
        // A multiple of 3 is lost for the player to move, any other pile
        // won; each as it occurs in good play from 7 (B moves first at 6;
        // A meets 3 only after a mistake at 7, too rare here to learn).
        let mut trace = Trace::default();
        let mut obs = Vec::new();
        for (pile, mover, won) in [
            (6, 1, false),
            (5, 1, true),
            (4, 0, true),
            (3, 0, false),
            (2, 1, true),
            (3, 1, false),
        ] {
            game.observe_tensor(&(pile, mover), mover as usize, &mut obs).unwrap();
            t.net().forward(&obs, &mut trace);
            assert_eq!(trace.value > 0.0, won, "pile {pile}: value {}", trace.value);
        }
    }

    #[test]
    fn a_stop_leaves_the_network_as_it_was() {
        let game = Take(7);
        let mut t = Trainer::new(&game, settings(1), None).unwrap();
        let before = t.net().clone();
        assert!(t.iteration(&|| true).unwrap().is_none());
        assert_eq!(*t.net(), before);
        assert_eq!(t.iterations, 0);
    }
}
