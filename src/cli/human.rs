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
use crate::solve::agent::{Agent, AgentError, Choice};

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
        let view = view_text(&game.view(state, Some(player)), "  ");
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
            let mut line = String::new();
            let read = self
                .io
                .input
                .read_line(&mut line)
                .map_err(|e| AgentError::Failed(format!("cannot read from the terminal: {e}")))?;
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
            match game.parse_move_of(state, player, typed) {
                Ok(mv) => return Ok(Choice::plain(mv)),
                Err(why) => self.say(&format!(
                    "{why}; type one of the available moves, as they are written above (or quit)\n"
                ))?,
            }
        }
    }
}
