//! The one interface every algorithm sees.
//!
//! In the spirit of OpenSpiel's `State`: whose turn it is (or that the game is
//! over), the legal moves, applying a move, and the returns at the end. The
//! interpreter of `.game` files implements it (`runtime::Interpreted`), and so
//! do hand-written native games in `benches/` and `tests/`, so that both run
//! through exactly the same algorithm code.

use std::fmt::{self, Debug};
use std::hash::Hash;

use miette::{Diagnostic, NamedSource, SourceSpan};

pub use crate::error_kind::RuntimeKind;
use crate::error_kind::{ErrorKind, Exits};

/// Index of a player, `0..num_players()`, in the order the game declares them.
pub type Player = usize;

/// Who acts in a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    /// One player chooses a move.
    Player(Player),
    /// Every player chooses a move at once, in secret (`legal_moves_of`,
    /// then `apply_joint` with one move per player).
    Simultaneous,
    /// Chance acts: `chance_outcomes` lists what may happen and how likely;
    /// `apply` plays the outcome.
    Chance,
    /// The game is over; `Game::returns` is defined.
    Terminal,
}

/// A game as the algorithms see it.
///
/// Contracts every implementation keeps (the conformance tests check them):
/// - the state includes whose turn it is, so a state alone is a memo key;
/// - in a non-terminal state `legal_moves` is non-empty and sorted the same
///   way every time (the order is the game's own: declaration order, then
///   ascending arguments);
/// - `apply` is only called with a move that `legal_moves` returned;
/// - `returns` is only called on terminal states.
///
/// Methods return `Result` because an interpreted rule can fail at run time
/// (an index out of range, a division by zero); native games never fail.
pub trait Game {
    /// A compact, hashable position, including the player to move.
    type State: Clone + Eq + Hash + Debug;
    /// One move, cheap to copy.
    type Move: Clone + Eq + Hash + Debug;

    /// The game's name, as its file declares it.
    fn name(&self) -> &str;

    /// How many players take part.
    fn num_players(&self) -> usize;

    /// The name of player `p` (`MAX`, `A`, ...).
    fn player_name(&self, p: Player) -> &str;

    /// The position the game starts from.
    fn initial_state(&self) -> Result<Self::State, GameError>;

    /// Who acts in `state`, or `Turn::Terminal` when the game is over.
    fn turn(&self, state: &Self::State) -> Result<Turn, GameError>;

    /// Clears `out` and fills it with the legal moves in `state`, sorted.
    fn legal_moves(&self, state: &Self::State, out: &mut Vec<Self::Move>) -> Result<(), GameError>;

    /// Plays `mv` in `state`, in place.
    fn apply(&self, state: &mut Self::State, mv: &Self::Move) -> Result<(), GameError>;

    /// The utility of a terminal `state` for `player`.
    fn returns(&self, state: &Self::State, player: Player) -> Result<f64, GameError>;

    /// A move in the game's own notation: `(1, 3)` for Nim, `5` for the 1-9 game.
    fn move_text(&self, mv: &Self::Move) -> String;

    /// A position as people read it: `board: [0, 2, 3, 1]`. Without whose turn it is.
    fn state_text(&self, state: &Self::State) -> String;

    /// The position as the game's `display` block draws it; `None` for a
    /// game without one, which is then shown by `state_text`.
    fn board(&self, _state: &Self::State) -> Result<Option<crate::board::Board>, GameError> {
        Ok(None)
    }

    /// The position as people read it best: its board where the game has
    /// a display, else `state_text`.
    fn shown(&self, state: &Self::State) -> Result<String, GameError> {
        Ok(match self.board(state)? {
            Some(b) => b.text(),
            None => self.state_text(state),
        })
    }

    /// The legal moves of `player` in `state`: at a `Turn::Player(player)` node
    /// the same as `legal_moves`; at a `Turn::Simultaneous` node, that player's
    /// own choices.
    fn legal_moves_of(&self, state: &Self::State, player: Player, out: &mut Vec<Self::Move>) -> Result<(), GameError> {
        match self.turn(state)? {
            Turn::Player(p) if p == player => self.legal_moves(state, out),
            _ => {
                out.clear();
                Ok(())
            }
        }
    }

    /// Plays one move per player at once, at a `Turn::Simultaneous` node;
    /// `moves[p]` is player `p`'s move.
    fn apply_joint(&self, state: &mut Self::State, moves: &[Self::Move]) -> Result<(), GameError> {
        let _ = (state, moves);
        Err(GameError::new(
            RuntimeKind::Internal,
            "this game has no simultaneous moves (a bug in gdl)",
        ))
    }

    /// At a `Turn::Chance` node: every outcome and its probability (they sum to 1).
    fn chance_outcomes(&self, state: &Self::State, out: &mut Vec<(Self::Move, f64)>) -> Result<(), GameError> {
        let _ = state;
        out.clear();
        Err(GameError::new(
            RuntimeKind::Internal,
            "this game has no chance moves (a bug in gdl)",
        ))
    }

    /// What `player` sees of `state`, as text: equal for two states exactly when
    /// the player cannot tell them apart. For a game without hidden information,
    /// the whole position.
    fn observation(&self, state: &Self::State, player: Player) -> String {
        let _ = player;
        self.state_text(state)
    }

    /// The length of the vector [`observe_tensor`](Game::observe_tensor)
    /// fills, for learned evaluators (`az:FILE`); `None`: the game gives no
    /// such vector.
    fn observation_size(&self) -> Option<usize> {
        None
    }

    /// Fills `out` with what `player` sees of `state` as numbers, always
    /// [`observation_size`](Game::observation_size) of them; false (and
    /// `out` untouched) when the game gives no such vector.
    fn observe_tensor(&self, state: &Self::State, player: Player, out: &mut Vec<f32>) -> Result<bool, GameError> {
        let _ = (state, player, out);
        Ok(false)
    }

    /// How many moves the game numbers in a fixed space, one output of a
    /// policy network each; `None` when it numbers none.
    fn action_count(&self) -> Option<usize> {
        None
    }

    /// The number of `mv` in that space, `0..action_count()`; `None` for a
    /// move outside it (or a game without one).
    fn action_index(&self, mv: &Self::Move) -> Option<usize> {
        let _ = mv;
        None
    }

    /// A hash of [`observation`](Game::observation): equal observations
    /// give equal hashes. A game may compute it without building the text.
    fn observation_hash(&self, state: &Self::State, player: Player) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = rustc_hash::FxHasher::default();
        self.observation(state, player).as_bytes().hash(&mut h);
        h.finish()
    }

    /// A state that `player` cannot tell from `state`, with everything hidden
    /// from them drawn at random (determinization). Without hidden information,
    /// `state` itself.
    fn sample_hidden(
        &self,
        state: &Self::State,
        player: Player,
        rng: &mut dyn rand::RngCore,
    ) -> Result<Self::State, GameError> {
        let _ = (player, rng);
        Ok(state.clone())
    }

    /// Final scores, for games decided by points (X Nimmt!: the fewest points
    /// win); `None` for games decided by a winner. Only for terminal states.
    fn scores(&self, state: &Self::State) -> Result<Option<Vec<f64>>, GameError> {
        let _ = state;
        Ok(None)
    }

    /// The scores as they stand now, in any state, for games decided by
    /// points; `None` for games decided by a winner. Heuristics read it.
    fn running_scores(&self, state: &Self::State) -> Result<Option<Vec<f64>>, GameError> {
        let _ = state;
        Ok(None)
    }

    /// The representative of the positions that play as `state` does: the
    /// memo tables and Q-learning key positions by it. `None`: every
    /// position stands for itself. It must keep the player to move, and map
    /// positions of equal value, and only those, to the same representative.
    fn canonical(&self, state: &Self::State) -> Result<Option<Self::State>, GameError> {
        let _ = state;
        Ok(None)
    }

    /// Whether the lowest score wins (see `scores`).
    fn lowest_score_wins(&self) -> bool {
        false
    }

    /// An estimate of `player`'s utility in a position that is not over, for
    /// searches that stop before the end (`None`: the game gives none).
    fn evaluate(&self, state: &Self::State, player: Player) -> Result<Option<f64>, GameError> {
        let _ = (state, player);
        Ok(None)
    }

    /// The lowest and the highest utility player 0 can get at any end of the
    /// game, when the rules say so before any play (`None`: not known). The
    /// exact solvers stop searching a position as soon as a move reaches the
    /// best its mover can get; a terminal utility outside the range is an error.
    fn utility_range(&self) -> Option<(f64, f64)> {
        None
    }

    /// Plays at most `plies` moves at random from `state`, each the legal
    /// move at `pick(n)` among the `n` that `legal_moves` gives, and says
    /// how many it played: exactly what that many calls of `turn`,
    /// `legal_moves` and `apply` would have done with the same draws, for
    /// a random playout's inner loop. It may stop early anywhere (the end
    /// of the game, a chance or simultaneous node, a case it leaves to the
    /// caller) but never between a draw and its move; the caller goes on
    /// a step at a time from there. The default plays none; a game whose
    /// rules are compiled plays them without the work each separate call
    /// repeats.
    fn play_random_moves(
        &self,
        state: &mut Self::State,
        moves: &mut Vec<Self::Move>,
        pick: &mut dyn FnMut(usize) -> usize,
        plies: usize,
    ) -> Result<usize, GameError> {
        let _ = (state, moves, pick, plies);
        Ok(0)
    }

    /// `max moves N`: the file's promise that no game is longer than N moves
    /// of the players (chance's draws not counted, a simultaneous round
    /// counted once); `None` without one. Play checks it ([`MaxMoves`]).
    fn max_moves(&self) -> Option<u64> {
        None
    }

    /// The repetition rule (`end when repeated N`): the game ends when a move
    /// reaches a position that has occurred N − 1 times before in this game.
    /// `None`: no such rule. `turn` cannot see it, since it depends on the
    /// history: every algorithm that plays or searches keeps the positions of
    /// its line (compared by `State` equality, the memo's key) and ends the
    /// game itself, with `repetition_returns` ([`Repetitions`] does the counting).
    fn repetition(&self) -> Option<u32> {
        None
    }

    /// The utility for `player` when a move reaches `state` for the Nth time
    /// (see `repetition`): the rule's outcome, read in that position.
    fn repetition_returns(&self, state: &Self::State, player: Player) -> Result<f64, GameError> {
        let _ = (state, player);
        Err(GameError::new(
            RuntimeKind::Internal,
            "this game has no repetition rule (a bug in gdl)",
        ))
    }

    /// Marks `state`, which a move just reached for the Nth time, as over by
    /// the repetition rule: `turn` then says `Terminal` and `returns` and
    /// `scores` give the rule's outcome, so that a play loop ends the game as
    /// any other end. False where the game cannot mark a state (a searcher
    /// then uses `repetition_returns`).
    fn end_by_repetition(&self, state: &mut Self::State) -> bool {
        let _ = state;
        false
    }

    /// The move with its name always written (`take(0, 1)`), which a person
    /// may type even where `move_text` leaves the name out.
    fn move_text_named(&self, mv: &Self::Move) -> String {
        self.move_text(mv)
    }

    /// Reads a move typed by a person, in the notation of `move_text`
    /// (spaces and brackets are forgiven). Only moves legal in `state` are found.
    /// At a simultaneous node, use `parse_move_of`.
    fn parse_move(&self, state: &Self::State, text: &str) -> Result<Self::Move, String> {
        let mut moves = Vec::new();
        self.legal_moves(state, &mut moves).map_err(|e| e.to_string())?;
        find_move(self, &moves, text)
    }

    /// Reads a move of `player` typed by a person, at any node where they choose.
    fn parse_move_of(&self, state: &Self::State, player: Player, text: &str) -> Result<Self::Move, String> {
        let mut moves = Vec::new();
        self.legal_moves_of(state, player, &mut moves)
            .map_err(|e| e.to_string())?;
        find_move(self, &moves, text)
    }
}

/// Counts the players' moves of one game against the file's `max moves N`
/// ([`Game::max_moves`]): a move with N made and the game not over breaks
/// the promise, an error rather than a game longer than the file says
/// (OpenSpiel sizes its tensors and buffers by it).
#[derive(Clone, Debug)]
pub struct MaxMoves {
    limit: u64,
    made: u64,
}

impl MaxMoves {
    /// The count for `game`, if its file declares a bound.
    pub fn of<G: Game + ?Sized>(game: &G) -> Option<Self> {
        game.max_moves().map(|limit| MaxMoves { limit, made: 0 })
    }

    /// Starts counting a new game.
    pub fn restart(&mut self) {
        self.made = 0;
    }

    /// Counts a move of the players (one turn, or one simultaneous round)
    /// about to be made in `state`; an error where the bound is reached.
    pub fn count<G: Game + ?Sized>(&mut self, game: &G, state: &G::State) -> Result<(), GameError> {
        if self.made >= self.limit {
            return Err(max_moves_broken(game, self.limit).in_state(game.state_text(state)));
        }
        self.made += 1;
        Ok(())
    }
}

/// The error of a game that is not over after its file's `max moves N`.
pub fn max_moves_broken<G: Game + ?Sized>(game: &G, limit: u64) -> GameError {
    GameError::new(
        RuntimeKind::Endless,
        format!(
            "{} declares `max moves {limit}`, but a game has made {limit} moves and is not over",
            game.name()
        ),
    )
    .with_help("the declaration is wrong: fix the bound in the game file (or remove it, and gdl counts or refuses)")
}

/// The positions of one game so far, for the repetition rule (see
/// [`Game::repetition`]): play loops and playouts push each position a move
/// reaches and stop when `push` says the rule ended the game. `clear` keeps
/// the buffer, so a playout reusing one allocates nothing once warm.
#[derive(Clone, Debug)]
pub struct Repetitions<S> {
    /// N of `end when repeated N`.
    times: u32,
    seen: Vec<S>,
}

impl<S: Clone + Eq> Repetitions<S> {
    /// Counting for `game`'s rule; `None` when it has none.
    pub fn of<G: Game<State = S> + ?Sized>(game: &G) -> Option<Self> {
        game.repetition().map(|times| Repetitions {
            times,
            seen: Vec::new(),
        })
    }

    /// N of the rule.
    pub fn times(&self) -> u32 {
        self.times
    }

    /// Forgets every position, for a new game starting at `start`.
    pub fn restart(&mut self, start: &S) {
        self.seen.clear();
        self.seen.push(start.clone());
    }

    /// Goes on from a line already played: `line`'s positions, the last
    /// one where play is now.
    pub fn resume(&mut self, line: &[S]) {
        self.seen.clear();
        self.seen.extend_from_slice(line);
    }

    /// How often `state` occurred so far.
    pub fn count(&self, state: &S) -> usize {
        self.seen.iter().filter(|s| *s == state).count()
    }

    /// Records that a move reached `state`; true when this is its Nth
    /// occurrence, which ends the game.
    pub fn push(&mut self, state: &S) -> bool {
        let before = self.count(state);
        self.seen.push(state.clone());
        before + 1 >= self.times as usize
    }

    /// The positions so far, the first one first.
    pub fn positions(&self) -> &[S] {
        &self.seen
    }
}

impl<S: Clone + Eq> Repetitions<S> {
    /// For a play loop: records that a move reached `state`, and when that
    /// ends the game by the rule, marks it over ([`Game::end_by_repetition`]).
    pub fn after_move<G: Game<State = S> + ?Sized>(&mut self, game: &G, state: &mut S) -> Result<(), GameError> {
        if self.push(state) && !game.end_by_repetition(state) {
            return Err(GameError::new(
                RuntimeKind::Internal,
                format!(
                    "{} cannot end a game by its rule `end when repeated {}` here (a bug in gdl)",
                    game.name(),
                    self.times
                ),
            ));
        }
        Ok(())
    }
}

/// `1st`, `2nd`, `3rd`, `4th`, ..., `11th`, `21st`.
pub fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// The value of `state` for every player, in player order, when a move
/// reached it for the Nth time under the repetition rule.
pub fn repetition_returns<G: Game>(game: &G, state: &G::State) -> Result<Vec<f64>, GameError> {
    (0..game.num_players())
        .map(|p| game.repetition_returns(state, p))
        .collect()
}

/// Which game, parameters and rules a saved table or strategy is for.
#[derive(Clone, Debug, PartialEq)]
pub struct GameId {
    pub game: String,
    /// The game file as it was named; for people only.
    pub file: String,
    /// FNV-1a (64 bits) of the game file's text, in hex.
    pub source_hash: String,
    pub params: Vec<(String, String)>,
    pub players: Vec<String>,
}

impl GameId {
    /// The identity of a game read from a file.
    pub fn of<G: FileGame>(game: &G) -> Self {
        game.id()
    }
}

/// A game read from a file, as the files that outlive a run see it (saved
/// Q-tables, strategies): who it is, and its positions as text, so that what
/// is saved names positions as gdl prints them, never by internal numbers.
pub trait FileGame: Game {
    /// The game's name, file, text hash, parameters and players.
    fn id(&self) -> GameId;

    /// A position as gdl prints one: the state, then whose move.
    fn position(&self, state: &Self::State) -> String;

    /// Reads a position written as `position` writes one.
    fn parse_position(&self, text: &str) -> Result<Self::State, String>;
}

/// FNV-1a, 64 bits: a stable hash of a game file's text (the same in every
/// build and on every machine), so a saved file notices when the rules
/// changed. It is not a defence against forgery.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The move among `moves` written as `text` (spaces, brackets, leading
/// zeros and the move's name forgiven).
fn find_move<G: Game + ?Sized>(game: &G, moves: &[G::Move], text: &str) -> Result<G::Move, String> {
    let wanted = normalize_move_text(text);
    moves
        .iter()
        .find(|m| {
            normalize_move_text(&game.move_text(m)) == wanted || normalize_move_text(&game.move_text_named(m)) == wanted
        })
        .cloned()
        .ok_or_else(|| format!("`{}` is not a legal move here", text.trim()))
}

/// Drops spaces, outer brackets and the leading zeros of numbers, so that
/// `(0,6)`, `( 0, 6 )`, `0,06` and `0,6` compare equal.
pub fn normalize_move_text(text: &str) -> String {
    let squeezed: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let bare = squeezed
        .strip_prefix('(')
        .and_then(|s| s.strip_suffix(')'))
        .unwrap_or(&squeezed);
    let mut out = String::with_capacity(bare.len());
    let mut chars = bare.chars().peekable();
    // Whether the character before is part of a word (`x01` is a name, not a number).
    let mut in_word = false;
    while let Some(c) = chars.next() {
        if c == '0' && !in_word && chars.peek().is_some_and(char::is_ascii_digit) {
            continue;
        }
        in_word = c.is_alphanumeric() || c == '_';
        out.push(c);
    }
    out
}

/// A failure while running a game's rules: a kind, a message, and where it can be
/// told, the rule in the `.game` file and the position it happened in.
#[derive(Clone)]
pub struct GameError(Box<GameErrorInner>);

#[derive(Clone)]
struct GameErrorInner {
    code: &'static str,
    exit_code: i32,
    message: String,
    span: Option<SourceSpan>,
    source: Option<NamedSource<String>>,
    state: Option<String>,
    help: Option<String>,
}

impl GameError {
    /// A run-time error of a kind such as [`RuntimeKind::Index`].
    pub fn new(kind: impl ErrorKind, message: impl Into<String>) -> Self {
        GameError(Box::new(GameErrorInner {
            code: kind.code(),
            exit_code: kind.exit_code(),
            message: message.into(),
            span: None,
            source: None,
            state: None,
            help: None,
        }))
    }

    /// Points the error at a place in the `.game` file.
    pub fn at(mut self, span: SourceSpan) -> Self {
        if self.0.span.is_none() {
            self.0.span = Some(span);
        }
        self
    }

    /// Attaches the text of the `.game` file, so the span renders.
    pub fn with_source(mut self, source: NamedSource<String>) -> Self {
        if self.0.source.is_none() {
            self.0.source = Some(source);
        }
        self
    }

    /// Records the position the rule was running in.
    pub fn in_state(mut self, state: impl Into<String>) -> Self {
        if self.0.state.is_none() {
            self.0.state = Some(state.into());
        }
        self
    }

    /// Adds a hint about the fix.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.0.help = Some(help.into());
        self
    }

    /// The stable code, e.g. `gdl::runtime::index`.
    pub fn code_str(&self) -> &'static str {
        self.0.code
    }

    /// The message alone, without position or source.
    pub fn message(&self) -> &str {
        &self.0.message
    }

    /// Whether it is of this kind.
    pub fn is(&self, kind: impl ErrorKind) -> bool {
        self.0.code == kind.code()
    }

    /// The exit code of its kind.
    pub fn exit_code(&self) -> i32 {
        self.0.exit_code
    }

    /// Whether the error already points into a source file.
    pub fn has_span(&self) -> bool {
        self.0.span.is_some()
    }
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.message)?;
        if let Some(state) = &self.0.state {
            write!(f, " (in position {state})")?;
        }
        Ok(())
    }
}

impl Debug for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GameError({}: {})", self.0.code, self)
    }
}

impl std::error::Error for GameError {}

impl Exits for GameError {
    fn exit_code(&self) -> i32 {
        self.0.exit_code
    }
}

impl Diagnostic for GameError {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.0.code))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.0.help.as_ref().map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        match (&self.0.span, &self.0.source) {
            (Some(_), Some(src)) => Some(src as &dyn miette::SourceCode),
            _ => None,
        }
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        self.0.source.as_ref()?;
        let span = self.0.span?;
        Some(Box::new(std::iter::once(miette::LabeledSpan::new_with_span(
            Some("while running this".to_string()),
            span,
        ))))
    }
}

/// The error for a position that is not terminal but where the player to
/// move has no legal move: a mistake in the rules, which every algorithm
/// reports the same way.
pub fn no_legal_move<G: Game>(game: &G, state: &G::State) -> GameError {
    GameError::new(
        RuntimeKind::NoMoves,
        "the game is not over, but the player to move has no legal move",
    )
    .in_state(game.state_text(state))
    .with_help("end the game when no move is possible (e.g. `end when no moves`)")
}

/// The value of a terminal state for every player, in player order.
pub fn all_returns<G: Game>(game: &G, state: &G::State) -> Result<Vec<f64>, GameError> {
    (0..game.num_players()).map(|p| game.returns(state, p)).collect()
}

/// The representative of `state` under the game's canonical form (see
/// [`Game::canonical`]); `state` itself in a game without one.
pub fn representative<G: Game>(game: &G, state: G::State) -> Result<G::State, GameError> {
    Ok(game.canonical(&state)?.unwrap_or(state))
}
