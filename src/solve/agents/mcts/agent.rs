//! `mcts` and `mcts:N`: the agent that searches each move with MCTS.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::tree::{MctsResult, RootMove, Search};
use super::{MctsConfig, Parallelism, SimultaneousSelect};
use crate::game::{Game, GameError, Player, Turn};
use crate::solve::agents::agent::{Agent, AgentError, Choice};
use crate::solve::agents::move_budget::Interrupt;
use crate::solve::agents::step::Step;

/// Searches each move with MCTS; keeps its tree from one move to the next
/// of a game when the new position is in it.
pub struct MctsAgent<G: Game> {
    /// As written on the command line: `mcts`, `mcts:5000`.
    name: String,
    cfg: MctsConfig,
    rng: StdRng,
    tree: Option<Search<G>>,
    /// Under a repetition rule: the positions of this game before the one
    /// to move in, which the search counts.
    history: Option<Vec<G::State>>,
}

impl<G: Game> MctsAgent<G> {
    pub fn new(name: String, cfg: MctsConfig, seed: u64) -> Self {
        MctsAgent {
            name,
            cfg,
            rng: StdRng::seed_from_u64(seed),
            tree: None,
            history: None,
        }
    }
}

/// One move's search from `state` for `player`, on `cfg.threads` threads
/// (root parallelism: independent trees, their root statistics added up;
/// or tree parallelism: one tree shared). `tree` is a tree to go on with
/// (one thread, or one shared tree), and is left holding the tree searched.
/// `history`: the game's positions before `state`, which a repetition rule
/// counts (empty: the game starts at `state`).
pub fn search<G>(
    game: &G,
    state: &G::State,
    history: &[G::State],
    player: Player,
    cfg: &MctsConfig,
    rng: &mut StdRng,
    tree: &mut Option<Search<G>>,
) -> Result<MctsResult<G::Move>, GameError>
where
    G: Game + Sync,
    G::State: Send,
    G::Move: Send,
{
    let threads = cfg.threads.max(1);
    if threads == 1 || cfg.parallel == Parallelism::Tree {
        let reused = match tree.as_mut() {
            Some(t) if cfg.reuse => t.advance_to(game, state, player)?,
            _ => false,
        };
        if !reused {
            *tree = Some(Search::new(game, state, player, cfg.clone(), rng.random())?);
        }
        let t = tree.as_mut().expect("a tree was just made");
        t.set_history(history);
        t.run_parallel(game, threads)?;
        return Ok(t.result(game));
    }
    *tree = None;
    let mut each = cfg.clone();
    each.simulations = match cfg.simulations {
        u64::MAX => u64::MAX,
        n => n.div_ceil(threads as u64),
    };
    let seeds: Vec<u64> = (0..threads).map(|_| rng.random()).collect();
    let results: Vec<Result<MctsResult<G::Move>, GameError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = seeds
            .iter()
            .map(|&seed| {
                let each = each.clone();
                let state = state.clone();
                // A copy each: a state may not be shared between threads.
                let history = history.to_vec();
                scope.spawn(move || {
                    let mut s = Search::new(game, &state, player, each, seed)?;
                    s.set_history(&history);
                    s.run(game)?;
                    Ok(s.result(game))
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a search thread does not panic"))
            .collect()
    });
    let mut merged: Option<MctsResult<G::Move>> = None;
    for r in results {
        let r = r?;
        match merged.as_mut() {
            None => merged = Some(r),
            Some(m) => m.merge(r),
        }
    }
    Ok(merged.expect("at least one thread"))
}

impl<G> Agent<G> for MctsAgent<G>
where
    G: Game + Sync,
    G::State: Send,
    G::Move: Send,
{
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self, game: &G, seed: u64) -> Result<(), AgentError> {
        self.rng = StdRng::seed_from_u64(seed);
        self.tree = None;
        self.history = game.repetition().map(|_| Vec::new());
        Ok(())
    }

    /// Under a repetition rule the agent keeps the game's positions.
    fn wants_steps(&self) -> bool {
        self.history.is_some()
    }

    fn after_step(&mut self, _game: &G, _seat: Player, before: &G::State, _step: &Step<G::Move>, _after: &G::State) {
        if let Some(h) = &mut self.history {
            h.push(before.clone());
        }
    }

    fn set_history(&mut self, _game: &G, before: &[G::State]) {
        crate::solve::agents::agent::replace_history(&mut self.history, before);
    }

    fn choose(
        &mut self,
        game: &G,
        state: &G::State,
        player: Player,
        moves: &[G::Move],
    ) -> Result<Choice<G::Move>, AgentError> {
        if moves.len() == 1 {
            return Ok(Choice::plain(moves[0].clone()));
        }
        let history = self.history.as_deref().unwrap_or(&[]);
        let result = search(game, state, history, player, &self.cfg, &mut self.rng, &mut self.tree)?;
        if Interrupt::came(self.cfg.stop) {
            return Err(AgentError::Failed(format!(
                "the search of `{}` was interrupted",
                self.name
            )));
        }
        // Only the moves legal here: a tree of drawn worlds may know others.
        let mut result = result;
        result.moves.retain(|m| moves.contains(&m.mv));
        if result.moves.is_empty() {
            let i = self.rng.random_range(0..moves.len());
            return Ok(Choice::plain(moves[i].clone()));
        }
        let mixed =
            self.cfg.simultaneous == SimultaneousSelect::RegretMatchingMixed && game.turn(state)? == Turn::Simultaneous;
        let best = &result.moves[if mixed {
            draw_by_strategy(&result.moves, &mut self.rng)
        } else {
            result.best(&mut self.rng)
        }];
        // Visits of the root include those of a tree kept from the last move.
        let total: u64 = result.moves.iter().map(|m| m.visits).sum();
        let mut parts = Vec::new();
        if best.visits > 0 {
            parts.push(format!(
                "{} of {total} visits, mean return {:.3}",
                best.visits,
                best.mean()
            ));
        }
        if let Some(v) = result.proven() {
            let mine = if player == 0 { v } else { result.zero_sum - v };
            parts.push(format!("proven value {} for {}", mine + 0.0, game.player_name(player)));
        }
        let note = parts.join(", ");
        Ok(Choice {
            mv: best.mv.clone(),
            note: (!note.is_empty()).then_some(note),
        })
    }
}

/// A move drawn by its weight in the average strategy (a move with none
/// when all have none).
fn draw_by_strategy<M>(moves: &[RootMove<M>], rng: &mut StdRng) -> usize {
    let total: f64 = moves.iter().map(|m| m.strategy).sum();
    if total <= 0.0 {
        return rng.random_range(0..moves.len());
    }
    let mut x = rng.random::<f64>() * total;
    for (i, m) in moves.iter().enumerate() {
        if x < m.strategy {
            return i;
        }
        x -= m.strategy;
    }
    moves.len() - 1
}
