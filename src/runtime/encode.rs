//! Numbers for learning tools (OpenSpiel, PettingZoo, numpy): a fixed,
//! dense numbering of every move a game can make, a fixed-length vector of
//! what a player sees, the facts OpenSpiel asks of a game before any play
//! (longest game, utility range), and a state rebuilt from its cells (a
//! pickled state).
//!
//! The actions come from the move kinds' argument domains where the rules
//! bound them before any play (`1..cols`, `card in deck` of a `set<1..K>`,
//! `0..<len(board)`); where a domain depends on play (`n in 1..board[row]`),
//! from every position reachable from the start, if there are few enough.
//! Either way the numbering is the game's own order of moves: declaration
//! order, then ascending arguments.

use std::collections::{BTreeSet, HashMap};

use miette::Diagnostic;
use thiserror::Error;

use super::{Interpreted, Move, State};
use crate::error_kind::{EXIT_RUNTIME, Exits};
use crate::game::{Game, GameError, Turn};
use crate::ir::{ArithOp, Coll, Expr, Layout, MAX_MOVE_ARGS, Outcome, Place, Program, Visibility};
use crate::value::{load_value, store_value};

/// The most actions a numbering may have: one output of a policy network
/// per action, so a game past this is no use to the tools that ask.
pub const MAX_ACTIONS: usize = 1 << 20;

/// The most positions explored to number moves whose domains depend on play,
/// or to find the longest game.
pub const MAX_EXPLORED: usize = 200_000;

/// Why a game's moves cannot be numbered, or a state not rebuilt.
#[derive(Debug, Error, Diagnostic)]
#[error("{message}")]
#[diagnostic(code(gdl::encode))]
pub struct EncodeError {
    message: String,
    #[help]
    help: Option<String>,
}

impl EncodeError {
    fn new(message: impl Into<String>, help: Option<String>) -> Self {
        EncodeError {
            message: message.into(),
            help,
        }
    }
}

impl Exits for EncodeError {
    fn exit_code(&self) -> i32 {
        EXIT_RUNTIME
    }
}

impl From<GameError> for EncodeError {
    fn from(e: GameError) -> Self {
        EncodeError::new(e.to_string(), None)
    }
}

/// Every move the game can make, numbered densely in the game's order.
#[derive(Clone, Debug)]
pub struct Actions {
    moves: Vec<Move>,
    index: HashMap<Move, usize>,
}

impl Actions {
    /// The numbering of `game`'s moves (chance outcomes included: OpenSpiel
    /// numbers them in the same space).
    pub fn of(game: &Interpreted) -> Result<Actions, EncodeError> {
        let prog = game.program();
        let mut domains: Vec<Option<Vec<Vec<i64>>>> = Vec::new();
        let mut unbounded = None;
        for mk in &prog.moves {
            let mut args = Vec::new();
            for arg in &mk.args {
                match domain(prog, &arg.domain, &arg.layout) {
                    Some((lo, hi)) if hi.saturating_sub(lo) < MAX_ACTIONS as i64 => args.push((lo..=hi).collect()),
                    Some(_) => {
                        return Err(too_many(prog, &format!("`{}` of `{}`", arg.name, mk.name)));
                    }
                    None => {
                        unbounded.get_or_insert_with(|| format!("`{}` of `{}`", arg.name, mk.name));
                        args.clear();
                        break;
                    }
                }
            }
            domains.push(if args.len() == mk.args.len() { Some(args) } else { None });
        }
        let explored = if unbounded.is_some() {
            match explore(game, MAX_EXPLORED)? {
                Some(e) => Some(e),
                None => {
                    return Err(EncodeError::new(
                        format!(
                            "the moves of {} cannot be numbered: the argument {} ranges over values that depend on play, and the game has more than {MAX_EXPLORED} positions to look through",
                            prog.name,
                            unbounded.unwrap_or_default()
                        ),
                        Some("give the argument a range fixed before play (`n in 1..20 requires n <= board[row]`), or choose smaller parameters".into()),
                    ));
                }
            }
        } else {
            None
        };
        let mut moves = Vec::new();
        for (kind, d) in domains.iter().enumerate() {
            match d {
                Some(args) => {
                    let before = moves.len();
                    product(kind as u16, args, &mut [0; MAX_MOVE_ARGS], 0, &mut moves);
                    if moves.len() - before > MAX_ACTIONS || moves.len() > MAX_ACTIONS {
                        return Err(too_many(prog, &format!("`{}`", prog.moves[kind].name)));
                    }
                }
                None => {
                    let seen = &explored.as_ref().expect("explored when a domain is unbounded").moves;
                    moves.extend(seen.iter().filter(|m| m.kind() == kind));
                }
            }
        }
        let index = moves.iter().enumerate().map(|(i, m)| (*m, i)).collect();
        Ok(Actions { moves, index })
    }

    pub fn len(&self) -> usize {
        self.moves.len()
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The move numbered `action`.
    pub fn get(&self, action: usize) -> Option<Move> {
        self.moves.get(action).copied()
    }

    /// The number of `mv`; `None` for a move outside the numbering (of a
    /// position the start cannot reach).
    pub fn index_of(&self, mv: &Move) -> Option<usize> {
        self.index.get(mv).copied()
    }
}

fn too_many(prog: &Program, what: &str) -> EncodeError {
    EncodeError::new(
        format!(
            "the moves of {} cannot be numbered: {what} alone makes more than {MAX_ACTIONS} moves",
            prog.name
        ),
        Some("choose smaller parameters".into()),
    )
}

/// Every combination of `args[i..]`, in ascending order, after `prefix`.
fn product(kind: u16, args: &[Vec<i64>], prefix: &mut [i64; MAX_MOVE_ARGS], i: usize, out: &mut Vec<Move>) {
    if out.len() > MAX_ACTIONS {
        return;
    }
    if i == args.len() {
        out.push(Move { kind, args: *prefix });
        return;
    }
    for &v in &args[i] {
        prefix[i] = v;
        product(kind, args, prefix, i + 1, out);
    }
    prefix[i] = 0;
}

/// The values an argument drawn from `coll` may take, as `lo..=hi`, when
/// the rules bound them before play; `None` when play decides.
fn domain(prog: &Program, coll: &Coll, layout: &Layout) -> Option<(i64, i64)> {
    match layout {
        Layout::Bool => return Some((0, 1)),
        Layout::Player => return Some((0, prog.players.len() as i64 - 1)),
        _ => {}
    }
    match coll {
        Coll::Range { lo, hi } => Some((bounds(prog, lo)?.0, bounds(prog, hi)?.1)),
        Coll::Set { lo, hi, .. } => Some((*lo, *hi)),
        Coll::Indices { place } => match layout_of(prog, place)? {
            Layout::List { cap, .. } => Some((0, *cap as i64 - 1)),
            _ => None,
        },
        Coll::List { place } => match layout_of(prog, place)? {
            Layout::List { elem, .. } => match **elem {
                Layout::Bool => Some((0, 1)),
                Layout::Player => Some((0, prog.players.len() as i64 - 1)),
                _ => None,
            },
            _ => None,
        },
        Coll::Literal(items) => {
            let mut range: Option<(i64, i64)> = None;
            for item in items {
                let (lo, hi) = bounds(prog, item)?;
                range = Some(range.map_or((lo, hi), |(a, b)| (a.min(lo), b.max(hi))));
            }
            range
        }
    }
}

/// The lowest and highest value `e` can have, when known before play.
fn bounds(prog: &Program, e: &Expr) -> Option<(i64, i64)> {
    match e {
        Expr::Const(c) => Some((*c, *c)),
        Expr::Len(coll) => match &**coll {
            Coll::List { place } | Coll::Indices { place } => match layout_of(prog, place)? {
                Layout::List { cap, .. } => Some((0, *cap as i64)),
                _ => None,
            },
            Coll::Set { lo, hi, .. } => Some((0, (hi - lo + 1).max(0))),
            Coll::Range { lo, hi } => Some((0, (bounds(prog, hi)?.1 - bounds(prog, lo)?.0 + 1).max(0))),
            Coll::Literal(items) => Some((0, items.len() as i64)),
        },
        Expr::Neg(x) => {
            let (lo, hi) = bounds(prog, x)?;
            Some((hi.checked_neg()?, lo.checked_neg()?))
        }
        Expr::Arith(op, a, b, _) => {
            let (alo, ahi) = bounds(prog, a)?;
            let (blo, bhi) = bounds(prog, b)?;
            match op {
                ArithOp::Add => Some((alo.checked_add(blo)?, ahi.checked_add(bhi)?)),
                ArithOp::Sub => Some((alo.checked_sub(bhi)?, ahi.checked_sub(blo)?)),
                ArithOp::Mul => {
                    let corners = [
                        alo.checked_mul(blo)?,
                        alo.checked_mul(bhi)?,
                        ahi.checked_mul(blo)?,
                        ahi.checked_mul(bhi)?,
                    ];
                    Some((*corners.iter().min()?, *corners.iter().max()?))
                }
                ArithOp::Div | ArithOp::Rem => None,
            }
        }
        Expr::Pick(_, a, b) | Expr::If(_, a, b) => {
            let (alo, ahi) = bounds(prog, a)?;
            let (blo, bhi) = bounds(prog, b)?;
            Some((alo.min(blo), ahi.max(bhi)))
        }
        _ => None,
    }
}

/// The layout of the value at `place` in the state.
fn layout_of<'p>(prog: &'p Program, place: &Place) -> Option<&'p Layout> {
    match place {
        Place::Static(offset) => prog.vars.iter().find(|v| v.offset == *offset).map(|v| &v.layout),
        Place::Elem { list, .. } => match layout_of(prog, list)? {
            Layout::List { elem, .. } => Some(elem),
            _ => None,
        },
        Place::Const(_) | Place::Local(_) => None,
    }
}

/// What a look through every position reachable from the start found.
#[derive(Clone, Debug)]
pub struct Explored {
    /// How many positions.
    pub positions: usize,
    /// Every move made in some position (chance outcomes included).
    pub moves: BTreeSet<Move>,
    /// The most moves of players (chance's not counted, a simultaneous
    /// round counted once) in a game; `None` when a position can recur.
    pub longest: Option<usize>,
    /// The lowest and highest return of any player at any end.
    pub utility: Option<(f64, f64)>,
}

/// Looks through every position reachable from the start; `None` when there
/// are more than `limit`.
pub fn explore(game: &Interpreted, limit: usize) -> Result<Option<Explored>, GameError> {
    let start = game.initial_state()?;
    let mut ids: HashMap<State, usize> = HashMap::new();
    let mut states = vec![start.clone()];
    ids.insert(start, 0);
    // Each position's successors, and whether the step counts towards the length.
    let mut next: Vec<Vec<(usize, bool)>> = Vec::new();
    let mut seen = BTreeSet::new();
    let mut utility: Option<(f64, f64)> = None;
    let mut buf = Vec::new();
    let mut outcomes = Vec::new();
    let n = game.num_players();
    let mut i = 0;
    while i < states.len() {
        let s = states[i].clone();
        let mut children: Vec<(State, bool)> = Vec::new();
        match game.turn(&s)? {
            Turn::Terminal => {
                for p in 0..n {
                    let r = game.returns(&s, p)?;
                    utility = Some(utility.map_or((r, r), |(lo, hi)| (lo.min(r), hi.max(r))));
                }
            }
            Turn::Player(_) => {
                game.legal_moves(&s, &mut buf)?;
                for m in &buf {
                    seen.insert(*m);
                    let mut t = s.clone();
                    game.apply(&mut t, m)?;
                    children.push((t, true));
                }
            }
            Turn::Chance => {
                game.chance_outcomes(&s, &mut outcomes)?;
                for (m, _) in &outcomes {
                    seen.insert(*m);
                    let mut t = s.clone();
                    game.apply(&mut t, m)?;
                    children.push((t, false));
                }
            }
            Turn::Simultaneous => {
                let mut each = Vec::with_capacity(n);
                for p in 0..n {
                    game.legal_moves_of(&s, p, &mut buf)?;
                    seen.extend(buf.iter().copied());
                    each.push(buf.clone());
                }
                let mut joint = vec![0usize; n];
                // A player without a move leaves no joint move to play.
                'joint: while each.iter().all(|m| !m.is_empty()) {
                    let moves: Vec<Move> = (0..n).map(|p| each[p][joint[p]]).collect();
                    let mut t = s.clone();
                    game.apply_joint(&mut t, &moves)?;
                    children.push((t, true));
                    if children.len() > limit {
                        return Ok(None);
                    }
                    for p in (0..n).rev() {
                        joint[p] += 1;
                        if joint[p] < each[p].len() {
                            continue 'joint;
                        }
                        joint[p] = 0;
                    }
                    break;
                }
            }
        }
        let mut edges = Vec::with_capacity(children.len());
        for (t, counts) in children {
            let id = match ids.get(&t) {
                Some(&id) => id,
                None => {
                    if states.len() >= limit {
                        return Ok(None);
                    }
                    ids.insert(t.clone(), states.len());
                    states.push(t);
                    states.len() - 1
                }
            };
            edges.push((id, counts));
        }
        next.push(edges);
        i += 1;
    }
    let longest = longest_path(&next);
    // The file's `max moves N` is a promise the positions can check.
    if let (Some(limit), Some(found)) = (game.max_moves(), longest)
        && found as u64 > limit
    {
        return Err(crate::game::max_moves_broken(game, limit).with_help(format!(
            "the longest game has {found} moves: fix the bound in the game file"
        )));
    }
    Ok(Some(Explored {
        positions: states.len(),
        moves: seen,
        longest,
        utility,
    }))
}

/// The most counted steps on a path from position 0; `None` on a cycle.
fn longest_path(next: &[Vec<(usize, bool)>]) -> Option<usize> {
    const NEW: usize = usize::MAX;
    const OPEN: usize = usize::MAX - 1;
    let mut best = vec![NEW; next.len()];
    // Depth-first, without recursion: (position, index of the next edge).
    let mut stack = vec![(0usize, 0usize)];
    best[0] = OPEN;
    while let Some(&mut (v, ref mut e)) = stack.last_mut() {
        if let Some(&(w, _)) = next[v].get(*e) {
            *e += 1;
            match best[w] {
                OPEN => return None,
                NEW => {
                    best[w] = OPEN;
                    stack.push((w, 0));
                }
                _ => {}
            }
        } else {
            best[v] = next[v]
                .iter()
                .map(|&(w, counts)| best[w] + usize::from(counts))
                .max()
                .unwrap_or(0);
            stack.pop();
        }
    }
    Some(best[0])
}

/// Whether the returns at every end sum to zero: a winner's gain is the
/// loser's loss between two players; a game decided by scores returns each
/// player's margin over the others' average; a draw is 0 for all.
pub fn zero_sum(prog: &Program) -> bool {
    prog.players.len() == 2
        || prog
            .ends
            .iter()
            .all(|e| matches!(e.outcome, Outcome::Draw | Outcome::Score { .. }))
}

/// Whether some player cannot see the whole state (`hidden` or `private` state).
pub fn has_hidden(prog: &Program) -> bool {
    prog.vars.iter().any(|v| v.visibility != Visibility::Public)
}

/// The move of kind `kind` (an index into the `move` declarations) with
/// `args`, checked against the declaration; whether it is legal anywhere is
/// for the game to say.
pub fn move_of(prog: &Program, kind: usize, args: &[i64]) -> Result<Move, EncodeError> {
    let mk = prog
        .moves
        .get(kind)
        .ok_or_else(|| EncodeError::new(format!("{} has no move kind {kind}", prog.name), None))?;
    if args.len() != mk.args.len() {
        return Err(EncodeError::new(
            format!("`{}` takes {} arguments, not {}", mk.name, mk.args.len(), args.len()),
            None,
        ));
    }
    let mut all = [0; MAX_MOVE_ARGS];
    all[..args.len()].copy_from_slice(args);
    Ok(Move {
        kind: kind as u16,
        args: all,
    })
}

/// The length of the vector [`observe`] fills for `prog`.
pub fn observation_size(prog: &Program) -> usize {
    Observer::of(prog).size()
}

/// Fills `out` with what `viewer` sees of `state`, as numbers: who views
/// (one-hot over the players), who is to move (one-hot; none at a chance
/// or simultaneous node or at the end), then each state variable the viewer
/// may see, in declaration order: an int as its value, a bool as 0 or 1, a
/// player one-hot, a set as one 0-or-1 per number of its range, a list as
/// one slot per element it may hold (1 when the element is there, then the
/// element). A `hidden` variable is left out; another player's entry of a
/// `private` one is all zeros.
pub fn observe(game: &Interpreted, state: &State, viewer: usize, out: &mut Vec<f32>) -> Result<(), GameError> {
    let to_move = match game.turn(state)? {
        Turn::Player(p) => Some(p),
        _ => None,
    };
    let observer = game.observer();
    out.clear();
    out.resize(observer.size(), 0.0);
    observer.write(&state.cells(), viewer, to_move, out.as_mut_slice());
    Ok(())
}

/// [`observe`]'s encoding of one game with its sizes worked out once, so
/// that it writes straight into a zeroed row, only the numbers that are not
/// 0. Profiled on connect four, growing a `Vec` number by number with the
/// sizes recomputed per element took a third of a batched step.
#[derive(Debug)]
pub struct Observer {
    vars: Vec<VarEnc>,
    players: usize,
    size: usize,
}

/// How one state variable shows in an observation.
#[derive(Debug)]
enum Enc {
    Int,
    Bool,
    Player,
    Set {
        bits: usize,
    },
    List {
        elem: Box<Enc>,
        cap: usize,
        elem_cells: usize,
        elem_width: usize,
    },
}

/// A visible state variable: where its cells start, how it shows, whether
/// only its owner sees their entry (`private`), and the numbers it takes.
#[derive(Debug)]
struct VarEnc {
    offset: usize,
    enc: Enc,
    private: bool,
    width: usize,
}

/// Where [`Observer::write`] puts its numbers: a row of `f32`, or of
/// little-endian `f32` bytes (a numpy buffer filled without a copy).
pub trait ObservationRow {
    fn put(&mut self, at: usize, x: f32);
}

impl ObservationRow for [f32] {
    #[inline(always)]
    fn put(&mut self, at: usize, x: f32) {
        self[at] = x;
    }
}

/// A row of little-endian `f32`, as bytes.
pub struct LeBytes<'a>(pub &'a mut [u8]);

impl ObservationRow for LeBytes<'_> {
    #[inline(always)]
    fn put(&mut self, at: usize, x: f32) {
        self.0[at * 4..at * 4 + 4].copy_from_slice(&x.to_le_bytes());
    }
}

impl Observer {
    pub fn of(prog: &Program) -> Observer {
        let n = prog.players.len();
        let vars: Vec<VarEnc> = (prog.vars.iter())
            .filter(|v| v.visibility != Visibility::Hidden)
            .map(|v| {
                let (enc, width) = enc_of(&v.layout, n);
                VarEnc {
                    offset: v.offset,
                    enc,
                    private: v.visibility == Visibility::Private,
                    width,
                }
            })
            .collect();
        let size = 2 * n + vars.iter().map(|v| v.width).sum::<usize>();
        Observer { vars, players: n, size }
    }

    /// The numbers in an observation.
    pub fn size(&self) -> usize {
        self.size
    }

    /// What `viewer` sees of a state's `cells` with `to_move` to move, into
    /// `row`, which must be zeroed and [`Observer::size`] long.
    pub fn write<R: ObservationRow + ?Sized>(&self, cells: &[i64], viewer: usize, to_move: Option<usize>, row: &mut R) {
        let n = self.players;
        row.put(viewer, 1.0);
        if let Some(p) = to_move {
            row.put(n + p, 1.0);
        }
        let mut at = 2 * n;
        for v in &self.vars {
            let cells = &cells[v.offset..];
            match (&v.enc, v.private) {
                (
                    Enc::List {
                        elem,
                        cap,
                        elem_cells,
                        elem_width,
                    },
                    true,
                ) => {
                    // Only the viewer's own entry, whatever the list's length.
                    if viewer < *cap {
                        let a = at + viewer * (1 + elem_width);
                        row.put(a, 1.0);
                        let own = &cells[1 + viewer * elem_cells..1 + (viewer + 1) * elem_cells];
                        encode_into(elem, own, n, row, a + 1);
                    }
                }
                (_, true) => {}
                (enc, false) => encode_into(enc, cells, n, row, at),
            }
            at += v.width;
        }
    }
}

fn enc_of(layout: &Layout, n: usize) -> (Enc, usize) {
    match layout {
        Layout::Int => (Enc::Int, 1),
        Layout::Bool => (Enc::Bool, 1),
        Layout::Player => (Enc::Player, n),
        Layout::Set { lo, hi } => {
            let bits = (hi - lo + 1).max(0) as usize;
            (Enc::Set { bits }, bits)
        }
        Layout::List { elem, cap } => {
            let (e, w) = enc_of(elem, n);
            let enc = Enc::List {
                elem: Box::new(e),
                cap: *cap,
                elem_cells: elem.size(),
                elem_width: w,
            };
            (enc, cap * (1 + w))
        }
    }
}

fn encode_into<R: ObservationRow + ?Sized>(enc: &Enc, cells: &[i64], n: usize, row: &mut R, at: usize) {
    match enc {
        Enc::Int => {
            if cells[0] != 0 {
                row.put(at, cells[0] as f32);
            }
        }
        Enc::Bool => {
            if cells[0] != 0 {
                row.put(at, 1.0);
            }
        }
        Enc::Player => {
            if (0..n as i64).contains(&cells[0]) {
                row.put(at + cells[0] as usize, 1.0);
            }
        }
        Enc::Set { bits } => {
            for bit in 0..*bits {
                if cells[bit / 64] >> (bit % 64) & 1 == 1 {
                    row.put(at + bit, 1.0);
                }
            }
        }
        Enc::List {
            elem,
            cap,
            elem_cells,
            elem_width,
        } => {
            let len = (cells[0].max(0) as usize).min(*cap);
            for i in 0..len {
                let a = at + i * (1 + elem_width);
                row.put(a, 1.0);
                encode_into(
                    elem,
                    &cells[1 + i * elem_cells..1 + (i + 1) * elem_cells],
                    n,
                    row,
                    a + 1,
                );
            }
        }
    }
}

/// The state whose cells are `cells` (as [`State::cells`] gave them), after
/// checking they are a state of this game: the right number, the player
/// cells naming a player or nobody, every variable a value of its type, and
/// the game's invariants kept.
pub fn state_from_cells(game: &Interpreted, cells: &[i64]) -> Result<State, EncodeError> {
    let prog = game.program();
    let bad = |why: String| EncodeError::new(format!("not a state of {}: {why}", prog.name), None);
    if cells.len() != prog.initial.len() {
        return Err(bad(format!("{} cells, not {}", cells.len(), prog.initial.len())));
    }
    let n = prog.players.len() as i64;
    // A player always moves next (chance and simultaneous moves leave the
    // cell as it was); nobody has moved before the first move.
    for (i, name, first) in [
        (crate::ir::TURN_CELL, "the player to move", 0),
        (crate::ir::PREVIOUS_CELL, "the last mover", -1),
    ] {
        if !(first..n).contains(&cells[i]) {
            return Err(bad(format!(
                "{name} is {}, where the players are numbered 0 to {}",
                cells[i],
                n - 1
            )));
        }
    }
    let mut again = vec![0; cells.len()];
    for v in &prog.vars {
        let at = v.offset..v.offset + v.layout.size();
        let value = load_value(&v.layout, &cells[at.clone()]);
        store_value(&v.layout, &value, &mut again[at.clone()]).map_err(|e| bad(format!("`{}`: {e}", v.name)))?;
        if again[at.clone()] != cells[at] {
            return Err(bad(format!("`{}` is not a value of its type", v.name)));
        }
    }
    let state = State::new(cells);
    match game.invariants_refuse(&state) {
        None => Ok(state),
        Some(why) => Err(bad(why)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(file: &str, params: &[(&str, &str)]) -> Interpreted {
        let text = std::fs::read_to_string(format!("{}/games/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        let params: Vec<(String, String)> = params.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        Interpreted::new(crate::compile::load(file, &text, &params).unwrap())
    }

    /// Every legal move of every position reached by `plays` random games
    /// has a number, and the number gives the move back.
    fn numbered_along_random_games(g: &Interpreted, actions: &Actions, plays: u64) {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let mut moves = Vec::new();
        for _ in 0..plays {
            let mut s = g.initial_state().unwrap();
            loop {
                match g.turn(&s).unwrap() {
                    Turn::Terminal => break,
                    Turn::Simultaneous => {
                        let mut joint = Vec::new();
                        for p in 0..g.num_players() {
                            g.legal_moves_of(&s, p, &mut moves).unwrap();
                            for m in &moves {
                                assert_eq!(actions.get(actions.index_of(m).unwrap()), Some(*m));
                            }
                            joint.push(moves[rng.random_range(0..moves.len())]);
                        }
                        g.apply_joint(&mut s, &joint).unwrap();
                    }
                    _ => {
                        g.legal_moves(&s, &mut moves).unwrap();
                        let numbers: Vec<usize> = moves.iter().map(|m| actions.index_of(m).unwrap()).collect();
                        // The game's order is the numbering's.
                        assert!(numbers.windows(2).all(|w| w[0] < w[1]), "{numbers:?}");
                        let m = moves[rng.random_range(0..moves.len())];
                        g.apply(&mut s, &m).unwrap();
                    }
                }
            }
        }
    }

    #[test]
    fn static_domains_number_every_move_of_the_declaration() {
        // Connect four: `col in 1..cols`; tic-tac-toe: `cell in free` of a set<1..9>.
        let c4 = game("connect4.game", &[("rows", "4"), ("cols", "5")]);
        let a = Actions::of(&c4).unwrap();
        assert_eq!(a.len(), 5);
        assert_eq!(c4.move_text(&a.get(0).unwrap()), "1");
        numbered_along_random_games(&c4, &a, 20);
        let ttt = game("tictactoe.game", &[]);
        assert_eq!(Actions::of(&ttt).unwrap().len(), 9);
        // Kuhn poker: the three deals, then pass and bet.
        let kuhn = game("kuhn-poker.game", &[]);
        let a = Actions::of(&kuhn).unwrap();
        let texts: Vec<String> = (0..a.len()).map(|i| kuhn.move_text_named(&a.get(i).unwrap())).collect();
        assert_eq!(texts, ["deal(1)", "deal(2)", "deal(3)", "pass()", "bet()"]);
        let goof = game("goofspiel.game", &[("cards", "5")]);
        let a = Actions::of(&goof).unwrap();
        assert_eq!(a.len(), 10);
        numbered_along_random_games(&goof, &a, 20);
        let x = game("xnimmt.game", &[]);
        numbered_along_random_games(&x, &Actions::of(&x).unwrap(), 5);
    }

    #[test]
    fn a_domain_that_depends_on_play_is_found_by_exploring() {
        // Nim's `n in 1..board[row]`: the piles only shrink, so row r has the
        // moves (r, 1) ..= (r, piles[r]).
        let nim = game("nim.game", &[("piles", "[3, 1, 2]")]);
        let a = Actions::of(&nim).unwrap();
        let texts: Vec<String> = (0..a.len()).map(|i| nim.move_text(&a.get(i).unwrap())).collect();
        assert_eq!(texts, ["(0, 1)", "(0, 2)", "(0, 3)", "(1, 1)", "(2, 1)", "(2, 2)"]);
        numbered_along_random_games(&nim, &a, 20);
    }

    #[test]
    fn too_many_positions_to_explore_is_a_clear_error() {
        let nim = game("nim.game", &[("piles", "[20, 20, 20, 20, 20]")]);
        let e = Actions::of(&nim).unwrap_err();
        assert!(e.to_string().contains("`n` of `take`"), "{e}");
        assert!(e.to_string().contains("depend on play"), "{e}");
    }

    #[test]
    fn exploring_finds_the_longest_game_and_the_returns() {
        // Tic-tac-toe: 5,478 positions, at most 9 moves, returns -1..1.
        let e = explore(&game("tictactoe.game", &[]), MAX_EXPLORED).unwrap().unwrap();
        assert_eq!((e.positions, e.longest, e.utility), (5478, Some(9), Some((-1.0, 1.0))));
        // Kuhn poker: chance's deals do not count; the longest betting is pass, bet, call.
        let e = explore(&game("kuhn-poker.game", &[]), MAX_EXPLORED).unwrap().unwrap();
        assert_eq!((e.longest, e.utility), (Some(3), Some((-2.0, 2.0))));
        // Nim [3, 2]: at most 5 moves, one stone at a time.
        let e = explore(&game("nim.game", &[("piles", "[3, 2]")]), MAX_EXPLORED)
            .unwrap()
            .unwrap();
        assert_eq!(e.longest, Some(5));
        // Pig: a position recurs (a 1 rolled loses the turn's total).
        let e = explore(&game("pig.game", &[("target", "3")]), MAX_EXPLORED)
            .unwrap()
            .unwrap();
        assert_eq!(e.longest, None);
        assert!(explore(&game("connect4.game", &[]), 1000).unwrap().is_none());
    }

    #[test]
    fn observations_have_the_game_s_size_and_hide_what_is_hidden() {
        let kuhn = game("kuhn-poker.game", &[]);
        let prog = kuhn.program();
        // Who views (2), who moves (2); the deck is hidden; each card an int
        // slot with its presence bit (2 x 2); the actions, 3 slots of 2.
        assert_eq!(observation_size(prog), 2 + 2 + 4 + 6);
        let mut s = kuhn.initial_state().unwrap();
        let mut moves = Vec::new();
        kuhn.legal_moves(&s, &mut moves).unwrap();
        kuhn.apply(&mut s, &moves[2]).unwrap(); // First gets the king
        kuhn.legal_moves(&s, &mut moves).unwrap();
        kuhn.apply(&mut s, &moves[0]).unwrap(); // Second the jack
        let (mut first, mut second) = (Vec::new(), Vec::new());
        observe(&kuhn, &s, 0, &mut first).unwrap();
        observe(&kuhn, &s, 1, &mut second).unwrap();
        assert_eq!(first, [1., 0., 1., 0., 1., 3., 0., 0., 0., 0., 0., 0., 0., 0.]);
        assert_eq!(second, [0., 1., 1., 0., 0., 0., 1., 1., 0., 0., 0., 0., 0., 0.]);
        // Tic-tac-toe: the free cells and each player's marks, one bit a cell.
        let ttt = game("tictactoe.game", &[]);
        assert_eq!(observation_size(ttt.program()), 4 + 9 + 2 * (1 + 9));
    }

    #[test]
    fn cells_round_trip_and_bad_cells_are_refused() {
        let g = game("xnimmt.game", &[]);
        let s = g.initial_state().unwrap();
        let back = state_from_cells(&g, &s.cells()).unwrap();
        assert_eq!(back, s);
        let mut cells = s.cells();
        cells.pop();
        assert!(state_from_cells(&g, &cells).is_err());
        // The number of players is no player (it reached a panic from Python),
        // and neither is -1.
        for turn in [99, g.num_players() as i64, -1] {
            let mut cells = s.cells();
            cells[crate::ir::TURN_CELL] = turn;
            let e = state_from_cells(&g, &cells).unwrap_err().to_string();
            assert!(e.contains("player to move is"), "{e}");
        }
        let mut cells = s.cells();
        cells[crate::ir::PREVIOUS_CELL] = g.num_players() as i64;
        assert!(state_from_cells(&g, &cells).is_err());
    }
}
