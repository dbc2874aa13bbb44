//! The JSON API the page uses, and the page itself:
//!
//! | request | body | answer |
//! |---|---|---|
//! | `GET /api/games` | | the bundled games: name, what it is |
//! | `POST /api/game` | `{"game": NAME or PATH, "params"?}` | its parameters (defaults, ranges), its players with those parameters, a default seating |
//! | `POST /api/new` | `{"game", "params": {NAME: VALUE}, "players": "human,optimal", "seed"?}` | a new game's state |
//! | `GET /api/state?id=N` | | the state of game N |
//! | `POST /api/move` | `{"id", "move": TEXT}` | the state after a person's move |
//! | `POST /api/step` | `{"id", "instead"?: AGENT}` | the state after the next agent's move or chance; with `instead`, that agent chooses this one move |
//! | `POST /api/values` | `{"id"}` | each legal move's exact value, or MCTS's statistics |
//! | `POST /api/seat` | `{"id", "player": N, "agent": AGENT}` | the state with `agent` (or `human`) seated at player N from now on |
//! | `POST /api/undo` | `{"id"}` | the state before the last move a person made |
//!
//! An error is `{"error": TEXT}`, TEXT as the command line prints it, with
//! status 400 for bad input (exit code 2 at the command line), 422 when the
//! rules or an agent failed while playing (exit code 1), 403 for an `exec:`
//! agent the server was not allowed to start, 404 for an unknown game id or
//! path, 409 for a request that does not fit the turn (a move when an agent
//! is to move). A request the server will not read is answered the same way
//! (`http.rs`): 400 when it is malformed or names no host or two, 403 when it
//! names another host or comes from another site, 408 when it came too
//! slowly, 413 for a body over 64 KiB, 414 and 431 for a head too long, 501
//! for a chunked body, 503 when the server is answering too many at once.

use std::collections::HashMap;
use std::net::TcpStream;
use std::path::Path;
use std::sync::Mutex;
use std::sync::mpsc::{self, Sender};
use std::time::Instant;

use serde_json::{Value, json};

use super::ServeArgs;
use super::api_error::ApiError;
use super::http::{Connection, Head, Response};
use super::session::{self, Command, Setup};
use crate::bundled;
use crate::cli::kit::agents::AgentArgs;
use crate::compile;
use crate::game::Game;
use crate::runtime::Engine;

const PAGE: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/app.js");
const STYLE: &str = include_str!("page/style.css");

/// The largest request body read: a game's parameters and a move are small.
const MAX_BODY: usize = 64 * 1024;

/// A game being played: where to send its requests, and when it was last asked.
struct Live {
    to: Sender<session::Request>,
    used: Instant,
}

/// The server's state: the games being played, and how to start new ones.
pub(super) struct App {
    games: Mutex<HashMap<u64, Live>>,
    next_id: Mutex<u64>,
    max_games: usize,
    allow_exec: bool,
    seed: Option<u64>,
    agents: AgentArgs,
    engine: Engine,
    /// The port listened on, which the `Host` of a request must name.
    port: u16,
}

impl App {
    pub fn new(args: &ServeArgs, port: u16, engine: Engine) -> Self {
        let mut agents = args.agents.clone();
        // A page waits for each move: an agent without a limit could keep it
        // waiting for ever (optimal on connect four).
        agents.budget_ms.get_or_insert(1000);
        agents.search.time_limit.get_or_insert(10.0);
        agents.resist = true;
        App {
            games: Mutex::new(HashMap::new()),
            next_id: Mutex::new(1),
            max_games: args.max_games,
            allow_exec: args.allow_exec,
            seed: args.seed,
            agents,
            engine,
            port,
        }
    }

    /// Reads one request from `stream` and answers it; a failure to send
    /// the answer (the browser went away) is nobody's to hear. The host is
    /// checked before the body is read.
    pub fn answer(&self, stream: TcpStream) {
        let mut connection = Connection::new(stream);
        let reply = match connection.read_head() {
            Ok(None) => return,
            Ok(Some(head)) => self
                .check_origin(&head)
                .and_then(|()| connection.read_body(&head, MAX_BODY))
                .and_then(|body| self.route(&head, &body)),
            Err(e) => Err(e),
        };
        connection.respond(&reply.unwrap_or_else(error_reply));
    }

    /// Answers 503 to a connection the server has no thread for.
    pub fn turn_away(&self, stream: TcpStream) {
        let e = ApiError::new(
            503,
            format!(
                "error: the server is answering {} requests at once; try again",
                super::MAX_CONNECTIONS
            ),
        );
        Connection::new(stream).turn_away(&error_reply(e));
    }

    fn route(&self, head: &Head, body: &[u8]) -> Result<Response, ApiError> {
        let method = head.method.as_str();
        let (path, query) = head.target.split_once('?').unwrap_or((&head.target, ""));
        match (method, path) {
            ("GET", "/") | ("GET", "/index.html") => Ok(text_reply(PAGE, "text/html; charset=utf-8")),
            ("GET", "/app.js") => Ok(text_reply(SCRIPT, "text/javascript; charset=utf-8")),
            ("GET", "/style.css") => Ok(text_reply(STYLE, "text/css; charset=utf-8")),
            ("GET", "/api/games") => Ok(json_reply(200, &games())),
            ("GET", "/api/state") => {
                let id = query
                    .split('&')
                    .find_map(|kv| kv.strip_prefix("id="))
                    .and_then(|v| v.parse().ok())
                    .ok_or_else(|| ApiError::new(400, "error: /api/state?id=N: give the game's id"))?;
                self.ask(id, Command::State)
            }
            ("POST", "/api/game") => {
                let body = read_json(body)?;
                describe(
                    str_field(&body, "game")?,
                    body.get("params"),
                    self.engine,
                    self.allow_exec,
                )
                .map(|v| json_reply(200, &v))
            }
            ("POST", "/api/new") => {
                let body = read_json(body)?;
                self.new_game(&body)
            }
            ("POST", "/api/move") => {
                let body = read_json(body)?;
                let mv = str_field(&body, "move")?.to_string();
                self.ask(id_field(&body)?, Command::Move(mv))
            }
            ("POST", "/api/step") => {
                let body = read_json(body)?;
                let instead = match body.get("instead") {
                    None | Some(Value::Null) => None,
                    Some(Value::String(s)) => Some(s.clone()),
                    Some(_) => return Err(ApiError::new(400, "error: `instead` is an agent: `random`")),
                };
                self.ask(id_field(&body)?, Command::Step { instead })
            }
            ("POST", "/api/seat") => {
                let body = read_json(body)?;
                let player = body
                    .get("player")
                    .and_then(Value::as_u64)
                    .and_then(|p| usize::try_from(p).ok())
                    .ok_or_else(|| ApiError::new(400, "error: `player` is the player's number, from 0"))?;
                let agent = str_field(&body, "agent")?.to_string();
                self.ask(id_field(&body)?, Command::Seat { player, agent })
            }
            ("POST", "/api/undo") => {
                let body = read_json(body)?;
                self.ask(id_field(&body)?, Command::Undo)
            }
            ("POST", "/api/values") => {
                let body = read_json(body)?;
                self.ask(id_field(&body)?, Command::Values)
            }
            (_, "/" | "/index.html" | "/app.js" | "/style.css" | "/api/games" | "/api/state") => {
                Err(ApiError::new(405, format!("error: {path} answers GET, not {method}")))
            }
            (_, "/api/game" | "/api/new" | "/api/move" | "/api/step" | "/api/values" | "/api/seat" | "/api/undo") => {
                Err(ApiError::new(405, format!("error: {path} answers POST, not {method}")))
            }
            _ => Err(ApiError::new(404, format!("error: nothing at {path}"))),
        }
    }

    /// Refuses a request that does not name one host, or names a host
    /// other than this machine (a DNS rebinding attack names the attacker's),
    /// or that a page of another site sent (its `Origin` is not this server).
    fn check_origin(&self, head: &Head) -> Result<(), ApiError> {
        let ours = |host: &str| {
            // `[::1]` has colons of its own: a port follows its `]`.
            let (name, port) = match host.rsplit_once(':') {
                Some((name, port)) if !port.ends_with(']') => (name, port),
                _ => (host, ""),
            };
            ["127.0.0.1", "localhost", "[::1]"].contains(&name) && (port.is_empty() || port == self.port.to_string())
        };
        let mut hosts = head.values("Host");
        let host = match (hosts.next(), hosts.next()) {
            (Some(host), None) => host,
            (None, _) => return Err(ApiError::new(400, "error: the request names no Host")),
            (Some(_), Some(_)) => return Err(ApiError::new(400, "error: the request names its Host twice")),
        };
        if !ours(host) {
            return Err(ApiError::new(
                403,
                format!("error: this server answers requests for 127.0.0.1 or localhost, not {host}"),
            ));
        }
        for origin in head.values("Origin") {
            let host = origin.strip_prefix("http://").unwrap_or("");
            if !ours(host) {
                return Err(ApiError::new(403, format!("error: requests from {origin} are refused")));
            }
        }
        Ok(())
    }

    /// Starts a game on its own thread, and answers its first state.
    fn new_game(&self, body: &Value) -> Result<Response, ApiError> {
        let game = str_field(body, "game")?;
        let text = read_game(game)?;
        let players = match body.get("players") {
            Some(Value::String(p)) => p.clone(),
            None | Some(Value::Null) => {
                return Err(ApiError::new(
                    400,
                    "error: `players` is missing: one agent per player, `human,optimal`",
                ));
            }
            Some(_) => return Err(ApiError::new(400, "error: `players` is a text: `human,optimal`")),
        };
        let bindings = bindings(game, &text, body.get("params"))?;
        let seed = match body.get("seed") {
            Some(Value::Number(n)) => n
                .as_u64()
                .ok_or_else(|| ApiError::new(400, "error: `seed` is a whole number from 0"))?,
            None | Some(Value::Null) => self.seed.unwrap_or_else(fresh_seed),
            Some(_) => return Err(ApiError::new(400, "error: `seed` is a whole number from 0")),
        };
        let setup = Setup {
            name: game.to_string(),
            text,
            bindings,
            players,
            seed,
            options: self.agents.clone(),
            allow_exec: self.allow_exec,
            engine: self.engine,
        };
        let id = {
            let mut next = self.next_id.lock().expect("no thread panics holding it");
            *next += 1;
            *next - 1
        };
        let (to, first) = session::start(setup, id);
        let state = first.recv().map_err(|_| gone())??;
        let mut games = self.games.lock().expect("no thread panics holding it");
        // Full: the game left alone the longest goes (its thread ends).
        while games.len() >= self.max_games {
            let oldest = games.iter().min_by_key(|(_, g)| g.used).map(|(id, _)| *id);
            match oldest {
                Some(old) => games.remove(&old),
                None => break,
            };
        }
        games.insert(
            id,
            Live {
                to,
                used: Instant::now(),
            },
        );
        Ok(json_reply(200, &state))
    }

    /// Sends `command` to game `id`'s thread and waits for its answer.
    fn ask(&self, id: u64, command: Command) -> Result<Response, ApiError> {
        let to = {
            let mut games = self.games.lock().expect("no thread panics holding it");
            let live = games.get_mut(&id).ok_or_else(|| {
                ApiError::new(
                    404,
                    format!(
                        "error: no game {id} here (the server keeps the {} most recent games; start a new one)",
                        self.max_games
                    ),
                )
            })?;
            live.used = Instant::now();
            live.to.clone()
        };
        let (reply, answer) = mpsc::channel();
        to.send(session::Request { command, reply }).map_err(|_| gone())?;
        let value = answer.recv().map_err(|_| gone())??;
        Ok(json_reply(200, &value))
    }
}

/// A game's thread that ended without answering: a bug.
fn gone() -> ApiError {
    ApiError::new(
        500,
        "error: the game's thread ended without an answer (this is a bug in gdl)",
    )
}

/// The game named (bundled) or at a path, as `gdl` reads one.
fn read_game(game: &str) -> Result<String, ApiError> {
    bundled::read_game(Path::new(game)).map_err(|why| ApiError::new(400, format!("error: cannot read {game}: {why}")))
}

/// The bundled games, for the page's list.
fn games() -> Value {
    let list: Vec<Value> = bundled::games()
        .iter()
        .map(|(name, text)| json!({"name": name, "about": crate::bundled::describe(text)}))
        .collect();
    json!({ "games": list })
}

/// What the page needs to set up a game: its parameters (with defaults as
/// the command line takes them), its players with the parameters given (X
/// Nimmt!'s P), the seats it suggests, the agents it may seat (`exec:`
/// only where the server allows it).
fn describe(game: &str, params: Option<&Value>, engine: Engine, allow_exec: bool) -> Result<Value, ApiError> {
    let text = read_game(game)?;
    let bound = bindings(game, &text, params)?;
    let values = super::session::page_values(&bound);
    let program = compile::load_with(game, &text, compile::Bindings::Values(&values)).map_err(|errors| {
        ApiError::new(
            400,
            crate::report::diagnostic::render_compile_errors(&errors, false)
                .trim_end()
                .to_string(),
        )
    });
    // Parameters the page chose that do not compile are its error to show.
    let program = match program {
        Err(e) if !bound.is_empty() => return Err(e),
        p => p,
    };
    let ast = crate::syntax::parse(&text).map_err(|_| ApiError::new(400, format!("error: {game} does not parse")))?;
    let params: Vec<Value> = compile::params_of(&ast, &text)
        .iter()
        .map(|p| {
            json!({
                "name": p.name,
                "type": p.ty,
                "default": p.default.as_deref().map(flag_value),
                "range": p.range,
                "doc": p.doc,
            })
        })
        .collect();
    // A game whose defaults do not compile (a required parameter) still
    // lists its parameters; its players come with the first game.
    let (players, seats) = match &program {
        Ok(p) => (p.players.clone(), default_players(p, engine)),
        Err(_) => (Vec::new(), String::new()),
    };
    Ok(json!({
        "game": game,
        "name": program.as_ref().map(|p| p.name.clone()).unwrap_or_else(|_| ast.name.clone()),
        "about": crate::bundled::describe(&text),
        "params": params,
        "players": players,
        "seats": seats,
        "agents": crate::solve::agents::agent_kinds::AGENT_KINDS
            .iter()
            .filter(|k| allow_exec || !k.spec.starts_with("exec:"))
            .map(|k| json!({"spec": k.spec, "plays": k.plays}))
            .collect::<Vec<_>>(),
    }))
}

/// A default as the command line takes it: a list `[7, 5, 3, 1]` as `7,5,3,1`.
fn flag_value(default: &str) -> String {
    if default.starts_with('[') {
        default.trim_matches(['[', ']']).replace(' ', "")
    } else {
        default.to_string()
    }
}

/// A person first, then the computer: `optimal` where the exact solver
/// settles the game quickly (a page waits for each move), else `mcts`
/// (or `search` where cards are hidden, except in card games decided by
/// scores, where `mcts` beat it: docs/XNIMMT.md, as `gdl play` seats it).
fn default_players(p: &crate::ir::Program, engine: Engine) -> String {
    let kinds = crate::solve::agent_builder::MoveKinds::of(p);
    let solvable = || {
        let game = crate::runtime::Interpreted::with_engine(p.clone(), engine);
        let opts = crate::solve::SolveOptions {
            count_states: false,
            max_nodes: Some(QUICK_SOLVE_NODES),
            ..crate::solve::SolveOptions::default()
        };
        game.initial_state()
            .is_ok_and(|root| crate::solve::solve(&game, &root, &opts).is_ok())
    };
    let computer = if kinds.hidden && !kinds.card_game() {
        "search"
    } else if p.players.len() == 2 && !kinds.chance && !kinds.simultaneous && solvable() {
        "optimal"
    } else {
        "mcts"
    };
    let mut seats = vec!["human"];
    seats.extend(std::iter::repeat_n(computer, p.players.len().saturating_sub(1)));
    seats.join(",")
}

/// The nodes a solve from the start may take for `optimal` to be offered.
const QUICK_SOLVE_NODES: u64 = 200_000;

/// The parameters the page set, checked against those the file declares,
/// as the command line's flags would be.
fn bindings(game: &str, text: &str, params: Option<&Value>) -> Result<Vec<(String, String)>, ApiError> {
    let declared: Vec<String> = match crate::syntax::parse(text) {
        Ok(ast) => compile::params_of(&ast, text).into_iter().map(|p| p.name).collect(),
        // The compiler tells what is wrong with the file.
        Err(_) => Vec::new(),
    };
    let Some(params) = params else {
        return Ok(Vec::new());
    };
    let Value::Object(map) = params else {
        return Err(ApiError::new(
            400,
            "error: `params` maps each parameter's name to its value",
        ));
    };
    let mut out = Vec::new();
    for (name, value) in map {
        if !declared.contains(name) {
            let known = if declared.is_empty() {
                "it has none".to_string()
            } else {
                format!("its parameters are {}", declared.join(", "))
            };
            return Err(ApiError::new(
                400,
                format!("error: unexpected argument '--{name}': {game} has no parameter `{name}` ({known})"),
            ));
        }
        let text = match value {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            Value::Bool(b) => b.to_string(),
            Value::Array(items) => items.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(","),
            _ => {
                return Err(ApiError::new(
                    400,
                    format!("error: parameter `{name}`: give a number, a text or a list"),
                ));
            }
        };
        out.push((name.clone(), text));
    }
    Ok(out)
}

fn read_json(body: &[u8]) -> Result<Value, ApiError> {
    serde_json::from_slice(body).map_err(|e| ApiError::new(400, format!("error: the request is not JSON: {e}")))
}

fn str_field<'v>(body: &'v Value, name: &str) -> Result<&'v str, ApiError> {
    body.get(name)
        .and_then(Value::as_str)
        .ok_or_else(|| ApiError::new(400, format!("error: `{name}` is missing, or not a text")))
}

fn id_field(body: &Value) -> Result<u64, ApiError> {
    body.get("id")
        .and_then(Value::as_u64)
        .ok_or_else(|| ApiError::new(400, "error: `id` is missing: the game's id, from /api/new"))
}

fn json_reply(status: u16, value: &Value) -> Response {
    Response {
        status,
        headers: vec![("Content-Type", "application/json"), ("Cache-Control", "no-store")],
        body: serde_json::to_vec(value).unwrap_or_default(),
    }
}

fn error_reply(e: ApiError) -> Response {
    json_reply(e.status, &json!({ "error": e.message }))
}

fn text_reply(text: &str, kind: &'static str) -> Response {
    Response {
        status: 200,
        headers: vec![
            ("Content-Type", kind),
            ("X-Content-Type-Options", "nosniff"),
            // The page loads nothing from elsewhere, and no other site may frame it.
            (
                "Content-Security-Policy",
                "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
            ),
        ],
        body: text.as_bytes().to_vec(),
    }
}

fn fresh_seed() -> u64 {
    use std::time::{SystemTime, UNIX_EPOCH};
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64 % 1_000_000)
}
