//! Fuzzing the command line: the real `gdl` binary run with random flags
//! (taken from the clap definition of each subcommand), random values for
//! them, random `--from` and `--after` positions, random standard input for
//! `play`, corrupted Q-tables and strategy files, and odd output paths (the
//! game file itself, a folder, a name too long, `/dev/null`, a folder that
//! does not exist).
//!
//! Each run must end by itself (it is killed after [`TIMEOUT`]: a failure),
//! never by a panic (101), an abort (134) or a crash (a signal); a non-zero
//! exit says why on standard error; no temporary file is left behind, and no
//! input file is changed.
//!
//! `cargo test --test main cli_fuzz::` runs a few dozen cases. The campaign:
//!
//! ```sh
//! cargo build --release
//! GDL_CLI_FUZZ_CASES=50000 GDL_CLI_FUZZ_BIN=target/release/gdl \
//!     cargo test --release --test main cli_fuzz:: -- --ignored --nocapture
//! ```
//!
//! (`GDL_CLI_FUZZ_SEED` picks another sequence, `GDL_CLI_FUZZ_THREADS` the
//! workers, 2 by default.) Every run is under a 1 GiB address-space limit,
//! so gdl's default memory cap is what that leaves. Failing command lines
//! are written to `target/cli-fuzz/failures.txt`.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::CommandFactory;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};

/// A run that has not ended after this long is a hang, unless it is a
/// search the case set no limit on (see [`unbounded_search`]).
const TIMEOUT: Duration = Duration::from_secs(60);
/// The exit code counted for a search without a limit stopped at the timeout.
const LONG: i32 = -2;
/// The address space each run gets.
const ADDRESS_SPACE: u64 = 1 << 30;

/// The games a case loads (copied into each worker's folder), with flags
/// that keep a search small. Without them (one case in five) a game may be
/// far too big to solve (Kalah 6×4, connect four 6×7): such a case is
/// killed at the timeout unless it names a limit, so those games always get
/// their flags.
const GAMES: &[(&str, &[&str])] = &[
    ("nim.game", &["--piles", "1,2,3"]),
    ("nim.game", &[]),
    ("nimcala.game", &["--pits", "3", "--tokens", "3"]),
    ("tictactoe.game", &[]),
    ("select19.game", &[]),
    ("kuhn-poker.game", &[]),
    ("goofspiel.game", &["--cards", "3"]),
    ("pig.game", &["--target", "5"]),
    ("xnimmt.game", &[]),
    ("connect4.game", &["--rows", "3", "--cols", "3"]),
    ("dots-and-boxes.game", &[]),
    ("kalah.game", &["--pits", "2", "--seeds", "2"]),
    ("nim-normal.game", &["--piles", "2,3"]),
];

/// Values for a flag that takes one, valid and not.
const VALUES: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "10",
    "-1",
    "-0",
    "1e20",
    "1e-300",
    "1e6",
    "0.5",
    "nan",
    "inf",
    "18446744073709551616",
    "9223372036854775807",
    "",
    " ",
    "x",
    "1,2,3",
    "1..3",
    "16M",
    "4G",
    "1K",
    "99999999999999999999T",
    "dot",
    "text",
    "svg",
    "bash",
    "alphabeta",
    "minimax",
    "forfeit",
    "abort",
    "random",
    "lr",
    "q-learning",
    "cfr",
];

/// Agents for `--players` and `--field`.
const AGENTS: &[&str] = &[
    "optimal",
    "optimal:first",
    "optimal:fast",
    "random",
    "human",
    "search",
    "search:3",
    "search:0",
    "greedy",
    "alphabeta:2",
    "alphabeta:0",
    "q:q.json",
    "q:bad.json",
    "q:missing.json",
    "policy:policy.json",
    "policy:bad.json",
    "exec:true",
    "exec:",
    "nobody",
    "",
];

/// Paths for flags that name files.
fn paths(game: &str) -> Vec<String> {
    vec![
        game.to_string(),
        format!("./{game}"),
        "out.csv".into(),
        "out.json".into(),
        "out.svg".into(),
        "out.dot".into(),
        "q.json".into(),
        "bad.json".into(),
        "policy.json".into(),
        ".".into(),
        "sub".into(),
        "sub/".into(),
        "missing/out.csv".into(),
        "/dev/null".into(),
        "/dev/full".into(),
        format!("{}.csv", "a".repeat(300)),
        format!("{}.csv", "b".repeat(240)),
        "".into(),
    ]
}

/// One command line, its standard input, and the output files it may write.
struct Case {
    args: Vec<String>,
    stdin: Vec<u8>,
}

/// Case `i` of the sequence `seed`: the same every time.
fn make_case(seed: u64, i: u64) -> Case {
    let mut rng = StdRng::seed_from_u64(seed.wrapping_mul(0xD1B5_4A32_D192_ED03) ^ i);
    let cli = gdl::cli::Cli::command();
    // `serve` runs until it is stopped: tests/serve.rs drives it instead.
    let subs: Vec<&clap::Command> = cli.get_subcommands().filter(|c| c.get_name() != "serve").collect();
    let sub = *subs.choose(&mut rng).unwrap();
    let (game, game_flags) = *GAMES.choose(&mut rng).unwrap();
    let mut args = vec![sub.get_name().to_string()];
    let takes_file = sub.get_arguments().any(|a| a.get_id() == "file");
    if takes_file {
        let file = match rng.random_range(0..20) {
            0 => "missing.game".to_string(),
            1 => "bad.game".to_string(),
            2 => "/dev/null".to_string(),
            3 => ".".to_string(),
            4 => game.trim_end_matches(".game").to_string(),
            _ => game.to_string(),
        };
        args.push(file);
        let big = ["kalah.game", "connect4.game", "pig.game"].contains(&game);
        if big || rng.random_bool(0.8) {
            args.extend(game_flags.iter().map(|s| s.to_string()));
        }
    } else if sub.get_name() == "rules" {
        args.push(game.trim_end_matches(".game").to_string());
    } else if sub.get_name() == "completions" {
        args.push(["bash", "zsh", "fish", "nope"].choose(&mut rng).unwrap().to_string());
    }
    // Flags from the command's own definition.
    let flags: Vec<&clap::Arg> = sub
        .get_arguments()
        .filter(|a| a.get_long().is_some() && a.get_id() != "help" && a.get_id() != "version")
        .collect();
    let n = rng.random_range(0..=4.min(flags.len()));
    for _ in 0..n {
        let Some(flag) = flags.choose(&mut rng) else { break };
        let long = flag.get_long().unwrap();
        args.push(format!("--{long}"));
        if !flag.get_action().takes_values() {
            continue;
        }
        let value = value_for(&mut rng, long, flag, game);
        if rng.random_bool(0.05) {
            // `--flag=value`, as some people write it.
            let last = args.pop().unwrap();
            args.push(format!("{last}={value}"));
        } else {
            args.push(value);
        }
    }
    // A game's parameter, given a value of the wrong kind now and then.
    if takes_file && rng.random_bool(0.1) {
        args.push(
            ["--piles", "--pits", "--tokens", "--nosuch"]
                .choose(&mut rng)
                .unwrap()
                .to_string(),
        );
        args.push(VALUES.choose(&mut rng).unwrap().to_string());
    }
    // Searches that need players get them, so that games get played.
    if ["play", "trace", "match"].contains(&sub.get_name()) && !args.iter().any(|a| a.starts_with("--players")) {
        args.push("--players".into());
        args.push(players(&mut rng));
    }
    if sub.get_name() == "match" && !args.iter().any(|a| a.starts_with("--games")) {
        args.push("--games".into());
        args.push("4".into());
    }
    if sub.get_name() == "train" && !args.iter().any(|a| a.starts_with("--episodes")) {
        args.push("--episodes".into());
        args.push("50".into());
    }
    let stdin = if sub.get_name() == "play" {
        random_input(&mut rng)
    } else {
        Vec::new()
    };
    Case { args, stdin }
}

fn players(rng: &mut StdRng) -> String {
    let n = rng.random_range(1..=4);
    (0..n)
        .map(|_| AGENTS.choose(rng).unwrap().to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// A value for `--long`, chosen by what the flag is for.
fn value_for(rng: &mut StdRng, long: &str, flag: &clap::Arg, game: &str) -> String {
    if rng.random_bool(0.1) {
        return VALUES.choose(rng).unwrap().to_string();
    }
    let possible = flag.get_possible_values();
    if !possible.is_empty() && rng.random_bool(0.8) {
        return possible.choose(rng).unwrap().get_name().to_string();
    }
    match long {
        "players" | "field" => players(rng),
        "from" => random_position(rng),
        "after" => {
            let moves = [
                "1",
                "2",
                "(0, 1)",
                "(1, 2)",
                "take(0,1)",
                "(0,01)",
                "9",
                "x",
                "(0, 6) (1, 2)",
            ];
            (0..rng.random_range(0..4))
                .map(|_| moves.choose(rng).unwrap().to_string())
                .collect::<Vec<_>>()
                .join(" ")
        }
        "out" | "csv" | "plot" | "json-log" | "init" | "agent-stderr" | "q" | "curve" => {
            paths(game).choose(rng).unwrap().clone()
        }
        // Sizes of work: mostly small, so that a valid run ends soon.
        "games"
        | "episodes"
        | "iterations"
        | "depth"
        | "seconds"
        | "threads"
        | "games-per-iteration"
        | "simulations"
        | "curve-games"
        | "hidden" => ["1", "2", "3", "0", "-1", "1e20", "x", "1.5"]
            .choose(rng)
            .unwrap()
            .to_string(),
        "max-nodes" | "max-states" => ["1", "10", "1000", "100000", "0", "-5", "1e30"]
            .choose(rng)
            .unwrap()
            .to_string(),
        "time-limit" => ["0.001", "0.5", "2", "0", "1e20", "1e-300", "-1", "nan"]
            .choose(rng)
            .unwrap()
            .to_string(),
        "max-memory" => ["16M", "64M", "300M", "1G", "1K", "0", "-1M", "1e3M", "lots"]
            .choose(rng)
            .unwrap()
            .to_string(),
        "budget-ms" | "move-time-ms" => ["1", "10", "0", "-1", "3600001"].choose(rng).unwrap().to_string(),
        _ => VALUES.choose(rng).unwrap().to_string(),
    }
}

/// A position as `--from` takes one: real ones, then damaged.
fn random_position(rng: &mut StdRng) -> String {
    let good = [
        "[1, 2, 3]; MAX to move",
        "[0, 2, 3, 1]; MIN to move",
        "[0, 0, 0]; MAX to move",
        "board: [3, 0, 0]; MAX to move",
        "free: {1, 2, 3}, last: 0; A to move",
        "[1, 2, 3]",
        "[1, 2, 3];   MIN   to   move",
    ];
    let mut p: Vec<char> = good.choose(rng).unwrap().chars().collect();
    for _ in 0..rng.random_range(0..3) {
        if p.is_empty() {
            break;
        }
        let at = rng.random_range(0..p.len());
        match rng.random_range(0..4) {
            0 => {
                p.remove(at);
            }
            1 => p.insert(
                at,
                *['[', ']', ',', ';', '9', '-', ' ', '\u{feff}', '\n', 'é']
                    .choose(rng)
                    .unwrap(),
            ),
            2 => p.insert(at, '9'),
            _ => p.truncate(at),
        }
    }
    p.into_iter().collect()
}

/// What a person, a script or a broken pipe types at `play`.
fn random_input(rng: &mut StdRng) -> Vec<u8> {
    let lines: &[&[u8]] = &[
        b"1\n",
        b"2\n",
        b"(0, 1)\n",
        b"take(0,1)\n",
        b"(0,01)\n",
        b"quit\n",
        b"help\n",
        b"\n",
        b"-1\n",
        b"99999999999999999999999\n",
        b"\xff\xfe\n",
        b"\x00\x00\n",
        b"(0, 1\n",
        b"1 2 3\n",
    ];
    let mut out = Vec::new();
    for _ in 0..rng.random_range(0..12) {
        out.extend_from_slice(lines.choose(rng).unwrap());
    }
    if rng.random_bool(0.05) {
        out.extend(std::iter::repeat_n(b'7', 10_000));
    }
    out
}

/// A worker's folder: the games, a good and a corrupted Q-table and
/// strategy file, a broken game file, a folder.
fn setup(dir: &Path, gdl: &Path) {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    for (g, _) in GAMES {
        std::fs::copy(games.join(g), dir.join(g)).unwrap();
    }
    std::fs::write(dir.join("bad.game"), "game Bad\nplayers A, B\nstate x: int = \n").unwrap();
    let run = |args: &[&str]| {
        let ok = Command::new(gdl).args(args).current_dir(dir).output().unwrap();
        assert!(ok.status.success(), "{args:?}: {}", String::from_utf8_lossy(&ok.stderr));
    };
    run(&[
        "train",
        "nim.game",
        "--piles",
        "1,2,3",
        "--episodes",
        "100",
        "--out",
        "q.json",
    ]);
    run(&[
        "train",
        "kuhn-poker.game",
        "--algorithm",
        "cfr",
        "--iterations",
        "10",
        "--out",
        "policy.json",
    ]);
}

/// `q.json` or `policy.json` damaged at random, as `bad.json`.
fn corrupt(dir: &Path, rng: &mut StdRng) {
    let src = if rng.random_bool(0.5) { "q.json" } else { "policy.json" };
    let Ok(mut bytes) = std::fs::read(dir.join(src)) else {
        return;
    };
    match rng.random_range(0..5) {
        0 => bytes.truncate(rng.random_range(0..=bytes.len())),
        1 => {
            for _ in 0..rng.random_range(1..8) {
                let at = rng.random_range(0..bytes.len().max(1));
                if let Some(b) = bytes.get_mut(at) {
                    *b = rng.random();
                }
            }
        }
        2 => {
            let text = String::from_utf8_lossy(&bytes)
                .replace("0.", "1e308")
                .replace("\"episodes\"", "\"episodes\": -1, \"x\"");
            bytes = text.into_bytes();
        }
        3 => bytes = b"null".to_vec(),
        _ => bytes = b"{\"values\": [[1e309]]}".to_vec(),
    }
    let _ = std::fs::write(dir.join("bad.json"), bytes);
}

/// What is wrong with one run (`None`: nothing), and its exit code.
fn run_case(gdl: &Path, dir: &Path, case: &Case) -> (Option<String>, Option<i32>) {
    // The inputs, to see that no run changes them.
    let inputs: Vec<(PathBuf, Vec<u8>)> = GAMES
        .iter()
        .map(|(g, _)| dir.join(g))
        .chain([dir.join("q.json"), dir.join("policy.json")])
        .map(|p| {
            let b = std::fs::read(&p).unwrap_or_default();
            (p, b)
        })
        .collect();
    let mut cmd = Command::new(gdl);
    cmd.args(&case.args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: setrlimit is async-signal-safe; nothing else runs in the child.
    unsafe {
        cmd.pre_exec(|| {
            let lim = libc::rlimit {
                rlim_cur: ADDRESS_SPACE,
                rlim_max: ADDRESS_SPACE,
            };
            libc::setrlimit(libc::RLIMIT_AS, &lim);
            Ok(())
        });
    }
    let Ok(mut child) = cmd.spawn() else {
        return (None, None);
    };
    let mut stdin = child.stdin.take().unwrap();
    let input = case.stdin.clone();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut o = Vec::new();
        let _ = out.read_to_end(&mut o);
        o
    });
    let err_reader = std::thread::spawn(move || {
        let mut e = Vec::new();
        let _ = err.read_to_end(&mut e);
        e
    });
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) if started.elapsed() > TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(_) => break None,
        }
    };
    let _ = feeder.join();
    let _ = reader.join();
    let stderr = String::from_utf8_lossy(&err_reader.join().unwrap_or_default()).into_owned();
    let mut found = Vec::new();
    match status {
        None if unbounded_search(case) => return (None, Some(LONG)),
        None => found.push(format!("still running after {} s: killed", TIMEOUT.as_secs())),
        Some(s) => {
            if let Some(sig) = s.signal() {
                found.push(format!("killed by signal {sig}"));
            }
            match s.code() {
                Some(101) => found.push("panicked (exit 101)".into()),
                Some(134) => found.push("aborted (exit 134)".into()),
                Some(0) | None => {}
                Some(c) if stderr.trim().is_empty() => found.push(format!("exit {c} with nothing on standard error")),
                Some(_) => {}
            }
            if stderr.contains("panicked at") || stderr.contains("RUST_BACKTRACE") {
                found.push("a panic message on standard error".into());
            }
        }
    }
    // Temporary files of a write that did not finish.
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') && name.ends_with(".tmp") {
            found.push(format!("left a temporary file {name}"));
            let _ = std::fs::remove_file(e.path());
        }
    }
    // Every file is put back as it was; a change to one the command read is a finding.
    let read = inputs_of(case);
    for (p, before) in &inputs {
        let now = std::fs::read(p).unwrap_or_default();
        if &now != before {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if read.contains(&name) {
                found.push(format!("changed its input {name}"));
            } else if name.ends_with(".game") {
                found.push(format!("wrote over the game file {name}"));
            }
            let _ = std::fs::write(p, before);
        }
    }
    let code = status.and_then(|s| s.code());
    if found.is_empty() {
        (None, code)
    } else {
        let tail: String = stderr.chars().take(600).collect();
        (Some(format!("{}\n  stderr: {tail}", found.join("; "))), code)
    }
}

/// Whether the case asks for a search that may rightly take longer than
/// the timeout: a command that searches (`solve`, `train`, `match`, ...),
/// given neither `--time-limit` nor `--max-nodes`. (Minimax without a memo
/// table on dots and boxes, or 1,000 CFR+ iterations over tic-tac-toe, is
/// long work, not a hang; the same with a limit past the timeout is a
/// finding, and so is any other command that does not end.)
fn unbounded_search(case: &Case) -> bool {
    let searches = matches!(
        case.args.first().map(String::as_str),
        Some("solve" | "train" | "match" | "trace" | "tree" | "eval" | "play" | "bench")
    );
    let limited = case
        .args
        .iter()
        .any(|a| a.starts_with("--time-limit") || a.starts_with("--max-nodes"));
    searches && !limited
}

/// The files a command line reads: its game file, `--q` and `--init`
/// tables, and the files of `q:` and `policy:` agents.
fn inputs_of(case: &Case) -> Vec<String> {
    let mut read = Vec::new();
    let bare = |p: &str| p.trim_start_matches("./").to_string();
    if let Some(file) = case.args.get(1) {
        read.push(bare(file));
        read.push(format!("{}.game", bare(file)));
    }
    for w in case.args.windows(2) {
        match w[0].as_str() {
            "--q" | "--init" => read.push(bare(&w[1])),
            "--players" | "--field" => {
                for agent in w[1].split(',') {
                    if let Some(f) = ["q:", "policy:", "az:"].iter().find_map(|k| agent.strip_prefix(k)) {
                        read.push(bare(f));
                    }
                }
            }
            _ => {}
        }
    }
    read
}

/// The binary under test: `GDL_CLI_FUZZ_BIN`, or the one cargo built for the tests.
fn binary() -> PathBuf {
    match std::env::var_os("GDL_CLI_FUZZ_BIN") {
        Some(p) => std::fs::canonicalize(p).expect("GDL_CLI_FUZZ_BIN exists"),
        None => PathBuf::from(env!("CARGO_BIN_EXE_gdl")),
    }
}

/// Runs cases `0..n` of `seed` on `threads` workers; the findings, with
/// their command lines.
fn campaign(seed: u64, n: u64, threads: u64, log: bool) -> Vec<String> {
    campaign_counted(seed, n, threads, log).0
}

/// [`campaign`], with how many runs ended with each exit code.
fn campaign_counted(seed: u64, n: u64, threads: u64, log: bool) -> (Vec<String>, BTreeMap<i32, u64>) {
    let codes = Arc::new(Mutex::new(BTreeMap::new()));
    let gdl = binary();
    let next = Arc::new(AtomicU64::new(0));
    let findings = Arc::new(Mutex::new(Vec::new()));
    let started = Instant::now();
    let workers: Vec<_> = (0..threads)
        .map(|w| {
            let (gdl, next, findings, codes) = (gdl.clone(), next.clone(), findings.clone(), codes.clone());
            std::thread::spawn(move || {
                let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli-fuzz-{seed}-{w}"));
                setup(&dir, &gdl);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= n {
                        break;
                    }
                    let case = make_case(seed, i);
                    let mut rng = StdRng::seed_from_u64(seed ^ i.rotate_left(17));
                    corrupt(&dir, &mut rng);
                    let (finding, code) = run_case(&gdl, &dir, &case);
                    *codes.lock().unwrap().entry(code.unwrap_or(-1)).or_insert(0) += 1;
                    if code == Some(LONG) && log {
                        eprintln!(
                            "cli-fuzz: case {i} (seed {seed}): gdl {:?}: a search without a limit, stopped at {} s (not a finding)",
                            case.args,
                            TIMEOUT.as_secs()
                        );
                    }
                    if let Some(f) = finding {
                        let line = format!("case {i} (seed {seed}): gdl {:?}: {f}", case.args);
                        eprintln!("cli-fuzz: {line}");
                        findings.lock().unwrap().push(line);
                    }
                    if log && i % 1000 == 0 && i > 0 {
                        eprintln!(
                            "cli-fuzz: {i} cases, {:.0} s, {} findings",
                            started.elapsed().as_secs_f64(),
                            findings.lock().unwrap().len()
                        );
                    }
                }
            })
        })
        .collect();
    for w in workers {
        w.join().unwrap();
    }
    let codes = codes.lock().unwrap().clone();
    (findings.lock().unwrap().clone(), codes)
}

#[test]
fn random_command_lines_end_cleanly() {
    let found = campaign(1, 40, 2, false);
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// The campaign; see the module's comment.
#[test]
#[ignore]
fn long_cli_fuzz_campaign() {
    let env = |k: &str, d: u64| std::env::var(k).ok().and_then(|v| v.parse().ok()).unwrap_or(d);
    let n = env("GDL_CLI_FUZZ_CASES", 2000);
    let seed = env("GDL_CLI_FUZZ_SEED", 1);
    let threads = env("GDL_CLI_FUZZ_THREADS", 2);
    let started = Instant::now();
    let (found, codes) = campaign_counted(seed, n, threads, true);
    let secs = started.elapsed().as_secs_f64();
    let report = format!(
        "cli-fuzz: {n} cases, seed {seed}, {threads} threads, {secs:.0} s ({:.1} cases/s), {} findings; exit codes {codes:?} ({LONG}: a search without a limit, stopped at the timeout; -1: killed otherwise)\n",
        n as f64 / secs,
        found.len()
    );
    eprint!("{report}");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/cli-fuzz");
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::write(
        dir.join(format!("report-{seed}.txt")),
        format!("{report}{}\n", found.join("\n")),
    );
    assert!(found.is_empty(), "{}", found.join("\n"));
}
