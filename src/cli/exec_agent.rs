//! The `exec:COMMAND` agent: an external program, in any language, that
//! plays through JSON lines on its standard input and output (the protocol
//! is specified in docs/AGENTS.md):
//!
//! ```text
//! gdl → {"type":"start","protocol":1,"game":"X Nimmt!","seat":0,...}
//! gdl → {"type":"observe","seat":0,"view":{...},"moves":["play(3)","play(9)"],...}
//! gdl ← {"move":"play(9)"}
//! gdl → {"type":"end","seat":0,"scores":[4,7],"outcome":"win",...}
//! ```
//!
//! The program is started once (per thread of a match) and kept for every
//! game; it sees only what its player may see (`Interpreted::view`), never
//! another hand or the deck. It is asked only when it has a choice. A program
//! that crashes, answers something that is not a legal move, or does not
//! answer in time fails that game: its remaining moves are drawn at random,
//! the failure is reported, and the game counts as lost (`forfeit`), as
//! played (`random`), or stops the match (`abort`). After a failure the
//! program is killed and a new one is started for the next game. A program
//! is never waited for longer than its time limit, and it is killed when
//! gdl no longer needs it.

use std::fs::OpenOptions;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{Value as Json, json};

use crate::compile::Value;
use crate::game::{Game, Player};
use crate::ir::Visibility;
use crate::report::play::view_text;
use crate::report::stats::{Measure, Outcome};
use crate::runtime::{Interpreted, State};
use crate::solve::agent::{Agent, AgentError, AgentFailure, Choice};

/// The protocol's version, sent in every `start` message.
pub const PROTOCOL_VERSION: u32 = 1;

/// The time limit per move when `--move-time-ms` is not given.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(10);

/// Added to the limit of a newly started program's first answer, so that an
/// interpreter's start-up (Python's imports) does not count as thinking.
const STARTUP_ALLOWANCE: Duration = Duration::from_secs(10);

/// The longest line read from a program: a longer one is a failure, not memory eaten.
const MAX_LINE: u64 = 1 << 20;

/// How long a program that is no longer needed may take to exit by itself
/// (its input closed) before it is killed.
const EXIT_GRACE: Duration = Duration::from_millis(200);

/// What happens when an external agent fails in a game.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OnFailure {
    /// The game is finished with random moves for it, and counts as lost
    #[default]
    Forfeit,
    /// The game is finished with random moves for it, and counts as played
    Random,
    /// The match (or game) stops with an error
    Abort,
}

/// How external agents are run: `--move-time-ms`, `--on-agent-failure`, `--agent-stderr`.
#[derive(Clone, Debug, Default)]
pub struct ExecOptions {
    pub move_time: Option<Duration>,
    pub on_failure: OnFailure,
    /// Append the programs' standard error here; `None`: gdl's own.
    pub stderr: Option<PathBuf>,
}

/// A running program: its input written by a thread (gdl never blocks on a
/// program that does not read), its output read line by line by another.
struct Process {
    child: Child,
    input: Option<Sender<String>>,
    lines: Receiver<Result<String, String>>,
    /// No answer read yet: the first one gets the start-up allowance.
    fresh: bool,
}

impl Process {
    fn spawn(argv: &[String], stderr: Option<&PathBuf>) -> Result<Process, String> {
        let err = match stderr {
            None => Stdio::inherit(),
            Some(path) => OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map(Stdio::from)
                .map_err(|e| format!("cannot open {} for its standard error: {e}", path.display()))?,
        };
        let mut child = Command::new(&argv[0])
            .args(&argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(err)
            .spawn()
            .map_err(|e| format!("cannot start `{}`: {e}", argv[0]))?;
        let (Some(mut stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err("its input and output could not be connected (a bug in gdl)".into());
        };
        let (input, to_write) = mpsc::channel::<String>();
        std::thread::spawn(move || {
            for text in to_write {
                if stdin.write_all(text.as_bytes()).and_then(|()| stdin.flush()).is_err() {
                    break;
                }
            }
        });
        let (read, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut line = Vec::new();
                match (&mut reader).take(MAX_LINE).read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) if !line.ends_with(b"\n") && line.len() as u64 == MAX_LINE => {
                        let _ = read.send(Err(format!("wrote a line longer than {MAX_LINE} bytes")));
                        break;
                    }
                    Ok(_) => {
                        let text = String::from_utf8_lossy(&line).trim().to_string();
                        if read.send(Ok(text)).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Ok(Process {
            child,
            input: Some(input),
            lines,
            fresh: true,
        })
    }

    fn send(&self, message: &Json) {
        // A program that has exited is found when its answer is read.
        if let Some(input) = &self.input {
            let _ = input.send(message_line(message));
        }
    }

    /// The next non-empty line, within `limit`.
    fn answer(&mut self, limit: Duration) -> Result<String, (&'static str, String)> {
        let limit = if self.fresh { limit + STARTUP_ALLOWANCE } else { limit };
        let deadline = Instant::now() + limit;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(Ok(line)) if line.is_empty() => continue,
                Ok(Ok(line)) => {
                    self.fresh = false;
                    return Ok(line);
                }
                Ok(Err(why)) => return Err(("unreadable", why)),
                Err(RecvTimeoutError::Timeout) => {
                    return Err(("timeout", format!("did not answer within {}", millis(limit))));
                }
                Err(RecvTimeoutError::Disconnected) => return Err(("crash", self.exit_text())),
            }
        }
    }

    /// How the program ended, once its output closed.
    fn exit_text(&mut self) -> String {
        let deadline = Instant::now() + EXIT_GRACE;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    return match status.code() {
                        Some(code) => format!("exited with status {code} before answering"),
                        None => format!("was ended ({status}) before answering"),
                    };
                }
                Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(5)),
                _ => return "closed its output before answering".into(),
            }
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        // Closing its input lets a program end by itself; one that does not is killed.
        self.input = None;
        let deadline = Instant::now() + EXIT_GRACE;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A message as one line, its `type` first so that a person reading a log
/// (or a script matching text) finds it at once; the other keys follow in
/// alphabetical order.
fn message_line(message: &Json) -> String {
    let Json::Object(fields) = message else {
        return format!("{message}\n");
    };
    let mut rest = fields.clone();
    let Some(kind) = rest.remove("type") else {
        return format!("{message}\n");
    };
    let rest = Json::Object(rest).to_string();
    format!("{{\"type\":{kind},{}\n", &rest[1..])
}

fn millis(d: Duration) -> String {
    format!("{} ms", d.as_millis())
}

/// An external program playing one player.
pub struct ExecAgent {
    /// The command as written after `exec:`.
    command: String,
    argv: Vec<String>,
    options: ExecOptions,
    process: Option<Process>,
    /// The seat of this game, once `start` was sent.
    seat: Option<Player>,
    /// This game's failure: the program is gone and the moves are random.
    failure: Option<AgentFailure>,
    rng: StdRng,
}

impl ExecAgent {
    /// Starts `command` (split as a shell would, without a shell); an error
    /// says why it cannot start.
    pub fn start(command: &str, options: ExecOptions, seed: u64) -> Result<ExecAgent, String> {
        let argv = split_command(command)?;
        if argv.is_empty() {
            return Err("the command is empty".into());
        }
        let process = Process::spawn(&argv, options.stderr.as_ref())?;
        Ok(ExecAgent {
            command: command.to_string(),
            argv,
            options,
            process: Some(process),
            seat: None,
            failure: None,
            rng: StdRng::seed_from_u64(seed),
        })
    }

    fn move_time(&self) -> Duration {
        self.options.move_time.unwrap_or(DEFAULT_MOVE_TIME)
    }

    /// Sends `start` if this game has not started for the program yet.
    fn begin(&mut self, game: &Interpreted, player: Player) -> Result<(), (&'static str, String)> {
        if self.seat.is_some() {
            return Ok(());
        }
        if self.process.is_none() {
            self.process = Some(Process::spawn(&self.argv, self.options.stderr.as_ref()).map_err(|e| ("crash", e))?);
        }
        let message = start_message(game, player, self.move_time());
        if let Some(p) = &self.process {
            p.send(&message);
        }
        self.seat = Some(player);
        Ok(())
    }

    /// Records a failure: the program is killed and the game goes on with
    /// random moves (or stops, with `abort`).
    fn fail(
        &mut self,
        game: &Interpreted,
        player: Player,
        kind: &'static str,
        detail: String,
        moves: &[<Interpreted as Game>::Move],
    ) -> Result<Choice<<Interpreted as Game>::Move>, AgentError> {
        self.process = None;
        let who = format!("{} ({})", self.name(), game.player_name(player));
        if self.options.on_failure == OnFailure::Abort {
            return Err(AgentError::Failed(format!(
                "{who} {detail}; the match stops (--on-agent-failure abort)"
            )));
        }
        let choice = Choice {
            mv: moves[self.rng.random_range(0..moves.len())],
            note: Some(format!("failed: it {detail}; its moves are random from here")),
        };
        self.failure = Some(AgentFailure {
            kind,
            detail,
            forfeit: self.options.on_failure == OnFailure::Forfeit,
        });
        Ok(choice)
    }

    fn random(&mut self, moves: &[<Interpreted as Game>::Move]) -> Choice<<Interpreted as Game>::Move> {
        Choice {
            mv: moves[self.rng.random_range(0..moves.len())],
            note: Some("random, for a failed agent".into()),
        }
    }
}

impl Agent<Interpreted> for ExecAgent {
    fn name(&self) -> String {
        format!("exec:{}", self.command)
    }

    fn new_game(&mut self, _game: &Interpreted, seed: u64) -> Result<(), AgentError> {
        self.rng = StdRng::seed_from_u64(seed);
        self.seat = None;
        self.failure = None;
        Ok(())
    }

    fn choose(
        &mut self,
        game: &Interpreted,
        state: &State,
        player: Player,
        moves: &[<Interpreted as Game>::Move],
    ) -> Result<Choice<<Interpreted as Game>::Move>, AgentError> {
        if self.failure.is_some() {
            return Ok(self.random(moves));
        }
        if let Err((kind, detail)) = self.begin(game, player) {
            return self.fail(game, player, kind, detail, moves);
        }
        // A forced move is played for the program, as seed 000's engine
        // plays the last card: the next `observe` shows what it did.
        if let [only] = moves {
            return Ok(Choice::plain(*only));
        }
        let texts: Vec<String> = moves.iter().map(|m| game.move_text(m)).collect();
        let message = json!({
            "type": "observe",
            "seat": player,
            "player": game.player_name(player),
            "view": view_json(game, state, player),
            "text": view_text(&game.view(state, Some(player)), ""),
            "moves": texts,
            "time_ms": self.move_time().as_millis() as u64,
        });
        let limit = self.move_time();
        let process = self.process.as_mut().expect("started by begin");
        process.send(&message);
        let line = match process.answer(limit) {
            Ok(line) => line,
            Err((kind, detail)) => return self.fail(game, player, kind, detail, moves),
        };
        let text = match answer_text(&line) {
            Ok(t) => t,
            Err(why) => return self.fail(game, player, "unreadable", why, moves),
        };
        match moves.iter().position(|m| {
            crate::game::normalize_move_text(&game.move_text(m)) == crate::game::normalize_move_text(&text)
        }) {
            Some(i) => Ok(Choice::plain(moves[i])),
            None => {
                let detail = format!(
                    "answered {}, which is not a legal move (the moves were {})",
                    shorten(&line),
                    texts.join(", ")
                );
                self.fail(game, player, "illegal", detail, moves)
            }
        }
    }

    fn end_game(
        &mut self,
        game: &Interpreted,
        state: &State,
        player: Player,
    ) -> Result<Option<AgentFailure>, AgentError> {
        if let Some(f) = self.failure.take() {
            self.seat = None;
            return Ok(Some(f));
        }
        if let Err((kind, detail)) = self.begin(game, player) {
            self.process = None;
            self.seat = None;
            if self.options.on_failure == OnFailure::Abort {
                return Err(AgentError::Failed(format!(
                    "{} ({}) {detail}; the match stops (--on-agent-failure abort)",
                    self.name(),
                    game.player_name(player)
                )));
            }
            return Ok(Some(AgentFailure {
                kind,
                detail,
                forfeit: self.options.on_failure == OnFailure::Forfeit,
            }));
        }
        let message = end_message(game, state, player)?;
        if let Some(p) = &self.process {
            p.send(&message);
        }
        self.seat = None;
        Ok(None)
    }
}

/// The move in an answer: `{"move": "play(3)"}` (a number is taken as its
/// text), or the line itself when it is not a JSON object.
fn answer_text(line: &str) -> Result<String, String> {
    if !line.starts_with('{') {
        return Ok(line.to_string());
    }
    let value: Json =
        serde_json::from_str(line).map_err(|e| format!("answered {}, which is not valid JSON: {e}", shorten(line)))?;
    match value.get("move") {
        Some(Json::String(s)) => Ok(s.clone()),
        Some(Json::Number(n)) => Ok(n.to_string()),
        _ => Err(format!(
            "answered {}, which has no \"move\" (a string such as {{\"move\": \"play(3)\"}})",
            shorten(line)
        )),
    }
}

/// A program's line for a report: quoted, and cut if long.
fn shorten(line: &str) -> String {
    const MAX: usize = 80;
    if line.chars().count() <= MAX {
        format!("{line:?}")
    } else {
        let cut: String = line.chars().take(MAX).collect();
        format!("{cut:?}...")
    }
}

fn start_message(game: &Interpreted, player: Player, move_time: Duration) -> Json {
    let parameters: serde_json::Map<String, Json> = game
        .program()
        .params
        .iter()
        .map(|(name, value)| {
            let v = value
                .parse::<i64>()
                .map(Json::from)
                .unwrap_or_else(|_| Json::from(value.clone()));
            (name.clone(), v)
        })
        .collect();
    json!({
        "type": "start",
        "protocol": PROTOCOL_VERSION,
        "game": game.name(),
        "parameters": parameters,
        "seat": player,
        "player": game.player_name(player),
        "players": (0..game.num_players()).map(|p| game.player_name(p)).collect::<Vec<_>>(),
        "time_ms": move_time.as_millis() as u64,
    })
}

fn end_message(game: &Interpreted, state: &State, player: Player) -> Result<Json, AgentError> {
    let returns = crate::game::all_returns(game, state)?;
    let scores = game.scores(state)?;
    let outcome = match &scores {
        Some(s) => Measure::Points {
            lowest_wins: game.lowest_score_wins(),
        }
        .outcome(s, player),
        None => Measure::Utility.outcome(&returns, player),
    };
    Ok(json!({
        "type": "end",
        "seat": player,
        "player": game.player_name(player),
        "view": view_json(game, state, player),
        "returns": returns,
        "scores": scores,
        "outcome": match outcome {
            Outcome::Win => "win",
            Outcome::Draw => "draw",
            Outcome::Loss => "loss",
        },
    }))
}

/// The state as `player` may see it, field by field, as JSON: hidden fields
/// left out, other players' private entries `null`; the same view `gdl play`
/// shows a person.
pub fn view_json(game: &Interpreted, state: &State, player: Player) -> Json {
    let mut fields = serde_json::Map::new();
    for var in &game.program().vars {
        let Some(value) = game.value_of(state, &var.name) else {
            continue;
        };
        let shown = match (var.visibility, value) {
            (Visibility::Hidden, _) => continue,
            (Visibility::Public, v) => value_json(game, &v),
            (Visibility::Private, Value::List(entries)) => Json::Array(
                entries
                    .iter()
                    .enumerate()
                    .map(|(p, v)| if p == player { value_json(game, v) } else { Json::Null })
                    .collect(),
            ),
            (Visibility::Private, _) => Json::Null,
        };
        fields.insert(var.name.clone(), shown);
    }
    Json::Object(fields)
}

fn value_json(game: &Interpreted, value: &Value) -> Json {
    match value {
        Value::Int(i) => json!(i),
        Value::Bool(b) => json!(b),
        Value::Player(p) => json!(game.player_name(*p)),
        Value::List(items) => Json::Array(items.iter().map(|v| value_json(game, v)).collect()),
        Value::Set(items) => json!(items.iter().collect::<Vec<_>>()),
        Value::Range(lo, hi) => json!((*lo..=*hi).collect::<Vec<_>>()),
    }
}

/// Splits a command line as a shell would, without a shell: words apart at
/// spaces; '…' and "…" quote (a backslash escapes `"` and `\` inside "…");
/// a backslash outside quotes escapes the next character.
pub fn split_command(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(format!("`{text}`: a ' is not closed")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err(format!("`{text}`: a \" is not closed")),
                        },
                        Some(c) => word.push(c),
                        None => return Err(format!("`{text}`: a \" is not closed")),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(c) => word.push(c),
                    None => return Err(format!("`{text}`: it ends with a lone backslash")),
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_split_as_a_shell_would() {
        assert_eq!(
            split_command("python3  my_agent.py --depth 3").unwrap(),
            ["python3", "my_agent.py", "--depth", "3"]
        );
        assert_eq!(
            split_command(r#"sh -c 'echo "a b"' "x\"y" a\ b ''"#).unwrap(),
            ["sh", "-c", "echo \"a b\"", "x\"y", "a b", ""]
        );
        assert!(split_command("python3 'unclosed").is_err());
        assert!(split_command("a\\").is_err());
    }

    #[test]
    fn messages_start_with_their_type() {
        let line = message_line(&json!({"type": "end", "seat": 1, "outcome": "win"}));
        assert_eq!(line, "{\"type\":\"end\",\"outcome\":\"win\",\"seat\":1}\n");
        let back: Json = serde_json::from_str(&line).unwrap();
        assert_eq!(back["seat"], 1);
    }

    #[test]
    fn answers_are_json_or_plain_lines() {
        assert_eq!(answer_text(r#"{"move": "play(3)"}"#).unwrap(), "play(3)");
        assert_eq!(answer_text(r#"{"move": 3}"#).unwrap(), "3");
        assert_eq!(answer_text("play(3)").unwrap(), "play(3)");
        assert!(answer_text(r#"{"mv": "play(3)"}"#).unwrap_err().contains("no \"move\""));
        assert!(answer_text("{oops").unwrap_err().contains("not valid JSON"));
    }
}
