//! The game tree of `gdl tree`: every line of play from a position to a
//! given depth, built through the `Game` trait, optionally with each node's
//! exact value, and drawn as indented text or as Graphviz DOT.
//!
//! Chance and simultaneous moves are drawn too: a chance node's children are
//! its outcomes with their probabilities, a simultaneous node's children its
//! joint moves. Values need the exact solver, so only two-player turn-taking
//! games have them.

use std::fmt::Write as _;

use crate::game::{Game, GameError, Turn, all_returns};
use crate::report::solve::number;
use crate::solve::{SolveError, Solver};

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
pub struct Node<S> {
    pub state: S,
    /// The state as the game prints it, without whose turn it is.
    pub text: String,
    /// The move that led here; `None` at the root.
    pub edge: Option<Edge>,
    pub status: Status,
    /// The first player's utility under optimal play from here (with values).
    pub value: Option<f64>,
    /// Moves from the root.
    pub depth: usize,
    /// Indices into `Tree::nodes`, in legal-move order.
    pub children: Vec<usize>,
}

/// A game tree cut at `depth`; `nodes[0]` is the root, nodes in preorder.
#[derive(Clone, Debug)]
pub struct Tree<S> {
    pub game: String,
    pub players: Vec<String>,
    pub depth: usize,
    pub nodes: Vec<Node<S>>,
}

/// One way on from a state: the edge, the move when one player made it
/// (to compare with the solver's best moves), and the state it leads to.
type Successor<G> = (Edge, Option<<G as Game>::Move>, <G as Game>::State);

/// Every way on from `state`, in the game's order.
fn successors<G: Game>(game: &G, state: &G::State, turn: Turn) -> Result<Vec<Successor<G>>, GameError> {
    let mut out = Vec::new();
    match turn {
        Turn::Terminal => {}
        Turn::Player(p) => {
            let mut moves = Vec::new();
            game.legal_moves(state, &mut moves)?;
            for mv in moves {
                let mut child = state.clone();
                game.apply(&mut child, &mv)?;
                let edge = Edge {
                    by: Some(game.player_name(p).to_string()),
                    mv: game.move_text(&mv),
                    probability: None,
                    optimal: false,
                };
                out.push((edge, Some(mv), child));
            }
        }
        Turn::Chance => {
            let mut outcomes = Vec::new();
            game.chance_outcomes(state, &mut outcomes)?;
            for (mv, p) in outcomes {
                let mut child = state.clone();
                game.apply(&mut child, &mv)?;
                let edge = Edge {
                    by: Some("chance".to_string()),
                    mv: game.move_text(&mv),
                    probability: Some(p),
                    optimal: false,
                };
                out.push((edge, None, child));
            }
        }
        Turn::Simultaneous => {
            let n = game.num_players();
            let mut choices: Vec<Vec<G::Move>> = Vec::with_capacity(n);
            for p in 0..n {
                let mut moves = Vec::new();
                game.legal_moves_of(state, p, &mut moves)?;
                choices.push(moves);
            }
            if choices.iter().any(Vec::is_empty) {
                return Ok(out);
            }
            // Every combination, the first player's choice varying slowest.
            let mut pick = vec![0usize; n];
            loop {
                let joint: Vec<G::Move> = (0..n).map(|p| choices[p][pick[p]].clone()).collect();
                let mut child = state.clone();
                game.apply_joint(&mut child, &joint)?;
                let text: Vec<String> = joint
                    .iter()
                    .enumerate()
                    .map(|(p, m)| format!("{}: {}", game.player_name(p), game.move_text(m)))
                    .collect();
                let edge = Edge {
                    by: None,
                    mv: text.join(", "),
                    probability: None,
                    optimal: false,
                };
                out.push((edge, None, child));
                let Some(p) = (0..n).rev().find(|&p| pick[p] + 1 < choices[p].len()) else {
                    break;
                };
                pick[p] += 1;
                pick[p + 1..].fill(0);
            }
        }
    }
    Ok(out)
}

/// How many nodes the tree from `root` to `depth` has at each depth, or
/// `None` as soon as the total passes `cap` (so that counting a huge tree
/// stays quick).
pub fn count<G: Game>(game: &G, root: &G::State, depth: usize, cap: u64) -> Result<Option<Vec<u64>>, GameError> {
    let mut per_depth = vec![0u64; depth + 1];
    let mut total = 0u64;
    let mut stack = vec![(root.clone(), 0usize)];
    while let Some((state, d)) = stack.pop() {
        per_depth[d] += 1;
        total += 1;
        if total > cap {
            return Ok(None);
        }
        if d < depth {
            let turn = game.turn(&state)?;
            stack.extend(successors(game, &state, turn)?.into_iter().map(|(_, _, s)| (s, d + 1)));
        }
    }
    // Depths the game never reaches are not part of the tree.
    while per_depth.len() > 1 && per_depth.last() == Some(&0) {
        per_depth.pop();
    }
    Ok(Some(per_depth))
}

/// The tree from `root` to `depth`. With a solver, every node gets its
/// exact value and the optimal moves are marked.
pub fn build<G: Game>(
    game: &G,
    root: &G::State,
    depth: usize,
    mut solver: Option<&mut Solver<G>>,
) -> Result<Tree<G::State>, SolveError> {
    let mut tree = Tree {
        game: game.name().to_string(),
        players: (0..game.num_players())
            .map(|p| game.player_name(p).to_string())
            .collect(),
        depth,
        nodes: Vec::new(),
    };
    grow(game, &mut tree, root.clone(), None, 0, &mut solver)?;
    Ok(tree)
}

/// Adds the node for `state` and, below `tree.depth`, its subtree; returns its index.
fn grow<G: Game>(
    game: &G,
    tree: &mut Tree<G::State>,
    state: G::State,
    edge: Option<Edge>,
    depth: usize,
    solver: &mut Option<&mut Solver<G>>,
) -> Result<usize, SolveError> {
    let turn = game.turn(&state)?;
    let status = match turn {
        Turn::Player(p) => Status::ToMove(game.player_name(p).to_string()),
        Turn::Chance => Status::Chance,
        Turn::Simultaneous => Status::Simultaneous,
        Turn::Terminal => Status::Over(all_returns(game, &state)?),
    };
    let (value, best) = match solver {
        Some(s) => {
            let (v, best) = s.search_root(&state)?;
            (Some(v), best)
        }
        None => (None, Vec::new()),
    };
    let index = tree.nodes.len();
    tree.nodes.push(Node {
        text: game.state_text(&state),
        state: state.clone(),
        edge,
        status,
        value,
        depth,
        children: Vec::new(),
    });
    if depth < tree.depth {
        for (mut edge, mv, child) in successors(game, &state, turn)? {
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
        let _ = write!(s, " (p = {})", probability(p));
    }
    if edge.optimal {
        s.push_str(" *");
    }
    s
}

/// A probability with as few digits as it needs, at most three: `0.5`, `0.333`.
fn probability(p: f64) -> String {
    let s = format!("{p:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

fn has_values<S>(tree: &Tree<S>) -> bool {
    tree.nodes.first().is_some_and(|n| n.value.is_some())
}

/// The count by depth, and what the values and marks mean.
fn footer<S>(tree: &Tree<S>) -> Vec<String> {
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
        lines.push(format!(
            "value: {first}'s utility under optimal play from that node ({first} is the first player); \
             * marks the optimal moves"
        ));
    }
    lines
}

/// The tree as indented text, one node a line: the move that led to it and
/// who made it, the state, who moves next (or the outcome), and the value.
pub fn text<S>(tree: &Tree<S>) -> String {
    // Columns: branch and move, state, status, value.
    let mut rows: Vec<[String; 4]> = Vec::with_capacity(tree.nodes.len());
    if !tree.nodes.is_empty() {
        rows_of(tree, 0, "", "", &mut rows);
    }
    let width = |c: usize| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0);
    let (w0, w1, w2, w3) = (width(0), width(1), width(2), width(3));
    let mut out = String::new();
    for r in &rows {
        let mut line = format!("{:<w0$}  {:<w1$}  {:<w2$}", r[0], r[1], r[2]);
        if has_values(tree) {
            let _ = write!(line, "  value {:>w3$}", r[3]);
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push('\n');
    for line in footer(tree) {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

fn rows_of<S>(tree: &Tree<S>, i: usize, lead: &str, rest: &str, rows: &mut Vec<[String; 4]>) {
    let node = &tree.nodes[i];
    let label = node.edge.as_ref().map_or_else(|| "start".to_string(), edge_text);
    rows.push([
        format!("{lead}{label}"),
        node.text.clone(),
        status_text(&tree.players, &node.status),
        node.value.map(number).unwrap_or_default(),
    ]);
    let last = node.children.len().saturating_sub(1);
    for (k, &c) in node.children.iter().enumerate() {
        let (branch, under) = if k == last {
            ("└── ", "    ")
        } else {
            ("├── ", "│   ")
        };
        rows_of(tree, c, &format!("{rest}{branch}"), &format!("{rest}{under}"), rows);
    }
}

/// The tree as a Graphviz digraph: each node labelled with its state, who
/// moves next (or the outcome) and its value; each edge with its move;
/// optimal moves bold, ends of the game with a double border.
pub fn dot<S>(tree: &Tree<S>) -> String {
    let mut out = String::new();
    for line in footer(tree) {
        let _ = writeln!(out, "// {line}");
    }
    let _ = writeln!(out, "digraph \"{}\" {{", escape(&tree.game));
    let _ = writeln!(out, "    node [shape=box, fontname=\"monospace\"];");
    let _ = writeln!(out, "    edge [fontname=\"monospace\"];");
    for (i, n) in tree.nodes.iter().enumerate() {
        let mut label = format!("{}\n{}", n.text, status_text(&tree.players, &n.status));
        if let Some(v) = n.value {
            let _ = write!(label, "\nvalue {}", number(v));
        }
        let border = if matches!(n.status, Status::Over(_)) {
            ", peripheries=2"
        } else {
            ""
        };
        let _ = writeln!(out, "    n{i} [label=\"{}\"{border}];", escape(&label));
    }
    for (i, n) in tree.nodes.iter().enumerate() {
        for &c in &n.children {
            let Some(edge) = &tree.nodes[c].edge else { continue };
            let style = if edge.optimal { ", style=bold" } else { "" };
            let _ = writeln!(out, "    n{i} -> n{c} [label=\"{}\"{style}];", escape(&edge_text(edge)));
        }
    }
    out.push_str("}\n");
    out
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
