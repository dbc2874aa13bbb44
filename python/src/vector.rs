//! `gdl.VectorEnv`'s engine (`_gdl.VectorEnv`): `n` games of one game file
//! stepped together in one call, on every core, with no Python object per
//! game. The Python class around it (`python/gdl/vector.py`) turns the
//! buffers it returns into numpy arrays without copying them.
//!
//! Every call writes one `bytearray`, laid out as
//!
//! | part | type | shape |
//! |---|---|---|
//! | observations | little-endian f32 | n × observation size |
//! | rewards | little-endian f32 | n × players |
//! | player to move | little-endian i32 | n |
//! | terminated | u8 (0/1) | n |
//! | truncated | u8 (0/1) | n |
//! | legal-action masks | u8 (0/1) | n × actions |
//!
//! (the f32 and i32 parts first, so each starts 4-aligned). A `bytearray`
//! rather than `bytes`: numpy's arrays over it are writable, as a user of
//! Gymnasium expects, and each call's buffer is new, so an array kept from
//! one step is never overwritten by the next.

use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use rustc_hash::FxHashMap;

use gdl::game::{Game, GameError, MaxMoves, Player, Repetitions, Turn, all_returns};
use gdl::runtime::encode::{self, Actions, LeBytes};
use gdl::runtime::{Interpreted, Move, State};
use gdl::solve::agents::simulate::{self, sample_chance};

use crate::game::{PyGame, PyState};
use crate::{gdl_error, line};

/// The fewest games a thread is given: below it, starting a thread costs
/// more than the games' steps (a step is a microsecond or two).
const MIN_CHUNK: usize = 64;

/// The most bytes one call's buffer may take, so that a huge `n` is refused
/// with a message instead of failing an allocation.
const MAX_BUFFER: usize = 1 << 33;

/// One game of the batch.
struct Slot {
    state: State,
    rng: SmallRng,
    /// The positions of this game so far, under a repetition rule.
    reps: Option<Repetitions<State>>,
    /// Moves of players in this game so far (for `max_steps`).
    steps: u64,
    /// All players' moves against the file's `max moves N`, if it has one.
    bound: Option<MaxMoves>,
    /// Who is to move (always a player: chance is played out).
    to_play: Player,
    /// The legal actions now, ascending.
    legal: Vec<u32>,
    /// The last observation of a game that ended in the last call, for
    /// the player who made its last move.
    final_obs: Vec<f32>,
    /// Whether the game ended (or was cut) in the last call.
    finished: bool,
}

/// What every game of the batch shares.
struct Tables<'a> {
    game: &'a Interpreted,
    /// The move of each action.
    moves: &'a [Move],
    /// The action of each move.
    index: &'a FxHashMap<Move, u32>,
    start: &'a State,
    max_steps: Option<u64>,
    /// With a seat: the other seats play uniformly random legal moves,
    /// inside the step, and the caller acts for this seat only.
    seat: Option<Player>,
    players: usize,
    obs_size: usize,
    actions: usize,
}

/// One thread's buffers, reused from game to game.
#[derive(Default)]
struct Scratch {
    moves: Vec<Move>,
    chance: simulate::Scratch<Move>,
}

/// One chunk of the output buffer, cut into its parts.
struct Out<'a> {
    obs: &'a mut [u8],
    rewards: &'a mut [u8],
    to_play: &'a mut [u8],
    terminated: &'a mut [u8],
    truncated: &'a mut [u8],
    masks: &'a mut [u8],
}

/// `n` games of one game, stepped together (see the module's text).
#[pyclass(name = "VectorEnv", module = "gdl._gdl")]
pub struct PyVectorEnv {
    py_game: Py<PyGame>,
    game: Arc<Interpreted>,
    slots: Vec<Slot>,
    moves: Vec<Move>,
    index: FxHashMap<Move, u32>,
    start: State,
    max_steps: Option<u64>,
    seat: Option<Player>,
    threads: usize,
    obs_size: usize,
    actions: usize,
}

/// The seed of game `i` of a batch seeded `seed`: SplitMix64 of the two, so
/// that neighbouring games (and neighbouring seeds) draw unrelated streams.
fn slot_seed(seed: u64, i: usize) -> u64 {
    let mut z = seed
        ^ (i as u64)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(0xD1B5_4A32_D192_ED03);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn put_f32(dst: &mut [u8], values: &[f32]) {
    for (d, x) in dst.chunks_exact_mut(4).zip(values) {
        d.copy_from_slice(&x.to_le_bytes());
    }
}

/// Plays chance's moves (drawn from the game's generator) and, with a
/// seat, the other seats' random moves, until the seat (or any player,
/// without one) is to move or the game is over.
fn settle(t: &Tables<'_>, slot: &mut Slot, sc: &mut Scratch) -> Result<Turn, GameError> {
    loop {
        let turn = t.game.turn(&slot.state)?;
        let mv = match turn {
            Turn::Chance => sample_chance(t.game, &slot.state, &mut slot.rng, &mut sc.chance)?,
            Turn::Player(p) if t.seat.is_some_and(|s| s != p) => {
                if let Some(bound) = &mut slot.bound {
                    bound.count(t.game, &slot.state)?;
                }
                t.game.legal_moves(&slot.state, &mut sc.moves)?;
                if sc.moves.is_empty() {
                    return Err(gdl::game::no_legal_move(t.game, &slot.state));
                }
                sc.moves[slot.rng.random_range(0..sc.moves.len())]
            }
            _ => return Ok(turn),
        };
        t.game.apply(&mut slot.state, &mv)?;
        if let Some(reps) = &mut slot.reps {
            reps.after_move(t.game, &mut slot.state)?;
        }
    }
}

/// Starts a new game in `slot`.
fn restart(t: &Tables<'_>, slot: &mut Slot, sc: &mut Scratch) -> Result<(), GameError> {
    slot.state = t.start.clone();
    if let Some(reps) = &mut slot.reps {
        reps.restart(t.start);
    }
    slot.steps = 0;
    if let Some(bound) = &mut slot.bound {
        bound.restart();
    }
    if settle(t, slot, sc)? == Turn::Terminal {
        return Err(GameError::new(
            gdl::game::RuntimeKind::NoMoves,
            format!("{} is over before anyone moves", t.game.name()),
        ));
    }
    Ok(())
}

/// Plays `action` (for the player to move) in game `i` of a chunk, resets
/// the game if that ends it, and writes what the player to move next sees.
fn step_slot(
    t: &Tables<'_>,
    slot: &mut Slot,
    action: Option<u32>,
    sc: &mut Scratch,
    out: &mut Out<'_>,
    i: usize,
) -> Result<(), GameError> {
    slot.finished = false;
    if let Some(a) = action {
        let mover = slot.to_play;
        if let Some(bound) = &mut slot.bound {
            bound.count(t.game, &slot.state)?;
        }
        t.game.apply(&mut slot.state, &t.moves[a as usize])?;
        if let Some(reps) = &mut slot.reps {
            reps.after_move(t.game, &mut slot.state)?;
        }
        slot.steps += 1;
        let turn = settle(t, slot, sc)?;
        let ended = turn == Turn::Terminal;
        let cut = !ended && t.max_steps.is_some_and(|m| slot.steps >= m);
        if ended {
            let returns = all_returns(t.game, &slot.state)?;
            let r: Vec<f32> = returns.iter().map(|&x| x as f32).collect();
            put_f32(&mut out.rewards[i * 4 * t.players..(i + 1) * 4 * t.players], &r);
            out.terminated[i] = 1;
        }
        if cut {
            out.truncated[i] = 1;
        }
        if ended || cut {
            // Seen by the seat where there is one, else by whoever moved last.
            let viewer = t.seat.unwrap_or(mover);
            encode::observe(t.game, &slot.state, viewer, &mut slot.final_obs)?;
            slot.finished = true;
            restart(t, slot, sc)?;
        }
    }
    let p = match t.game.turn(&slot.state)? {
        Turn::Player(p) => p,
        other => {
            return Err(GameError::new(
                gdl::game::RuntimeKind::Internal,
                format!("a batched game stopped at a {other:?} node (a bug in gdl)"),
            ));
        }
    };
    slot.to_play = p;
    out.to_play[i * 4..i * 4 + 4].copy_from_slice(&(p as i32).to_le_bytes());
    let cells = slot.state.cells();
    let row = &mut out.obs[i * 4 * t.obs_size..(i + 1) * 4 * t.obs_size];
    t.game.observer().write(&cells, p, Some(p), &mut LeBytes(row));
    t.game.legal_moves(&slot.state, &mut sc.moves)?;
    if sc.moves.is_empty() {
        return Err(gdl::game::no_legal_move(t.game, &slot.state));
    }
    slot.legal.clear();
    let mask = &mut out.masks[i * t.actions..(i + 1) * t.actions];
    for m in &sc.moves {
        let Some(&a) = t.index.get(m) else {
            return Err(GameError::new(
                gdl::game::RuntimeKind::Internal,
                format!("`{}` has no action number", t.game.move_text(m)),
            ));
        };
        slot.legal.push(a);
        mask[a as usize] = 1;
    }
    slot.legal.sort_unstable();
    Ok(())
}

/// Steps (or, with no actions, restarts) a chunk of the games; the error
/// names the game (its index in the chunk).
fn run_chunk(
    t: &Tables<'_>,
    slots: &mut [Slot],
    actions: Option<&[u32]>,
    reset: bool,
    mut out: Out<'_>,
) -> Result<(), (usize, GameError)> {
    let mut sc = Scratch::default();
    for (i, slot) in slots.iter_mut().enumerate() {
        let done = if reset {
            restart(t, slot, &mut sc).and_then(|()| step_slot(t, slot, None, &mut sc, &mut out, i))
        } else {
            step_slot(t, slot, actions.map(|a| a[i]), &mut sc, &mut out, i)
        };
        done.map_err(|e| (i, e))?;
    }
    Ok(())
}

impl PyVectorEnv {
    fn buffer_len(&self) -> usize {
        let n = self.slots.len();
        n * (4 * self.obs_size + 4 * self.game.num_players() + 4 + 2 + self.actions)
    }

    /// Runs every game's step (or restart) on the threads, with Python let
    /// go of, writing the call's buffer.
    fn run<'py>(&mut self, py: Python<'py>, actions: Option<&[u32]>, reset: bool) -> PyResult<Bound<'py, PyByteArray>> {
        let len = self.buffer_len();
        let n = self.slots.len();
        let threads = self.threads.min(n.div_ceil(MIN_CHUNK)).max(1);
        let chunk = n.div_ceil(threads);
        let (obs_size, players, num_actions) = (self.obs_size, self.game.num_players(), self.actions);
        let name = self.game.name().to_string();
        let t = Tables {
            game: &self.game,
            moves: &self.moves,
            index: &self.index,
            start: &self.start,
            max_steps: self.max_steps,
            seat: self.seat,
            players,
            obs_size,
            actions: num_actions,
        };
        let slots = &mut self.slots;
        PyByteArray::new_with(py, len, |buf| {
            let failed = py.detach(|| {
                let (obs, rest) = buf.split_at_mut(n * 4 * obs_size);
                let (rewards, rest) = rest.split_at_mut(n * 4 * players);
                let (to_play, rest) = rest.split_at_mut(n * 4);
                let (terminated, rest) = rest.split_at_mut(n);
                let (truncated, masks) = rest.split_at_mut(n);
                let parts = obs
                    .chunks_mut(chunk * 4 * obs_size)
                    .zip(rewards.chunks_mut(chunk * 4 * players))
                    .zip(to_play.chunks_mut(chunk * 4))
                    .zip(terminated.chunks_mut(chunk))
                    .zip(truncated.chunks_mut(chunk))
                    .zip(masks.chunks_mut(chunk * num_actions));
                let work = slots.chunks_mut(chunk).zip(parts).enumerate().map(
                    |(c, (slots, (((((obs, rewards), to_play), terminated), truncated), masks)))| {
                        let out = Out {
                            obs,
                            rewards,
                            to_play,
                            terminated,
                            truncated,
                            masks,
                        };
                        (
                            c,
                            slots,
                            actions.map(|a| &a[c * chunk..(c * chunk + chunk).min(n)]),
                            out,
                        )
                    },
                );
                let t = &t;
                let results: Vec<Result<(), (usize, GameError)>> = if threads == 1 {
                    work.map(|(c, slots, actions, out)| {
                        run_chunk(t, slots, actions, reset, out).map_err(|(i, e)| (c * chunk + i, e))
                    })
                    .collect()
                } else {
                    // The calling thread takes the first chunk: one thread
                    // fewer to start each call.
                    let mut work = work;
                    let (c, slots, actions, out) = work.next().expect("n >= 1: one chunk at least");
                    std::thread::scope(|scope| {
                        let handles: Vec<_> = work
                            .map(|(c, slots, actions, out)| {
                                scope.spawn(move || {
                                    run_chunk(t, slots, actions, reset, out).map_err(|(i, e)| (c * chunk + i, e))
                                })
                            })
                            .collect();
                        let first = run_chunk(t, slots, actions, reset, out).map_err(|(i, e)| (c * chunk + i, e));
                        std::iter::once(first)
                            .chain(
                                handles
                                    .into_iter()
                                    .map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))),
                            )
                            .collect()
                    })
                };
                results.into_iter().find_map(Result::err)
            });
            match failed {
                None => Ok(()),
                Some((i, e)) => Err(crate::GdlError::new_err(format!(
                    "game {i} of the batch of {name}: {}",
                    crate::render(&e)
                ))),
            }
        })
    }

    /// The observations of the games that ended in the last call, in order.
    fn finals<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let mut bytes = Vec::new();
        for s in self.slots.iter().filter(|s| s.finished) {
            bytes.extend(s.final_obs.iter().flat_map(|x| x.to_le_bytes()));
        }
        PyBytes::new(py, &bytes)
    }
}

/// The actions of an int64 buffer, each checked to be legal in its game.
fn read_actions(env: &PyVectorEnv, bytes: &[u8]) -> PyResult<Vec<u32>> {
    let n = env.slots.len();
    if bytes.len() != 8 * n {
        return Err(PyValueError::new_err(format!(
            "step needs one action per game: {n}, not {}",
            bytes.len() / 8
        )));
    }
    let mut out = Vec::with_capacity(n);
    for (i, (b, slot)) in bytes.chunks_exact(8).zip(&env.slots).enumerate() {
        let a = i64::from_le_bytes(b.try_into().expect("8 bytes"));
        let legal = u32::try_from(a).is_ok_and(|a| slot.legal.binary_search(&a).is_ok());
        if !legal {
            let shown: Vec<String> = slot.legal.iter().map(u32::to_string).collect();
            return Err(PyValueError::new_err(format!(
                "action {a} is not legal in game {i} of the batch, where {} is to move: its legal actions are {}",
                env.game.player_name(slot.to_play),
                shown.join(", ")
            )));
        }
        out.push(a as u32);
    }
    Ok(out)
}

#[pymethods]
impl PyVectorEnv {
    /// `n` games of `game`, each at its start (chance's first moves drawn),
    /// game i's random draws seeded from `seed` and i. With `max_steps`, a
    /// game is cut (truncated) after that many moves of players. With
    /// `seat`, the other seats play uniformly random legal moves inside
    /// each step. `threads`: how many threads at most (default: every core).
    #[new]
    #[pyo3(signature = (game, n, seed=0, max_steps=None, seat=None, threads=None))]
    fn new(
        py: Python<'_>,
        game: Bound<'_, PyGame>,
        n: usize,
        seed: u64,
        max_steps: Option<u64>,
        seat: Option<usize>,
        threads: Option<usize>,
    ) -> PyResult<Self> {
        let g = game.get();
        let interpreted = g.game.clone();
        if n == 0 {
            return Err(PyValueError::new_err("a VectorEnv needs at least one game (n >= 1)"));
        }
        if max_steps == Some(0) {
            return Err(PyValueError::new_err("max_steps must be at least 1"));
        }
        if threads == Some(0) {
            return Err(PyValueError::new_err("threads must be at least 1"));
        }
        if interpreted.program().has_simultaneous {
            return Err(crate::GdlError::new_err(format!(
                "{} has simultaneous moves, which a VectorEnv (one action per game, for the player to move) cannot take: use gdl.pettingzoo.parallel_env",
                interpreted.name()
            )));
        }
        if let Some(s) = seat
            && s >= interpreted.num_players()
        {
            return Err(PyValueError::new_err(format!(
                "seat {s} does not exist: {} has players 0 to {}",
                interpreted.name(),
                interpreted.num_players() - 1
            )));
        }
        let numbered: &Actions = g.actions()?;
        let moves: Vec<Move> = (0..numbered.len()).filter_map(|a| numbered.get(a)).collect();
        if moves.is_empty() {
            return Err(crate::GdlError::new_err(format!(
                "{} has no moves to number",
                interpreted.name()
            )));
        }
        let index = moves.iter().enumerate().map(|(a, m)| (*m, a as u32)).collect();
        let obs_size = encode::observation_size(interpreted.program());
        let per_game = 4 * obs_size + 4 * interpreted.num_players() + 6 + moves.len();
        if n.checked_mul(per_game).is_none_or(|b| b > MAX_BUFFER) {
            return Err(PyValueError::new_err(format!(
                "{n} games of {} would take more than {} GiB a step: choose a smaller n",
                interpreted.name(),
                MAX_BUFFER >> 30
            )));
        }
        let start = interpreted.initial_state().map_err(|e| gdl_error(&e))?;
        let slots = (0..n)
            .map(|i| Slot {
                state: start.clone(),
                rng: SmallRng::seed_from_u64(slot_seed(seed, i)),
                reps: Repetitions::of(&*interpreted),
                steps: 0,
                bound: MaxMoves::of(&*interpreted),
                to_play: 0,
                legal: Vec::new(),
                final_obs: Vec::new(),
                finished: false,
            })
            .collect();
        let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
        let mut env = PyVectorEnv {
            py_game: game.unbind(),
            game: interpreted,
            slots,
            actions: moves.len(),
            moves,
            index,
            start,
            max_steps,
            seat,
            threads: threads.unwrap_or(cores),
            obs_size,
        };
        // Every game at its start, so that the first step needs no reset.
        env.run(py, None, true)?;
        Ok(env)
    }

    /// Starts every game again (reseeding each one's generator when `seed`
    /// is given) and returns the buffer of what the players to move see.
    #[pyo3(signature = (seed=None))]
    fn reset<'py>(&mut self, py: Python<'py>, seed: Option<u64>) -> PyResult<Bound<'py, PyByteArray>> {
        if let Some(seed) = seed {
            for (i, s) in self.slots.iter_mut().enumerate() {
                s.rng = SmallRng::seed_from_u64(slot_seed(seed, i));
            }
        }
        let out = self.run(py, None, true)?;
        for s in &mut self.slots {
            s.finished = false;
        }
        Ok(out)
    }

    /// Plays one action in each game (`actions`: n little-endian int64),
    /// for its player to move; returns the buffer and the final
    /// observations of the games that ended (little-endian f32, one row
    /// each, in the games' order). Every action is checked before any game
    /// moves.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &[u8],
    ) -> PyResult<(Bound<'py, PyByteArray>, Bound<'py, PyBytes>)> {
        let actions = read_actions(self, actions)?;
        let out = self.run(py, Some(&actions), false)?;
        Ok((out, self.finals(py)))
    }

    /// Game i's state now, with its history under a repetition rule.
    fn state(&self, i: usize) -> PyResult<PyState> {
        let slot = self.slots.get(i).ok_or_else(|| {
            pyo3::exceptions::PyIndexError::new_err(format!("game {i} is not one of 0..{}", self.slots.len()))
        })?;
        let mut past: line::Line = None;
        if let Some(reps) = &slot.reps {
            let positions = reps.positions();
            for s in &positions[..positions.len().saturating_sub(1)] {
                past = line::extend(&past, s);
            }
        }
        Ok(PyState {
            state: slot.state.clone(),
            past,
            game: self.game.clone(),
            meta: self.py_game.get().meta.clone(),
        })
    }

    #[getter]
    fn game(&self, py: Python<'_>) -> Py<PyGame> {
        self.py_game.clone_ref(py)
    }

    #[getter]
    fn num_envs(&self) -> usize {
        self.slots.len()
    }

    #[getter]
    fn observation_size(&self) -> usize {
        self.obs_size
    }

    #[getter]
    fn num_actions(&self) -> usize {
        self.actions
    }

    #[getter]
    fn seat(&self) -> Option<usize> {
        self.seat
    }

    #[getter]
    fn max_steps(&self) -> Option<u64> {
        self.max_steps
    }

    #[getter]
    fn threads(&self) -> usize {
        self.threads
    }
}
