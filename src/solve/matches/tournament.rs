//! Many games between agents, every agent in every seat in turn: game `g`
//! seats agent `(seat + g) mod n` in seat `seat`, so with two agents they
//! alternate who moves first and each sits first in half the games.
//!
//! Each game is handed to the caller as it is tallied ([`GameRecord`]), so a
//! report can write the games or draw their points without the match keeping
//! them; each agent's time per decision is measured around its `choose` calls
//! that had more than one legal move, or as the agent says (`Agent::timing`:
//! an external program's answer alone, its start-up apart).
//!
//! Every game's agents and chance are seeded from the match's seed and the
//! game's number alone (`Agent::new_game`), so the games can be played on
//! several threads, in any order, and still give the same results; they are
//! tallied in the order of their numbers.

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;

use rand::SeedableRng;
use rand::rngs::StdRng;

use super::episode::play_out;
use super::stats::{DecisionTimes, Measure, Tally};
use crate::game::{Game, all_returns};
use crate::solve::agents::agent::{Agent, AgentError, AgentFailure};

/// One game of a match.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// `seating[seat]`: the agent in each seat.
    pub seating: Vec<usize>,
    /// Every seat's utility (`Game::returns`).
    pub returns: Vec<f64>,
    /// Every seat's final score, for games decided by points (`Game::scores`).
    pub scores: Option<Vec<f64>>,
    /// `failures[seat]`: how the agent in each seat failed, if it did (an
    /// external program); `returns` and `scores` already count a forfeit.
    pub failures: Vec<Option<AgentFailure>>,
}

impl GameRecord {
    /// Every seat's points or utility, as `measure` says.
    pub fn values(&self, measure: Measure) -> &[f64] {
        match (measure, &self.scores) {
            (Measure::Points { .. }, Some(s)) => s,
            _ => &self.returns,
        }
    }

    /// The seat `agent` sat in.
    pub fn seat_of(&self, agent: usize) -> usize {
        self.seating.iter().position(|&a| a == agent).unwrap_or(0)
    }
}

/// Everything a match found.
#[derive(Clone, Debug)]
pub struct MatchResult {
    /// Wins, draws, losses and averages, per agent and per seat.
    pub tally: Tally,
    /// `times[agent]`: how long each agent took per decision.
    pub times: Vec<DecisionTimes>,
    /// Every failure of an agent, in the order of the games.
    pub failures: Vec<FailureRecord>,
}

/// An agent's failure in a game of a match.
#[derive(Clone, Debug, PartialEq)]
pub struct FailureRecord {
    /// The game, numbered from 0.
    pub game: u64,
    pub agent: usize,
    pub seat: usize,
    pub failure: AgentFailure,
}

/// Agent of each seat in game `g` of a match of `n` agents.
pub fn seating(n: usize, g: u64) -> Vec<usize> {
    (0..n).map(|seat| (seat + (g % n as u64) as usize) % n).collect()
}

/// The seed of agent `k` in game `g` of a match seeded `seed`; `k` = the
/// number of agents seeds chance. Splitmix64 over the three, so that
/// neighbouring games and agents draw unrelated numbers.
pub fn game_seed(seed: u64, g: u64, k: u64) -> u64 {
    let mut z = seed ^ g.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ k.wrapping_add(1).wrapping_mul(0xD1B5_4A32_D192_ED03);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Plays game `g` of a match seeded `seed`: seats rotated (`seating`), every
/// agent and chance seeded from `(seed, g)` alone. Adds each agent's decision
/// times to `times[agent]`.
pub fn play_one<G: Game>(
    game: &G,
    agents: &mut [&mut (dyn Agent<G> + '_)],
    seed: u64,
    g: u64,
    times: &mut [DecisionTimes],
) -> Result<GameRecord, AgentError> {
    let n = game.num_players();
    if agents.len() != n {
        return Err(AgentError::Failed(format!(
            "{} has {n} players, but {} agents were given",
            game.name(),
            agents.len()
        )));
    }
    for (k, agent) in agents.iter_mut().enumerate() {
        agent.game_number(g + 1);
        agent.new_game(game, game_seed(seed, g, k as u64))?;
    }
    let mut rng = StdRng::seed_from_u64(game_seed(seed, g, n as u64));
    let seats = seating(n, g);
    let mut slots: Vec<Option<&mut (dyn Agent<G> + '_)>> = agents.iter_mut().map(|a| Some(&mut **a)).collect();
    let mut seated: Vec<&mut (dyn Agent<G> + '_)> = seats
        .iter()
        .map(|&k| slots[k].take().expect("each agent sits once"))
        .collect();
    let mut by_seat = vec![DecisionTimes::default(); n];
    let end = play_out(
        game,
        game.initial_state()?,
        &mut seated,
        &mut rng,
        &mut by_seat,
        &mut |_, _| Ok(()),
    )?;
    for (p, took) in by_seat.iter().enumerate() {
        times[seats[p]].merge(took);
    }
    let mut failures = Vec::with_capacity(n);
    for (p, agent) in seated.iter_mut().enumerate() {
        failures.push(agent.end_game(game, &end, p)?);
    }
    let mut returns = all_returns(game, &end)?;
    let mut scores = game.scores(&end)?;
    for (p, failure) in failures.iter().enumerate() {
        if failure.as_ref().is_some_and(|f| f.forfeit) {
            forfeit(game, p, &mut returns, scores.as_deref_mut());
        }
    }
    Ok(GameRecord {
        returns,
        scores,
        seating: seats,
        failures,
    })
}

/// Scores a forfeit of seat `p`: it comes last. Its utility becomes the
/// game's lowest (`Game::utility_range`, else the lowest of -1 and the game's
/// returns), and a seat that would not be above it gets the highest; with
/// points, it gets one point worse than the worst other seat, unless its own
/// points are worse already. The other seats keep what they played for.
pub fn forfeit<G: Game>(game: &G, p: usize, returns: &mut [f64], scores: Option<&mut [f64]>) {
    let (lowest, highest) = game.utility_range().unwrap_or_else(|| {
        (
            returns.iter().copied().fold(-1.0, f64::min),
            returns.iter().copied().fold(1.0, f64::max),
        )
    });
    returns[p] = lowest;
    for q in (0..returns.len()).filter(|&q| q != p) {
        if returns[q] <= lowest {
            returns[q] = highest;
        }
    }
    if let Some(scores) = scores {
        let others: Vec<f64> = (0..scores.len()).filter(|&q| q != p).map(|q| scores[q]).collect();
        if game.lowest_score_wins() {
            let worst = others.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            scores[p] = scores[p].max(worst + 1.0);
        } else {
            let worst = others.iter().copied().fold(f64::INFINITY, f64::min);
            scores[p] = scores[p].min(worst - 1.0);
        }
    }
}

/// Tallies the games of a match in the order they were played (also the
/// games of the parts of a match, merged: `gdl merge`).
pub struct Tallies {
    utility: Tally,
    points: Tally,
    all_scored: bool,
    failures: Vec<FailureRecord>,
    /// The number of the first game tallied.
    first: u64,
}

impl Tallies {
    /// Tallies for `names` (one agent per seat), from game number `first`.
    pub fn new<G: Game>(game: &G, names: Vec<String>, first: u64) -> Self {
        let seats: Vec<String> = (0..game.num_players())
            .map(|p| game.player_name(p).to_string())
            .collect();
        let lowest_wins = game.lowest_score_wins();
        // Both are kept until the end shows whether every game had scores.
        Tallies {
            utility: Tally::new(names.clone(), seats.clone(), Measure::Utility),
            points: Tally::new(names, seats, Measure::Points { lowest_wins }),
            all_scored: true,
            failures: Vec::new(),
            first,
        }
    }

    /// Adds the next game.
    pub fn record(&mut self, record: &GameRecord) {
        let g = self.first + self.utility.games();
        for (seat, failure) in record.failures.iter().enumerate() {
            if let Some(f) = failure {
                self.failures.push(FailureRecord {
                    game: g,
                    agent: record.seating[seat],
                    seat,
                    failure: f.clone(),
                });
            }
        }
        self.utility.record(&record.seating, &record.returns);
        match &record.scores {
            Some(scores) => self.points.record(&record.seating, scores),
            None => self.all_scored = false,
        }
    }

    /// The result of the `played` games tallied, with the agents' times.
    pub fn finish(self, played: u64, times: Vec<DecisionTimes>) -> MatchResult {
        MatchResult {
            tally: if self.all_scored && played > 0 {
                self.points
            } else {
                self.utility
            },
            times,
            failures: self.failures,
        }
    }
}

/// Plays `games` games between `agents` (one per player, rotating seats) on
/// this thread and tallies them; `after_game` is called with the number
/// played so far.
pub fn play_match<G: Game>(
    game: &G,
    agents: &mut [Box<dyn Agent<G> + '_>],
    games: u64,
    seed: u64,
    after_game: &mut dyn FnMut(u64),
) -> Result<Tally, AgentError> {
    let names = agents.iter().map(|a| a.name()).collect();
    let mut tallies = Tallies::new(game, names, 0);
    let mut times = vec![DecisionTimes::default(); agents.len()];
    let mut refs: Vec<&mut (dyn Agent<G> + '_)> = agents.iter_mut().map(|a| &mut **a).collect();
    for g in 0..games {
        tallies.record(&play_one(game, &mut refs, seed, g, &mut times)?);
        after_game(g + 1);
    }
    Ok(tallies.finish(games, times).tally)
}

/// Sets its flag when dropped by a panic.
struct StopOnPanic<'a>(&'a AtomicBool);

impl Drop for StopOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.store(true, Ordering::Relaxed);
        }
    }
}

/// How many games past the last one tallied a worker may start.
const AHEAD: u64 = 4096;

/// Plays the games numbered `range` (from 0) of a match, one set of agents
/// per thread (each
/// set one agent per player; seats rotate), and tallies them in the order
/// of the games: the results are the same for any number of threads. The
/// tally counts points when every game ended with scores (`Game::scores`),
/// else utility; no game is kept. `after_game` is called with each game as
/// it is tallied, and the number tallied so far: what a caller wants of the
/// games (a CSV, a histogram) it takes there.
/// `interrupt`, set from outside (Ctrl-C), stops the match between games:
/// the games tallied so far are the result (a game an agent failed once it
/// was set counts as not played: its search was stopped by it). On a failure, the failure of
/// the earliest game is returned. A part of a match (`gdl match --shard`)
/// plays its games exactly as the whole match plays them: each game's
/// seats and seeds follow from its number alone.
pub fn run_match<'a, G: Game + Sync>(
    game: &G,
    sets: Vec<Vec<Box<dyn Agent<G> + Send + 'a>>>,
    range: Range<u64>,
    seed: u64,
    interrupt: &AtomicBool,
    after_game: &mut dyn FnMut(u64, &GameRecord),
) -> Result<MatchResult, AgentError> {
    let Some(first) = sets.first() else {
        return Err(AgentError::Failed("a match needs at least one set of agents".into()));
    };
    let n = first.len();
    let names = first.iter().map(|a| a.name()).collect();
    let mut tallies = Tallies::new(game, names, range.start);
    let (start, games) = (range.start, range.end.saturating_sub(range.start));
    let next = AtomicU64::new(start);
    // The games tallied, for the workers: none starts a game more than
    // `AHEAD` past it, so the games waiting to be tallied in order (behind
    // one slow game) stay a bounded few.
    let tallied_shared = AtomicU64::new(start);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(u64, Result<GameRecord, AgentError>)>();
    let mut failure: Option<(u64, AgentError)> = None;
    // The next game to tally, by its number.
    let mut tallied = start;
    let times = std::thread::scope(|scope| {
        let workers: Vec<_> = sets
            .into_iter()
            .map(|mut set| {
                let tx = tx.clone();
                let (next, stop, tallied_shared) = (&next, &stop, &tallied_shared);
                let stopped = move || stop.load(Ordering::Relaxed) || interrupt.load(Ordering::Relaxed);
                let worker = std::thread::Builder::new().stack_size(crate::solve::SEARCH_STACK);
                // As `scope.spawn`, which also panics when the system has no thread to give.
                let spawned = worker.spawn_scoped(scope, move || {
                    // A worker that panics (a bug) stops the others, which
                    // could otherwise wait for its game forever.
                    let _stops = StopOnPanic(stop);
                    let mut times = vec![DecisionTimes::default(); n];
                    let mut refs: Vec<&mut (dyn Agent<G> + '_)> =
                        set.iter_mut().map(|a| &mut **a as &mut (dyn Agent<G> + '_)).collect();
                    while !stopped() {
                        let g = next.fetch_add(1, Ordering::Relaxed);
                        if g >= range.end {
                            break;
                        }
                        while g >= tallied_shared.load(Ordering::Relaxed) + AHEAD && !stopped() {
                            std::thread::sleep(std::time::Duration::from_millis(1));
                        }
                        let record = play_one(game, &mut refs, seed, g, &mut times);
                        if tx.send((g, record)).is_err() {
                            break;
                        }
                    }
                    times
                });
                spawned.map_err(|e| e.to_string())
            })
            .collect();
        drop(tx);
        // A thread the system cannot give (a limit on processes or on the
        // address space) is one fewer to play on; none at all is an error.
        let (workers, unstarted): (Vec<_>, Vec<_>) = workers.into_iter().partition(Result::is_ok);
        if workers.is_empty()
            && let Some(Err(why)) = unstarted.into_iter().next()
        {
            failure = Some((
                0,
                AgentError::Failed(format!("cannot start a thread to play on: {why}")),
            ));
        }
        // Games finish out of order; they are tallied in order.
        let mut done: BTreeMap<u64, GameRecord> = BTreeMap::new();
        for (g, record) in rx {
            match record {
                Ok(r) => {
                    done.insert(g, r);
                }
                // A game that an interruption cut short (an agent's search
                // or wait stopped by it) is not played, and not a failure.
                Err(_) if interrupt.load(Ordering::Relaxed) => stop.store(true, Ordering::Relaxed),
                Err(e) => {
                    stop.store(true, Ordering::Relaxed);
                    if failure.as_ref().is_none_or(|(h, _)| g < *h) {
                        failure = Some((g, e));
                    }
                }
            }
            while let Some(r) = done.remove(&tallied) {
                tallied += 1;
                after_game(tallied - start, &r);
                tallies.record(&r);
            }
            tallied_shared.store(tallied, Ordering::Relaxed);
        }
        let mut times = vec![DecisionTimes::default(); n];
        for w in workers.into_iter().flatten() {
            // A worker that panicked is a bug; its games are simply missing.
            if let Ok(t) = w.join() {
                for (all, mine) in times.iter_mut().zip(&t) {
                    all.merge(mine);
                }
            }
        }
        times
    });
    if let Some((_, e)) = failure {
        return Err(e);
    }
    let tallied = tallied - start;
    if tallied < games && interrupt.load(Ordering::Relaxed) {
        // Stopped from outside: the games played so far, in order.
        return Ok(tallies.finish(tallied, times));
    }
    if tallied < games {
        return Err(AgentError::Failed(format!(
            "only {tallied} of {games} games were played (a bug in gdl)"
        )));
    }
    Ok(tallies.finish(games, times))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_rotate() {
        assert_eq!(seating(2, 0), vec![0, 1]);
        assert_eq!(seating(2, 1), vec![1, 0]);
        assert_eq!(seating(3, 1), vec![1, 2, 0]);
        assert_eq!(seating(3, 5), vec![2, 0, 1]);
    }
}
