//! The repetition rule (`end when repeated N`): the exact solvers' values on
//! games with cycles against a brute force over full histories written here
//! (every line of play, each ending at a natural end or at the Nth
//! occurrence of a position), for N = 2 and 3; the memo table kept across
//! roots and histories; the play loops ending games by the rule.

use crate::common;

use gdl::game::{Game, GameError, Player, Turn};
use gdl::solve::{Algorithm, SolveOptions, Solver};

/// A token on a small directed graph; the players move it in turn. Some
/// nodes end the game with a value for player 0; a position that comes
/// back the Nth time ends it with the value of its node in `rep`.
struct Graph {
    next: Vec<Vec<u8>>,
    leaf: Vec<Option<i8>>,
    rep: Vec<i8>,
    times: u32,
}

/// (node, player to move).
type Pos = (u8, u8);

impl Game for Graph {
    type State = Pos;
    type Move = u8;
    fn name(&self) -> &str {
        "graph"
    }
    fn num_players(&self) -> usize {
        2
    }
    fn player_name(&self, p: Player) -> &str {
        ["A", "B"][p]
    }
    fn initial_state(&self) -> Result<Pos, GameError> {
        Ok((0, 0))
    }
    fn turn(&self, s: &Pos) -> Result<Turn, GameError> {
        Ok(match self.leaf[s.0 as usize] {
            Some(_) => Turn::Terminal,
            None => Turn::Player(s.1 as usize),
        })
    }
    fn legal_moves(&self, s: &Pos, out: &mut Vec<u8>) -> Result<(), GameError> {
        out.clear();
        out.extend(&self.next[s.0 as usize]);
        Ok(())
    }
    fn apply(&self, s: &mut Pos, mv: &u8) -> Result<(), GameError> {
        *s = (*mv, 1 - s.1);
        Ok(())
    }
    fn returns(&self, s: &Pos, p: Player) -> Result<f64, GameError> {
        let v = f64::from(self.leaf[s.0 as usize].expect("a leaf"));
        Ok(if p == 0 { v } else { -v })
    }
    fn repetition(&self) -> Option<u32> {
        Some(self.times)
    }
    fn repetition_returns(&self, s: &Pos, p: Player) -> Result<f64, GameError> {
        let v = f64::from(self.rep[s.0 as usize]);
        Ok(if p == 0 { v } else { -v })
    }
    fn move_text(&self, mv: &u8) -> String {
        mv.to_string()
    }
    fn state_text(&self, s: &Pos) -> String {
        format!("node {} ({} to move)", s.0, s.1)
    }
    fn utility_range(&self) -> Option<(f64, f64)> {
        Some((-1.0, 1.0))
    }
}

/// xorshift64*: the tests' graphs, the same on every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) % n
    }
}

/// A random graph of 3 to 7 nodes, with cycles more often than not. With
/// `same_rule` a repetition is worth the same wherever it happens (a draw,
/// or a win for one player): the solvers value the position graph
/// (retrograde analysis) instead of searching lines.
fn graph(rng: &mut Rng, times: u32, same_rule: bool) -> Graph {
    let n = 3 + rng.below(5) as usize;
    let rule = if same_rule { rng.below(3) as i8 - 1 } else { 0 };
    let mut next = Vec::new();
    let mut leaf = Vec::new();
    let mut rep = Vec::new();
    for i in 0..n {
        let value = rng.below(3) as i8 - 1;
        // Node 0 has moves; about one node in four ends the game.
        leaf.push((i > 0 && rng.below(4) == 0).then_some(value));
        let mut to: Vec<u8> = (0..1 + rng.below(3)).map(|_| rng.below(n as u64) as u8).collect();
        to.sort();
        to.dedup();
        next.push(to);
        let own = rng.below(3) as i8 - 1;
        rep.push(if same_rule { rule } else { own });
    }
    Graph { next, leaf, rep, times }
}

/// Player 0's value of the game whose positions so far are `line` (the
/// last one the current position), by trying every line to its end.
fn brute<G: Game>(game: &G, line: &mut Vec<G::State>) -> f64 {
    let state = line.last().expect("a position").clone();
    let p = match game.turn(&state).unwrap() {
        Turn::Terminal => return game.returns(&state, 0).unwrap(),
        Turn::Player(p) => p,
        t => panic!("{t:?}"),
    };
    let times = game.repetition().expect("a repetition rule") as usize;
    let mut moves = Vec::new();
    game.legal_moves(&state, &mut moves).unwrap();
    let values = moves.iter().map(|m| {
        let mut child = state.clone();
        game.apply(&mut child, m).unwrap();
        if line.iter().filter(|s| **s == child).count() + 1 >= times {
            game.repetition_returns(&child, 0).unwrap()
        } else {
            line.push(child);
            let v = brute(game, line);
            line.pop();
            v
        }
    });
    if p == 0 {
        values.fold(f64::NEG_INFINITY, f64::max)
    } else {
        values.fold(f64::INFINITY, f64::min)
    }
}

fn options() -> Vec<SolveOptions> {
    let mut all = Vec::new();
    for algorithm in [Algorithm::AlphaBeta, Algorithm::Minimax] {
        for memo in [true, false] {
            for prefer_short in [false, true] {
                all.push(SolveOptions {
                    algorithm,
                    memo,
                    prefer_short,
                    ..SolveOptions::default()
                });
            }
        }
    }
    all
}

#[test]
fn values_on_graphs_with_cycles_match_every_line_played_out() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut cyclic = 0;
    let mut by_graph = 0;
    for same_rule in [false, true] {
        for times in [2, 3] {
            for g in 0..60 {
                let game = graph(&mut rng, times, same_rule);
                let roots: Vec<Pos> = (0..game.next.len() as u8)
                    .filter(|&n| game.leaf[n as usize].is_none())
                    .flat_map(|n| [(n, 0), (n, 1)])
                    .collect();
                for opts in options() {
                    // One solver for every root: what its table keeps must hold
                    // whatever line led to a position.
                    let mut kept = Solver::new(&game, opts.clone()).unwrap();
                    for root in &roots {
                        let want = brute(&game, &mut vec![*root]);
                        let fresh = gdl::solve::solve(&game, root, &opts).unwrap();
                        let again = kept.solve(root).unwrap();
                        let at = format!("graph {g}, same rule {same_rule}, N = {times}, root {root:?}, {opts:?}");
                        assert_eq!(fresh.value, want, "{at}");
                        assert_eq!(again.value, want, "{at}, kept");
                        // The graph is valued where a repetition is worth the same everywhere
                        // (with a preference for short wins, only where it is a draw).
                        if same_rule {
                            assert_eq!(fresh.by_graph, !opts.prefer_short || game.rep[0] == 0, "{at}");
                        }
                        by_graph += usize::from(fresh.by_graph);
                        // Every move's value, as `--explain` gives it.
                        let explained = gdl::solve::explain(&game, root, &opts).unwrap();
                        for mv in &explained {
                            let mut child = *root;
                            game.apply(&mut child, &mv.mv).unwrap();
                            let want = if child == *root && times == 2 {
                                game.repetition_returns(&child, 0).unwrap()
                            } else {
                                brute(&game, &mut vec![*root, child])
                            };
                            assert_eq!(mv.value, want, "{at}, move {}", mv.mv);
                        }
                        // The best moves are those of the best value; with a
                        // preference for short wins, the lines that prove them agree.
                        let best: Vec<u8> = explained.iter().filter(|m| m.value == want).map(|m| m.mv).collect();
                        if !opts.prefer_short {
                            assert_eq!(fresh.best_moves, best, "{at}");
                        }
                        assert!(fresh.best_moves.iter().all(|m| best.contains(m)), "{at}");
                    }
                }
                // The rule decides only where a position can come back.
                cyclic += usize::from(reaches_itself(&game));
            }
        }
    }
    assert!(cyclic > 80, "only {cyclic} graphs with a cycle through the start");
    assert!(by_graph > 1000, "only {by_graph} solves valued the position graph");
}

/// A random line from the start, of fewer than `most` moves drawn, stopped
/// before the game would end (at a leaf, or by the rule).
fn random_line(game: &Graph, rng: &mut Rng, most: u64) -> Vec<Pos> {
    let mut line = vec![(0u8, 0u8)];
    for _ in 0..rng.below(most) {
        let s = *line.last().unwrap();
        let next = &game.next[s.0 as usize];
        let c = (next[rng.below(next.len() as u64) as usize], 1 - s.1);
        let seen = line.iter().filter(|x| **x == c).count() as u32;
        if game.leaf[c.0 as usize].is_some() || seen + 1 >= game.times {
            break;
        }
        line.push(c);
    }
    line
}

/// Whether the start position can come back.
fn reaches_itself(game: &Graph) -> bool {
    let mut stack = vec![(0u8, 0u8)];
    let mut seen = std::collections::HashSet::new();
    while let Some(s) = stack.pop() {
        if game.leaf[s.0 as usize].is_some() || !seen.insert(s) {
            continue;
        }
        for &to in &game.next[s.0 as usize] {
            let c = (to, 1 - s.1);
            if c == (0, 0) {
                return true;
            }
            stack.push(c);
        }
    }
    false
}

#[test]
fn a_game_in_progress_is_solved_with_the_positions_before_it() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for same_rule in [false, true] {
        for times in [2, 3] {
            for g in 0..100 {
                let game = graph(&mut rng, times, same_rule);
                for opts in options() {
                    let mut solver = Solver::new(&game, opts.clone()).unwrap();
                    for _ in 0..8 {
                        let mut line = random_line(&game, &mut rng, 6);
                        let root = *line.last().unwrap();
                        solver.set_history(&line[..line.len() - 1]);
                        let got = solver.solve(&root).unwrap().value;
                        assert_eq!(
                            got,
                            brute(&game, &mut line),
                            "graph {g}, same rule {same_rule}, N = {times}, line {line:?}, {opts:?}"
                        );
                    }
                }
            }
        }
    }
}

/// games/oware.game with `end when repeated N` (the file says 2).
fn oware(pits: &str, seeds: &str, times: u32) -> gdl::runtime::Interpreted {
    let path = "games/oware.game";
    let text = std::fs::read_to_string(common::crate_dir().join(path)).unwrap();
    let text = text.replace("end when repeated 2", &format!("end when repeated {times}"));
    let bindings = [
        ("pits".to_string(), pits.to_string()),
        ("seeds".to_string(), seeds.to_string()),
    ];
    gdl::runtime::Interpreted::new(gdl::compile::load(path, &text, &bindings).expect("compiles"))
}

#[test]
fn small_oware_is_solved_exactly_without_a_move_limit() {
    let mut decided_by_the_rule = 0;
    for times in [2, 3] {
        for (pits, seeds) in [("2", "1"), ("1", "2"), ("1", "3")] {
            let game = oware(pits, seeds, times);
            assert_eq!(game.repetition(), Some(times));
            let root = game.initial_state().unwrap();
            let want = brute(&game, &mut vec![root.clone()]);
            for opts in options() {
                let got = gdl::solve::solve(&game, &root, &opts).unwrap();
                assert_eq!(got.value, want, "{pits} pits, {seeds} seeds, N = {times}, {opts:?}");
                for mv in gdl::solve::explain(&game, &root, &opts).unwrap() {
                    let mut child = root.clone();
                    game.apply(&mut child, &mv.mv).unwrap();
                    let want = brute(&game, &mut vec![root.clone(), child]);
                    assert_eq!(
                        mv.value,
                        want,
                        "{pits} pits, {seeds} seeds, N = {times}, {}",
                        game.move_text(&mv.mv)
                    );
                }
            }
            // Random games end, by the rule or otherwise, with its outcome.
            decided_by_the_rule += play_randomly(&game, 40);
        }
    }
    assert!(
        decided_by_the_rule > 0,
        "no random game of Oware came back to a position"
    );
}

/// Plays `games` random games of `game` through the play loop of `play`,
/// `trace` and `match`; checks that each ends exactly when the rules say
/// (no end clause holds before, and the last position is a natural end or
/// the Nth occurrence of a position), and returns how many the rule ended.
fn play_randomly(game: &gdl::runtime::Interpreted, games: u64) -> usize {
    use gdl::solve::agents::agent::{Agent, RandomAgent};
    use gdl::solve::matches::episode::play_out;
    use gdl::solve::matches::stats::DecisionTimes;
    use rand::SeedableRng;
    let times = game.repetition().unwrap() as usize;
    let mut by_rule = 0;
    for seed in 0..games {
        let (mut a, mut b) = (RandomAgent::new(seed), RandomAgent::new(seed + 1000));
        let mut seated: Vec<&mut dyn Agent<gdl::runtime::Interpreted>> = vec![&mut a, &mut b];
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut clocks = vec![DecisionTimes::default(); 2];
        let start = game.initial_state().unwrap();
        let mut line = vec![start.clone()];
        let end = play_out(game, start, &mut seated, &mut rng, &mut clocks, &mut |_, s| {
            line.push(s.clone());
            Ok(())
        })
        .unwrap();
        // No position occurred N times before the last one.
        for i in 0..line.len() - 1 {
            let seen = line[..=i].iter().filter(|x| **x == line[i]).count();
            assert!(seen < times, "seed {seed}: the game went on after a repetition");
        }
        assert_eq!(game.turn(&end).unwrap(), Turn::Terminal);
        if line.iter().filter(|x| **x == end).count() == times {
            by_rule += 1;
            for p in 0..2 {
                assert_eq!(
                    game.returns(&end, p).unwrap(),
                    game.repetition_returns(&end, p).unwrap()
                );
            }
        } else {
            // The same cells, without the mark of the rule: an end by the rules.
            let unmarked =
                gdl::game::FileGame::parse_position(game, &gdl::game::FileGame::position(game, &end)).unwrap();
            assert_eq!(game.turn(&unmarked).unwrap(), Turn::Terminal, "seed {seed}");
        }
    }
    by_rule
}

#[test]
fn optimal_against_optimal_plays_the_value_knowing_the_history() {
    use gdl::solve::agent_builder::{AgentOptions, MoveKinds, build_agent};
    use gdl::solve::agents::agent::AgentSpec;
    use gdl::solve::matches::episode::play_out;
    use gdl::solve::matches::stats::DecisionTimes;
    use rand::SeedableRng;
    // Oware's rule gives the win to one side (the lines are searched);
    // three men's morris's is a draw (the position graph is valued).
    let mut games = Vec::new();
    for times in [2, 3] {
        for (pits, seeds) in [("2", "1"), ("2", "2")] {
            games.push((
                format!("{pits} pits, {seeds} seeds, N = {times}"),
                oware(pits, seeds, times),
            ));
        }
    }
    for diagonals in ["true", "false"] {
        let game = common::load_game("games/three-mens-morris.game", &[("diagonals", diagonals)]);
        games.push((format!("three men's morris, diagonals {diagonals}"), game));
    }
    for (name, game) in games {
        let root = game.initial_state().unwrap();
        let value = gdl::solve::solve(&game, &root, &SolveOptions::default()).unwrap().value;
        let spec: AgentSpec = "optimal".parse().unwrap();
        let kinds = MoveKinds::of(game.program());
        let opts = AgentOptions::default();
        let mut a = build_agent(&spec, &game, kinds, 1, &opts).unwrap();
        let mut b = build_agent(&spec, &game, kinds, 2, &opts).unwrap();
        a.new_game(&game, 1).unwrap();
        b.new_game(&game, 2).unwrap();
        let mut seated: Vec<&mut dyn gdl::solve::agents::agent::Agent<gdl::runtime::Interpreted>> =
            vec![&mut *a, &mut *b];
        let mut rng = rand::rngs::StdRng::seed_from_u64(0);
        let mut clocks = vec![DecisionTimes::default(); 2];
        let end = play_out(&game, root, &mut seated, &mut rng, &mut clocks, &mut |_, _| Ok(())).unwrap();
        assert_eq!(game.returns(&end, 0).unwrap(), value, "{name}");
    }
}

#[test]
fn every_agent_that_searches_is_built_for_a_game_with_the_rule() {
    use gdl::solve::agent_builder::{AgentOptions, MoveKinds, build_agent};
    use gdl::solve::agents::agent::AgentSpec;
    let game = oware("2", "2", 2);
    let kinds = MoveKinds::of(game.program());
    for spec in [
        "optimal",
        "random",
        "mcts",
        "mcts:50",
        "search:5",
        "greedy",
        "alphabeta:3",
        "dsearch",
    ] {
        let spec: AgentSpec = spec.parse().unwrap();
        assert!(
            build_agent(&spec, &game, kinds, 1, &AgentOptions::default()).is_ok(),
            "{spec}"
        );
    }
}

/// `alphabeta:D`'s search keeps the line: from lines already played on
/// random graphs with cycles, each value it proves is the value of every
/// line played out (`brute`), with the positions before the root counted.
#[test]
fn the_depth_limited_search_counts_the_positions_before_it() {
    use gdl::solve::agents::depth_limited::{DepthOptions, search_after};
    let mut rng = Rng(0x005e_ed0f_de97);
    let mut proven = 0;
    let mut mattering = 0;
    for times in [2, 3] {
        for same_rule in [false, true] {
            for g in 0..80 {
                let game = graph(&mut rng, times, same_rule);
                let mut line = random_line(&game, &mut rng, 6);
                let root = *line.last().unwrap();
                let opts = DepthOptions {
                    max_depth: Some(14),
                    max_nodes: Some(2_000_000),
                    ..DepthOptions::default()
                };
                let found = search_after(&game, &root, &line[..line.len() - 1], &opts).unwrap();
                if !found.proven {
                    continue;
                }
                proven += 1;
                let want = brute(&game, &mut line);
                assert_eq!(found.value, want, "graph {g}, N = {times}, line {line:?}");
                mattering += usize::from(brute(&game, &mut vec![root]) != want);
            }
        }
    }
    assert!(proven > 200, "only {proven} of 320 searches proved their value");
    assert!(
        mattering > 5,
        "the line before changed the value only {mattering} times"
    );
}

#[test]
fn the_command_line_solves_and_explains_by_the_rule_and_refuses_what_cannot() {
    let game = oware("2", "2", 2);
    let root = game.initial_state().unwrap();
    let want = gdl::solve::solve(&game, &root, &SolveOptions::default()).unwrap().value;
    let run = common::gdl(&["solve", "games/oware.game", "--pits", "2", "--seeds", "2", "--json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(json["value"].as_f64(), Some(want), "{}", run.stdout);
    let run = common::gdl(&[
        "solve",
        "games/oware.game",
        "--pits",
        "2",
        "--seeds",
        "2",
        "--threads",
        "2",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = std::env::temp_dir().join(format!("gdl-repetition-{}.q", std::process::id()));
    let out = out.to_str().unwrap();
    let run = common::gdl(&[
        "train",
        "games/oware.game",
        "--pits",
        "2",
        "--episodes",
        "10",
        "--out",
        out,
    ]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(!std::path::Path::new(out).exists(), "a Q-table was written");
    assert!(run.stderr.contains("end when repeated 2"), "{}", run.stderr);
    let run = common::gdl(&[
        "match",
        "games/oware.game",
        "--pits",
        "2",
        "--players",
        "alphabeta:2,random",
        "--games",
        "4",
    ]);
    // The depth-limited search keeps the line, as `optimal` does.
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("games    4 ("), "{}", run.stdout);
}

/// MCTS counts the positions before its root and along its tree and
/// playouts: on random graphs with cycles, from lines already played, the
/// move it prefers is worth the position's exact value (every line played
/// out, `brute`) in nearly every case; a search that forgot the history
/// would take a repetition for a fresh position. Seeded: the same every run.
#[test]
fn mcts_searches_with_the_positions_before_it() {
    use gdl::solve::agents::mcts::{MctsConfig, Search};
    let mut rng = Rng(0x0dd_ba11_cafe_f00d);
    let (mut searched, mut best) = (0, 0);
    // Positions where the line before changes the value, and how often the
    // move MCTS prefers is worth it there.
    let (mut mattering, mut best_mattering) = (0, 0);
    for times in [2, 3] {
        for _ in 0..120 {
            let game = graph(&mut rng, times, false);
            let line = random_line(&game, &mut rng, 8);
            let root = *line.last().unwrap();
            let mut moves = Vec::new();
            game.legal_moves(&root, &mut moves).unwrap();
            if moves.len() < 2 {
                continue;
            }
            let value = brute(&game, &mut line.clone());
            let cfg = MctsConfig {
                simulations: 3000,
                ..MctsConfig::default()
            };
            let mut search = Search::new(&game, &root, root.1 as usize, cfg, 7).unwrap();
            search.set_history(&line[..line.len() - 1]);
            search.run(&game).unwrap();
            let result = search.result(&game);
            let chosen = result.moves.iter().max_by_key(|m| m.visits).unwrap().mv;
            let mut child = root;
            game.apply(&mut child, &chosen).unwrap();
            let worth = if line.iter().filter(|s| **s == child).count() + 1 >= times as usize {
                game.repetition_returns(&child, 0).unwrap()
            } else {
                let mut after = line.clone();
                after.push(child);
                brute(&game, &mut after)
            };
            searched += 1;
            best += usize::from(worth == value);
            if brute(&game, &mut vec![root]) != value {
                mattering += 1;
                best_mattering += usize::from(worth == value);
            }
        }
    }
    assert!(searched >= 100, "only {searched} positions with a choice");
    assert!(mattering >= 10, "the line mattered in only {mattering} positions");
    assert!(
        best * 100 >= searched * 95,
        "the best move in only {best} of {searched}"
    );
    assert!(
        best_mattering * 100 >= mattering * 95,
        "the best move in only {best_mattering} of the {mattering} positions where the line matters"
    );
}

/// A game whose rule rewards the player who makes the position come back,
/// depending on where: `mcts` and `search` (as `optimal`) escape where,
/// knowing the line, repeating would lose; without the line, repeating
/// looks like a win.
#[test]
fn mcts_and_search_play_a_game_with_a_repetition_rule_knowing_the_line() {
    let dir = common::scratch("repetition", "escape", &[]);
    std::fs::write(
        dir.join("escape.game"),
        "game Escape\nplayers A, B\nstate x: int = 0\nstate done: bool = false\n\
         move flip() { x = 1 - x }\nmove escape() requires current == B { done = true }\n\
         end when done { draw }\nend when repeated 2 { winner (if x == 0 then A else B) }\n",
    )
    .unwrap();
    for b in ["mcts:300", "search:200", "optimal"] {
        let players = format!("random,{b}");
        let r = common::gdl_in(
            &dir,
            &["trace", "escape.game", "--players", &players, "--seed", "1"],
            None,
        );
        assert_eq!(r.code, 0, "{b}: {}", r.stderr);
        assert!(r.stdout.contains("2. B plays escape"), "{b}: {}", r.stdout);
        assert!(r.stdout.contains("the game is a draw"), "{b}: {}", r.stdout);
    }
    // A match of oware, whose rule ends a game at the first repetition.
    let r = common::gdl(&[
        "match",
        "oware",
        "--players",
        "mcts:100,random",
        "--games",
        "10",
        "--seed",
        "2",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("games    10"), "{}", r.stdout);
}

/// Three men's morris (games/three-mens-morris.game), its positions valued
/// by the textbook retrograde analysis written here: a position is won if a
/// move leads to one lost for the opponent, lost if every move leads to one
/// won for the opponent, and drawn (play goes round until a position
/// repeats) if neither ever becomes true. The solver's values agree at the
/// start, after every first move, and at positions spread over the graph,
/// and a position won in one move is answered by that move.
#[test]
fn three_mens_morris_values_are_the_textbook_retrograde_analysis_s() {
    for diagonals in ["true", "false"] {
        let game = common::load_game("games/three-mens-morris.game", &[("diagonals", diagonals)]);
        let start = game.initial_state().unwrap();
        let mut states = vec![start.clone()];
        let mut index = std::collections::HashMap::new();
        index.insert(start, 0usize);
        let mut children: Vec<Vec<usize>> = Vec::new();
        let mut value: Vec<Option<f64>> = Vec::new();
        let mut mover = Vec::new();
        let mut i = 0;
        while i < states.len() {
            let s = states[i].clone();
            match game.turn(&s).unwrap() {
                Turn::Terminal => {
                    value.push(Some(game.returns(&s, 0).unwrap()));
                    mover.push(None);
                    children.push(Vec::new());
                }
                Turn::Player(p) => {
                    let mut moves = Vec::new();
                    game.legal_moves(&s, &mut moves).unwrap();
                    let mut to = Vec::new();
                    for m in &moves {
                        let mut c = s.clone();
                        game.apply(&mut c, m).unwrap();
                        let n = states.len();
                        let id = *index.entry(c.clone()).or_insert(n);
                        if id == n {
                            states.push(c);
                        }
                        to.push(id);
                    }
                    value.push(None);
                    mover.push(Some(p));
                    children.push(to);
                }
                t => panic!("{t:?}"),
            }
            i += 1;
        }
        loop {
            let mut changed = false;
            for i in 0..states.len() {
                let Some(p) = mover[i] else { continue };
                if value[i].is_some() {
                    continue;
                }
                let win = if p == 0 { 1.0 } else { -1.0 };
                let known: Vec<f64> = children[i].iter().filter_map(|&c| value[c]).collect();
                if known.contains(&win) {
                    value[i] = Some(win);
                    changed = true;
                } else if known.len() == children[i].len() {
                    value[i] = Some(-win);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let textbook = |s: &gdl::runtime::State| value[index[s]].unwrap_or(0.0);
        let opts = SolveOptions::default();
        let root = &states[0];
        let solved = gdl::solve::solve(&game, root, &opts).unwrap();
        assert!(solved.by_graph);
        assert_eq!(solved.states as usize, states.len(), "diagonals {diagonals}");
        assert_eq!(solved.value, textbook(root), "diagonals {diagonals}");
        for mv in gdl::solve::explain(&game, root, &opts).unwrap() {
            let mut child = root.clone();
            game.apply(&mut child, &mv.mv).unwrap();
            assert_eq!(
                mv.value,
                textbook(&child),
                "diagonals {diagonals}, {}",
                game.move_text(&mv.mv)
            );
        }
        let mut decided = 0;
        for s in states.iter().step_by(97) {
            let got = gdl::solve::solve(&game, s, &opts).unwrap().value;
            assert_eq!(got, textbook(s), "diagonals {diagonals}, {}", game.state_text(s));
            decided += usize::from(got != 0.0);
        }
        assert!(
            decided > 5,
            "diagonals {diagonals}: only {decided} positions sampled are won or lost"
        );
    }
    // The position: X wins by place(8), at once.
    let game = common::load_game("games/three-mens-morris.game", &[]);
    let s = gdl::game::FileGame::parse_position(&game, "board: [1, 2, 0, 0, 1, 2, 0, 0, 0], placed: [2, 2]; X to move")
        .unwrap();
    let solved = gdl::solve::solve(
        &game,
        &s,
        &SolveOptions {
            prefer_short: true,
            ..SolveOptions::default()
        },
    )
    .unwrap();
    assert_eq!((solved.value, solved.length), (1.0, 1));
    assert_eq!(game.move_text(&solved.best_moves[0]), "place(8)");
}

/// `Agent::set_history` (how the Python module tells an agent the past of
/// the state it asks about) gives an agent the same past as `after_step`
/// along a play loop: with the same seed, the same choice at the end of
/// random lines, for every agent that counts positions. The game: a token
/// on a line, stepped one point either way in turn; A wins reaching the
/// end, and whoever brings a position back wins (payoff: the point + 1),
/// so that stepping back often wins or loses by the past alone.
#[test]
fn an_agent_told_the_past_at_once_chooses_as_one_told_it_step_by_step() {
    use gdl::game::Repetitions;
    use gdl::solve::agent_builder::{AgentOptions, BoxedAgent, MoveKinds, build_agent};
    use gdl::solve::agents::agent::AgentSpec;
    use gdl::solve::agents::step::{Played, Step};
    let text = "game Shuttle\nplayers A, B\nstate at: int = 0\n\
                move right() requires at < 6 { at += 1 }\nmove left() requires at > 0 { at -= 1 }\n\
                end when at == 6 { winner A payoff 2 }\nend when repeated 2 { loser current payoff at + 1 }\n";
    let game = gdl::runtime::Interpreted::new(gdl::compile::load("shuttle.game", text, &[]).expect("compiles"));
    let kinds = MoveKinds::of(game.program());
    let mut rng = Rng(0x05e7_4157_0e11);
    let mut mattering = 0;
    for spec in ["optimal", "mcts:50", "search:5", "alphabeta:3", "dsearch"] {
        let spec: AgentSpec = spec.parse().unwrap();
        let build = || -> BoxedAgent<'_, gdl::runtime::Interpreted> {
            let mut agent = build_agent(&spec, &game, kinds, 7, &AgentOptions::default()).unwrap();
            agent.new_game(&game, 7).unwrap();
            agent
        };
        for g in 0..20 {
            // A random line that has not ended, as a play loop ends games.
            let mut line = vec![game.initial_state().unwrap()];
            let mut steps = Vec::new();
            let mut seen = Repetitions::of(&game).unwrap();
            seen.restart(&line[0]);
            let mut moves = Vec::new();
            for _ in 0..rng.below(8) {
                let mut s = line.last().unwrap().clone();
                let Turn::Player(p) = game.turn(&s).unwrap() else { break };
                game.legal_moves(&s, &mut moves).unwrap();
                let mv = moves[rng.below(moves.len() as u64) as usize];
                game.apply(&mut s, &mv).unwrap();
                seen.after_move(&game, &mut s).unwrap();
                steps.push(Step::Moves(vec![Played {
                    player: p,
                    mv,
                    note: None,
                }]));
                line.push(s);
            }
            let state = line.last().unwrap().clone();
            let Turn::Player(p) = game.turn(&state).unwrap() else {
                continue;
            };
            game.legal_moves(&state, &mut moves).unwrap();
            let mut stepped = build();
            for (i, step) in steps.iter().enumerate() {
                stepped.after_step(&game, p, &line[i], step, &line[i + 1]);
            }
            let mut told = build();
            told.set_history(&game, &line[..line.len() - 1]);
            let chosen = stepped.choose(&game, &state, p, &moves).unwrap().mv;
            assert_eq!(
                told.choose(&game, &state, p, &moves).unwrap().mv,
                chosen,
                "{spec}, line {g}"
            );
            // Told nothing, an agent may choose otherwise: the past matters.
            mattering += usize::from(build().choose(&game, &state, p, &moves).unwrap().mv != chosen);
        }
    }
    assert!(mattering > 10, "the past changed only {mattering} choices");
}
