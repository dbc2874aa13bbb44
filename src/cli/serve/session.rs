//! One game of `gdl serve`, on a thread of its own that owns the compiled
//! game and the agents seated at it (agents borrow their game, so both live
//! on one stack), and answers the requests sent to it one at a time.

use std::sync::mpsc::{self, Receiver, Sender};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::StdRng;
use serde_json::{Value, json};

use super::api_error::ApiError;
use super::clicks;
use super::fields::fields_json;
use crate::board::{Board, Style};
use crate::cli::kit::agents::{AgentArgs, BoxedAgent, failure_line, make_agent_with, players_for};
use crate::cli::kit::context::Context;
use crate::cli::kit::shown::{all_public, position_lines};
use crate::compile;
use crate::game::{Game, GameError, Player, Turn};
use crate::ir;
use crate::report::play::outcome_text_after;
use crate::runtime::{Engine, Interpreted, Move, State};
use crate::solve::agent_builder::MoveKinds;
use crate::solve::agents::agent::{AgentError, AgentSpec, PlayerSpec};
use crate::solve::agents::mcts::{self, MctsConfig};
use crate::solve::agents::simulate::{Scratch, sample_chance};
use crate::solve::agents::step::{Played, Step};
use crate::solve::{SolveError, SolveOptions};

/// The exact values of moves are searched this far, then MCTS is asked.
const VALUE_NODES: u64 = 2_000_000;
const VALUE_TIME: Duration = Duration::from_secs(3);
/// MCTS's budget when the exact values are out of reach.
const MCTS_SIMULATIONS: u64 = 20_000;
const MCTS_TIME: Duration = Duration::from_secs(2);

/// What a new game needs.
pub(super) struct Setup {
    /// The game as the page named it (a bundled name or a path).
    pub name: String,
    pub text: String,
    pub bindings: Vec<(String, String)>,
    pub players: String,
    pub seed: u64,
    pub options: AgentArgs,
    pub allow_exec: bool,
    pub engine: Engine,
}

pub(super) enum Command {
    State,
    /// A person's move, as they would type it at the terminal.
    Move(String),
    /// The next agent's move, or chance's; with `instead`, an agent of that
    /// spec plays this one move for the seat to move (its own agent failed).
    Step {
        instead: Option<String>,
    },
    Values,
    /// Seats an agent (or `human`) at a player from now on.
    Seat {
        player: usize,
        agent: String,
    },
    /// Takes back the last move a person made, and every step after it.
    Undo,
}

pub(super) struct Request {
    pub command: Command,
    pub reply: Sender<Result<Value, ApiError>>,
}

/// Starts game `id` on its own thread: where to send its requests, and
/// where its first answer (its state, or why it could not start) comes.
pub(super) fn start(setup: Setup, id: u64) -> (Sender<Request>, Receiver<Result<Value, ApiError>>) {
    let (to, requests) = mpsc::channel::<Request>();
    let (first_to, first) = mpsc::channel();
    std::thread::spawn(move || run(setup, id, &first_to, &requests));
    (to, first)
}

/// The page's parameter values, typed into its boxes as text: given to the
/// compiler as values, so that an error names the parameter (`pits = 99`),
/// not a command-line flag the page does not have.
pub(super) fn page_values(bindings: &[(String, String)]) -> Vec<(String, compile::ParamValue)> {
    bindings
        .iter()
        .map(|(name, text)| (name.clone(), compile::ParamValue::Text(text.clone())))
        .collect()
}

fn run(setup: Setup, id: u64, first: &Sender<Result<Value, ApiError>>, requests: &Receiver<Request>) {
    let values = page_values(&setup.bindings);
    let game = match compile::load_with(&setup.name, &setup.text, compile::Bindings::Values(&values)) {
        Ok(p) => Interpreted::with_engine(p, setup.engine),
        Err(errors) => {
            let text = crate::report::diagnostic::render_compile_errors(&errors, false);
            let _ = first.send(Err(ApiError::new(400, text.trim_end().to_string())));
            return;
        }
    };
    let mut sink = std::io::sink();
    let ctx = Context {
        out: &mut sink,
        color: false,
        bindings: Vec::new(),
        source: None,
        started: Instant::now(),
        engine: setup.engine,
    };
    let mut play = match Play::new(&game, &setup, id, &ctx) {
        Ok(p) => p,
        Err(e) => {
            let _ = first.send(Err(e));
            return;
        }
    };
    let _ = first.send(play.view());
    // Until the server drops the game (its sender goes).
    while let Ok(Request { command, reply }) = requests.recv() {
        let answer = match command {
            Command::State => play.view(),
            Command::Move(text) => play.person_moves(&text, &ctx).and_then(|()| play.view()),
            Command::Step { instead } => play.step(instead.as_deref(), &ctx).and_then(|()| play.view()),
            Command::Values => play.values(),
            Command::Seat { player, agent } => play.seat(player, &agent, &ctx).and_then(|()| play.view()),
            Command::Undo => play.undo(&ctx).and_then(|()| play.view()),
        };
        let _ = reply.send(answer);
    }
}

/// A game being played.
struct Play<'g> {
    id: u64,
    game: &'g Interpreted,
    specs: Vec<PlayerSpec>,
    /// By player: the agent, or `None` for a person at the page.
    agents: Vec<Option<BoxedAgent<'g>>>,
    state: State,
    /// Every step so far, as the page lists it.
    moves: Vec<Value>,
    /// Every step so far, to replay after an undo or to a new agent.
    log: Vec<Logged>,
    /// The moves the people chose so far at a simultaneous node.
    chosen: Vec<Option<Move>>,
    rng: StdRng,
    /// What values are searched with: never the game's own chance, so that
    /// asking for values does not change the dice.
    values_rng: StdRng,
    scratch: Scratch<Move>,
    /// The outcome once the game is over.
    outcome: Option<String>,
    /// Dots and boxes: for each cell of the grid, the player whose move
    /// closed the box drawn there (the state keeps only the counts).
    owners: Vec<Option<Player>>,
    seed: u64,
    options: AgentArgs,
    allow_exec: bool,
}

/// A step played, and whether a person at the page chose a move of it.
struct Logged {
    step: Step<Move>,
    by_person: bool,
}

impl<'g> Play<'g> {
    fn new(game: &'g Interpreted, setup: &Setup, id: u64, ctx: &Context) -> Result<Self, ApiError> {
        let specs = players_for(&setup.players, game).map_err(ApiError::of)?;
        let options = AgentArgs {
            optimal_agents: specs.iter().filter(|s| matches!(s.spec, AgentSpec::Optimal(_))).count(),
            ..setup.options.clone()
        };
        let state = game.initial_state().map_err(|e| game_error(&e))?;
        let mut play = Play {
            id,
            game,
            agents: Vec::new(),
            chosen: vec![None; specs.len()],
            specs,
            state,
            moves: Vec::new(),
            log: Vec::new(),
            rng: StdRng::seed_from_u64(setup.seed),
            values_rng: StdRng::seed_from_u64(setup.seed ^ 0x0005_eed0_f7a1),
            scratch: Scratch::default(),
            outcome: None,
            owners: Vec::new(),
            seed: setup.seed,
            options,
            allow_exec: setup.allow_exec,
        };
        for k in 0..play.specs.len() {
            let agent = play.seat_agent(k, &play.specs[k].spec.clone(), ctx)?;
            play.agents.push(agent);
        }
        play.settle()?;
        Ok(play)
    }

    /// The agent for player `k` of spec `spec` (`None` for a person), ready
    /// for this game: told of every step so far, as if it had seen them.
    fn seat_agent(&self, k: Player, spec: &AgentSpec, ctx: &Context) -> Result<Option<BoxedAgent<'g>>, ApiError> {
        let seed = self.seed.wrapping_add(k as u64 + 1);
        match spec {
            AgentSpec::Human => Ok(None),
            AgentSpec::Exec(_) if !self.allow_exec => Err(ApiError::new(
                403,
                format!(
                    "error: {spec}: `exec:` agents run programs on this machine; start the server with `gdl serve --allow-exec` to seat them"
                ),
            )),
            s => {
                let game = self.game;
                let mut agent = make_agent_with(s, game, seed, &self.options, None, ctx).map_err(ApiError::of)?;
                agent.game_number(1);
                agent.new_game(game, seed).map_err(|e| ApiError::new(422, render(&e)))?;
                if agent.wants_steps() {
                    let mut state = game.initial_state().map_err(|e| game_error(&e))?;
                    for logged in &self.log {
                        let before = state.clone();
                        apply_step(game, &mut state, &logged.step)?;
                        agent.after_step(game, k, &before, &logged.step, &state);
                    }
                }
                Ok(Some(agent))
            }
        }
    }

    /// Seats `agent` (a spec as `--players` takes one, or `human`) at
    /// `player` from now on: a person takes over from an agent that
    /// failed, or an agent from a person.
    fn seat(&mut self, player: usize, agent: &str, ctx: &Context) -> Result<(), ApiError> {
        if player >= self.specs.len() {
            return Err(ApiError::new(
                400,
                format!(
                    "error: there is no player {player}: the players are 0 to {}",
                    self.specs.len() - 1
                ),
            ));
        }
        let spec = self.spec_at(player, agent)?;
        self.agents[player] = self.seat_agent(player, &spec.spec, ctx)?;
        self.specs[player] = spec;
        self.chosen[player] = None;
        Ok(())
    }

    /// `agent` (as `--players` writes one) read as the spec of `player`'s
    /// seat: parsed with the other seats as they are, so that a name
    /// agents share (`mcts` twice) is told apart as at the start.
    fn spec_at(&self, player: Player, agent: &str) -> Result<PlayerSpec, ApiError> {
        let mut seats: Vec<String> = self.specs.iter().map(ToString::to_string).collect();
        seats[player] = agent.trim().to_string();
        let mut specs = players_for(&seats.join(","), self.game).map_err(ApiError::of)?;
        Ok(specs.swap_remove(player))
    }

    /// Takes back the last move a person made and every step after it: the
    /// game is played again from the start up to it, with every agent seated
    /// afresh (so that none remembers the moves taken back).
    fn undo(&mut self, ctx: &Context) -> Result<(), ApiError> {
        let Some(last) = self.log.iter().rposition(|l| l.by_person) else {
            return Err(ApiError::new(409, "error: no move of a person to take back"));
        };
        let mut kept = std::mem::take(&mut self.log);
        kept.truncate(last);
        self.state = self.game.initial_state().map_err(|e| game_error(&e))?;
        self.moves.clear();
        self.owners.clear();
        self.outcome = None;
        self.chosen = vec![None; self.specs.len()];
        for k in 0..self.specs.len() {
            self.agents[k] = self.seat_agent(k, &self.specs[k].spec.clone(), ctx)?;
        }
        for logged in kept {
            self.apply(logged.step)?;
        }
        Ok(())
    }

    fn turn(&self) -> Result<Turn, ApiError> {
        self.game.turn(&self.state).map_err(|e| game_error(&e))
    }

    /// The person who chooses next, if a person does.
    fn person_to_move(&self) -> Result<Option<Player>, ApiError> {
        Ok(match self.turn()? {
            Turn::Player(p) => self.agents[p].is_none().then_some(p),
            Turn::Simultaneous => (0..self.specs.len()).find(|&p| self.agents[p].is_none() && self.chosen[p].is_none()),
            Turn::Chance | Turn::Terminal => None,
        })
    }

    /// A person's move, typed as at the terminal (or sent by a click).
    fn person_moves(&mut self, text: &str, ctx: &Context) -> Result<(), ApiError> {
        let Some(p) = self.person_to_move()? else {
            return Err(ApiError::new(409, self.not_yours()?));
        };
        let mv = self.game.parse_move_of(&self.state, p, text).map_err(|why| {
            let mut legal = Vec::new();
            let _ = self.game.legal_moves_of(&self.state, p, &mut legal);
            let listed: Vec<String> = legal.iter().map(|m| self.game.move_text(m)).collect();
            ApiError::new(400, format!("error: {why}; the legal moves are {}", listed.join(", ")))
        })?;
        match self.turn()? {
            Turn::Simultaneous => {
                self.chosen[p] = Some(mv);
                // The agents choose once every person has.
                if self.person_to_move()?.is_none() {
                    self.step(None, ctx)?;
                }
                Ok(())
            }
            _ => {
                let played = Played {
                    player: p,
                    mv,
                    note: None,
                };
                self.apply(Step::Moves(vec![played]))
            }
        }
    }

    /// Why nobody at the page may move now.
    fn not_yours(&self) -> Result<String, ApiError> {
        Ok(match self.turn()? {
            Turn::Terminal => "error: the game is over".to_string(),
            Turn::Chance => "error: chance moves next: ask for the next step".to_string(),
            Turn::Player(p) => format!(
                "error: it is {}'s move, and {} plays it: ask for the next step",
                self.game.player_name(p),
                self.specs[p]
            ),
            Turn::Simultaneous => "error: the agents choose next: ask for the next step".to_string(),
        })
    }

    /// The next agent's move, or chance's; with `instead`, an agent of that
    /// spec chooses for the seat to move, this once.
    fn step(&mut self, instead: Option<&str>, ctx: &Context) -> Result<(), ApiError> {
        let step = match self.turn()? {
            Turn::Terminal => return Err(ApiError::new(409, "error: the game is over")),
            Turn::Chance => {
                let m = sample_chance(self.game, &self.state, &mut self.rng, &mut self.scratch)
                    .map_err(|e| game_error(&e))?;
                Step::Chance(m)
            }
            Turn::Player(p) => {
                if self.agents[p].is_none() {
                    return Err(ApiError::new(
                        409,
                        format!(
                            "error: it is {}'s move, made at the page: send it",
                            self.game.player_name(p)
                        ),
                    ));
                }
                let mut moves = Vec::new();
                self.game
                    .legal_moves(&self.state, &mut moves)
                    .map_err(|e| game_error(&e))?;
                match instead {
                    Some(spec) => {
                        let stand_in_spec = self.spec_at(p, spec)?;
                        let Some(mut stand_in) = self.seat_agent(p, &stand_in_spec.spec, ctx)? else {
                            return Err(ApiError::new(
                                400,
                                "error: a person cannot stand in for an agent: seat them instead",
                            ));
                        };
                        let played = self.ask_agent(&mut stand_in, p, &moves)?;
                        Step::Moves(vec![played])
                    }
                    None => Step::Moves(vec![self.ask(p, &moves)?]),
                }
            }
            Turn::Simultaneous => {
                if let Some(p) = self.person_to_move()? {
                    return Err(ApiError::new(
                        409,
                        format!(
                            "error: {} has not chosen yet: send their move",
                            self.game.player_name(p)
                        ),
                    ));
                }
                let mut all = Vec::new();
                for p in 0..self.specs.len() {
                    match self.chosen[p].take() {
                        Some(mv) => all.push(Played {
                            player: p,
                            mv,
                            note: None,
                        }),
                        None => {
                            let mut moves = Vec::new();
                            self.game
                                .legal_moves_of(&self.state, p, &mut moves)
                                .map_err(|e| game_error(&e))?;
                            all.push(self.ask(p, &moves)?);
                        }
                    }
                }
                Step::Moves(all)
            }
        };
        self.apply(step)
    }

    /// Asks player `p`'s agent for a move among `moves`, checked to be legal.
    fn ask(&mut self, p: Player, moves: &[Move]) -> Result<Played<Move>, ApiError> {
        let mut agent = self.agents[p].take().expect("asked only of agents");
        let played = self.ask_agent(&mut agent, p, moves);
        self.agents[p] = Some(agent);
        played
    }

    /// Asks `agent`, playing `p`, for a move among `moves`, checked to be legal.
    fn ask_agent(&self, agent: &mut BoxedAgent<'g>, p: Player, moves: &[Move]) -> Result<Played<Move>, ApiError> {
        let ply = self.moves.len() + 1;
        if moves.is_empty() {
            return Err(ApiError::new(
                422,
                format!(
                    "error: {} has no legal move, but the game is not over",
                    self.game.player_name(p)
                ),
            ));
        }
        let choice = agent
            .choose(self.game, &self.state, p, moves)
            .map_err(|e| ApiError::new(422, format!("error: the game stopped at move {ply}\n{}", render(&e))))?;
        if !moves.contains(&choice.mv) {
            return Err(ApiError::new(
                422,
                format!(
                    "error: {} chose {}, which is not a legal move here (a bug in the agent)",
                    agent.name(),
                    self.game.move_text(&choice.mv)
                ),
            ));
        }
        Ok(Played {
            player: p,
            mv: choice.mv,
            note: choice.note,
        })
    }

    /// Plays `step`: the agents that watch the game see it, the page's
    /// list gets it, and a game that ends gets its outcome.
    fn apply(&mut self, step: Step<Move>) -> Result<(), ApiError> {
        let before = self.state.clone();
        apply_step(self.game, &mut self.state, &step)?;
        if let Step::Moves(played) = &step
            && let [one] = played.as_slice()
        {
            self.own_boxes(&before, one.player)?;
        }
        for (p, agent) in self.agents.iter_mut().enumerate() {
            if let Some(agent) = agent
                && agent.wants_steps()
            {
                agent.after_step(self.game, p, &before, &step, &self.state);
            }
        }
        let public = all_public(self.game);
        let by_person = match &step {
            Step::Chance(_) => false,
            Step::Moves(played) => played.iter().any(|x| self.agents[x.player].is_none()),
        };
        self.moves.push(match &step {
            Step::Chance(m) => json!({
                "who": "chance",
                // A deal of hidden cards is not shown to the people playing.
                "move": if public { self.game.move_text(m) } else { "(hidden)".to_string() },
            }),
            Step::Moves(played) => {
                let each: Vec<String> = played
                    .iter()
                    .map(|x| format!("{} {}", self.game.player_name(x.player), self.game.move_text(&x.mv)))
                    .collect();
                json!({
                    "who": if played.len() == 1 { self.game.player_name(played[0].player).to_string() } else { "all".to_string() },
                    "move": if played.len() == 1 { self.game.move_text(&played[0].mv) } else { each.join(", ") },
                })
            }
        });
        self.log.push(Logged { step, by_person });
        self.settle()
    }

    /// Dots and boxes: the boxes `player`'s move closed (a cell that was
    /// empty and is not now, both its row and column odd) are theirs.
    fn own_boxes(&mut self, before: &State, player: Player) -> Result<(), ApiError> {
        let dots = self
            .game
            .program()
            .display
            .as_ref()
            .is_some_and(|d| d.look.style == Style::Dots);
        if !dots {
            return Ok(());
        }
        let board = |s: &State| self.game.board(s).map_err(|e| game_error(&e));
        let (Some(Board::Grid { cols, cells: was, .. }), Some(Board::Grid { cells: now, .. })) =
            (board(before)?, board(&self.state)?)
        else {
            return Ok(());
        };
        if was.len() != now.len() {
            return Ok(());
        }
        self.owners.resize(now.len(), None);
        for i in 0..now.len() {
            let inside = (i / cols) % 2 == 1 && (i % cols) % 2 == 1;
            if inside && was[i] != now[i] && self.owners[i].is_none() {
                self.owners[i] = Some(player);
            }
        }
        Ok(())
    }

    /// At the end of the game, its outcome, as `gdl play` prints it.
    fn settle(&mut self) -> Result<(), ApiError> {
        if self.outcome.is_some() || self.turn()? != Turn::Terminal {
            return Ok(());
        }
        let mut lines = Vec::new();
        let mut forfeited = Vec::new();
        for (p, agent) in self.agents.iter_mut().enumerate() {
            let Some(agent) = agent else { continue };
            if let Some(f) = agent
                .end_game(self.game, &self.state, p)
                .map_err(|e| ApiError::new(422, render(&e)))?
            {
                lines.push(failure_line(&agent.name(), self.game.player_name(p), &f));
                if f.forfeit {
                    forfeited.push(p);
                }
            }
        }
        lines.push(outcome_text_after(self.game, &self.state, &forfeited).map_err(|e| game_error(&e))?);
        self.outcome = Some(lines.join("\n"));
        Ok(())
    }

    /// Whose eyes the position is shown through: the one person playing;
    /// with several, the one to move (the page hands the screen over), else
    /// the one who moved last; with none, or once the game is over,
    /// everything (the cards are turned up).
    fn viewer(&self) -> Result<Option<Player>, ApiError> {
        if self.outcome.is_some() {
            return Ok(None);
        }
        let people: Vec<Player> = (0..self.agents.len()).filter(|&p| self.agents[p].is_none()).collect();
        Ok(match people.as_slice() {
            [] => None,
            [one] => Some(*one),
            _ => {
                let last = self.log.iter().rev().find_map(|l| match &l.step {
                    Step::Moves(played) => played.iter().map(|x| x.player).find(|&p| self.agents[p].is_none()),
                    Step::Chance(_) => None,
                });
                Some(self.person_to_move()?.or(last).unwrap_or(people[0]))
            }
        })
    }

    /// The game as the page shows it.
    fn view(&self) -> Result<Value, ApiError> {
        let game = self.game;
        let turn = self.turn()?;
        let viewer = self.viewer()?;
        let public = all_public(game);
        // A display draws the whole position, hidden cards included.
        let sees_all = viewer.is_none() || public;
        let display = game.program().display.as_ref();
        let fields = display
            .filter(|d| d.layout == ir::DisplayLayout::Fields)
            .map(|d| fields_json(game, &self.state, viewer, d));
        let board = if sees_all {
            game.board(&self.state).map_err(|e| game_error(&e))?
        } else {
            None
        };
        let person = self.person_to_move()?;
        let mut legal = Vec::new();
        if let Some(p) = person {
            game.legal_moves_of(&self.state, p, &mut legal)
                .map_err(|e| game_error(&e))?;
        }
        // Where a click plays a move: only where one player moves alone,
        // so that a move's board can be drawn.
        let click = match (&board, turn) {
            (Some(b), Turn::Player(_)) if person.is_some() => {
                let mut after = Vec::with_capacity(legal.len());
                for m in &legal {
                    let mut s = self.state.clone();
                    game.apply(&mut s, m).map_err(|e| game_error(&e))?;
                    match game.board(&s).map_err(|e| game_error(&e))? {
                        Some(a) => after.push(a),
                        None => break,
                    }
                }
                (after.len() == legal.len())
                    .then(|| {
                        let click = game.program().display.as_ref().map(|d| d.look.click);
                        clicks::targets(b, &after, click.unwrap_or_default())
                    })
                    .flatten()
            }
            _ => None,
        };
        // Pits whose sides are declared: the mover sows from their own row
        // only (a capture empties a pit of the other's row too, and would
        // read as a sowing from it).
        let click = match (click, display, turn) {
            (Some(mut click), Some(d), Turn::Player(p)) if d.look.sides.len() == 2 && click.get("bottom").is_some() => {
                let other = if d.look.sides[0] == p { "top" } else { "bottom" };
                if let Some(row) = click.get_mut(other).and_then(Value::as_array_mut) {
                    row.iter_mut().for_each(|k| *k = Value::Null);
                }
                Some(click)
            }
            (click, ..) => click,
        };
        // Where the display says what a click on a cell plays, that wins
        // over what comparing the boards guessed.
        let click = match (&board, person) {
            (Some(_), Some(_)) => match game.display_plays(&self.state).map_err(|e| game_error(&e))? {
                Some(plays) => {
                    let texts: Vec<String> = legal.iter().map(|m| game.move_text(m)).collect();
                    let cells: Vec<Option<usize>> = plays
                        .iter()
                        .map(|v| texts.iter().position(|t| *t == v.to_string()))
                        .collect();
                    let mut click = click.unwrap_or_else(|| json!({}));
                    click["cells"] = json!(cells);
                    if click.get("pieces").is_none() {
                        click["pieces"] = json!(vec![Value::Null; legal.len()]);
                    }
                    Some(click)
                }
                None => click,
            },
            _ => click,
        };
        let column_names = match &board {
            Some(Board::Grid { cols, .. }) => self.column_names(*cols)?,
            _ => None,
        };
        let (turn_kind, mover) = match turn {
            Turn::Player(p) => ("player", Some(p)),
            Turn::Simultaneous => ("simultaneous", person),
            Turn::Chance => ("chance", None),
            Turn::Terminal => ("terminal", None),
        };
        let players: Vec<Value> = self
            .specs
            .iter()
            .enumerate()
            .map(|(p, s)| json!({"name": game.player_name(p), "agent": s.to_string(), "person": self.agents[p].is_none()}))
            .collect();
        Ok(json!({
            "id": self.id,
            "game": game.name(),
            "players": players,
            "turn": turn_kind,
            "mover": mover,
            "mover_name": mover.map(|p| game.player_name(p)),
            "person": person,
            "board": board.as_ref().map(|b| {
                let mut drawn = board_json(b, display, &game.program().players);
                drawn["owners"] = json!(self.owners.iter().map(|o| o.map(|p| game.player_name(p))).collect::<Vec<_>>());
                drawn["column_names"] = json!(column_names);
                drawn
            }),
            "fields": fields,
            "viewer": viewer,
            "hidden": !public,
            "line": self.winning_line(board.as_ref())?,
            "text": position_lines(game, &self.state, viewer, false, "").map_err(|e| game_error(&e))?,
            "raw": sees_all.then(|| game.position(&self.state)),
            "moves": legal.iter().map(|m| game.move_text(m)).collect::<Vec<_>>(),
            "clicks": click,
            "history": self.moves,
            "outcome": self.outcome,
        }))
    }

    /// Where the display's `plays(r, c)` names each column by one move
    /// (connect four's `plays(r, c) = c + 1`), the columns are named as the
    /// moves are, so that the board and the move list agree.
    fn column_names(&self, cols: usize) -> Result<Option<Vec<String>>, ApiError> {
        let Some(plays) = self.game.display_plays(&self.state).map_err(|e| game_error(&e))? else {
            return Ok(None);
        };
        if cols == 0 || plays.len() % cols != 0 {
            return Ok(None);
        }
        let names: Vec<i64> = plays[..cols].to_vec();
        let same_down = plays.chunks(cols).all(|row| row == names.as_slice());
        let distinct = names.iter().collect::<std::collections::HashSet<_>>().len() == cols;
        Ok((same_down && distinct && cols < plays.len()).then(|| names.iter().map(i64::to_string).collect()))
    }

    /// At the end of a game whose display says how many in a row win
    /// (`line = 3`), the cells of each such line of one symbol (not the
    /// empty one), for the page to mark.
    fn winning_line(&self, board: Option<&Board>) -> Result<Option<Vec<usize>>, ApiError> {
        let (Some(Board::Grid { rows, cols, cells, .. }), Some(_)) = (board, &self.outcome) else {
            return Ok(None);
        };
        let Some(n) = self.game.display_line(&self.state).map_err(|e| game_error(&e))? else {
            return Ok(None);
        };
        let empty = self.game.program().display.as_ref().and_then(|d| d.symbols.first());
        let line = runs(*rows, *cols, cells, n, empty.map(String::as_str));
        Ok((!line.is_empty()).then_some(line))
    }

    /// Each legal move's exact value (where the solver finishes within its
    /// budget), else MCTS's visits and mean returns.
    fn values(&mut self) -> Result<Value, ApiError> {
        let game = self.game;
        let turn = self.turn()?;
        let player = match turn {
            Turn::Terminal => return Err(ApiError::new(409, "error: the game is over: no move to value")),
            Turn::Chance => return Err(ApiError::new(409, "error: chance moves next: no move to value")),
            Turn::Player(p) => p,
            Turn::Simultaneous => self.person_to_move()?.unwrap_or(0),
        };
        let kinds = MoveKinds::of(game.program());
        let mut note = None;
        if game.num_players() == 2 && !kinds.chance && !kinds.simultaneous && !kinds.hidden {
            let opts = SolveOptions {
                count_states: false,
                max_nodes: Some(VALUE_NODES),
                time_limit: Some(VALUE_TIME),
                ..SolveOptions::default()
            };
            match crate::solve::explain(game, &self.state, &opts) {
                Ok(moves) => {
                    // The solver's values are player 0's, and the game is
                    // zero-sum: the side to move reads them from its side.
                    let sign = if player == 0 { 1.0 } else { -1.0 };
                    let values: Vec<f64> = moves.iter().map(|m| sign * m.value).collect();
                    let best = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                    // Best moves are marked only where some are worse.
                    let differ = values.iter().any(|&v| v != best);
                    let listed: Vec<Value> = moves
                        .iter()
                        .zip(&values)
                        .map(|(m, &v)| {
                            json!({
                                "move": game.move_text(&m.mv),
                                // -0.0 reads as 0.
                                "value": v + 0.0,
                                "best": differ && v == best,
                                "line": m.line.iter().map(|x| game.move_text(x)).collect::<Vec<_>>(),
                            })
                        })
                        .collect();
                    return Ok(json!({
                        "kind": "exact",
                        "player": game.player_name(player),
                        "for": game.player_name(player),
                        "moves": listed,
                    }));
                }
                Err(SolveError::Budget { .. }) => {
                    note = Some(format!(
                        "not solved within {VALUE_NODES} nodes or {} s: MCTS's statistics instead",
                        VALUE_TIME.as_secs()
                    ));
                }
                Err(e) => note = Some(format!("not solved ({e}): MCTS's statistics instead")),
            }
        }
        let cfg = MctsConfig {
            simulations: MCTS_SIMULATIONS,
            time: Some(MCTS_TIME),
            threads: 1,
            ..MctsConfig::default()
        };
        let result = mcts::search(game, &self.state, &[], player, &cfg, &mut self.values_rng, &mut None)
            .map_err(|e| game_error(&e))?;
        let most = result.moves.iter().map(|m| m.visits).max().unwrap_or(0);
        let listed: Vec<Value> = result
            .moves
            .iter()
            .map(|m| {
                json!({
                    "move": game.move_text(&m.mv),
                    // MCTS plays the move it visited most.
                    "chosen": m.visits == most,
                    "visits": m.visits,
                    "mean": m.mean(),
                    "proven": m.proven().filter(|_| result.solving),
                })
            })
            .collect();
        Ok(json!({
            "kind": "mcts",
            "player": game.player_name(player),
            "note": note,
            "simulations": result.simulations,
            "moves": listed,
        }))
    }
}

/// Plays `step` on `state`.
fn apply_step(game: &Interpreted, state: &mut State, step: &Step<Move>) -> Result<(), ApiError> {
    match step {
        Step::Chance(m) => game.apply(state, m),
        Step::Moves(played) if played.len() == 1 => game.apply(state, &played[0].mv),
        Step::Moves(played) => {
            let joint: Vec<Move> = played.iter().map(|x| x.mv).collect();
            game.apply_joint(state, &joint)
        }
    }
    .map_err(|e| game_error(&e))
}

/// A board as the page draws it; a grid with its display's style and the
/// colour of each symbol that has one; the sides each player owns (`sides`),
/// each with the player's name and colour (a player's symbol is the one
/// after the empty one, in the order of the players).
fn board_json(board: &Board, display: Option<&ir::Display>, players: &[String]) -> Value {
    let sides: Vec<Value> = display
        .map(|d| {
            d.look
                .sides
                .iter()
                .map(|&p| {
                    let colour = d.look.colours.get(p + 1).filter(|c| !c.is_empty());
                    json!({"player": players.get(p), "colour": colour})
                })
                .collect()
        })
        .unwrap_or_default();
    let mut drawn = board_shape(board, display);
    if let Value::Object(map) = &mut drawn {
        map.insert("sides".into(), Value::Array(sides));
    }
    drawn
}

fn board_shape(board: &Board, display: Option<&ir::Display>) -> Value {
    match board {
        Board::Grid {
            rows,
            cols,
            shift,
            cells,
        } => {
            let look = display.map(|d| &d.look).cloned().unwrap_or_default();
            let colours: serde_json::Map<String, Value> = display
                .into_iter()
                .flat_map(|d| d.symbols.iter().zip(&d.look.colours))
                .filter(|(_, colour)| !colour.is_empty())
                .map(|(symbol, colour)| (symbol.clone(), json!(colour)))
                .collect();
            // The value 0's symbol is an empty cell, whatever it looks like
            // (Othello's `-`).
            let empty = display.and_then(|d| d.symbols.first());
            json!({
                "layout": "grid", "rows": rows, "cols": cols, "shift": shift, "cells": cells,
                "style": look.style.name(), "colours": colours, "empty": empty,
            })
        }
        Board::Pits {
            bottom,
            top,
            left,
            right,
        } => json!({"layout": "pits", "bottom": bottom, "top": top, "left": left, "right": right}),
        Board::Rows { rows } => json!({
            "layout": "rows",
            "rows": rows.iter().map(|(label, n, symbol)| json!({"label": label, "count": n, "symbol": symbol})).collect::<Vec<_>>(),
        }),
    }
}

/// The cells of every run of `n` or more equal symbols (not `empty`) along a
/// row, a column or a diagonal of a `rows × cols` grid, in order.
fn runs(rows: usize, cols: usize, cells: &[String], n: usize, empty: Option<&str>) -> Vec<usize> {
    let mut marked = vec![false; cells.len()];
    let at = |r: isize, c: isize| {
        (r >= 0 && c >= 0 && (r as usize) < rows && (c as usize) < cols).then(|| r as usize * cols + c as usize)
    };
    for r in 0..rows as isize {
        for c in 0..cols as isize {
            let start = at(r, c).expect("on the board");
            let sym = &cells[start];
            if Some(sym.as_str()) == empty || sym.trim().is_empty() {
                continue;
            }
            for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                // Only from a run's first cell.
                if at(r - dr, c - dc).is_some_and(|i| &cells[i] == sym) {
                    continue;
                }
                let run: Vec<usize> = (0..)
                    .map_while(|k| at(r + k * dr, c + k * dc).filter(|&i| &cells[i] == sym))
                    .collect();
                if run.len() >= n {
                    for i in run {
                        marked[i] = true;
                    }
                }
            }
        }
    }
    (0..cells.len()).filter(|&i| marked[i]).collect()
}

/// A run-time error of the rules, as the command line prints it.
fn game_error(e: &GameError) -> ApiError {
    ApiError::new(422, crate::report::diagnostic::render(e, false).trim_end().to_string())
}

fn render(e: &AgentError) -> String {
    crate::report::diagnostic::render(e, false).trim_end().to_string()
}
