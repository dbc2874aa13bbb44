//! The `human` agent: a person at the terminal. It shows what its player may
//! see and the legal moves, as seed 001's transcript does, and reads a move:
//!
//! ```text
//! current state: board: [6, 5, 3, 1]
//! available moves: [(0, 1), (0, 2), (1, 1)]
//!
//! Your move? (0,6)
//! ```
//!
//! A move that is not legal is asked again with the reason; `quit` or the end
//! of the input ends the game cleanly ([`AgentError::Quit`]). When everyone
//! moves at once and the person has a single move (X Nimmt!'s last card),
//! it is played for them, as the rules say; in turn-taking games the person
//! still types it, as seed 001's transcript shows.

use std::io::{BufRead, Write};

use crate::game::{Game, Player, Turn};
use crate::report::play::view_text;
use crate::runtime::{Interpreted, State};
use crate::solve::agents::agent::{Agent, AgentError, Choice};

/// Where a `human` agent reads moves and writes prompts.
pub struct Terminal<'io> {
    pub input: Box<dyn BufRead + Send + 'io>,
    pub output: Box<dyn Write + Send + 'io>,
    /// Repeat what was read: when the moves come from a file or a pipe, the
    /// transcript then shows them as a person would have typed them.
    pub echo: bool,
}

impl Terminal<'static> {
    /// Standard input and output: what `gdl play` talks to.
    pub fn stdio() -> Self {
        use std::io::IsTerminal;
        Terminal {
            input: Box::new(std::io::BufReader::new(std::io::stdin())),
            output: Box::new(std::io::stdout()),
            echo: !std::io::stdin().is_terminal(),
        }
    }
}

/// A person choosing moves through a [`Terminal`].
pub struct Human<'io> {
    io: Terminal<'io>,
}

impl<'io> Human<'io> {
    pub fn new(io: Terminal<'io>) -> Self {
        Human { io }
    }

    fn say(&mut self, text: &str) -> Result<(), AgentError> {
        self.io
            .output
            .write_all(text.as_bytes())
            .and_then(|()| self.io.output.flush())
            .map_err(|e| AgentError::Failed(format!("cannot write to the terminal: {e}")))
    }
}

impl Agent<Interpreted> for Human<'_> {
    fn name(&self) -> String {
        "human".into()
    }

    fn choose(
        &mut self,
        game: &Interpreted,
        state: &State,
        player: Player,
        moves: &[<Interpreted as Game>::Move],
    ) -> Result<Choice<<Interpreted as Game>::Move>, AgentError> {
        let listed: Vec<String> = moves.iter().map(|m| game.move_text(m)).collect();
        // The board where the game draws one (as `play` shows it).
        let view = crate::cli::kit::shown::position_lines(game, state, Some(player), false, "  ")
            .unwrap_or_else(|_| view_text(&game.view(state, Some(player)), "  "));
        let sep = if view.contains('\n') { "\n  " } else { " " };
        self.say(&format!(
            "current state:{sep}{view}\navailable moves: [{}]\n\n",
            listed.join(", ")
        ))?;
        if let [only] = moves
            && matches!(game.turn(state), Ok(Turn::Simultaneous))
        {
            self.say(&format!("your only move, {}, is played\n\n", listed[0]))?;
            return Ok(Choice::plain(*only));
        }
        loop {
            self.say("Your move? ")?;
            let (read, line) = read_line(&mut *self.io.input)?;
            let typed = line.trim();
            if self.io.echo && read > 0 {
                self.say(&format!("{typed}\n"))?;
            }
            if read == 0 || matches!(typed, "quit" | "exit" | "q") {
                // End the prompt's line, so that what follows starts clean.
                self.say("\n")?;
                return Err(AgentError::Quit);
            }
            if typed.is_empty() {
                continue;
            }
            if line.contains('\u{FFFD}') {
                self.say("that line is not text (UTF-8); type one of the available moves (or quit)\n")?;
                continue;
            }

            match game.parse_move_of(state, player, typed) {
                Ok(mv) => return Ok(Choice::plain(mv)),
                Err(why) => self.say(&format!(
                    "{why}; type one of the available moves, as they are written above (or quit)\n"
                ))?,
            }
        }
    }
}

/// The longest line read as a move: a longer one is no move, and reading
/// on could take forever (`gdl play < /dev/zero`).
const MAX_LINE: usize = 4096;

/// One line of input: the number of bytes it had (0 at the end of the
/// input), and it as text (what is not UTF-8 replaced).
fn read_line(input: &mut dyn std::io::BufRead) -> Result<(usize, String), AgentError> {
    let fail = |e: std::io::Error| AgentError::Failed(format!("cannot read from the terminal: {e}"));
    let mut kept = Vec::new();
    loop {
        let buf = input.fill_buf().map_err(fail)?;
        if buf.is_empty() {
            break;
        }
        let (chunk, ends) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..=i], true),
            None => (buf, false),
        };
        let n = chunk.len();
        kept.extend_from_slice(chunk);
        input.consume(n);
        if kept.len() > MAX_LINE {
            return Err(AgentError::Failed(format!(
                "a line of input longer than {MAX_LINE} bytes is no move; the game ends"
            )));
        }
        if ends {
            break;
        }
    }
    Ok((kept.len(), String::from_utf8_lossy(&kept).into_owned()))
}
