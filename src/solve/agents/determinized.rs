//! `dsearch`: determinized search with an exact endgame and an adaptive model
//! of the other players, for games with hidden information and simultaneous
//! moves (X Nimmt!). It sees the game only through the `Game` trait: the rules
//! are the game file's, and what it knows is the player's observation.
//!
//! Per move it draws worlds consistent with what it saw
//! (`Game::sample_hidden`). In each world:
//! - when the rest of the game is small (a few cards left), it is searched
//!   exactly: the agent's best reply at each later round (it will see what
//!   was played), the others' moves weighted by the model below;
//! - otherwise the others' moves are drawn from the model (the same draw for
//!   every candidate move, so that the candidates compare on equal terms),
//!   and the game is played on with the agent choosing the move with the
//!   lowest immediate penalty, until it is small enough to search exactly.
//!
//! The model of each other player, at the decision's own round, is a
//! mixture: with probability q the move with the lowest expected immediate
//! penalty (what `greedy` plays, estimated as greedy does: from what that
//! player can see, the cards hidden from them dealt again), else a uniformly
//! random one. Later rounds take the others' moves as uniformly random. q
//! starts at `DsearchConfig::prior_greedy` and is updated after every round
//! by Bayes' rule from the move the player was seen to make: the worlds of
//! the previous position that lead to what the agent now observes tell which
//! move it was, and whether the greedy rule would have made it. A prior of
//! 0 switches the model off (docs/XNIMMT.md measures both).
//!
//! The agent's utility at the end of a game is, for games of points, its own
//! points (fewer is better), plus `others_weight` times the others' average,
//! plus `win_bonus` for a win (half for a draw); for other games, the game's
//! returns.
//!
//! Work is counted in moves applied, not in time, so the same seed plays the
//! same games on any machine; `--budget-ms` adds a time limit.

use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::agent::{Agent, AgentError, Choice};
use super::search::{SearchAgent, SearchBudget};
use super::simulate::{Scratch, sample_chance};
use crate::error_kind::RuntimeKind;
use crate::game::{Game, GameError, Player, Turn};

/// How much the agent thinks, and how.
#[derive(Clone, Debug, PartialEq)]
pub struct DsearchConfig {
    /// Most worlds drawn per move.
    pub max_worlds: usize,
    /// Moves applied per decision before it stops drawing worlds.
    pub work: u64,
    /// A time limit per decision, on top of `work`.
    pub time: Option<Duration>,
    /// The largest game (in moves applied) searched exactly from a drawn world.
    pub exact_root: u64,
    /// The largest game searched exactly at the end of a playout.
    pub exact_leaf: u64,
    /// Draws of the others' moves that estimate their immediate penalties.
    pub greedy_samples: usize,
    /// The model's prior probability that another player plays greedily.
    pub prior_greedy: f64,
    /// What a win is worth on top of the game's returns.
    pub win_bonus: f64,
    /// In games of points, the weight of the others' average against the
    /// agent's own points (1: the game's returns, the margin; 0: the
    /// agent's own points alone).
    pub others_weight: f64,
    /// Draws per move when judging whether a move the others made was the
    /// greedy one (as many as `greedy` itself makes, so that the model's
    /// ties fall as greedy's do).
    pub infer_samples: usize,
}

impl Default for DsearchConfig {
    /// Measured on X Nimmt! (docs/XNIMMT.md): about as many moves applied as
    /// `search`'s 200 random worlds; the model of the others on, starting
    /// from even odds, which won most against greedy players; a win worth 4
    /// points, which won more games at a small cost in points.
    fn default() -> Self {
        DsearchConfig {
            max_worlds: 400,
            work: 2400,
            time: None,
            exact_root: 100,
            exact_leaf: 10,
            greedy_samples: 8,
            prior_greedy: 0.5,
            win_bonus: 4.0,
            others_weight: 0.0,
            infer_samples: GREEDY_DRAWS,
        }
    }
}

impl DsearchConfig {
    /// The defaults, with at most `worlds` worlds per move and a time limit.
    pub fn with(worlds: Option<usize>, time: Option<Duration>) -> Self {
        let mut config = DsearchConfig::default();
        if let Some(w) = worlds {
            config.max_worlds = w;
        }
        config.time = time;
        config
    }
}

/// The draws `greedy` makes per move (`agent_builder::GREEDY_SAMPLES`, which
/// builds on this module; tests/xnimmt.rs checks that the two agree).
const GREEDY_DRAWS: usize = 20;
/// The largest number of the others' joint moves enumerated at one node;
/// beyond it they are drawn.
const MAX_JOINTS: usize = 256;
/// Worlds of the previous position tried when finding what another player played.
const INFER_TRIES: usize = 40;
/// Worlds that explain what was seen, enough to judge the model by.
const INFER_MATCHES: usize = 8;
/// How often a greedy player is taken to play something else (its own
/// penalties are averages over a few draws, so it errs).
const GREEDY_NOISE: f64 = 0.1;
/// Bound on the log-odds of the model, so that one surprise can still turn it.
const MAX_LOG_ODDS: f64 = 5.0;

/// Why a search stopped.
enum Stop {
    Game(GameError),
    /// An exact search grew past its allowance: fall back to a playout.
    Budget,
}

impl From<GameError> for Stop {
    fn from(e: GameError) -> Self {
        Stop::Game(e)
    }
}

/// Determinized search with an exact endgame and an adaptive model.
pub struct DsearchAgent<G: Game> {
    config: DsearchConfig,
    rng: StdRng,
    /// The last position the agent chose in, and its move there: what the
    /// others played in between is read from the next position.
    prev: Option<(G::State, G::Move)>,
    /// Per player: the log-odds that they play greedily.
    log_odds: Vec<f64>,
    /// For turn-taking nodes (not what this agent is for).
    fallback: SearchAgent<G::State>,
}

impl<G: Game> DsearchAgent<G> {
    pub fn new(config: DsearchConfig, seed: u64) -> Self {
        let fallback = SearchAgent::new(
            SearchBudget {
                samples: config.max_worlds,
                time: config.time,
                stop: None,
            },
            seed,
        );
        DsearchAgent {
            config,
            rng: StdRng::seed_from_u64(seed),
            prev: None,
            log_odds: Vec::new(),
            fallback,
        }
    }

    /// Per player, the probability that the model gives them of playing
    /// greedily (0 with the model off; the agent's own entry is unused).
    pub fn greedy_belief(&self) -> Vec<f64> {
        self.greedy_probabilities()
    }

    fn prior(&self) -> f64 {
        if self.config.prior_greedy <= 0.0 {
            return f64::NEG_INFINITY;
        }
        let p = self.config.prior_greedy.clamp(1e-6, 1.0 - 1e-6);
        (p / (1.0 - p)).ln()
    }

    fn greedy_probabilities(&self) -> Vec<f64> {
        self.log_odds.iter().map(|l| 1.0 / (1.0 + (-l).exp())).collect()
    }

    /// Updates the model from the move each other player made since the
    /// agent's last decision.
    fn infer(&mut self, game: &G, state: &G::State, me: Player) -> Result<(), GameError> {
        let Some((prev, mine)) = self.prev.take() else {
            return Ok(());
        };
        if self.config.prior_greedy <= 0.0 {
            return Ok(());
        }
        if game.turn(&prev)? != Turn::Simultaneous {
            return Ok(());
        }
        let n = game.num_players();
        let target = game.observation(state, me);
        let mut matched = 0usize;
        let mut hits = vec![0usize; n];
        let mut sizes = vec![0usize; n];
        let q_one = vec![1.0; n];
        let mut infer_config = self.config.clone();
        infer_config.greedy_samples = self.config.infer_samples;
        let mut search = Search {
            game,
            me,
            q: &q_one,
            config: &infer_config,
            rng: &mut self.rng,
            work: 0,
        };
        for _ in 0..INFER_TRIES {
            if matched >= INFER_MATCHES {
                break;
            }
            let world = game.sample_hidden(&prev, me, search.rng)?;
            let lists = search.lists(&world)?;
            let joints = joint_count(&lists, me);
            if joints > MAX_JOINTS {
                return Ok(());
            }
            let mut found = None;
            let mut idx = vec![0usize; n];
            loop {
                let joint: Vec<G::Move> = (0..n)
                    .map(|p| {
                        if p == me {
                            mine.clone()
                        } else {
                            lists[p][idx[p]].clone()
                        }
                    })
                    .collect();
                let mut s = world.clone();
                game.apply_joint(&mut s, &joint)?;
                if game.observation(&s, me) == target {
                    found = Some(idx.clone());
                    break;
                }
                if !next_index(&mut idx, &lists, me) {
                    break;
                }
            }
            let Some(played) = found else { continue };
            matched += 1;
            for p in (0..n).filter(|&p| p != me) {
                sizes[p] = lists[p].len();
                if search.greedy_choice(&world, &lists, p)? == played[p] {
                    hits[p] += 1;
                }
            }
        }
        if matched == 0 {
            return Ok(());
        }
        for p in (0..n).filter(|&p| p != me) {
            let uniform = 1.0 / sizes[p].max(1) as f64;
            let greedy = GREEDY_NOISE * uniform + (1.0 - GREEDY_NOISE) * hits[p] as f64 / matched as f64;
            self.log_odds[p] = (self.log_odds[p] + (greedy / uniform).ln()).clamp(-MAX_LOG_ODDS, MAX_LOG_ODDS);
        }
        Ok(())
    }
}

impl<G: Game> Agent<G> for DsearchAgent<G> {
    fn name(&self) -> String {
        "dsearch".to_string()
    }

    fn new_game(&mut self, game: &G, seed: u64) -> Result<(), AgentError> {
        self.rng = StdRng::seed_from_u64(seed);
        self.prev = None;
        self.log_odds = vec![self.prior(); game.num_players()];
        <SearchAgent<G::State> as Agent<G>>::new_game(&mut self.fallback, game, seed)
    }

    /// Under a repetition rule the search of turn-taking positions keeps
    /// the game's positions.
    fn wants_steps(&self) -> bool {
        <SearchAgent<G::State> as Agent<G>>::wants_steps(&self.fallback)
    }

    fn after_step(
        &mut self,
        game: &G,
        seat: Player,
        before: &G::State,
        step: &super::step::Step<G::Move>,
        after: &G::State,
    ) {
        self.fallback.after_step(game, seat, before, step, after);
    }

    fn set_history(&mut self, game: &G, before: &[G::State]) {
        self.fallback.set_history(game, before);
    }

    fn choose(
        &mut self,
        game: &G,
        state: &G::State,
        player: Player,
        moves: &[G::Move],
    ) -> Result<Choice<G::Move>, AgentError> {
        if game.turn(state)? != Turn::Simultaneous {
            self.prev = None;
            return self.fallback.choose(game, state, player, moves);
        }
        if self.log_odds.len() != game.num_players() {
            self.log_odds = vec![self.prior(); game.num_players()];
        }
        self.infer(game, state, player)?;
        let choice = if moves.len() == 1 {
            Choice::plain(moves[0].clone())
        } else {
            self.search(game, state, player, moves)?
        };
        self.prev = Some((state.clone(), choice.mv.clone()));
        Ok(choice)
    }
}

impl<G: Game> DsearchAgent<G> {
    fn search(
        &mut self,
        game: &G,
        state: &G::State,
        me: Player,
        moves: &[G::Move],
    ) -> Result<Choice<G::Move>, AgentError> {
        let started = Instant::now();
        let q = self.greedy_probabilities();
        let mut search = Search {
            game,
            me,
            q: &q,
            config: &self.config,
            rng: &mut self.rng,
            work: 0,
        };
        let mut totals = vec![0.0f64; moves.len()];
        let mut worlds = 0usize;
        let mut exact_worlds = 0usize;
        while worlds < self.config.max_worlds.max(1) {
            if worlds > 0 {
                if search.work >= self.config.work {
                    break;
                }
                if let Some(limit) = self.config.time {
                    let spent = started.elapsed();
                    if spent + spent.div_f64(worlds as f64) > limit {
                        break;
                    }
                }
            }
            let world = game.sample_hidden(state, me, search.rng)?;
            let mut lists = search.lists(&world)?;
            // The agent's own moves are the same in every world; keep their order.
            lists[me] = moves.to_vec();
            let (values, exact) = search.root(&world, &lists)?;
            exact_worlds += usize::from(exact);
            for (t, v) in totals.iter_mut().zip(values) {
                *t += v;
            }
            worlds += 1;
        }
        let best = (0..moves.len())
            .max_by(|&a, &b| totals[a].total_cmp(&totals[b]).then(b.cmp(&a)))
            .expect("moves are not empty");
        let mut note = format!(
            "return {:.2} on average over {worlds} worlds ({exact_worlds} searched to the end)",
            totals[best] / worlds as f64
        );
        if self.config.prior_greedy > 0.0 {
            let others: Vec<String> = (0..game.num_players())
                .filter(|&p| p != me)
                .map(|p| format!("{} {:.0}%", game.player_name(p), 100.0 * q[p]))
                .collect();
            note.push_str(&format!("; greedy: {}", others.join(", ")));
        }
        Ok(Choice {
            mv: moves[best].clone(),
            note: Some(note),
        })
    }
}

/// One decision's search: the game, the model, and the work done.
struct Search<'a, G: Game> {
    game: &'a G,
    me: Player,
    /// Per player, the probability that they play greedily.
    q: &'a [f64],
    config: &'a DsearchConfig,
    rng: &'a mut StdRng,
    /// Moves applied so far.
    work: u64,
}

impl<G: Game> Search<'_, G> {
    /// Every player's legal moves at a simultaneous node.
    fn lists(&self, s: &G::State) -> Result<Vec<Vec<G::Move>>, GameError> {
        (0..self.game.num_players())
            .map(|p| {
                let mut out = Vec::new();
                self.game.legal_moves_of(s, p, &mut out)?;
                if out.is_empty() {
                    return Err(GameError::new(
                        RuntimeKind::NoMoves,
                        format!("{} has no move at a simultaneous node", self.game.player_name(p)),
                    ));
                }
                Ok(out)
            })
            .collect()
    }

    fn joint(&mut self, s: &G::State, lists: &[Vec<G::Move>], idx: &[usize]) -> Result<G::State, GameError> {
        let joint: Vec<G::Move> = lists.iter().zip(idx).map(|(l, &i)| l[i].clone()).collect();
        let mut next = s.clone();
        self.game.apply_joint(&mut next, &joint)?;
        self.work += 1;
        Ok(next)
    }

    /// The agent's utility at the end: in games of points its own points
    /// (negated when fewer win) against `others_weight` times the others'
    /// average (at 1, the game's returns), plus the bonus for a win.
    fn utility(&self, s: &G::State) -> Result<f64, GameError> {
        let beta = self.config.others_weight;
        let mut u = if beta != 1.0
            && let Some(sc) = self.game.scores(s)?
        {
            let n = sc.len() as f64;
            let others = (sc.iter().sum::<f64>() - sc[self.me]) / (n - 1.0).max(1.0);
            let sign = if self.game.lowest_score_wins() { -1.0 } else { 1.0 };
            sign * (sc[self.me] - beta * others)
        } else {
            self.game.returns(s, self.me)?
        };
        if self.config.win_bonus != 0.0
            && let Some(scores) = self.game.scores(s)?
        {
            let mine = scores[self.me];
            let beats = |x: f64| {
                if self.game.lowest_score_wins() {
                    mine < x
                } else {
                    mine > x
                }
            };
            let others = scores.iter().enumerate().filter(|&(p, _)| p != self.me);
            if others.clone().all(|(_, &x)| beats(x)) {
                u += self.config.win_bonus;
            } else if others.clone().all(|(_, &x)| beats(x) || x == mine) {
                u += self.config.win_bonus / 2.0;
            }
        }
        Ok(u)
    }

    /// Player `p`'s greedy move (an index into `lists[p]`): the lowest
    /// expected increase of their own score over one round, the others'
    /// moves drawn at random (the same draws for each of `p`'s moves).
    fn greedy_choice(&mut self, s: &G::State, lists: &[Vec<G::Move>], p: Player) -> Result<usize, GameError> {
        let Some(before) = self.game.running_scores(s)? else {
            return Ok(self.rng.random_range(0..lists[p].len()));
        };
        let sign = if self.game.lowest_score_wins() { 1.0 } else { -1.0 };
        let mut penalty = vec![0.0f64; lists[p].len()];
        for _ in 0..self.config.greedy_samples.max(1) {
            // What p sees: the cards hidden from p dealt again, as greedy
            // does (the others' hands in `s` are not what p expects).
            let view = self.game.sample_hidden(s, p, self.rng)?;
            let view_lists = self.lists(&view)?;
            if view_lists[p] != lists[p] {
                return Err(GameError::new(
                    RuntimeKind::Internal,
                    "a player's moves changed when what they cannot see was drawn again (a bug in gdl)",
                ));
            }
            let mut idx: Vec<usize> = view_lists.iter().map(|l| self.rng.random_range(0..l.len())).collect();
            for (c, pen) in penalty.iter_mut().enumerate() {
                idx[p] = c;
                let next = self.joint(&view, &view_lists, &idx)?;
                let after = self.game.running_scores(&next)?.unwrap_or_else(|| before.clone());
                *pen += sign * (after[p] - before[p]);
            }
        }
        Ok((0..penalty.len())
            .min_by(|&a, &b| penalty[a].total_cmp(&penalty[b]).then(a.cmp(&b)))
            .expect("moves are not empty"))
    }

    /// The model's probabilities of each other player's moves at the
    /// decision's own round (the agent's own entry is unused). Later rounds
    /// take the others' moves as equally likely: estimating greedy's choice
    /// costs `greedy_samples` moves applied per card, which deeper in the
    /// tree would leave too few worlds.
    fn model(&mut self, s: &G::State, lists: &[Vec<G::Move>]) -> Result<Vec<Vec<f64>>, GameError> {
        let n = lists.len();
        let mut out = Vec::with_capacity(n);
        for p in 0..n {
            let len = lists[p].len();
            let mut dist = vec![1.0 / len as f64; len];
            let q = if p == self.me { 0.0 } else { self.q[p] };
            if q > 0.01 && len > 1 {
                let g = self.greedy_choice(s, lists, p)?;
                for (i, d) in dist.iter_mut().enumerate() {
                    *d = (1.0 - q) / len as f64 + if i == g { q } else { 0.0 };
                }
            }
            out.push(dist);
        }
        Ok(out)
    }

    /// The values of the agent's moves in a drawn world, and whether they were
    /// searched to the end.
    fn root(&mut self, s: &G::State, lists: &[Vec<G::Move>]) -> Result<(Vec<f64>, bool), GameError> {
        let dists = self.model(s, lists)?;
        if exact_cost(lists) <= self.config.exact_root {
            let allowance = self.work + 4 * self.config.exact_root + 64;
            match self.values(s, lists, &dists, allowance) {
                Ok(v) => return Ok((v, true)),
                Err(Stop::Game(e)) => return Err(e),
                Err(Stop::Budget) => {}
            }
        }
        // One draw of the others' moves, the same for every candidate.
        let mut idx: Vec<usize> = dists.iter().map(|d| draw(d, self.rng)).collect();
        let mut values = Vec::with_capacity(lists[self.me].len());
        for a in 0..lists[self.me].len() {
            idx[self.me] = a;
            let next = self.joint(s, lists, &idx)?;
            values.push(self.playout(next)?);
        }
        Ok((values, false))
    }

    /// Exact values of the agent's moves at a simultaneous node.
    fn values(
        &mut self,
        s: &G::State,
        lists: &[Vec<G::Move>],
        dists: &[Vec<f64>],
        allowance: u64,
    ) -> Result<Vec<f64>, Stop> {
        let me = self.me;
        let mut values = vec![0.0; lists[me].len()];
        for (a, value) in values.iter_mut().enumerate() {
            let mut idx = vec![0usize; lists.len()];
            idx[me] = a;
            loop {
                let prob: f64 = (0..lists.len())
                    .filter(|&p| p != me)
                    .map(|p| dists[p][idx[p]])
                    .product();
                if prob > 0.0 {
                    let next = self.joint(s, lists, &idx)?;
                    *value += prob * self.exact(&next, allowance)?;
                }
                if !next_index(&mut idx, lists, me) {
                    break;
                }
            }
        }
        Ok(values)
    }

    /// The value of a position searched to the end: the agent's best move at
    /// each of its choices, the others' by the model, chance by its odds.
    fn exact(&mut self, s: &G::State, allowance: u64) -> Result<f64, Stop> {
        if self.work > allowance {
            return Err(Stop::Budget);
        }
        match self.game.turn(s)? {
            Turn::Terminal => Ok(self.utility(s)?),
            Turn::Chance => {
                let mut outcomes = Vec::new();
                self.game.chance_outcomes(s, &mut outcomes)?;
                let mut v = 0.0;
                for (m, p) in outcomes {
                    let mut next = s.clone();
                    self.game.apply(&mut next, &m)?;
                    self.work += 1;
                    v += p * self.exact(&next, allowance)?;
                }
                Ok(v)
            }
            Turn::Player(p) => {
                let mut moves = Vec::new();
                self.game.legal_moves(s, &mut moves)?;
                let mut best = f64::NEG_INFINITY;
                let mut sum = 0.0;
                for m in &moves {
                    let mut next = s.clone();
                    self.game.apply(&mut next, m)?;
                    self.work += 1;
                    let v = self.exact(&next, allowance)?;
                    best = best.max(v);
                    sum += v;
                }
                Ok(if p == self.me { best } else { sum / moves.len() as f64 })
            }
            Turn::Simultaneous => {
                let lists = self.lists(s)?;
                let dists = uniform(&lists);
                let values = self.values(s, &lists, &dists, allowance)?;
                Ok(values.into_iter().fold(f64::NEG_INFINITY, f64::max))
            }
        }
    }

    /// Plays on from `s`: the others by the model, the agent the move with
    /// the lowest immediate penalty against what they play; exactly once
    /// the rest is small.
    fn playout(&mut self, mut s: G::State) -> Result<f64, GameError> {
        let mut scratch = Scratch::default();
        for _ in 0..super::simulate::MAX_PLAYOUT_PLIES {
            match self.game.turn(&s)? {
                Turn::Terminal => return self.utility(&s),
                Turn::Chance => {
                    let m = sample_chance(self.game, &s, self.rng, &mut scratch)?;
                    self.game.apply(&mut s, &m)?;
                    self.work += 1;
                }
                Turn::Player(_) => {
                    self.game.legal_moves(&s, &mut scratch.moves)?;
                    let m = scratch.moves[self.rng.random_range(0..scratch.moves.len())].clone();
                    self.game.apply(&mut s, &m)?;
                    self.work += 1;
                }
                Turn::Simultaneous => {
                    let lists = self.lists(&s)?;
                    if exact_cost(&lists) <= self.config.exact_leaf {
                        let allowance = self.work + 4 * self.config.exact_leaf + 64;
                        match self.exact(&s, allowance) {
                            Ok(v) => return Ok(v),
                            Err(Stop::Game(e)) => return Err(e),
                            Err(Stop::Budget) => {}
                        }
                    }
                    let mut idx: Vec<usize> = lists.iter().map(|l| self.rng.random_range(0..l.len())).collect();
                    s = self.best_reply(&s, &lists, &mut idx)?;
                }
            }
        }
        Err(GameError::new(
            RuntimeKind::Endless,
            format!("a game ran {} moves without ending", super::simulate::MAX_PLAYOUT_PLIES),
        ))
    }

    /// The position after the agent's move with the lowest immediate penalty
    /// against the others' moves in `idx` (a random one without scores).
    fn best_reply(&mut self, s: &G::State, lists: &[Vec<G::Move>], idx: &mut [usize]) -> Result<G::State, GameError> {
        let me = self.me;
        let Some(before) = self.game.running_scores(s)? else {
            idx[me] = self.rng.random_range(0..lists[me].len());
            return self.joint(s, lists, idx);
        };
        let sign = if self.game.lowest_score_wins() { 1.0 } else { -1.0 };
        let mut best: Option<(f64, G::State)> = None;
        for a in 0..lists[me].len() {
            idx[me] = a;
            let next = self.joint(s, lists, idx)?;
            let after = self.game.running_scores(&next)?.unwrap_or_else(|| before.clone());
            let pen = sign * (after[me] - before[me]);
            if best.as_ref().is_none_or(|(b, _)| pen < *b) {
                best = Some((pen, next));
            }
        }
        Ok(best.expect("moves are not empty").1)
    }
}

/// Every player's moves equally likely.
fn uniform<M>(lists: &[Vec<M>]) -> Vec<Vec<f64>> {
    lists.iter().map(|l| vec![1.0 / l.len() as f64; l.len()]).collect()
}

/// Draws an index by the probabilities `dist`.
fn draw(dist: &[f64], rng: &mut StdRng) -> usize {
    let x: f64 = rng.random();
    pick(dist, x)
}

/// The index of `dist` that the number `x` in [0, 1) falls in.
fn pick(dist: &[f64], mut x: f64) -> usize {
    for (i, p) in dist.iter().enumerate() {
        if x < *p {
            return i;
        }
        x -= p;
    }
    dist.len() - 1
}

/// How many joint moves the players other than `me` have.
fn joint_count<M>(lists: &[Vec<M>], me: Player) -> usize {
    lists
        .iter()
        .enumerate()
        .filter(|&(p, _)| p != me)
        .fold(1usize, |acc, (_, l)| acc.saturating_mul(l.len()))
}

/// Steps the others' indices to their next joint move; false after the last.
fn next_index<M>(idx: &mut [usize], lists: &[Vec<M>], me: Player) -> bool {
    for p in (0..lists.len()).rev() {
        if p == me {
            continue;
        }
        idx[p] += 1;
        if idx[p] < lists[p].len() {
            return true;
        }
        idx[p] = 0;
    }
    false
}

/// Moves applied by an exact search from a node where the players have
/// these moves, if each round takes one move from every player (as a hand
/// of cards does); an estimate elsewhere, which the search's allowance guards.
fn exact_cost<M>(lists: &[Vec<M>]) -> u64 {
    let rounds = lists.iter().map(Vec::len).min().unwrap_or(0);
    let mut total: u64 = 0;
    let mut layer: u64 = 1;
    for k in 0..rounds {
        for l in lists {
            layer = layer.saturating_mul((l.len() - k) as u64);
        }
        total = total.saturating_add(layer);
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cost_of_an_exact_search_counts_every_joint_move_of_every_round() {
        let hands = |n: usize| vec![vec![(); n], vec![(); n]];
        // 3 cards each: 9 joint moves, then 9·4, then 9·4·1.
        assert_eq!(exact_cost(&hands(3)), 9 + 36 + 36);
        assert_eq!(exact_cost(&hands(2)), 4 + 4);
        assert_eq!(exact_cost(&hands(1)), 1);
    }

    #[test]
    fn the_others_indices_step_through_every_joint_move_and_skip_mine() {
        let lists = vec![vec![(); 2], vec![(); 3], vec![(); 2]];
        let mut idx = vec![1, 0, 0];
        let mut seen = 1;
        while next_index(&mut idx, &lists, 0) {
            assert_eq!(idx[0], 1);
            seen += 1;
        }
        assert_eq!(seen, joint_count(&lists, 0));
        assert_eq!(seen, 6);
    }
}
