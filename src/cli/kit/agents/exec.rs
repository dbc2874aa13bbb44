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
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{Value as Json, json};

use crate::cli::kit::signals;
use crate::compile::Value;
use crate::game::{Game, Player, Turn};
use crate::ir::Visibility;
use crate::report::play::view_text;
use crate::report::stats::{Measure, Outcome};
use crate::runtime::{Interpreted, State};
use crate::solve::agents::agent::{Agent, AgentError, AgentFailure, Choice, Timing};
use crate::solve::matches::episode::Step;

/// The protocol's version, sent in every `start` message. Version 2 added
/// `plies`, `game_number`, `seed` and `start`'s `view`, and kept every field
/// of version 1.
pub const PROTOCOL_VERSION: u32 = 2;

/// A game's seed as `start` tells it: 53 bits, exact in any JSON reader.
const SEED_MASK: u64 = (1 << 53) - 1;

/// The time limit per move when `--move-time-ms` is not given.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(10);

/// Added to the limit of a newly started program's first answer, so that an
/// interpreter's start-up (Python's imports) does not count as thinking.
const STARTUP_ALLOWANCE: Duration = Duration::from_secs(10);

/// The longest line read from a program: a longer one is a failure, not memory eaten.
const MAX_LINE: u64 = 1 << 20;

/// Lines read ahead of the one gdl waits for.
const LINES_AHEAD: usize = 16;

/// How long a program that is no longer needed may take to exit by itself
/// (its input closed) before it is killed: long enough for a program that
/// saves what it learnt at the end of its input to finish writing on a busy
/// machine (at 0.2 s, a test agent's counts went missing under load 20); a
/// program waits at most this once, when gdl is done with it.
const EXIT_GRACE: Duration = Duration::from_secs(2);

/// How long gdl still reads a program that exited or closed its output: the
/// lines it wrote before are on their way, and so is its exit status.
const AFTER_EXIT: Duration = Duration::from_millis(100);

/// How often a wait for a program's answer looks whether a signal came.
const STOP_POLL: Duration = Duration::from_millis(50);

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

/// What a program's reader and waiter threads report.
enum Event {
    /// A line of its output, trimmed.
    Line(String),
    /// A line longer than [`MAX_LINE`]: nothing more is read.
    TooLong,
    /// Its output closed (it may still be running).
    Closed,
    /// It exited (a child it started may still hold its output open).
    Exited(ExitStatus),
}

/// A running program, in a process group of its own so that what it starts
/// ends with it: its input written by a thread (gdl never blocks on a
/// program that does not read), its output read line by line by another,
/// and its exit seen by a third, which waits for it.
struct Process {
    /// Its process id, which is also its group's.
    pid: u32,
    input: Option<Sender<String>>,
    events: Receiver<Event>,
    /// How it exited, once known.
    exited: Option<ExitStatus>,
    /// Its output closed.
    closed: bool,
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
        let mut command = Command::new(&argv[0]);
        command
            .args(&argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(err)
            // Its own group: gdl ends the program and everything it started
            // at once, and a Ctrl-C at the terminal reaches gdl alone.
            .process_group(0);
        let mut child = spawn_dying_with_gdl(command).map_err(|e| format!("cannot start `{}`: {e}", argv[0]))?;
        let pid = child.id();
        if let Ok(group) = i32::try_from(pid) {
            signals::own_group(group);
        }
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
        // Bounded: a program that writes without end fills the channel and
        // waits, instead of filling gdl's memory.
        let (events_in, events) = mpsc::sync_channel(LINES_AHEAD);
        let lines_in = events_in.clone();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut line = Vec::new();
                let event = match (&mut reader).take(MAX_LINE).read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => Event::Closed,
                    Ok(_) if !line.ends_with(b"\n") && line.len() as u64 == MAX_LINE => Event::TooLong,
                    Ok(_) => Event::Line(String::from_utf8_lossy(&line).trim().to_string()),
                };
                let last = !matches!(event, Event::Line(_));
                if lines_in.send(event).is_err() || last {
                    break;
                }
            }
        });
        // A blocking wait on a thread of its own: the exit is known at once,
        // even while a child the program started holds its output open.
        std::thread::spawn(move || {
            if let Ok(status) = child.wait() {
                let _ = events_in.send(Event::Exited(status));
            }
        });
        Ok(Process {
            pid,
            input: Some(input),
            events,
            exited: None,
            closed: false,
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
        let mut deadline = Instant::now() + limit;
        if self.exited.is_some() || self.closed {
            deadline = deadline.min(Instant::now() + AFTER_EXIT);
        }
        loop {
            // Looked at every [`STOP_POLL`]: a signal stops the wait at once.
            if signals::stopping() {
                return Err(("stopped", "was interrupted by a signal before answering".into()));
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.events.recv_timeout(left.min(STOP_POLL)) {
                Ok(Event::Line(line)) if line.is_empty() => continue,
                Ok(Event::Line(line)) => {
                    self.fresh = false;
                    return Ok(line);
                }
                Ok(Event::TooLong) => {
                    return Err(("unreadable", format!("wrote a line longer than {MAX_LINE} bytes")));
                }
                // The lines it wrote before it went are still on their way,
                // and its exit status is worth waiting a moment for.
                Ok(Event::Exited(status)) => {
                    self.exited = Some(status);
                    deadline = deadline.min(Instant::now() + AFTER_EXIT);
                }
                Ok(Event::Closed) => {
                    self.closed = true;
                    deadline = deadline.min(Instant::now() + AFTER_EXIT);
                }
                Err(RecvTimeoutError::Timeout) if Instant::now() < deadline => {}
                Err(RecvTimeoutError::Timeout) if self.exited.is_some() || self.closed => {
                    return Err(("crash", self.exit_text()));
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(("timeout", format!("did not answer within {}", millis(limit))));
                }
                Err(RecvTimeoutError::Disconnected) => return Err(("crash", self.exit_text())),
            }
        }
    }

    /// How the program ended, once it stopped answering.
    fn exit_text(&self) -> String {
        match self.exited {
            Some(status) => match status.code() {
                Some(code) => format!("exited with status {code} before answering"),
                None => format!("was ended ({status}) before answering"),
            },
            None => "closed its output before answering".into(),
        }
    }

    /// Ends the program's group: the program, if it is still running, and
    /// whatever it started and left behind.
    fn kill_group(&self) {
        let Ok(group) = i32::try_from(self.pid) else {
            return;
        };
        // SAFETY: kill(2) with a negative id signals the process group the
        // program leads; a group id is not reused while any of its members
        // lives, and a group with none left answers ESRCH.
        unsafe {
            libc::kill(-group, libc::SIGKILL);
        }
        signals::disown_group(group);
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        // Closing its input lets a program end by itself; one that does not
        // is killed, and so is what it leaves behind.
        self.input = None;
        // After a signal gdl is on its way out: no grace.
        let grace = if signals::stopping() {
            Duration::ZERO
        } else {
            EXIT_GRACE
        };
        let deadline = Instant::now() + grace;
        while self.exited.is_none() {
            match self
                .events
                .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            {
                Ok(Event::Exited(status)) => self.exited = Some(status),
                Ok(_) => {}
                Err(_) => break,
            }
        }
        self.kill_group();
    }
}

/// Starts `command` so that it dies with gdl. On Linux its parent-death
/// signal is SIGKILL (a program that ignores SIGTERM still ends when gdl is
/// killed outright, `kill -9`). That signal comes when the *thread* that
/// started the program ends, so every program is started by one thread that
/// lives as long as gdl. It reaches the program alone: what the program
/// started lives on in its process group after a `kill -9` of gdl (nothing
/// of gdl runs then to kill the group); on every other way out (the end of
/// a game, a failure, Ctrl-C, SIGTERM, the memory limit's stop aside) gdl
/// kills the whole group.
fn spawn_dying_with_gdl(mut command: Command) -> std::io::Result<std::process::Child> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: getpid(2) reads gdl's id before the fork.
        let gdl = unsafe { libc::getpid() };
        // SAFETY: between fork and exec only async-signal-safe calls:
        // prctl(2) and getppid(2). A gdl that died before the prctl is seen
        // by getppid (the program was handed to another parent) and the
        // program does not start.
        unsafe {
            command.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong, 0, 0, 0) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                if libc::getppid() != gdl {
                    return Err(std::io::Error::other("gdl ended while the program started"));
                }
                Ok(())
            });
        }
        type Spawned = std::io::Result<std::process::Child>;
        type Request = (Command, mpsc::Sender<Spawned>);
        static SPAWNER: std::sync::OnceLock<Option<std::sync::Mutex<Sender<Request>>>> = std::sync::OnceLock::new();
        let spawner = SPAWNER.get_or_init(|| {
            let (requests, incoming) = mpsc::channel::<Request>();
            std::thread::Builder::new()
                .name("gdl agents".into())
                .spawn(move || {
                    for (mut command, reply) in incoming {
                        let _ = reply.send(command.spawn());
                    }
                })
                .ok()
                .map(|_| std::sync::Mutex::new(requests))
        });
        if let Some(spawner) = spawner {
            let (reply, spawned) = mpsc::channel();
            let sent = spawner.lock().unwrap_or_else(|p| p.into_inner()).send((command, reply));
            return match sent {
                Ok(()) => spawned
                    .recv()
                    .unwrap_or_else(|_| Err(std::io::Error::other("the thread that starts agents is gone"))),
                Err(mpsc::SendError((mut command, _))) => command.spawn(),
            };
        }
    }
    command.spawn()
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
    /// This game's number and seed, for `start`.
    number: u64,
    seed: u64,
    /// The plies played since the program's last message, as it may see them.
    plies: Vec<Json>,
    /// The position the game started from, when plies came before `start`.
    first: Option<State>,
    /// How the last `choose` counts in the time per decision.
    timing: Timing,
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
            number: 1,
            seed,
            plies: Vec::new(),
            first: None,
            timing: Timing::None,
        })
    }

    fn move_time(&self) -> Duration {
        self.options.move_time.unwrap_or(DEFAULT_MOVE_TIME)
    }

    /// Sends `start` if this game has not started for the program yet; the
    /// game started at `state` unless plies came first.
    fn begin(&mut self, game: &Interpreted, player: Player, state: &State) -> Result<(), (&'static str, String)> {
        if self.seat.is_some() {
            return Ok(());
        }
        if self.process.is_none() {
            self.process = Some(Process::spawn(&self.argv, self.options.stderr.as_ref()).map_err(|e| ("crash", e))?);
        }
        let first = self.first.take();
        let message = start_message(
            game,
            player,
            first.as_ref().unwrap_or(state),
            self.move_time(),
            self.number,
            self.seed,
        );
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
        // A program that failed gets no grace to exit by itself.
        if let Some(p) = self.process.take() {
            p.kill_group();
        }
        self.plies.clear();
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

    fn game_number(&mut self, number: u64) {
        self.number = number;
    }

    fn new_game(&mut self, _game: &Interpreted, seed: u64) -> Result<(), AgentError> {
        self.rng = StdRng::seed_from_u64(seed);
        self.seed = seed;
        self.seat = None;
        self.failure = None;
        self.plies.clear();
        self.first = None;
        Ok(())
    }

    fn wants_steps(&self) -> bool {
        true
    }

    fn after_step(
        &mut self,
        game: &Interpreted,
        seat: Player,
        before: &State,
        step: &Step<<Interpreted as Game>::Move>,
        after: &State,
    ) {
        if self.failure.is_some() {
            return;
        }
        if self.seat.is_none() && self.first.is_none() {
            self.first = Some(before.clone());
        }
        self.plies.push(ply_json(game, seat, before, step, after));
    }

    fn timing(&self) -> Timing {
        self.timing
    }

    fn choose(
        &mut self,
        game: &Interpreted,
        state: &State,
        player: Player,
        moves: &[<Interpreted as Game>::Move],
    ) -> Result<Choice<<Interpreted as Game>::Move>, AgentError> {
        // Only an answer is a decision: not a forced move, a random move
        // for a failed program, or the wait for one that failed.
        self.timing = Timing::None;
        if self.failure.is_some() {
            return Ok(self.random(moves));
        }
        if let Err((kind, detail)) = self.begin(game, player, state) {
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
            // The board where the game draws one (the program reads `view`).
            "text": crate::cli::kit::shown::position_lines(game, state, Some(player), false, "")
                .unwrap_or_else(|_| view_text(&game.view(state, Some(player)), "")),
            "moves": texts,
            "plies": std::mem::take(&mut self.plies),
            "time_ms": self.move_time().as_millis() as u64,
        });
        let limit = self.move_time();
        let process = self.process.as_mut().expect("started by begin");
        let fresh = process.fresh;
        let sent = Instant::now();
        process.send(&message);
        let line = match process.answer(limit) {
            Ok(line) => line,
            // Not the program's failure: the game stops where it is.
            Err(("stopped", detail)) => {
                return Err(AgentError::Failed(format!(
                    "{} ({}) {detail}",
                    self.name(),
                    game.player_name(player)
                )));
            }
            Err((kind, detail)) => return self.fail(game, player, kind, detail, moves),
        };
        let took = sent.elapsed();
        let text = match answer_text(&line) {
            Ok(t) => t,
            Err(why) => return self.fail(game, player, "unreadable", why, moves),
        };
        match moves.iter().position(|m| {
            crate::game::normalize_move_text(&game.move_text(m)) == crate::game::normalize_move_text(&text)
        }) {
            Some(i) => {
                self.timing = if fresh {
                    Timing::StartUp(took)
                } else {
                    Timing::Answer(took)
                };
                Ok(Choice::plain(moves[i]))
            }
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
        if let Err((kind, detail)) = self.begin(game, player, state) {
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
        let message = end_message(game, state, player, std::mem::take(&mut self.plies))?;
        if let Some(p) = &self.process {
            p.send(&message);
        }
        self.seat = None;
        Ok(None)
    }
}

/// A step of the game as `seat` is told it: `{"player": NAME, "move": TEXT}`
/// (chance's name is `chance`), the move `null` where the player cannot see
/// it; a simultaneous round as an array of every player's move, in seat
/// order.
fn ply_json(
    game: &Interpreted,
    seat: Player,
    before: &State,
    step: &Step<<Interpreted as Game>::Move>,
    after: &State,
) -> Json {
    type Move = <Interpreted as Game>::Move;
    // A move is seen unless another the mover could have made would have
    // left this player's view the same; its own moves and every move of a
    // game without secrets are seen.
    let public = all_public(game);
    let seen_view = (!public).then(|| game.observation(after, seat));
    let seen =
        |mover: Option<Player>, played: &Move, alternatives: &[Move], apply: &dyn Fn(&mut State, &Move) -> bool| {
            let Some(view) = &seen_view else {
                return true;
            };
            mover == Some(seat)
                || !alternatives.iter().filter(|m| *m != played).any(|m| {
                    let mut s = before.clone();
                    apply(&mut s, m) && game.observation(&s, seat) == *view
                })
        };
    let shown = |mv: &Move, visible: bool| {
        if visible {
            Json::from(game.move_text(mv))
        } else {
            Json::Null
        }
    };
    match step {
        Step::Chance(m) => {
            let mut outcomes = Vec::new();
            if !public {
                let _ = game.chance_outcomes(before, &mut outcomes);
            }
            let outcomes: Vec<Move> = outcomes.into_iter().map(|(o, _)| o).collect();
            let visible = seen(None, m, &outcomes, &|s, o| game.apply(s, o).is_ok());
            json!({"player": "chance", "move": shown(m, visible)})
        }
        Step::Moves(played) if game.turn(before).ok() == Some(Turn::Simultaneous) => {
            let joint: Vec<Move> = played.iter().map(|x| x.mv).collect();
            Json::Array(
                played
                    .iter()
                    .map(|x| {
                        let mut theirs = Vec::new();
                        if !public && x.player != seat {
                            let _ = game.legal_moves_of(before, x.player, &mut theirs);
                        }
                        let visible = seen(Some(x.player), &x.mv, &theirs, &|s, o| {
                            let mut j = joint.clone();
                            j[x.player] = *o;
                            game.apply_joint(s, &j).is_ok()
                        });
                        json!({"player": game.player_name(x.player), "move": shown(&x.mv, visible)})
                    })
                    .collect(),
            )
        }
        Step::Moves(played) => {
            let Some(x) = played.first() else {
                return Json::Array(Vec::new());
            };
            let mut theirs = Vec::new();
            if !public && x.player != seat {
                let _ = game.legal_moves(before, &mut theirs);
            }
            let visible = seen(Some(x.player), &x.mv, &theirs, &|s, o| game.apply(s, o).is_ok());
            json!({"player": game.player_name(x.player), "move": shown(&x.mv, visible)})
        }
    }
}

/// Whether every state variable is public: then every move can be seen.
fn all_public(game: &Interpreted) -> bool {
    game.program().vars.iter().all(|v| v.visibility == Visibility::Public)
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

fn start_message(
    game: &Interpreted,
    player: Player,
    state: &State,
    move_time: Duration,
    number: u64,
    seed: u64,
) -> Json {
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
        "game_number": number,
        // Below 2^53, so that every language's JSON reads it exactly.
        "seed": seed & SEED_MASK,
        "view": view_json(game, state, player),
    })
}

fn end_message(game: &Interpreted, state: &State, player: Player, plies: Vec<Json>) -> Result<Json, AgentError> {
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
        "plies": plies,
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

/// Splits a command line as a POSIX shell would, without a shell: words
/// apart at spaces; '…' and "…" quote, a backslash escapes; a word that
/// starts with `#` begins a comment.
pub fn split_command(text: &str) -> Result<Vec<String>, String> {
    shlex::split(text).ok_or_else(|| format!("`{text}`: a quote is not closed, or it ends with a lone backslash"))
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
        assert_eq!(
            split_command("python3 a.py # the fast one").unwrap(),
            ["python3", "a.py"]
        );
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
