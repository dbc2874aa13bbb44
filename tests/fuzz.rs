//! Fuzzing: random game files, written from the grammar or made by mutating
//! the files in games/, are parsed, compiled, played out at random and solved
//! within a small budget. Nothing may panic, hang or overflow the stack, and
//! every error must be a diagnostic whose spans lie inside the file.
//!
//! `cargo test --test main fuzz:: -- --skip cli_fuzz` runs a few hundred cases (seconds). The long run:
//!
//! ```sh
//! GDL_FUZZ_CASES=1000000 cargo test --release --test main fuzz:: -- --ignored --skip cli_fuzz --nocapture
//! ```
//!
//! (`GDL_FUZZ_SEED` picks another sequence, `GDL_FUZZ_THREADS` the workers,
//! 2 by default). Each worker writes the case it is running to
//! `target/fuzz/current-N.game`, so that an abort (a stack overflow cannot be
//! caught) leaves the culprit behind; failures are saved in
//! `target/fuzz/failures/`. Crashing inputs, once fixed, go to
//! `tests/inputs/fuzz/`, which `regressions_do_not_crash` runs every time.

use crate::fuzzgen;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use fuzzgen::agree::agree;
use fuzzgen::{Case, make_case};
use gdl::compile;
use gdl::game::{Game, GameError, Turn};
use gdl::ir::lower_code::Optimisations;
use gdl::runtime::{Engine, Interpreted};
use gdl::solve::agents::simulate::{Scratch, random_step};
use gdl::solve::{self, Algorithm, SolveError, SolveOptions};
use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme};
use rand::SeedableRng;
use rand::rngs::StdRng;

/// `gdl` runs each command on a thread with this stack; the fuzz workers get the same.
const STACK: usize = gdl::solve::SEARCH_STACK;

/// What went wrong with one case.
type Finding = String;

/// Renders a diagnostic the way gdl does, and fails if miette cannot (a span
/// outside the file).
fn render(d: &dyn Diagnostic) -> Result<String, Finding> {
    let handler = GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor()).with_width(100);
    // gdl's own rendering, which must not panic.
    let text = gdl::report::diagnostic::render(d, false);
    if text.contains("line is too long to show") {
        return Ok(text);
    }
    let mut out = String::new();
    handler
        .render_report(&mut out, d)
        .map_err(|_| format!("the diagnostic `{d}` cannot be rendered (a span outside the file?)"))?;
    Ok(out)
}

fn check_game_error(e: &GameError) -> Result<(), Finding> {
    let code = e.code_str();
    if !(code.starts_with("gdl::runtime::") || code.starts_with("gdl::solve::")) {
        return Err(format!("run-time error with code {code}: {e}"));
    }
    if e.message().is_empty() {
        return Err(format!("run-time error {code} without a message"));
    }
    render(e)?;
    gdl::report::diagnostic::render(e, false);
    Ok(())
}

/// `canonical`: whether the game has a `canonical` block. A block that is no
/// symmetry (a mutation of tictactoe-symmetric.game's table) makes the
/// solver contradict itself, and the error must then ask about the block.
fn check_solve_error(e: &SolveError, canonical: bool) -> Result<(), Finding> {
    match e {
        SolveError::Game(g) => check_game_error(g),
        SolveError::Inconsistent(m) if canonical && m.contains("is the `canonical` block a symmetry") => Ok(()),
        SolveError::Inconsistent(m) => Err(format!("the solver contradicted itself: {m}")),
        other => render(other).map(|_| ()),
    }
}

/// Runs one case; `Err` says what is wrong.
fn run_case(case: &Case) -> Result<bool, Finding> {
    let text = &case.text;
    let prog = match compile::load("fuzz.game", text, &case.bindings) {
        Ok(p) => p,
        Err(errors) => {
            if errors.errors.is_empty() {
                return Err("compile failed without an error".into());
            }
            for e in &errors.errors {
                let spans = std::iter::once(e.span).chain(e.notes.iter().map(|(s, _)| *s));
                for s in spans {
                    if s.start > s.end || s.end > text.len() {
                        return Err(format!(
                            "{}: span {:?} outside the file of {} bytes",
                            e.code,
                            s,
                            text.len()
                        ));
                    }
                }
                if !(e.code.starts_with("gdl::compile::") || e.code.starts_with("gdl::syntax::")) {
                    return Err(format!("compile error with code {}", e.code));
                }
            }
            for d in errors.diagnostics() {
                render(&d)?;
            }
            // The CLI's own rendering, too.
            gdl::report::diagnostic::render_compile_errors(&errors, false);
            return Ok(false);
        }
    };
    let canonical = prog.canonical.is_some();
    // The same rules lowered with no optimisation, to hold the optimised
    // code to (issue 23: a wrong value no crash would have shown).
    let plain = Interpreted::with_optimisations(prog.clone(), Optimisations::NONE);
    // Both engines: the default one (compiled rules where supported) plays,
    // and the VM, the reference, follows each step and must agree.
    let vm = Interpreted::with_engine(prog.clone(), Engine::Vm);
    let game = Interpreted::new(prog);
    let mut rng = StdRng::seed_from_u64(case.seed);
    let root = match game.initial_state() {
        Ok(s) => s,
        Err(e) => return check_game_error(&e).map(|_| true),
    };
    let text_of_root = game.position(&root);
    match game.parse_position(&text_of_root) {
        // (Who moved last is not part of the text: compare what is printed.)
        Ok(back) if game.position(&back) == text_of_root => {}
        Ok(back) => {
            return Err(format!(
                "position `{text_of_root}` reads back as `{}`",
                game.position(&back)
            ));
        }
        // A mutated file whose start breaks its own invariants (or makes
        // one fail) is refused at the door, as `gdl check` refuses it: the
        // start itself must then break one, and play goes on from there.
        Err(_) if !matches!(game.broken_invariant(&root), Ok(None)) => {}
        Err(e) => return Err(format!("position `{text_of_root}` does not read back: {e}")),
    }
    // Rules may legally take a good fraction of a second per step (up to the
    // interpreter's step budget); a case spends at most a few seconds on them.
    let deadline = Instant::now() + Duration::from_secs(5);
    agree(&game, &plain, 2, 40, case.seed, Some(deadline))
        .map_err(|e| format!("the optimised and the plain code disagree: {e}"))?;
    let mut scratch = Scratch::default();
    let mut vm_scratch = Scratch::default();
    let shown = |r: Result<bool, GameError>| r.map_err(|e| format!("{} [{}] {:?}", e, e.code_str(), e.has_span()));
    for _ in 0..2 {
        let mut s = root.clone();
        let mut t = root.clone();
        for _ in 0..60 {
            let mut vm_rng = rng.clone();
            let step = random_step(&game, &mut s, &mut rng, &mut scratch);
            let vm_step = random_step(&vm, &mut t, &mut vm_rng, &mut vm_scratch);
            let (a, b) = (shown(step.clone()), shown(vm_step));
            if a != b || s != t {
                return Err(format!(
                    "the engines disagree: {a:?} in `{}`, the VM {b:?} in `{}`",
                    game.position(&s),
                    vm.position(&t)
                ));
            }
            match step {
                Ok(true) => {}
                Ok(false) => {
                    for p in 0..game.num_players() {
                        if let Err(e) = game.returns(&s, p) {
                            check_game_error(&e)?;
                        }
                    }
                    break;
                }
                Err(e) => {
                    check_game_error(&e)?;
                    break;
                }
            }
            if Instant::now() > deadline {
                return Ok(true);
            }
            // What a player sees, and a state sampled for them, never fail.
            let _ = game.observation(&s, 0);
            if let Err(e) = game.sample_hidden(&s, 0, &mut rng) {
                check_game_error(&e)?;
            }
        }
    }
    // A small bounded solve of two-player turn-taking games.
    if Instant::now() > deadline {
        return Ok(true);
    }
    let solvable = game.num_players() == 2 && matches!(game.turn(&root), Ok(Turn::Player(_) | Turn::Terminal));
    if solvable {
        let algorithm = if case.seed.is_multiple_of(2) {
            Algorithm::AlphaBeta
        } else {
            Algorithm::Minimax
        };
        {
            // One case in ten lets the memo table grow, under a cap on its
            // states (as the memory limit caps it in gdl).
            let grow = case.seed % 10 == 1;
            let opts = SolveOptions {
                algorithm,
                memo: grow || !case.seed.is_multiple_of(3),
                max_nodes: Some(if grow { 200_000 } else { 300 }),
                max_states: grow.then_some(20_000),
                time_limit: Some(Duration::from_millis(if grow { 1500 } else { 500 })),
                ..SolveOptions::default()
            };
            match solve::solve(&game, &root, &opts) {
                Ok(_) => {}
                Err(SolveError::Unsupported(_) | SolveError::Budget { .. }) => {}
                Err(e) => check_solve_error(&e, canonical)?,
            }
        }
    }
    Ok(true)
}

/// Runs a case, turning a panic into a finding.
fn guarded(case: &Case) -> Result<bool, Finding> {
    match catch_unwind(AssertUnwindSafe(|| run_case(case))) {
        Ok(r) => r,
        Err(payload) => {
            let msg = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "a panic".into());
            Err(format!("panic: {msg}"))
        }
    }
}

fn fuzz_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/fuzz")
}

struct Report {
    cases: u64,
    compiled: u64,
    failures: Vec<(u64, Finding, String)>,
}

/// The processor-time clock of the calling thread, which other threads of
/// the process may read.
fn thread_cpu_clock() -> libc::clockid_t {
    let mut clock: libc::clockid_t = 0;
    // SAFETY: pthread_self is the calling thread, and `clock` outlives the call.
    let r = unsafe { libc::pthread_getcpuclockid(libc::pthread_self(), &mut clock) };
    assert_eq!(r, 0, "no processor-time clock for this thread");
    clock
}

/// Seconds of processor time on `clock` (a thread's, from
/// `thread_cpu_clock`), 0 before the thread has said which.
fn cpu_seconds(clock: libc::clockid_t) -> u64 {
    if clock == -1 {
        return 0;
    }
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid timespec for the call to fill; a clock of a
    // thread that has ended makes the call fail, which reads as 0.
    match unsafe { libc::clock_gettime(clock, &mut t) } {
        0 => t.tv_sec as u64,
        _ => 0,
    }
}

/// Runs cases `0..n` of the sequence `seed` on `threads` workers.
fn campaign(seed: u64, n: u64, threads: u64, save: bool) -> Report {
    let corpus = Arc::new(fuzzgen::corpus());
    // GDL_FUZZ_FIRST=I starts at case I: a finding of a long campaign again, alone.
    let first: u64 = std::env::var("GDL_FUZZ_FIRST")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let next = Arc::new(AtomicU64::new(first));
    let compiled = Arc::new(AtomicU64::new(0));
    let done = Arc::new(AtomicBool::new(false));
    let started = Instant::now();
    if save {
        std::fs::create_dir_all(fuzz_dir().join("failures")).unwrap();
    }
    // A watchdog: a case that spends two minutes of its worker's processor
    // time is a hang. Processor time, not wall time: a campaign run `nice`
    // beside other work may wait minutes for a core without hanging.
    let clocks: Arc<Vec<AtomicU64>> = Arc::new((0..threads).map(|_| AtomicU64::new(u64::MAX)).collect());
    let cpu_clocks: Arc<Vec<AtomicI32>> = Arc::new((0..threads).map(|_| AtomicI32::new(-1)).collect());
    {
        let (clocks, cpu_clocks, done) = (clocks.clone(), cpu_clocks.clone(), done.clone());
        std::thread::spawn(move || {
            while !done.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_secs(1));
                for (w, c) in clocks.iter().enumerate() {
                    let t = c.load(Ordering::Relaxed);
                    let now = cpu_seconds(cpu_clocks[w].load(Ordering::Relaxed));
                    if t != u64::MAX && now > t + 120 {
                        eprintln!(
                            "fuzz: worker {w} has spent two minutes of processor time on one case: see target/fuzz/current-{w}.game"
                        );
                        std::process::exit(3);
                    }
                }
            }
        });
    }
    // GDL_FUZZ_SLOW=MS prints every case that takes longer.
    let slow_ms: Option<u64> = std::env::var("GDL_FUZZ_SLOW").ok().and_then(|v| v.parse().ok());
    let prev_hook = std::panic::take_hook();
    // Quiet, except where a finding is being looked at again.
    let loud = first > 0;
    std::panic::set_hook(Box::new(move |info| {
        if loud {
            eprintln!("{info}");
        }
    }));
    let workers: Vec<_> = (0..threads)
        .map(|w| {
            let (corpus, next, compiled, clocks) = (corpus.clone(), next.clone(), compiled.clone(), clocks.clone());
            let cpu_clocks = cpu_clocks.clone();
            std::thread::Builder::new()
                .stack_size(STACK)
                .spawn(move || {
                    let clock = thread_cpu_clock();
                    cpu_clocks[w as usize].store(clock, Ordering::Relaxed);
                    let mut failures = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= n {
                            break;
                        }
                        let case = make_case(seed, i, &corpus);
                        if save {
                            let _ = std::fs::write(fuzz_dir().join(format!("current-{w}.game")), &case.text);
                        }
                        clocks[w as usize].store(cpu_seconds(clock), Ordering::Relaxed);
                        let t0 = Instant::now();
                        let r = guarded(&case);
                        if slow_ms.is_some_and(|ms| t0.elapsed() > Duration::from_millis(ms)) {
                            eprintln!("fuzz: case {i} took {:?}", t0.elapsed());
                            let _ = std::fs::write(fuzz_dir().join(format!("slow-{i}.game")), &case.text);
                        }
                        clocks[w as usize].store(u64::MAX, Ordering::Relaxed);
                        if r == Ok(true) {
                            compiled.fetch_add(1, Ordering::Relaxed);
                        }
                        if let Err(f) = r {
                            if save {
                                let _ =
                                    std::fs::write(fuzz_dir().join(format!("failures/{seed}-{i}.game")), &case.text);
                            }
                            eprintln!("fuzz: case {i} (seed {seed}): {f}");
                            failures.push((i, f, case.text));
                        }
                        if save && i % 10_000 == 0 && i > 0 {
                            eprintln!("fuzz: {i} cases, {:.0} s", started.elapsed().as_secs_f64());
                        }
                    }
                    failures
                })
                .unwrap()
        })
        .collect();
    let mut failures = Vec::new();
    for w in workers {
        failures.extend(w.join().unwrap());
    }
    done.store(true, Ordering::Relaxed);
    std::panic::set_hook(prev_hook);
    Report {
        cases: n,
        compiled: compiled.load(Ordering::Relaxed),
        failures,
    }
}

fn summary(r: &Report) -> String {
    let mut s = String::new();
    for (i, f, text) in r.failures.iter().take(5) {
        s.push_str(&format!("--- case {i}: {f}\n{text}\n"));
    }
    s
}

#[test]
fn random_game_files_never_crash() {
    let r = campaign(1, 1000, 2, false);
    assert!(r.failures.is_empty(), "{} failures:\n{}", r.failures.len(), summary(&r));
    // The generator must reach the interpreter, not only the parser.
    assert!(
        r.compiled >= r.cases / 10,
        "only {} of {} cases compiled",
        r.compiled,
        r.cases
    );
}

#[test]
fn regressions_do_not_crash() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/fuzz");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "game"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    let handle = std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(move || {
            let mut bad = Vec::new();
            for f in &files {
                let bytes = std::fs::read(f).unwrap();
                let case = Case {
                    text: String::from_utf8_lossy(&bytes).into_owned(),
                    bindings: Vec::new(),
                    seed: 7,
                };
                if let Err(e) = guarded(&case) {
                    bad.push(format!("{}: {e}", f.display()));
                }
            }
            bad
        })
        .unwrap();
    let bad = handle.join().unwrap();
    assert!(bad.is_empty(), "{bad:#?}");
}

/// The long campaign; see the top of the file.
#[test]
#[ignore]
fn long_fuzz_campaign() {
    let n = std::env::var("GDL_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let seed = std::env::var("GDL_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2);
    let threads = std::env::var("GDL_FUZZ_THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2);
    let started = Instant::now();
    let r = campaign(seed, n, threads, true);
    eprintln!(
        "fuzz: {} cases (seed {seed}), {} compiled, {} failures, {:.0} s",
        r.cases,
        r.compiled,
        r.failures.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(r.failures.is_empty(), "{} failures:\n{}", r.failures.len(), summary(&r));
}

/// The generator writes every construct of the language's newer parts, in
/// files that compile: a construct it never writes is never fuzzed.
#[test]
fn the_generator_writes_every_construct() {
    let corpus = fuzzgen::corpus();
    let constructs = [
        "again",
        "turn = ",
        " weight ",
        "while ",
        "canonical {",
        "const ",
        ".pop(",
        ".insert(",
        ".sort()",
        " for g",
        "return",
    ];
    let mut seen = vec![0; constructs.len()];
    for i in 0..3000 {
        let case = make_case(11, i, &corpus);
        if gdl::compile::load("fuzz.game", &case.text, &[]).is_err() {
            continue;
        }
        for (k, c) in constructs.iter().enumerate() {
            seen[k] += usize::from(case.text.contains(c));
        }
    }
    for (c, n) in constructs.iter().zip(&seen) {
        assert!(*n > 0, "no compiling file of 3000 has `{c}`");
    }
}

/// The generator writes the shapes issue 13's bugs needed (the earlier
/// generator wrote none of them): constants at the edges of i64, nested
/// repeats, wide states, many players moving at once, other encodings.
#[test]
fn the_generator_writes_hostile_shapes() {
    let corpus = fuzzgen::corpus();
    let shapes = [
        "9223372036854775807",
        "(-9223372036854775807 - 1)",
        "]; ",
        "; 100000]",
        "players count 1",
        "simultaneous move",
        "\u{feff}",
        "\r\n",
        "\0",
    ];
    let mut seen = vec![0; shapes.len()];
    for i in 0..3000 {
        let case = make_case(12, i, &corpus);
        for (k, s) in shapes.iter().enumerate() {
            seen[k] += usize::from(case.text.contains(s));
        }
    }
    for (s, n) in shapes.iter().zip(&seen) {
        assert!(*n > 0, "no file of 3000 has {s:?}");
    }
}
