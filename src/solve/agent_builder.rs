//! One agent from its spec (`optimal`, `search:50`, `q:FILE`, ...), for every
//! caller that seats agents: gdl's commands and the Python module. Each
//! caller renders the error its own way.

use std::time::Duration;

use miette::Diagnostic;
use thiserror::Error;

use super::agents::agent::{Agent, AgentSpec, RandomAgent, Ties};
use super::agents::budgeted::{self, BudgetedOptimal};
use super::agents::depth_limited::{DepthAgent, DepthOptions};
use super::agents::expectimax_agent::ExpectimaxAgent;
use super::agents::mcts::{self, Backup, MctsAgent, MctsConfig, Parallelism, SimultaneousSelect};
use super::agents::move_budget::{self, Interrupt};
use super::agents::search::{GreedyAgent, SearchAgent, SearchBudget};
use super::exact::expectimax::ChanceOptions;
use super::learn::alphazero::file::AzFileError;
use super::learn::qfile::{self, QFileError};
use super::learn::strategy_file::StrategyFileError;
use super::{SolveError, SolveOptions, learn::policy_agent};
use crate::error_kind::{EXIT_INPUT, Exits};
use crate::game::FileGame;

/// An agent of any kind for a game of type `G`; `Send`, so that a match can
/// play on several threads.
pub type BoxedAgent<'g, G> = Box<dyn Agent<G> + Send + 'g>;

/// Worlds the greedy agent draws per move to average its penalty.
pub const GREEDY_SAMPLES: usize = 20;

/// What the rules hold that the `Game` trait tells only by playing: which
/// agents can play the game depends on it. The command line reads it from a
/// compiled file (`MoveKinds::of`, in src/cli/kit/agents/), so that the
/// algorithms see only the trait.
#[derive(Clone, Copy, Debug, Default)]
pub struct MoveKinds {
    pub chance: bool,
    pub simultaneous: bool,
    /// Some state is `hidden` or `private`.
    pub hidden: bool,
    /// Some end of the game is decided by scores (`lowest/highest S wins`).
    pub scores: bool,
    /// The file estimates positions: `fn evaluate(p: player) -> int`.
    pub evaluates: bool,
}

impl MoveKinds {
    /// A card game: moves made at once and an end decided by scores (X
    /// Nimmt!, Goofspiel), where `mcts` has defaults of its own and is the
    /// computer `gdl play` and `gdl serve` seat.
    pub fn card_game(&self) -> bool {
        self.simultaneous && self.scores
    }
}

/// What a win adds to the score that `mcts` backs up in card games, in the
/// score's units: X Nimmt!'s agent, measured with 1, 2, 4 and 10 (4 kept
/// the most wins against `greedy` within 3.6 points against `random`).
pub const CARD_GAME_WIN_BONUS: f64 = 4.0;

/// Random moves of an `mcts` playout before the game's `evaluate` scores
/// the position, in games that have one, unless `--mcts-cutoff` says
/// otherwise: at an equal 200 ms a move against `search`, MCTS's wins went
/// from 55% to 100% on Gomoku 9×9 (docs/SOLVERS.md has the table).
pub const EVALUATE_CUTOFF: usize = 8;

/// Options of the agents that take any.
#[derive(Clone, Copy, Debug, Default)]
pub struct AgentOptions {
    /// Time per move of `search` agents; with `search:N` the search stops at
    /// whichever comes first.
    pub search_time: Option<Duration>,
    /// Nodes per move of the searches of `optimal` and `alphabeta:D`.
    pub max_nodes: Option<u64>,
    /// Time per move of the searches of `optimal` and `alphabeta:D`.
    pub time_limit: Option<Duration>,
    /// Threads of one `mcts` agent's search of a move (0 counts as 1).
    pub search_threads: usize,
    /// How `mcts` agents choose at simultaneous nodes (`None`: the
    /// default for the game, [`mcts_config`](Self::mcts_config)).
    pub mcts_simultaneous: Option<SimultaneousSelect>,
    /// What `mcts` agents back up from the end of a simulation (`None`: the
    /// default for the game).
    pub mcts_backup: Option<Backup>,
    /// UCB1's exploration constant of `mcts` agents (0 counts as the default).
    pub mcts_exploration: f64,
    /// Moves of an `mcts` playout before the game's `evaluate` scores it
    /// (`None`: the default for the game; 0: to the end).
    pub mcts_cutoff: Option<usize>,
    /// The weight of implicit minimax backups in `mcts` (`None`: the
    /// default for the game; 0: off).
    pub mcts_minimax: Option<f64>,
    /// What a win adds to a score backed up by `mcts` agents (`None`: the
    /// default for the game).
    pub mcts_win_bonus: Option<f64>,
    /// How an `mcts` agent's threads share a move's search.
    pub mcts_parallel: Parallelism,
    /// How many `optimal` agents' memo tables share the memory limit (one
    /// per seat and thread of a match), so that together they stay under
    /// it; 0 counts as 1.
    pub memory_share: usize,
    /// An `optimal` agent in a lost position plays the slowest loss (as
    /// `optimal:fast` does) instead of any losing move: `gdl play` sets it,
    /// so that a person's opponent resists as long as it can.
    pub resist: bool,
    /// Set from outside (Ctrl-C, SIGTERM): the search of an `optimal`,
    /// `mcts` or `search` agent stops in the middle of a move, which then fails.
    pub stop: Option<&'static std::sync::atomic::AtomicBool>,
}

impl AgentOptions {
    /// The options of an `optimal` agent's exact search.
    pub fn solve_options(&self, ties: Ties) -> SolveOptions {
        SolveOptions {
            count_states: false,
            // The lengths of lines tell the slowest loss only when the search prefers short ones.
            prefer_short: ties == Ties::Fast || self.resist,
            max_nodes: self.max_nodes,
            time_limit: self.time_limit,
            watch: self
                .stop
                .map(|flag| std::sync::Arc::new(crate::solve::Watch::stopped_by(flag))),
            ..SolveOptions::default()
        }
    }

    /// The limits of an `alphabeta:D` agent's search of each move.
    pub fn depth_options(&self, depth: usize) -> DepthOptions {
        DepthOptions {
            max_depth: Some(depth),
            time_limit: self.time_limit,
            max_nodes: self.max_nodes,
            max_states: None,
            stop: self.stop.map(Interrupt),
        }
    }

    /// How `mcts` (`None`) or `mcts:N` searches a move in a game with
    /// `kinds` of moves: N simulations, or the default number; with a time
    /// limit alone, the clock decides. What the options leave open is
    /// UCT's default, except in games of simultaneous moves decided by
    /// scores (card games: X Nimmt!, Goofspiel), where each simulation
    /// backs up the player's own score with [`CARD_GAME_WIN_BONUS`] for the
    /// win, and the others are taken to search half the time and to play at
    /// random the other half: on X Nimmt! against `random` and `greedy`
    /// these beat UCT's defaults (3.53 points against 3.75, 75.8% wins
    /// against 74.0%; docs/XNIMMT.md), on Goofspiel too (81.9% against
    /// 74.5% against `random`).
    pub fn mcts_config(&self, simulations: Option<u64>, kinds: MoveKinds) -> MctsConfig {
        let card_game = kinds.card_game();
        MctsConfig {
            simulations: move_budget::units(simulations, mcts::DEFAULT_SIMULATIONS, self.search_time),
            time: self.search_time,
            threads: self.search_threads.max(1),
            simultaneous: self.mcts_simultaneous.unwrap_or(if card_game {
                SimultaneousSelect::OthersHalfRandom
            } else {
                SimultaneousSelect::default()
            }),
            backup: self
                .mcts_backup
                .unwrap_or(if card_game { Backup::Score } else { Backup::default() }),
            win_bonus: self
                .mcts_win_bonus
                .unwrap_or(if card_game { CARD_GAME_WIN_BONUS } else { 0.0 }),
            parallel: self.mcts_parallel,
            cutoff: match self.mcts_cutoff {
                Some(0) => None,
                Some(m) => Some(m),
                None if kinds.evaluates => Some(EVALUATE_CUTOFF),
                None => None,
            },
            minimax: self.mcts_minimax.unwrap_or(0.0),
            stop: self.stop.map(Interrupt),
            exploration: if self.mcts_exploration > 0.0 {
                self.mcts_exploration
            } else {
                MctsConfig::default().exploration
            },
            ..MctsConfig::default()
        }
    }

    /// The search budget of `search` (`None`) or `search:N`.
    pub fn search_budget(&self, samples: Option<usize>) -> SearchBudget {
        let default = SearchBudget::default().samples as u64;
        SearchBudget {
            samples: move_budget::units(samples.map(|n| n as u64), default, self.search_time)
                .try_into()
                .unwrap_or(usize::MAX),
            time: self.search_time,
            stop: self.stop.map(Interrupt),
        }
    }
}

/// Why an agent could not be built.
#[derive(Debug, Error, Diagnostic)]
pub enum AgentBuildError {
    /// `q:FILE` cannot be read or is not for this game.
    #[error(transparent)]
    #[diagnostic(transparent)]
    QTable(#[from] QFileError),
    /// `policy:FILE` cannot be read or is not for this game.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Policy(#[from] StrategyFileError),
    /// `az:FILE` cannot be read or is not for this game.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Network(#[from] AzFileError),
    /// The solver behind `optimal` refused the game.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Solve(#[from] SolveError),
    /// No agent is written so (`minimax`): why, and the kinds there are.
    #[error("{0}")]
    Spec(String),
    /// The agent does not play games of this kind (a sentence to show as is).
    #[error("{0}")]
    Unsuited(String),
    /// `human` and `exec:` agents are seated by the commands, which own the
    /// terminal and start programs.
    #[error("`{0}` agents are seated by gdl's commands (play, trace, match)")]
    NotBuiltHere(String),
}

/// An agent that cannot be built is bad input, as its spec was.
impl Exits for AgentBuildError {
    fn exit_code(&self) -> i32 {
        match self {
            AgentBuildError::QTable(e) => e.exit_code(),
            AgentBuildError::Policy(e) => e.exit_code(),
            AgentBuildError::Network(e) => e.exit_code(),
            AgentBuildError::Solve(e) => e.exit_code(),
            AgentBuildError::Spec(_) | AgentBuildError::Unsuited(_) | AgentBuildError::NotBuiltHere(_) => EXIT_INPUT,
        }
    }
}

/// The agent `spec` for `game`, whose rules have `kinds` of moves; `seed`
/// seeds whatever it draws at random. `human` and `exec:` are not built here.
pub fn build_agent<'g, G>(
    spec: &AgentSpec,
    game: &'g G,
    kinds: MoveKinds,
    seed: u64,
    options: &AgentOptions,
) -> Result<BoxedAgent<'g, G>, AgentBuildError>
where
    G: FileGame + Sync,
    G::State: Send,
    G::Move: Send,
{
    let two_player_turns = !kinds.chance && !kinds.simultaneous && game.num_players() == 2;
    if let Some(why) = repetition_unsuited(spec, game, kinds) {
        return Err(AgentBuildError::Unsuited(why));
    }
    Ok(match spec {
        // Alone, the shortest way to the best payoff.
        AgentSpec::Optimal(ties) if game.num_players() == 1 && !kinds.chance && !kinds.simultaneous => {
            let opts = super::exact::puzzle::PuzzleOptions {
                max_states: options.max_nodes,
                time_limit: options.time_limit,
            };
            Box::new(super::agents::puzzle_agent::PuzzleAgent::new(opts, *ties, seed))
        }
        AgentSpec::Optimal(ties) => {
            if let Some(why) = optimal_unsuited(game, kinds) {
                return Err(AgentBuildError::Unsuited(why));
            }
            if kinds.chance || kinds.simultaneous {
                // Expectiminimax, solved once from the start for the match.
                let opts = ChanceOptions {
                    max_states: options.max_nodes,
                    time_limit: options.time_limit,
                    ..ChanceOptions::default()
                };
                return Ok(Box::new(ExpectimaxAgent::new(game, &opts, *ties, seed)?));
            }
            // Limited move by move; its memo table kept under its share of
            // the memory limit.
            let mut opts = options.solve_options(*ties);
            let root = game.initial_state().map_err(SolveError::from)?;
            let memory_binds = budgeted::cap_memo::<G>(&mut opts, &root, options.memory_share.max(1));
            Box::new(BudgetedOptimal::new(game, opts, *ties, seed, memory_binds)?.resisting(options.resist))
        }
        AgentSpec::AlphaBeta(depth) => {
            if !two_player_turns {
                return Err(AgentBuildError::Unsuited(format!(
                    "`alphabeta:D` searches two-player, turn-taking games without chance; {} is not one; try `search`",
                    game.name()
                )));
            }
            Box::new(DepthAgent::with_limits(options.depth_options(*depth), seed))
        }
        AgentSpec::Random => Box::new(RandomAgent::new(seed)),
        AgentSpec::Search(samples) => Box::new(SearchAgent::new(options.search_budget(*samples), seed)),
        AgentSpec::Dsearch(worlds) => Box::new(super::agents::determinized::DsearchAgent::new(
            super::agents::determinized::DsearchConfig::with(*worlds, options.search_time),
            seed,
        )),
        AgentSpec::Mcts(simulations) => Box::new(MctsAgent::new(
            spec.to_string(),
            options.mcts_config(*simulations, kinds),
            seed,
        )),
        AgentSpec::Greedy => Box::new(GreedyAgent::new(GREEDY_SAMPLES, seed)),
        AgentSpec::QTable(path) => Box::new(qfile::load_agent(path, game)?),
        AgentSpec::Policy(path) => Box::new(policy_agent::load_agent(path, game, seed)?),
        AgentSpec::AlphaZero(path) => {
            if let Some(why) = alphazero_unsuited(game.name(), game.num_players(), kinds) {
                return Err(AgentBuildError::Unsuited(format!("`az:FILE` cannot play: {why}")));
            }
            Box::new(super::learn::alphazero::agent::load_agent(
                path,
                game,
                options.search_time,
            )?)
        }
        AgentSpec::Human | AgentSpec::Exec(_) => return Err(AgentBuildError::NotBuiltHere(spec.to_string())),
    })
}

/// Why AlphaZero-style search and training do not apply to a game, if they
/// do not: they learn two-player, zero-sum games taken in turns, with
/// everything in sight.
pub fn alphazero_unsuited(name: &str, players: usize, kinds: MoveKinds) -> Option<String> {
    let mut has = Vec::new();
    if players != 2 {
        has.push(format!("{players} player{}", if players == 1 { "" } else { "s" }));
    }
    if kinds.chance {
        has.push("chance moves".to_string());
    }
    if kinds.simultaneous {
        has.push("simultaneous moves".to_string());
    }
    if kinds.hidden {
        has.push("hidden information".to_string());
    }
    if has.is_empty() {
        return None;
    }
    Some(format!(
        "AlphaZero-style search learns two-player games taken in turns with everything in sight, and {name} has {}; \
         try `mcts`, `search` or, for hidden information, `gdl train --algorithm cfr`",
        has.join(" and ")
    ))
}

/// Why agent `spec` cannot play `game` because of its repetition rule, if it
/// cannot: `optimal`, `mcts`, `search`, `alphabeta:D` and `dsearch` at turns
/// (which are told the game's positions, and count them in their searches
/// and playouts) and agents that do not look ahead (`greedy` weighs one
/// step's change of score, which the rule does not touch) know that a line's
/// value depends on the positions before. `dsearch`'s own search of
/// simultaneous moves does not.
fn repetition_unsuited<G: FileGame>(spec: &AgentSpec, game: &G, kinds: MoveKinds) -> Option<String> {
    let n = game.repetition()?;
    let knows = match spec {
        AgentSpec::Optimal(_) => game.num_players() == 2 && !kinds.chance && !kinds.simultaneous,
        AgentSpec::Random
        | AgentSpec::Human
        | AgentSpec::Exec(_)
        | AgentSpec::Mcts(_)
        | AgentSpec::Search(_)
        | AgentSpec::AlphaBeta(_)
        | AgentSpec::Greedy => true,
        // Its own search is of simultaneous moves; turns go to `search`'s.
        AgentSpec::Dsearch(_) => !kinds.simultaneous,
        _ => false,
    };
    (!knows).then(|| {
        format!(
            "`{spec}` does not keep the history that {}'s rule `end when repeated {n}` depends on; \
             play it with `mcts`, `search`, `alphabeta:D`, `optimal` or `random`",
            game.name()
        )
    })
}

/// Why `optimal` cannot play `game`, if it cannot: it solves two-player
/// games (alpha-beta for turns; expectiminimax for chance and simultaneous
/// moves, with perfect information), one-player puzzles, and one player
/// against chance (expectimax).
pub fn optimal_unsuited<G: FileGame>(game: &G, kinds: MoveKinds) -> Option<String> {
    let turns = !kinds.chance && !kinds.simultaneous;
    let why = match game.num_players() {
        1 if turns => return None,
        // Expectimax: the best expected payoff against chance.
        1 if !kinds.simultaneous && !kinds.hidden => return None,
        1 => "one player and moves all at once or hidden".to_string(),
        2 if turns => return None,
        // Expectiminimax sees the whole state: it would cheat.
        2 if kinds.hidden => "chance or simultaneous moves, and hidden information".to_string(),
        2 => return None,
        n => format!("{n} players"),
    };
    Some(format!(
        "`optimal` solves two-player games with perfect information (and one-player games with everything in sight), and {} has {why}; try `search`, `mcts` or `greedy`",
        game.name()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(simultaneous: bool, scores: bool) -> MoveKinds {
        MoveKinds {
            chance: true,
            simultaneous,
            hidden: true,
            scores,
            evaluates: false,
        }
    }

    #[test]
    fn card_games_get_mcts_defaults_of_their_own_and_options_still_decide() {
        let options = AgentOptions::default();
        let card = options.mcts_config(None, kinds(true, true));
        assert_eq!(
            (card.backup, card.win_bonus, card.simultaneous),
            (Backup::Score, CARD_GAME_WIN_BONUS, SimultaneousSelect::OthersHalfRandom)
        );
        // Simultaneous moves without scores, or scores taken in turns (Kalah):
        // UCT's defaults, which keep MCTS-Solver's proofs.
        for other in [kinds(true, false), kinds(false, true), kinds(false, false)] {
            let c = options.mcts_config(None, other);
            assert_eq!(
                (c.backup, c.win_bonus, c.simultaneous),
                (Backup::Returns, 0.0, SimultaneousSelect::Ucb)
            );
        }
        let chosen = AgentOptions {
            mcts_backup: Some(Backup::Outcome),
            mcts_simultaneous: Some(SimultaneousSelect::Ucb),
            mcts_win_bonus: Some(0.0),
            ..AgentOptions::default()
        };
        let c = chosen.mcts_config(Some(10), kinds(true, true));
        assert_eq!(
            (c.backup, c.win_bonus, c.simultaneous, c.simulations),
            (Backup::Outcome, 0.0, SimultaneousSelect::Ucb, 10)
        );
    }

    #[test]
    fn games_that_evaluate_get_playouts_cut_off_unless_the_options_say_otherwise() {
        let evaluating = MoveKinds {
            evaluates: true,
            ..kinds(false, false)
        };
        let by_default = AgentOptions::default();
        assert_eq!(by_default.mcts_config(None, evaluating).cutoff, Some(EVALUATE_CUTOFF));
        assert_eq!(by_default.mcts_config(None, kinds(false, false)).cutoff, None);
        let to_the_end = AgentOptions {
            mcts_cutoff: Some(0),
            ..AgentOptions::default()
        };
        assert_eq!(to_the_end.mcts_config(None, evaluating).cutoff, None);
        let three = AgentOptions {
            mcts_cutoff: Some(3),
            mcts_minimax: Some(0.25),
            ..AgentOptions::default()
        };
        let c = three.mcts_config(None, evaluating);
        assert_eq!((c.cutoff, c.minimax), (Some(3), 0.25));
    }
}
