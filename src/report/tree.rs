//! The game tree of `gdl tree`: every line of play from a position to a
//! given depth, built through the `Game` trait, optionally with each node's
//! exact value, and drawn as indented text or as Graphviz DOT.
//!
//! Chance and simultaneous moves are drawn too: a chance node's children are
//! its outcomes with their probabilities, a simultaneous node's children its
//! joint moves. Values come from the exact solver for two-player
//! turn-taking games, and from expectiminimax for two-player games with
//! chance (or simultaneous) moves: a chance node's value is the expectation
//! over its outcomes.

use std::fmt::Write as _;

use crate::board::Board;
use crate::game::{Game, GameError, Turn, all_returns};
use crate::memory::{self, MemoryLimit};
use crate::report::solve::number;
use crate::solve::exact::expectimax::ChanceValuer;
use crate::solve::{SolveError, Solver};

/// Where a tree's values come from: each node's value for the first player
/// and the optimal moves there.
pub trait NodeValues<G: Game> {
    fn value_and_best(&mut self, game: &G, state: &G::State) -> Result<(f64, Vec<G::Move>), SolveError>;
}

impl<G: Game> NodeValues<G> for Solver<'_, G> {
    fn value_and_best(&mut self, _: &G, state: &G::State) -> Result<(f64, Vec<G::Move>), SolveError> {
        self.search_root(state)
    }
}

impl<G: Game> NodeValues<G> for ChanceValuer<'_, G> {
    fn value_and_best(&mut self, _: &G, state: &G::State) -> Result<(f64, Vec<G::Move>), SolveError> {
        ChanceValuer::value_and_best(self, state)
    }
}

/// Who acts at a node, or how the game ended there.
#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    /// This player chooses the next move.
    ToMove(String),
    /// Chance picks the next move.
    Chance,
    /// Every player chooses a move at once.
    Simultaneous,
    /// The game is over: each player's utility, in player order.
    Over(Vec<f64>),
}

/// How a node was reached from its parent.
#[derive(Clone, Debug, PartialEq)]
pub struct Edge {
    /// Who moved: a player's name, `chance`, or `None` for a joint move
    /// (whose text names every player).
    pub by: Option<String>,
    /// The move as the game writes it; a joint move is `A: 3, B: 5`.
    pub mv: String,
    /// The probability of a chance outcome.
    pub probability: Option<f64>,
    /// Whether it is one of the mover's optimal moves (known only with values).
    pub optimal: bool,
}

/// One node of the tree.
#[derive(Clone, Debug)]
pub struct Node {
    /// The state as the game prints it, without whose turn it is.
    pub text: String,
    /// The position as the game's display draws it, if it has one.
    pub board: Option<crate::board::Board>,
    /// The move that led here; `None` at the root.
    pub edge: Option<Edge>,
    pub status: Status,
    /// The first player's utility under optimal play from here (with values).
    pub value: Option<f64>,
    /// Moves from the root.
    pub depth: usize,
    /// Indices into `Tree::nodes`, in legal-move order.
    pub children: Vec<usize>,
    /// At a player's move: a hash of what that player observes here. Two
    /// such nodes of one player with equal hashes are positions the player
    /// cannot tell apart (one information set).
    pub observed: Option<u64>,
}

/// A game tree cut at `depth`; `nodes[0]` is the root, nodes in preorder.
#[derive(Clone, Debug)]
pub struct Tree {
    pub game: String,
    pub players: Vec<String>,
    pub depth: usize,
    pub nodes: Vec<Node>,
    /// Whether the game hides information, so that the drawing joins the
    /// positions a player cannot tell apart.
    pub hidden: bool,
}

/// Why a tree could not be built.
#[derive(Debug)]
pub enum TreeError {
    /// The rules failed, or the solver (with values) stopped.
    Solve(SolveError),
    /// The tree would not fit in the memory limit.
    Memory(MemoryLimit),
}

impl From<SolveError> for TreeError {
    fn from(e: SolveError) -> Self {
        TreeError::Solve(e)
    }
}

impl From<GameError> for TreeError {
    fn from(e: GameError) -> Self {
        TreeError::Solve(e.into())
    }
}

impl From<MemoryLimit> for TreeError {
    fn from(e: MemoryLimit) -> Self {
        TreeError::Memory(e)
    }
}

/// What the memory guard calls building a tree.
const BUILDING: &str = "building the tree";

/// The ways on from one state, in the game's order, made one at a time: a
/// node with a million joint moves never holds them all at once.
struct Successors<G: Game> {
    turn: Turn,
    /// The moves of the player to move, or chance's outcomes.
    moves: Vec<G::Move>,
    probabilities: Vec<f64>,
    /// Each player's moves at a simultaneous node, and the combination next.
    choices: Vec<Vec<G::Move>>,
    pick: Vec<usize>,
    next: usize,
    done: bool,
}

impl<G: Game> Successors<G> {
    fn new(game: &G, state: &G::State, turn: Turn) -> Result<Self, GameError> {
        let mut s = Successors {
            turn,
            moves: Vec::new(),
            probabilities: Vec::new(),
            choices: Vec::new(),
            pick: Vec::new(),
            next: 0,
            done: false,
        };
        match turn {
            Turn::Terminal => {}
            Turn::Player(_) => game.legal_moves(state, &mut s.moves)?,
            Turn::Chance => {
                let mut outcomes = Vec::new();
                game.chance_outcomes(state, &mut outcomes)?;
                (s.moves, s.probabilities) = outcomes.into_iter().unzip();
                // One of several outcomes is not certain, though its
                // probability may round to 1 (a weight of 1 beside 2^63).
                if s.probabilities.len() > 1 {
                    for p in &mut s.probabilities {
                        *p = p.min(1.0 - f64::EPSILON / 2.0);
                    }
                }
            }
            Turn::Simultaneous => {
                for p in 0..game.num_players() {
                    let mut moves = Vec::new();
                    game.legal_moves_of(state, p, &mut moves)?;
                    s.choices.push(moves);
                }
                s.pick = vec![0; s.choices.len()];
            }
        }
        s.done = match turn {
            Turn::Terminal => true,
            Turn::Simultaneous => s.choices.iter().any(Vec::is_empty),
            _ => s.moves.is_empty(),
        };
        Ok(s)
    }

    /// How many ways on are left, without making them (saturating).
    fn remaining(&self) -> u64 {
        if self.done {
            return 0;
        }
        match self.turn {
            Turn::Simultaneous => {
                // The combinations from `pick` on, the first player's choice varying slowest.
                let mut after = 0u64;
                let mut weight = 1u64;
                for (p, c) in self.choices.iter().enumerate().rev() {
                    after = after.saturating_add(weight.saturating_mul((c.len() - 1 - self.pick[p]) as u64));
                    weight = weight.saturating_mul(c.len() as u64);
                }
                after.saturating_add(1)
            }
            _ => (self.moves.len() - self.next) as u64,
        }
    }

    /// The next way on from `state`: its edge (if `edges`), the move when
    /// one player made it, and the state it leads to.
    fn next(&mut self, game: &G, state: &G::State, edges: bool) -> Result<Option<Way<G>>, GameError> {
        if self.done {
            return Ok(None);
        }
        let mut child = state.clone();
        let way = match self.turn {
            Turn::Terminal => return Ok(None),
            Turn::Player(_) | Turn::Chance => {
                let mv = self.moves[self.next].clone();
                let probability = self.probabilities.get(self.next).copied();
                self.next += 1;
                self.done = self.next == self.moves.len();
                game.apply(&mut child, &mv)?;
                let by = match self.turn {
                    Turn::Player(p) => game.player_name(p).to_string(),
                    _ => "chance".to_string(),
                };
                let edge = edges.then(|| Edge {
                    by: Some(by),
                    mv: game.move_text(&mv),
                    probability,
                    optimal: false,
                });
                let mv = matches!(self.turn, Turn::Player(_)).then_some(mv);
                (edge, mv, child)
            }
            Turn::Simultaneous => {
                let n = self.choices.len();
                let joint: Vec<G::Move> = (0..n).map(|p| self.choices[p][self.pick[p]].clone()).collect();
                game.apply_joint(&mut child, &joint)?;
                let edge = edges.then(|| {
                    let text: Vec<String> = joint
                        .iter()
                        .enumerate()
                        .map(|(p, m)| format!("{}: {}", game.player_name(p), game.move_text(m)))
                        .collect();
                    Edge {
                        by: None,
                        mv: text.join(", "),
                        probability: None,
                        optimal: false,
                    }
                });
                match (0..n).rev().find(|&p| self.pick[p] + 1 < self.choices[p].len()) {
                    Some(p) => {
                        self.pick[p] += 1;
                        self.pick[p + 1..].fill(0);
                    }
                    None => self.done = true,
                }
                (edge, None, child)
            }
        };
        Ok(Some(way))
    }
}

/// One way on from a state: the edge (when asked for), the move when one
/// player made it (to compare with the solver's best moves), and the state
/// it leads to.
type Way<G> = (Option<Edge>, Option<<G as Game>::Move>, <G as Game>::State);

/// How many nodes the tree from `root` to `depth` has at each depth, or
/// `None` as soon as the total passes `cap` (so that counting a huge tree
/// stays quick). Nodes at `depth` are counted without being made (a
/// simultaneous node's joint moves are multiplied, not listed), and one
/// state per level is held at a time.
pub fn count<G: Game>(game: &G, root: &G::State, depth: usize, cap: u64) -> Result<Option<Vec<u64>>, TreeError> {
    let mut per_depth = vec![0u64; depth + 1];
    per_depth[0] = 1;
    let mut total = 1u64;
    let mut stack: Vec<(G::State, usize, Successors<G>)> = Vec::new();
    if depth > 0 {
        let turn = game.turn(root)?;
        stack.push((root.clone(), 0, Successors::new(game, root, turn)?));
    }
    while let Some((state, d, ways)) = stack.last_mut() {
        let d = *d;
        if d + 1 == depth {
            let n = ways.remaining();
            per_depth[d + 1] = per_depth[d + 1].saturating_add(n);
            total = total.saturating_add(n);
            stack.pop();
        } else {
            match ways.next(game, state, false)? {
                None => {
                    stack.pop();
                }
                Some((_, _, child)) => {
                    per_depth[d + 1] += 1;
                    total += 1;
                    let turn = game.turn(&child)?;
                    if turn != Turn::Terminal {
                        let ways = Successors::new(game, &child, turn)?;
                        stack.push((child, d + 1, ways));
                    }
                }
            }
        }
        if total > cap {
            return Ok(None);
        }
        memory::check(BUILDING)?;
    }
    // Depths the game never reaches are not part of the tree.
    while per_depth.len() > 1 && per_depth.last() == Some(&0) {
        per_depth.pop();
    }
    Ok(Some(per_depth))
}

/// The tree from `root` to `depth`. With a solver, every node gets its
/// exact value and the optimal moves are marked. Stops at the memory limit.
pub fn build<G: Game>(
    game: &G,
    root: &G::State,
    depth: usize,
    mut solver: Option<&mut dyn NodeValues<G>>,
) -> Result<Tree, TreeError> {
    let mut tree = Tree {
        game: game.name().to_string(),
        players: (0..game.num_players())
            .map(|p| game.player_name(p).to_string())
            .collect(),
        depth,
        nodes: Vec::new(),
        hidden: false,
    };
    grow(game, &mut tree, root.clone(), None, 0, &mut solver)?;
    Ok(tree)
}

/// Adds the node for `state` and, below `tree.depth`, its subtree; returns its index.
fn grow<G: Game>(
    game: &G,
    tree: &mut Tree,
    state: G::State,
    edge: Option<Edge>,
    depth: usize,
    solver: &mut Option<&mut dyn NodeValues<G>>,
) -> Result<usize, TreeError> {
    let turn = game.turn(&state)?;
    let status = match turn {
        Turn::Player(p) => Status::ToMove(game.player_name(p).to_string()),
        Turn::Chance => Status::Chance,
        Turn::Simultaneous => Status::Simultaneous,
        Turn::Terminal => Status::Over(all_returns(game, &state)?),
    };
    let (value, best) = match solver {
        Some(s) => {
            let (v, best) = s.value_and_best(game, &state)?;
            (Some(v), best)
        }
        None => (None, Vec::new()),
    };
    let index = tree.nodes.len();
    // The node list doubles as it grows: that much more must fit.
    if index == tree.nodes.capacity() {
        memory::check_extra(index.max(4) * std::mem::size_of::<Node>(), BUILDING)?;
    }
    let text = game.state_text(&state);
    let board = game.board(&state)?;
    let observed = match turn {
        Turn::Player(p) => Some(game.observation_hash(&state, p)),
        _ => None,
    };
    memory::check(BUILDING)?;
    tree.nodes.push(Node {
        text,
        board,
        edge,
        status,
        value,
        depth,
        children: Vec::new(),
        observed,
    });
    if depth < tree.depth {
        let mut ways = Successors::new(game, &state, turn)?;
        while let Some((edge, mv, child)) = ways.next(game, &state, true)? {
            let mut edge = edge.expect("edges were asked for");
            edge.optimal = mv.is_some_and(|m| best.contains(&m));
            let c = grow(game, tree, child, Some(edge), depth + 1, solver)?;
            tree.nodes[index].children.push(c);
        }
    }
    Ok(index)
}

/// How the game ended, in words: `A wins, payoff 3`, `draw`, or each
/// player's utility when there are more than two.
fn outcome(players: &[String], returns: &[f64]) -> String {
    if let ([a, b], [va, _]) = (players, returns) {
        let payoff = if va.abs() == 1.0 || *va == 0.0 {
            String::new()
        } else {
            format!(", payoff {}", number(va.abs()))
        };
        return match va.partial_cmp(&0.0) {
            Some(std::cmp::Ordering::Greater) => format!("{a} wins{payoff}"),
            Some(std::cmp::Ordering::Less) => format!("{b} wins{payoff}"),
            _ => "draw".to_string(),
        };
    }
    let each: Vec<String> = players
        .iter()
        .zip(returns)
        .map(|(p, v)| format!("{p} {}", number(*v)))
        .collect();
    each.join(", ")
}

fn status_text(players: &[String], status: &Status) -> String {
    match status {
        Status::ToMove(p) => format!("{p} to move"),
        Status::Chance => "chance moves".to_string(),
        Status::Simultaneous => "all move at once".to_string(),
        Status::Over(returns) => format!("over: {}", outcome(players, returns)),
    }
}

fn edge_text(edge: &Edge) -> String {
    let mut s = match &edge.by {
        Some(by) => format!("{by}: {}", edge.mv),
        None => edge.mv.clone(),
    };
    if let Some(p) = edge.probability {
        let shown = super::probability(p);
        let relation = if shown.starts_with('>') { "" } else { "= " };
        let _ = write!(s, " (p {relation}{shown})");
    }
    if edge.optimal {
        s.push_str(" *");
    }
    s
}

fn has_values(tree: &Tree) -> bool {
    tree.nodes.first().is_some_and(|n| n.value.is_some())
}

/// The count by depth, and what the values and marks mean.
fn footer(tree: &Tree) -> Vec<String> {
    let mut per_depth = vec![0usize; tree.depth + 1];
    for n in &tree.nodes {
        per_depth[n.depth] += 1;
    }
    while per_depth.len() > 1 && per_depth.last() == Some(&0) {
        per_depth.pop();
    }
    let by_depth: Vec<String> = per_depth
        .iter()
        .enumerate()
        .map(|(d, c)| format!("{c} at depth {d}"))
        .collect();
    let mut lines = vec![format!(
        "{} node{}: {}",
        tree.nodes.len(),
        if tree.nodes.len() == 1 { "" } else { "s" },
        by_depth.join(", ")
    )];
    // What a line says, told with the tree's own first move.
    if let Some(Edge { by: Some(by), mv, .. }) = tree.nodes.get(1).and_then(|n| n.edge.as_ref())
        && by != "chance"
    {
        lines.push(format!("{by}: {mv} means {by} played {mv}"));
    }
    if has_values(tree) {
        let first = tree.players.first().map_or("the first player", String::as_str);
        let chance = tree.nodes.iter().any(|n| n.status == Status::Chance);
        let what = if chance { "expected utility" } else { "utility" };
        lines.push(format!(
            "value: {first}'s {what} under optimal play from that node ({first} is the first player); \
             * marks the optimal moves"
        ));
    }
    lines
}

/// Columns wider than this (in characters) are not padded: aligning what
/// follows a state thousands of characters wide would pad every line to it.
const MAX_ALIGNED: usize = 200;

/// The tree as indented text, one node a line: the move that led to it and
/// who made it, the state, who moves next (or the outcome), and the value.
pub fn text(tree: &Tree) -> String {
    let mut out = Vec::new();
    let _ = write_text(tree, &mut out);
    String::from_utf8(out).unwrap_or_default()
}

/// [`text`], written to `out` line by line.
pub fn write_text(tree: &Tree, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let values = has_values(tree);
    // Columns: branch and move, state, status, value.
    let mut widths = [0usize; 4];
    walk(tree, &mut |lead, node| {
        let cells = cells(tree, lead, node);
        for (w, c) in widths.iter_mut().zip(&cells) {
            *w = (*w).max(c.chars().count());
        }
        Ok(())
    })?;
    let widths = widths.map(|w| if w <= MAX_ALIGNED { w } else { 0 });
    let mut line = String::new();
    walk(tree, &mut |lead, node| {
        let [c0, c1, c2, c3] = cells(tree, lead, node);
        line.clear();
        for (k, (c, w)) in [(&c0, widths[0]), (&c1, widths[1]), (&c2, widths[2])]
            .into_iter()
            .enumerate()
        {
            if k > 0 {
                line.push_str("  ");
            }
            line.push_str(c);
            pad(&mut line, w, c);
        }
        if values {
            line.push_str("  value ");
            pad(&mut line, widths[3], &c3);
            line.push_str(&c3);
        }
        let kept = line.trim_end().len();
        line.truncate(kept);
        line.push('\n');
        out.write_all(line.as_bytes())
    })?;
    out.write_all(b"\n")?;
    for line in footer(tree) {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// Spaces up to `width` characters after `cell`.
fn pad(line: &mut String, width: usize, cell: &str) {
    let n = width.saturating_sub(cell.chars().count());
    line.extend(std::iter::repeat_n(' ', n));
}

/// A node's columns: branch and move, state, status, value.
fn cells(tree: &Tree, lead: &str, node: &Node) -> [String; 4] {
    let label = node.edge.as_ref().map_or_else(|| "start".to_string(), edge_text);
    [
        format!("{lead}{label}"),
        node.board.as_ref().map_or_else(|| node.text.clone(), |b| b.compact()),
        status_text(&tree.players, &node.status),
        node.value.map(number).unwrap_or_default(),
    ]
}

/// Calls `f` on every node in preorder with the branches that lead to it
/// (`├── `, `│   `, `└── `).
fn walk(tree: &Tree, f: &mut dyn FnMut(&str, &Node) -> std::io::Result<()>) -> std::io::Result<()> {
    if tree.nodes.is_empty() {
        return Ok(());
    }
    // (node, its lead, the lead of its children's lines)
    let mut stack = vec![(0usize, String::new(), String::new())];
    while let Some((i, lead, rest)) = stack.pop() {
        let node = &tree.nodes[i];
        f(&lead, node)?;
        let last = node.children.len().saturating_sub(1);
        for (k, &c) in node.children.iter().enumerate().rev() {
            let (branch, under) = if k == last {
                ("└── ", "    ")
            } else {
                ("├── ", "│   ")
            };
            stack.push((c, format!("{rest}{branch}"), format!("{rest}{under}")));
        }
    }
    Ok(())
}

/// The tree as a Graphviz digraph: each node labelled with its state, who
/// moves next (or the outcome) and its value; each edge with its move;
/// optimal moves bold, ends of the game with a double border.
pub fn dot(tree: &Tree) -> String {
    let mut out = Vec::new();
    let _ = write_dot(tree, &mut out);
    String::from_utf8(out).unwrap_or_default()
}

/// How a DOT tree is laid out: top to bottom (the root above, as printed),
/// left to right (the root at the left), or whichever reads on a page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    TopDown,
    LeftRight,
    /// Left to right once a level holds more than [`WIDEST_TOP_DOWN`] nodes.
    Auto,
}

/// The most nodes side by side that a page shows readably: beyond, a tree
/// drawn top to bottom is a thin strip many times wider than the page.
pub const WIDEST_TOP_DOWN: usize = 8;

/// The widest level of the tree: its most nodes at one depth.
pub fn widest_level(tree: &Tree) -> usize {
    let mut per_depth = vec![0usize; tree.depth + 1];
    for n in &tree.nodes {
        if let Some(k) = per_depth.get_mut(n.depth) {
            *k += 1;
        }
    }
    per_depth.into_iter().max().unwrap_or(0)
}

/// [`dot`], written to `out` line by line, laid out top to bottom.
pub fn write_dot(tree: &Tree, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    write_dot_laid_out(tree, Layout::TopDown, out)
}

/// The most positions a drawn tree shows: Kuhn poker's whole tree (58)
/// fits, and a tree drawn left to right stays about a page tall. A larger
/// tree is cut at a level, each node there with moves below it getting one
/// "… N more" node that counts them.
pub const PAGE_NODES: usize = 64;

/// Which nodes a page shows: every level from the top while they all fit in
/// `cap` nodes; when not even the root's moves fit, the first of them.
fn on_page(tree: &Tree, cap: usize) -> Vec<bool> {
    let mut per_depth = vec![0usize; tree.depth + 1];
    for n in &tree.nodes {
        per_depth[n.depth] += 1;
    }
    let mut deepest = 0;
    let mut total = 0usize;
    for (d, &k) in per_depth.iter().enumerate() {
        total = total.saturating_add(k);
        if total > cap {
            break;
        }
        deepest = d;
    }
    let mut shown: Vec<bool> = tree.nodes.iter().map(|n| n.depth <= deepest).collect();
    if deepest == 0
        && let Some(root) = tree.nodes.first()
    {
        for &c in root.children.iter().take(cap.saturating_sub(1)) {
            shown[c] = true;
        }
    }
    shown
}

/// The nodes in the subtree of `i`, itself included.
fn subtree_size(tree: &Tree, i: usize) -> usize {
    let mut n = 0;
    let mut stack = vec![i];
    while let Some(j) = stack.pop() {
        n += 1;
        stack.extend(tree.nodes[j].children.iter().copied());
    }
    n
}

/// A probability as a small fraction when it is one (`1/3`), else as
/// [`super::probability`] writes it.
fn fraction(p: f64) -> String {
    for den in 2..=12u32 {
        let num = (p * f64::from(den)).round();
        if num >= 1.0 && (num / f64::from(den) - p).abs() < 1e-9 {
            let g = gcd(num as u32, den);
            return format!("{}/{}", num as u32 / g, den / g);
        }
    }
    super::probability(p)
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// [`write_dot`] with a layout, the whole tree.
pub fn write_dot_laid_out(tree: &Tree, layout: Layout, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    write_dot_page(tree, layout, usize::MAX, out)
}

/// [`write_dot`] with a layout, showing at most `cap` positions: below each
/// shown node whose moves are not all shown, one "… N more" node counts the
/// moves and positions left out. Chance nodes are circles with each
/// outcome's probability on its edge; positions that the player to move
/// cannot tell apart are joined by a dashed line, as textbooks draw them.
pub fn write_dot_page(tree: &Tree, layout: Layout, cap: usize, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let shown = on_page(tree, cap);
    let drawn = shown.iter().filter(|&&s| s).count();
    let left_out = tree.nodes.len() - drawn;
    for line in footer(tree) {
        writeln!(out, "// {line}")?;
    }
    writeln!(out, "digraph \"{}\" {{", escape(&tree.game))?;
    // The level widths as drawn, the "… more" nodes among them.
    let mut per_depth = vec![0usize; tree.depth + 2];
    for (i, n) in tree.nodes.iter().enumerate() {
        if shown[i] {
            per_depth[n.depth] += 1;
            if n.children.iter().any(|&c| !shown[c]) {
                per_depth[n.depth + 1] += 1;
            }
        }
    }
    let left_right = match layout {
        Layout::TopDown => false,
        Layout::LeftRight => true,
        Layout::Auto => per_depth.iter().max().copied().unwrap_or(0) > WIDEST_TOP_DOWN,
    };
    if left_right {
        writeln!(out, "    rankdir=LR;")?;
    }
    let sets = information_sets(tree, &shown);
    let mut notes = Vec::new();
    if left_out > 0 {
        notes.push(format!(
            "{drawn} of the tree's {} positions drawn; {left_out} left out under the \"… more\" nodes (--force draws them all)",
            tree.nodes.len()
        ));
    }
    if !sets.is_empty() {
        notes.push("a dashed line joins positions the player to move cannot tell apart".to_string());
    }
    if !notes.is_empty() {
        writeln!(
            out,
            "    labelloc=b;\n    fontname=\"sans-serif\";\n    label=\"{}\";",
            escape(&notes.join("\n"))
        )?;
    }
    writeln!(out, "    node [shape=box, fontname=\"monospace\"];")?;
    writeln!(out, "    edge [fontname=\"monospace\"];")?;
    for (i, n) in tree.nodes.iter().enumerate() {
        if !shown[i] {
            continue;
        }
        let mut under = status_text(&tree.players, &n.status);
        if let Some(v) = n.value {
            let _ = write!(under, "\nvalue {}", number(v));
        }
        let border = if matches!(n.status, Status::Over(_)) {
            ", peripheries=2"
        } else {
            ""
        };
        if n.status == Status::Chance {
            // A chance node is a circle; its position is the tooltip.
            let shown = n.board.as_ref().map_or_else(|| n.text.clone(), |b| b.text());
            let value = n.value.map(|v| format!("\nvalue {}", number(v))).unwrap_or_default();
            writeln!(
                out,
                "    n{i} [shape=circle, fontname=\"sans-serif\", fontsize=10, label=\"chance{}\", tooltip=\"{}\"];",
                escape(&value),
                escape(&shown)
            )?;
            continue;
        }
        match &n.board {
            // A grid as a small table of cells, the status under it.
            Some(Board::Grid { cols, cells, .. }) => {
                let rows: Vec<String> = cells
                    .chunks((*cols).max(1))
                    .map(|row| {
                        let tds: Vec<String> = row.iter().map(|c| format!("<TD>{}</TD>", html(c))).collect();
                        format!("<TR>{}</TR>", tds.join(""))
                    })
                    .collect();
                let lines: Vec<String> = under.lines().map(html).collect();
                writeln!(
                    out,
                    "    n{i} [label=<<TABLE BORDER=\"0\" CELLSPACING=\"0\"><TR><TD><TABLE BORDER=\"0\" \
                     CELLBORDER=\"1\" CELLSPACING=\"0\" CELLPADDING=\"2\">{}</TABLE></TD></TR><TR><TD>{}</TD></TR></TABLE>>{border}];",
                    rows.join(""),
                    lines.join("<BR/>")
                )?;
            }
            _ => {
                let shown = n.board.as_ref().map_or_else(|| n.text.clone(), |b| b.text());
                writeln!(
                    out,
                    "    n{i} [label=\"{}\"{border}];",
                    escape(&format!("{shown}\n{under}"))
                )?;
            }
        }
    }
    for (i, n) in tree.nodes.iter().enumerate() {
        if !shown[i] {
            continue;
        }
        let mut more = (0usize, 0usize);
        for &c in &n.children {
            if !shown[c] {
                more.0 += 1;
                more.1 += subtree_size(tree, c);
                continue;
            }
            let Some(edge) = &tree.nodes[c].edge else { continue };
            let style = if edge.optimal { ", style=bold" } else { "" };
            let label = match edge.probability {
                // Chance's outcome and its probability, as textbooks write them.
                Some(p) if edge.by.as_deref() == Some("chance") => format!("{}\np = {}", edge.mv, fraction(p)),
                _ => edge_text(edge),
            };
            writeln!(out, "    n{i} -> n{c} [label=\"{}\"{style}];", escape(&label))?;
        }
        if more.0 > 0 {
            let (moves, positions) = more;
            let what = if n.status == Status::Chance { "outcome" } else { "move" };
            let mut label = format!("… {moves} more {what}{}", if moves == 1 { "" } else { "s" });
            if positions > moves {
                let _ = write!(label, "\n{positions} positions");
            }
            writeln!(
                out,
                "    more{i} [shape=box, style=\"dashed,rounded\", fontname=\"sans-serif\", label=\"{}\"];",
                escape(&label)
            )?;
            writeln!(out, "    n{i} -> more{i} [style=dashed];")?;
        }
    }
    for set in &sets {
        for pair in set.windows(2) {
            writeln!(
                out,
                "    n{} -> n{} [style=dashed, dir=none, constraint=false, color=\"gray40\"];",
                pair[0], pair[1]
            )?;
        }
    }
    writeln!(out, "}}")
}

/// The information sets among the shown nodes of a game that hides
/// information: the nodes where one player moves and observes the same,
/// in sets of two or more, each in the tree's order.
fn information_sets(tree: &Tree, shown: &[bool]) -> Vec<Vec<usize>> {
    if !tree.hidden {
        return Vec::new();
    }
    let mut sets: std::collections::BTreeMap<(String, usize, u64), Vec<usize>> = std::collections::BTreeMap::new();
    for (i, n) in tree.nodes.iter().enumerate() {
        if let (true, Status::ToMove(p), Some(h)) = (shown[i], &n.status, n.observed) {
            // Positions a player cannot tell apart lie at one depth in
            // these games; keyed by depth too, so that a line never runs
            // between levels.
            sets.entry((p.clone(), n.depth, h)).or_default().push(i);
        }
    }
    let mut out: Vec<Vec<usize>> = sets.into_values().filter(|s| s.len() > 1).collect();
    out.sort();
    out
}

/// Text inside a DOT HTML-like label.
fn html(s: &str) -> String {
    let s = s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    // An empty or blank cell keeps its size.
    if s.trim().is_empty() { "&#160;".to_string() } else { s }
}

/// A string inside a DOT double-quoted string.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out
}

/// The tree as JSON (docs/json-schema/tree.json): the nodes in preorder,
/// each with the ids of its children.
pub fn json(tree: &Tree) -> serde_json::Value {
    use serde_json::json;
    let nodes: Vec<serde_json::Value> = tree
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let status = match &n.status {
                Status::ToMove(p) => json!({"kind": "player", "player": p}),
                Status::Chance => json!({"kind": "chance"}),
                Status::Simultaneous => json!({"kind": "simultaneous"}),
                Status::Over(returns) => {
                    let utilities: serde_json::Map<String, serde_json::Value> = tree
                        .players
                        .iter()
                        .zip(returns)
                        .map(|(p, u)| (p.clone(), json!(u)))
                        .collect();
                    json!({"kind": "over", "utilities": utilities})
                }
            };
            let edge = n
                .edge
                .as_ref()
                .map(|e| json!({"by": e.by, "move": e.mv, "probability": e.probability, "optimal": e.optimal}));
            json!({
                "id": i,
                "depth": n.depth,
                "state": n.text,
                "edge": edge,
                "status": status,
                "value": n.value,
                "children": n.children,
            })
        })
        .collect();
    json!({
        "game": tree.game,
        "players": tree.players,
        "depth": tree.depth,
        "nodes": nodes,
    })
}
