//! One-player games (puzzles: Lights Out, sliding tiles): the best payoff the
//! player can reach and the shortest line that reaches it.
//!
//! Breadth-first from the root, every position stored once with the
//! positions its moves lead to, so that positions may repeat (pressing a
//! light twice undoes it) without any depth limit. Then the best payoff
//! among the ends reached, and the distance of every position to the
//! nearest end of that payoff, backwards over the stored moves: a root move
//! is best when it leads one move closer, and the line follows such moves.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use rustc_hash::FxHashMap;

use crate::game::{Game, Turn};
use crate::solve::SolveError;

/// Limits of one search; `None` is no limit.
#[derive(Clone, Copy, Debug, Default)]
pub struct PuzzleOptions {
    pub max_states: Option<u64>,
    pub time_limit: Option<Duration>,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct PuzzleSolution<M> {
    /// The best payoff an end reachable from the root gives; `None` when no
    /// end can be reached.
    pub value: Option<f64>,
    /// Every move at the root that starts a shortest line to that payoff.
    pub best_moves: Vec<M>,
    /// A shortest line to that payoff.
    pub line: Vec<M>,
    /// Each legal move at the root with the fewest moves after it that
    /// reach the best payoff (`None`: it cannot be reached from there).
    pub moves: Vec<(M, Option<usize>)>,
    /// Positions reached (the root included).
    pub states: u64,
    /// Moves played to reach them.
    pub nodes: u64,
}

/// How far from an end of the best payoff: not reached yet.
const FAR: u32 = u32::MAX;

/// Solves the one-player game `game` from `root`.
pub fn solve<G: Game>(game: &G, root: &G::State, opts: &PuzzleOptions) -> Result<PuzzleSolution<G::Move>, SolveError> {
    if game.num_players() != 1 {
        return Err(SolveError::Unsupported(format!(
            "{} has {} players; this solver is for one-player games",
            game.name(),
            game.num_players()
        )));
    }
    let started = Instant::now();
    let mut index: FxHashMap<G::State, u32> = FxHashMap::default();
    let mut states: Vec<G::State> = vec![root.clone()];
    index.insert(root.clone(), 0);
    // The positions each position's moves lead to, in legal-move order:
    // `edges[first[i]..first[i + 1]]`.
    let mut first: Vec<usize> = Vec::new();
    let mut edges: Vec<u32> = Vec::new();
    // The payoff of each end found, by position.
    let mut ends: Vec<(u32, f64)> = Vec::new();
    let mut queue = VecDeque::from([0u32]);
    let mut moves = Vec::new();
    let mut nodes = 0u64;
    let stop = |what: &'static str, limit: String, nodes: u64| SolveError::Budget { what, limit, nodes };
    while let Some(i) = queue.pop_front() {
        debug_assert_eq!(first.len(), i as usize);
        first.push(edges.len());
        let s = states[i as usize].clone();
        match game.turn(&s)? {
            Turn::Terminal => {
                ends.push((i, game.returns(&s, 0)?));
                continue;
            }
            Turn::Player(_) => {}
            Turn::Chance | Turn::Simultaneous => {
                return Err(SolveError::Unsupported(format!(
                    "{} has moves by chance or by all players at once; the one-player solver plays deterministic puzzles",
                    game.name()
                )));
            }
        }
        game.legal_moves(&s, &mut moves)?;
        for m in &moves {
            let mut c = s.clone();
            game.apply(&mut c, m)?;
            nodes += 1;
            let next = states.len() as u32;
            let j = *index.entry(c.clone()).or_insert(next);
            if j == next {
                if opts.max_states.is_some_and(|cap| states.len() as u64 >= cap) {
                    return Err(stop("states", opts.max_states.unwrap_or(0).to_string(), nodes));
                }
                states.push(c);
                queue.push_back(j);
            }
            edges.push(j);
        }
        if nodes % 1024 < moves.len() as u64 {
            if let Some(t) = opts.time_limit.filter(|t| started.elapsed() > *t) {
                return Err(stop("time", format!("{}s", t.as_secs_f64()), nodes));
            }
            if crate::memory::exceeded() {
                return Err(SolveError::Unsupported(format!(
                    "{} has more positions than fit in memory ({} stored); give gdl more with --max-memory",
                    game.name(),
                    states.len()
                )));
            }
        }
    }
    first.push(edges.len());
    let Some(best) = ends.iter().map(|&(_, v)| v).reduce(f64::max) else {
        return Ok(PuzzleSolution {
            value: None,
            best_moves: Vec::new(),
            line: Vec::new(),
            moves: Vec::new(),
            states: states.len() as u64,
            nodes,
        });
    };
    // Distances to the nearest end of the best payoff, backwards.
    // The moves reversed, laid out as `edges` is: `back[into[j]..into[j + 1]]`
    // are the positions with a move to `j`.
    let mut into = vec![0usize; states.len() + 1];
    for &j in &edges {
        into[j as usize + 1] += 1;
    }
    for j in 0..states.len() {
        into[j + 1] += into[j];
    }
    let mut back = vec![0u32; edges.len()];
    let mut fill = into.clone();
    for i in 0..states.len() {
        for &j in &edges[first[i]..first[i + 1]] {
            back[fill[j as usize]] = i as u32;
            fill[j as usize] += 1;
        }
    }
    let mut dist = vec![FAR; states.len()];
    let mut queue: VecDeque<u32> = ends.iter().filter(|&&(_, v)| v == best).map(|&(i, _)| i).collect();
    for &i in &queue {
        dist[i as usize] = 0;
    }
    while let Some(j) = queue.pop_front() {
        for &i in &back[into[j as usize]..into[j as usize + 1]] {
            if dist[i as usize] == FAR {
                dist[i as usize] = dist[j as usize] + 1;
                queue.push_back(i);
            }
        }
    }
    let moves_at = |i: usize, moves: &mut Vec<G::Move>| -> Result<(), SolveError> {
        game.legal_moves(&states[i], moves)?;
        Ok(())
    };
    // The root's moves, in order, with their children's distances.
    let mut root_moves = Vec::new();
    let mut line = Vec::new();
    let mut best_moves = Vec::new();
    if game.turn(root)? != Turn::Terminal {
        moves_at(0, &mut moves)?;
        for (m, &j) in moves.iter().zip(&edges[first[0]..first[1]]) {
            let d = dist[j as usize];
            root_moves.push((m.clone(), (d != FAR).then_some(d as usize)));
            if d != FAR && d + 1 == dist[0] {
                best_moves.push(m.clone());
            }
        }
        // The line: at each position the first move one step closer.
        let mut i = 0usize;
        while dist[i] > 0 {
            moves_at(i, &mut moves)?;
            let (m, &j) = moves
                .iter()
                .zip(&edges[first[i]..first[i + 1]])
                .find(|&(_, &j)| dist[j as usize] != FAR && dist[j as usize] + 1 == dist[i])
                .ok_or_else(|| {
                    SolveError::Inconsistent("a position on the line has no move closer to the end".into())
                })?;
            line.push(m.clone());
            i = j as usize;
        }
    }
    Ok(PuzzleSolution {
        value: Some(best),
        best_moves,
        line,
        moves: root_moves,
        states: states.len() as u64,
        nodes,
    })
}
