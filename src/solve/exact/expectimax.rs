//! Expectiminimax with a memo table: exact values of two-player zero-sum
//! games with chance, turn-taking or simultaneous, and perfect information.
//!
//! Player 0 maximizes its utility, player 1 minimizes it, a chance node is
//! worth the expectation over its outcomes, and a simultaneous node is a
//! matrix game over the values that follow ([`simultaneous`](super::simultaneous)).
//! Every position is valued once (the memo table is keyed by the state,
//! which includes whose turn it is). A game with a canonical form
//! (`Game::canonical`) is searched on representatives: every position below
//! the root is replaced by its representative, so the table keeps one entry
//! per class, and the positions that look alike are compared among
//! representatives.
//!
//! A game whose positions can recur (Pig: rolling a 1 hands the turn back
//! and forth) has no bottom to recurse to. When the search meets a position
//! already on its line, it starts again with value iteration over every
//! reachable position, one cycle of positions at a time
//! ([`value_iteration`](super::value_iteration)): the values of a cycle
//! start at 0 and each sweep recomputes them from their successors, until
//! no value moves by more than [`ChanceOptions::tolerance`]. For a game
//! that ends with probability 1 whatever the players do (Pig), the limit is
//! the exact value; play that can go on forever counts as 0 for both.
//!
//! The state must be all there is to know: a player who cannot tell two
//! positions apart cannot play differently in them. After a solve, the
//! positions that look alike to the player to move
//! (`Game::observation`) are compared, and the solve is refused when they
//! call for different play (the game has hidden information: use
//! [`cfr`](crate::solve::learn::cfr)).

use std::collections::BTreeMap;
use std::sync::{Mutex, mpsc};
use std::time::{Duration, Instant};

use super::matrix::Matrix;
pub(crate) use super::positions::check_probabilities;
use super::positions::{
    Ahead, BATCH, Entry, Expanded, Flat, Node, Table, expand_state, hash_of, observed, thread_failed, viewers, who,
};
use super::simultaneous::{Stage, solve_stage, stage_moves};
use super::solve_error::SolveError;
use super::value_iteration::{CHANCE, Graph, Limits, PARALLEL_MIN, Rule, evaluate, settle};
use crate::game::{Game, GameError, Player, Turn};

/// Two values this close (relative to their size) are equally good.
const TIE: f64 = 1e-9;
/// The principal line stops after this many steps (a game with cycles can
/// follow one forever).
const MAX_LINE: usize = 10_000;
/// The clock is read every this many nodes.
const CLOCK_EVERY: u64 = 4096;

/// Limits and settings of an expectiminimax solve.
#[derive(Clone, Debug, PartialEq)]
pub struct ChanceOptions {
    /// Stop with a budget error when this many positions are stored.
    pub max_states: Option<u64>,
    /// Stop with a budget error after this long.
    pub time_limit: Option<Duration>,
    /// The longest line searched before giving up (`SolveError::TooDeep`).
    pub max_depth: usize,
    /// Value iteration (games with cycles) stops when a sweep moves no
    /// value by more than this.
    pub tolerance: f64,
    /// Value iteration gives up after this many sweeps.
    pub max_sweeps: u64,
    /// Compare positions that look alike to the player to move (see the
    /// module's documentation). Costs one observation per position.
    pub check_hidden: bool,
    /// Where the solve publishes its progress, and may be stopped from
    /// another thread (see [`Watch`](crate::solve::Watch)).
    pub watch: Option<std::sync::Arc<crate::solve::Watch>>,
}

impl Default for ChanceOptions {
    fn default() -> Self {
        ChanceOptions {
            max_states: None,
            time_limit: None,
            max_depth: crate::solve::DEFAULT_MAX_DEPTH,
            tolerance: 1e-13,
            max_sweeps: 1_000_000,
            check_hidden: true,
            watch: None,
        }
    }
}

/// How the values were found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Method {
    /// Depth-first search with the memo table: the game graph is acyclic.
    BackwardInduction,
    /// Value iteration, one strongly connected component of the positions
    /// after another: positions can recur.
    ValueIteration {
        /// Components with a cycle, each valued by sweeps of its own.
        cycles: u64,
        /// The most sweeps one of them took.
        sweeps: u64,
        /// The largest change in the last sweep of any of them.
        residual: f64,
    },
}

/// A choice at the root with its value for player 0.
#[derive(Clone, Debug, PartialEq)]
pub struct OptionValue<M> {
    pub mv: M,
    /// Player 0's expected utility after it, under optimal play.
    pub value: f64,
    /// At a chance node, the outcome's probability.
    pub probability: Option<f64>,
}

/// What the root of a solve is, and the value of each choice there.
#[derive(Clone, Debug, PartialEq)]
pub enum Root<M> {
    /// The game is over.
    Terminal,
    /// `player` moves: every legal move with its value, and the best of them.
    Player {
        player: Player,
        moves: Vec<OptionValue<M>>,
        best: Vec<M>,
    },
    /// Chance acts: every outcome with its probability and value.
    Chance { outcomes: Vec<OptionValue<M>> },
    /// Both players choose at once: the matrix game and its solution.
    Simultaneous(Stage<M>),
}

/// One step of the principal line.
#[derive(Clone, Debug, PartialEq)]
pub enum Step<M> {
    /// `player` plays its first best move.
    Move { player: Player, mv: M },
    /// Chance: the most likely outcome (the first of equally likely ones).
    Chance { outcome: M, probability: f64 },
    /// Both players at once: each one's most likely move under its optimal
    /// mixed strategy, with that probability.
    Joint { moves: Vec<M>, probabilities: Vec<f64> },
}

/// A principal line and why it stops there.
type Line<M> = (Vec<Step<M>>, LineEnd);

/// Why the principal line stops where it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineEnd {
    /// At the end of the game.
    Terminal,
    /// At a position already on the line: it would go round forever.
    Repeats,
    /// After `MAX_LINE` steps.
    Cut,
}

/// The result of an expectiminimax solve.
#[derive(Clone, Debug, PartialEq)]
pub struct ChanceSolution<M> {
    /// Player 0's expected utility under optimal play.
    pub value: f64,
    /// The root and the value of each choice there (what `--explain` prints).
    pub root: Root<M>,
    /// The principal line from the root.
    pub line: Vec<Step<M>>,
    pub line_end: LineEnd,
    /// Positions searched, memo hits included (for value iteration: the
    /// positions explored once each, before the sweeps).
    pub nodes: u64,
    /// Distinct positions valued.
    pub states: u64,
    /// Positions answered from the memo table.
    pub memo_hits: u64,
    /// Matrix games solved at simultaneous nodes (with value iteration,
    /// once per node per sweep).
    pub stages: u64,
    pub method: Method,
    pub seconds: f64,
}

impl<M: Clone> Root<M> {
    /// The optimal moves here: for a player, every move of the best value;
    /// at a simultaneous node, both players' moves played with positive
    /// probability (player 0's first); otherwise none.
    pub fn best_moves(&self) -> Vec<M> {
        match self {
            Root::Player { best, .. } => best.clone(),
            Root::Simultaneous(stage) => {
                let [a, b] = stage.support();
                a.into_iter().chain(b).map(|(m, _)| m).collect()
            }
            _ => Vec::new(),
        }
    }
}

impl<M: Clone> ChanceSolution<M> {
    /// The optimal moves at the root (see [`Root::best_moves`]).
    pub fn best_moves(&self) -> Vec<M> {
        self.root.best_moves()
    }
}

/// Solves `root` by expectiminimax (see the module's documentation).
pub fn solve<G: Game>(game: &G, root: &G::State, opts: &ChanceOptions) -> Result<ChanceSolution<G::Move>, SolveError> {
    solve_with(Engine::new(game, opts)?, root)
}

/// [`solve`] on `threads` threads, with one thread's answer bit for bit.
/// Value iteration explores its positions on the threads (each plays the
/// rules on its share of a batch of positions, and one numbers their
/// successors in the order one thread would) and values the components of
/// its position graph that no path joins on the threads at once
/// ([`value_iteration`](super::value_iteration)). A game without cycles is
/// searched depth first on one thread.
pub fn solve_threads<G>(
    game: &G,
    root: &G::State,
    opts: &ChanceOptions,
    threads: usize,
) -> Result<ChanceSolution<G::Move>, SolveError>
where
    G: Game + Sync,
    G::State: Send + Sync,
{
    let mut engine = Engine::new(game, opts)?;
    engine.sweep_threads = threads.max(1);
    if threads < 2 {
        return solve_with(engine, root);
    }
    // The exploration of value iteration numbers positions on this thread
    // while the others play the rules on the positions found ahead.
    let observe = opts.check_hidden;
    let (work, jobs) = mpsc::channel::<(u64, Vec<G::State>)>();
    let (done, results) = mpsc::channel();
    let jobs = Mutex::new(jobs);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let (jobs, done) = (&jobs, done.clone());
            scope.spawn(move || {
                loop {
                    // The lock is held only to take a batch; the channel closes with the engine.
                    let job = jobs.lock().map_err(|_| ()).and_then(|rx| rx.recv().map_err(|_| ()));
                    let Ok((seq, batch)) = job else { break };
                    // A panic (a bug in gdl) still answers the batch: the
                    // numbering thread waits for every batch in turn.
                    let expanded = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        let mut expanded = Flat::default();
                        for s in &batch {
                            if !expanded.push(game, s, observe) {
                                break;
                            }
                        }
                        expanded
                    }))
                    .unwrap_or_else(|_| Flat {
                        error: Some(thread_failed()),
                        ..Flat::default()
                    });
                    if done.send((seq, expanded)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(done);
        engine.ahead = Some(Ahead {
            work,
            results,
            sent: 0,
            received: 0,
            early: BTreeMap::new(),
        });
        // The engine, and with it the channel to the threads, ends here: they stop.
        solve_with(engine, root)
    })
}

fn solve_with<G: Game>(mut engine: Engine<'_, G>, root: &G::State) -> Result<ChanceSolution<G::Move>, SolveError> {
    let method = engine.settle(root)?;
    if engine.opts.check_hidden {
        engine.check_hidden()?;
    }
    let value = engine.stored(root)?;
    let root_report = engine.root(root)?;
    let (line, line_end) = engine.line(root)?;
    Ok(ChanceSolution {
        value,
        root: root_report,
        line,
        line_end,
        nodes: engine.nodes,
        states: engine.memo.len() as u64,
        memo_hits: engine.hits,
        stages: engine.stages,
        method,
        seconds: engine.started.elapsed().as_secs_f64(),
    })
}

/// Why the depth-first search stopped.
enum Stop {
    /// It met a position on its own line: the graph has a cycle.
    Cycle,
    Fail(SolveError),
}

impl From<SolveError> for Stop {
    fn from(e: SolveError) -> Self {
        Stop::Fail(e)
    }
}

impl From<GameError> for Stop {
    fn from(e: GameError) -> Self {
        Stop::Fail(e.into())
    }
}

struct Engine<'g, G: Game> {
    game: &'g G,
    opts: ChanceOptions,
    /// Set by [`solve_threads`].
    ahead: Option<Ahead<G::State>>,
    /// Threads that value the components of value iteration (set by [`solve_threads`]).
    sweep_threads: usize,
    memo: Table<G::State>,
    nodes: u64,
    hits: u64,
    stages: u64,
    depth: usize,
    started: Instant,
    next_clock: u64,
}

/// The expectiminimax values of many positions of one game (the nodes of
/// `gdl tree --values`), each position searched once: one engine and one
/// memo table serve them all.
pub struct ChanceValuer<'g, G: Game> {
    engine: Engine<'g, G>,
}

impl<'g, G: Game> ChanceValuer<'g, G> {
    pub fn new(game: &'g G, opts: &ChanceOptions) -> Result<Self, SolveError> {
        Ok(ChanceValuer {
            engine: Engine::new(game, opts)?,
        })
    }

    /// Player 0's expected utility at `state` under optimal play, and the
    /// optimal moves there (as [`Root::best_moves`]).
    pub fn value_and_best(&mut self, state: &G::State) -> Result<(f64, Vec<G::Move>), SolveError> {
        if self.engine.known(state).is_none() {
            self.engine.settle(state)?;
        }
        let value = self.engine.stored(state)?;
        Ok((value, self.engine.root(state)?.best_moves()))
    }

    /// The root report of a position valued before (its choices and their
    /// values; a simultaneous node's matrix game and its solution).
    pub fn root(&mut self, state: &G::State) -> Result<Root<G::Move>, SolveError> {
        self.engine.root(state)
    }

    /// Refuses, as `solve` does, when a player would have to tell apart
    /// positions valued so far that look alike to it (hidden information).
    pub fn check_hidden(&self) -> Result<(), SolveError> {
        self.engine.check_hidden()
    }
}

impl<'g, G: Game> Engine<'g, G> {
    fn new(game: &'g G, opts: &ChanceOptions) -> Result<Self, SolveError> {
        super::line::no_repetition_rule(game, "expectiminimax")?;
        // One player maximizes its expected utility (blackjack against a
        // dealer whose play the rules fix); two play zero-sum.
        if !(1..=2).contains(&game.num_players()) {
            return Err(SolveError::NotApplicable {
                message: format!(
                    "{} has {} players; expectiminimax solves games of one or two players",
                    game.name(),
                    game.num_players()
                ),
                help: "use a search agent (`gdl match --players search,...`) for games of more players".into(),
            });
        }
        Ok(Engine {
            game,
            opts: opts.clone(),
            ahead: None,
            sweep_threads: 1,
            memo: Table::new(),
            nodes: 0,
            hits: 0,
            stages: 0,
            depth: 0,
            started: Instant::now(),
            next_clock: CLOCK_EVERY,
        })
    }

    /// Values `state` and every position reachable from it: depth-first, or
    /// by value iteration when the positions form a cycle (the table is then
    /// rebuilt from `state`).
    fn settle(&mut self, state: &G::State) -> Result<Method, SolveError> {
        match self.value(state) {
            Ok(_) => Ok(Method::BackwardInduction),
            Err(Stop::Cycle) => {
                self.memo = Table::new();
                self.iterate(state)
            }
            Err(Stop::Fail(e)) => Err(e),
        }
    }

    /// The value of `state` by depth-first search, storing it.
    fn value(&mut self, state: &G::State) -> Result<f64, Stop> {
        self.count_node()?;
        if let Some(e) = self.memo.get(state) {
            if e.value.is_nan() {
                return Err(Stop::Cycle);
            }
            self.hits += 1;
            return Ok(e.value);
        }
        if let Some(max) = self.opts.max_states
            && self.memo.len() as u64 >= max
        {
            return Err(self.budget("states", max.to_string()).into());
        }
        let (node, facts) = self.expand(state)?;
        self.memo.insert(
            state.clone(),
            Entry {
                value: f64::NAN,
                who: who(&node),
                best: 0,
                facts,
            },
        );
        self.depth += 1;
        if self.depth > self.opts.max_depth {
            return Err(SolveError::TooDeep {
                depth: self.opts.max_depth,
                position: self.game.state_text(state),
            }
            .into());
        }
        let mut values = Vec::with_capacity(node.children().len());
        for child in node.children() {
            values.push(self.value(child)?);
        }
        self.depth -= 1;
        let (value, best) = self.combine(&node, &values)?;
        let e = self.memo.get_mut(state).expect("stored above");
        e.value = value;
        e.best = best;
        Ok(value)
    }

    /// A position's kind and successors, checked, and a hash of each
    /// player's legal moves. The successors are representatives (see
    /// `Game::canonical`), so the memo table holds one entry per class of
    /// positions below the root.
    fn expand(&self, state: &G::State) -> Expanded<G::State> {
        expand_state(self.game, state, self.opts.check_hidden)
    }

    /// A position's value from its children's, and its best moves as bits.
    fn combine<S>(&mut self, node: &Node<S>, values: &[f64]) -> Result<(f64, u64), SolveError> {
        let rule = match node {
            Node::Terminal(v) => Rule::Terminal(*v),
            Node::Player { player, .. } => Rule::Player(*player),
            Node::Chance { probs, .. } => Rule::Chance(probs),
            Node::Simultaneous { rows, cols, .. } => {
                self.stages += 1;
                Rule::Simultaneous {
                    rows: *rows,
                    cols: *cols,
                }
            }
        };
        evaluate(rule, values, true, tie)
    }

    fn count_node(&mut self) -> Result<(), SolveError> {
        self.nodes += 1;
        if self.nodes >= self.next_clock {
            self.next_clock = self.nodes + CLOCK_EVERY;
            self.watched()?;
            if let Some(limit) = self.opts.time_limit
                && self.started.elapsed() >= limit
            {
                return Err(self.budget("time", format!("{}s", limit.as_secs_f64())));
            }
        }
        Ok(())
    }

    /// Publishes the progress to the watch, if any, and stops if it says so.
    fn watched(&self) -> Result<(), SolveError> {
        use std::sync::atomic::Ordering::Relaxed;
        if let Some(watch) = &self.opts.watch {
            watch.nodes.store(self.nodes, Relaxed);
            watch.states.store(self.memo.len() as u64, Relaxed);
            if watch.stopped() {
                return Err(self.budget(crate::solve::STOPPED, String::new()));
            }
        }
        Ok(())
    }

    fn budget(&self, what: &'static str, limit: String) -> SolveError {
        SolveError::Budget {
            what,
            limit,
            nodes: self.nodes,
        }
    }

    /// Value iteration over every position reachable from `root`
    /// ([`value_iteration`](super::value_iteration)).
    fn iterate(&mut self, root: &G::State) -> Result<Method, SolveError> {
        // Explore breadth-first, numbering the positions.
        let mut table = Table::new();
        table.number(hash_of(root), root.clone());
        let mut graph = Graph::new();
        let mut fingerprints = Vec::new();
        let mut next = 0;
        let mut ids = Vec::new();
        // Positions expanded ahead on other threads, in order, and how many
        // of `states` were sent to them.
        let mut ready: Flat<G::State> = Flat::default();
        let mut probs = Vec::new();
        let mut sent = 0;
        while next < table.len() {
            self.count_node()?;
            if let Some(max) = self.opts.max_states
                && table.len() as u64 > max
            {
                return Err(self.budget("states", max.to_string()));
            }
            if let Some(ahead) = &mut self.ahead {
                // Full batches as soon as they are found; a smaller one when
                // nothing else is on its way.
                let found = table.len();
                while found - sent >= BATCH || (sent < found && ready.is_empty() && !ahead.in_flight()) {
                    let end = found.min(sent + BATCH);
                    ahead.send(table.states[sent..end].to_vec())?;
                    sent = end;
                }
                if ready.is_empty() {
                    ready = ahead.next()?;
                }
            } else {
                ready.push(self.game, &table.states[next], self.opts.check_hidden);
            }
            let head = ready
                .pop()
                .ok_or_else(|| SolveError::Inconsistent("a position was not expanded (a bug in gdl)".into()))??;
            ids.clear();
            for _ in 0..head.children {
                let (Some(child), Some(hash)) = (ready.children.pop_front(), ready.hashes.pop_front()) else {
                    return Err(SolveError::Inconsistent(
                        "a successor went missing (a bug in gdl)".into(),
                    ));
                };
                let id = table
                    .number(hash, child)
                    .ok_or_else(|| self.budget("states", u32::MAX.to_string()))?;
                ids.push(id);
            }
            probs.clear();
            if head.who == CHANCE {
                probs.extend(ready.probs.drain(..head.children));
            }
            graph.push(head.who, &ids, &probs, head.rows, head.terminal);
            fingerprints.push(head.facts);
            next += 1;
        }
        let (values, summary) = {
            let (started, time_limit, watch) = (self.started, self.opts.time_limit, self.opts.watch.clone());
            let (nodes, positions) = (self.nodes, table.len() as u64);
            let check = move || -> Result<(), SolveError> {
                let budget = |what, limit| SolveError::Budget { what, limit, nodes };
                if let Some(watch) = &watch {
                    use std::sync::atomic::Ordering::Relaxed;
                    watch.nodes.store(nodes, Relaxed);
                    watch.states.store(positions, Relaxed);
                    if watch.stopped() {
                        return Err(budget(crate::solve::STOPPED, String::new()));
                    }
                }
                match time_limit {
                    Some(limit) if started.elapsed() >= limit => {
                        Err(budget("time", format!("{}s", limit.as_secs_f64())))
                    }
                    _ => Ok(()),
                }
            };
            let limits = Limits {
                tolerance: self.opts.tolerance,
                max_sweeps: self.opts.max_sweeps,
                check: &check,
                parallel_min: PARALLEL_MIN,
            };
            settle(&graph, &limits, self.sweep_threads).map_err(|e| match e {
                SolveError::Budget { what, limit, .. } => self.budget(what, limit),
                e => e,
            })?
        };
        self.stages += summary.stages;
        let mut children_values = Vec::new();
        let mut entries = Vec::with_capacity(graph.len());
        for (i, facts) in fingerprints.into_iter().enumerate() {
            children_values.clear();
            children_values.extend(graph.children(i).iter().map(|&c| values[c as usize]));
            let (_, best) = evaluate(graph.rule(i), &children_values, true, tie)?;
            entries.push(Entry {
                value: values[i],
                who: graph.who[i],
                best,
                facts,
            });
        }
        table.entries = entries;
        self.memo = table;
        Ok(Method::ValueIteration {
            cycles: summary.cycles,
            sweeps: summary.sweeps,
            residual: summary.residual,
        })
    }

    /// The stored value of a solved position.
    /// `state`'s value, once searched (not while it is on the current line).
    fn known(&self, state: &G::State) -> Option<f64> {
        self.memo.get(state).map(|e| e.value).filter(|v| !v.is_nan())
    }

    fn stored(&self, state: &G::State) -> Result<f64, SolveError> {
        match self.known(state) {
            Some(v) => Ok(v),
            None => Err(SolveError::Inconsistent(format!(
                "the position `{}` was not valued",
                self.game.state_text(state)
            ))),
        }
    }

    /// The values of `state`'s successors, in the order of its choices.
    fn child_values(&self, node: &Node<G::State>) -> Result<Vec<f64>, SolveError> {
        node.children().iter().map(|c| self.stored(c)).collect()
    }

    fn root(&mut self, state: &G::State) -> Result<Root<G::Move>, SolveError> {
        let game = self.game;
        Ok(match game.turn(state)? {
            Turn::Terminal => Root::Terminal,
            Turn::Player(p) => {
                let mut moves = Vec::new();
                game.legal_moves(state, &mut moves)?;
                let (node, _) = self.expand(state)?;
                let values = self.child_values(&node)?;
                let (best_value, _) = self.combine(&node, &values)?;
                let best = moves
                    .iter()
                    .zip(&values)
                    .filter(|(_, v)| tie(**v, best_value))
                    .map(|(m, _)| m.clone())
                    .collect();
                let moves = moves
                    .into_iter()
                    .zip(values)
                    .map(|(mv, value)| OptionValue {
                        mv,
                        value,
                        probability: None,
                    })
                    .collect();
                Root::Player { player: p, moves, best }
            }
            Turn::Chance => {
                let mut outcomes = Vec::new();
                game.chance_outcomes(state, &mut outcomes)?;
                let (node, _) = self.expand(state)?;
                let values = self.child_values(&node)?;
                Root::Chance {
                    outcomes: outcomes
                        .into_iter()
                        .zip(values)
                        .map(|((mv, p), value)| OptionValue {
                            mv,
                            value,
                            probability: Some(p),
                        })
                        .collect(),
                }
            }
            Turn::Simultaneous => Root::Simultaneous(self.stage(state)?),
        })
    }

    /// The matrix game at a simultaneous node, from the stored values.
    fn stage(&mut self, state: &G::State) -> Result<Stage<G::Move>, SolveError> {
        let [row_moves, col_moves] = stage_moves(self.game, state)?;
        let (node, _) = self.expand(state)?;
        let payoff = Matrix::new(row_moves.len(), col_moves.len(), self.child_values(&node)?);
        let solution = solve_stage(&payoff)?;
        Ok(Stage {
            row_moves,
            col_moves,
            payoff,
            solution,
        })
    }

    /// The principal line: at a player's node the first best move, at a
    /// chance node the most likely outcome, at a simultaneous node each
    /// player's most likely move.
    fn line(&mut self, root: &G::State) -> Result<Line<G::Move>, SolveError> {
        let game = self.game;
        let mut line = Vec::new();
        let mut seen = rustc_hash::FxHashSet::default();
        let mut state = root.clone();
        loop {
            if !seen.insert(state.clone()) {
                return Ok((line, LineEnd::Repeats));
            }
            if line.len() >= MAX_LINE {
                return Ok((line, LineEnd::Cut));
            }
            match game.turn(&state)? {
                Turn::Terminal => return Ok((line, LineEnd::Terminal)),
                Turn::Player(p) => {
                    let mut moves = Vec::new();
                    game.legal_moves(&state, &mut moves)?;
                    let (node, _) = self.expand(&state)?;
                    let values = self.child_values(&node)?;
                    let (best, _) = self.combine(&node, &values)?;
                    let i = values.iter().position(|v| tie(*v, best)).expect("a best move");
                    game.apply(&mut state, &moves[i])?;
                    line.push(Step::Move {
                        player: p,
                        mv: moves.swap_remove(i),
                    });
                }
                Turn::Chance => {
                    let mut outcomes = Vec::new();
                    game.chance_outcomes(&state, &mut outcomes)?;
                    let mut pick = 0;
                    for (i, o) in outcomes.iter().enumerate() {
                        if o.1 > outcomes[pick].1 {
                            pick = i;
                        }
                    }
                    let (outcome, probability) = outcomes.swap_remove(pick);
                    game.apply(&mut state, &outcome)?;
                    line.push(Step::Chance { outcome, probability });
                }
                Turn::Simultaneous => {
                    let stage = self.stage(&state)?;
                    let most = |probs: &[f64]| {
                        let mut pick = 0;
                        for (i, p) in probs.iter().enumerate() {
                            if *p > probs[pick] + 1e-9 {
                                pick = i;
                            }
                        }
                        pick
                    };
                    let (a, b) = (most(&stage.solution.row), most(&stage.solution.col));
                    let moves = vec![stage.row_moves[a].clone(), stage.col_moves[b].clone()];
                    game.apply_joint(&mut state, &moves)?;
                    line.push(Step::Joint {
                        moves,
                        probabilities: vec![stage.solution.row[a], stage.solution.col[b]],
                    });
                }
            }
        }
    }

    /// Refuses a solve in which a player would have to tell apart two
    /// positions that look alike to them: same observation, but different
    /// values, legal moves or best moves.
    fn check_hidden(&self) -> Result<(), SolveError> {
        let game = self.game;
        let memo = &self.memo;
        // What each chooser sees at each position, sorted so that the
        // positions that look alike to a player lie side by side, each group
        // in the order the positions were stored: as a scan of the positions
        // in that order meets them, with each compared to the first of its
        // group (sorting costs less than a hash map of two million entries).
        let mut seen: Vec<(u64, u32)> = Vec::with_capacity(memo.len());
        for (i, entry) in memo.entries.iter().enumerate() {
            // Observed as the position was expanded, unless the options said not to.
            let seen_by = entry
                .facts
                .seen
                .unwrap_or_else(|| observed(game, &memo.states[i], entry.who));
            for &p in viewers(entry.who) {
                // The player in the lowest bit: a hash of 63 bits is enough.
                seen.push((seen_by[p] << 1 | p as u64, i as u32));
            }
        }
        seen.sort_unstable();
        let differ = |p: usize, a: &Entry, b: &Entry| {
            !tie(a.value, b.value) || a.facts.moves[p] != b.facts.moves[p] || (b.who < 2 && a.best & b.best == 0)
        };
        // The first position, in the order stored, that differs from the
        // first of its group, and that first.
        let mut found: Option<(u32, u32, usize)> = None;
        for group in seen.chunk_by(|a, b| a.0 == b.0) {
            let p = (group[0].0 & 1) as usize;
            let first = group[0].1;
            let e = &memo.entries[first as usize];
            if let Some(&(_, i)) = group[1..]
                .iter()
                .find(|(_, i)| differ(p, e, &memo.entries[*i as usize]))
                && found.is_none_or(|(j, _, _)| i < j)
            {
                found = Some((i, first, p));
            }
        }
        let Some((i, first, p)) = found else {
            return Ok(());
        };
        Err(SolveError::NotApplicable {
            message: format!(
                "{} cannot tell `{}` from `{}`, which call for different play: \
                 {} has hidden information",
                game.player_name(p),
                game.state_text(&memo.states[first as usize]),
                game.state_text(&memo.states[i as usize]),
                game.name()
            ),
            help: "expectiminimax needs every player to see the whole position; \
                   CFR solves games with hidden information"
                .into(),
        })
    }
}

fn tie(a: f64, b: f64) -> bool {
    (a - b).abs() <= TIE * (1.0 + a.abs().max(b.abs()))
}
