//! The real `gdl` binary: arguments in; standard output, standard error and
//! exit code out.

use crate::common;

use common::{Run, gdl, snap};

fn json(args: &[&str]) -> serde_json::Value {
    let mut all = args.to_vec();
    all.push("--json");
    let r = gdl(&all);
    assert_eq!(r.code, 0, "gdl {args:?} failed:\n{}", r.stderr);
    serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {}", r.stdout))
}

#[test]
fn solve_reports_every_game() {
    let cases: [(&str, &[&str]); 4] = [
        ("solve_nim", &["solve", "games/nim.game"]),
        (
            "solve_nim_normal",
            &["solve", "games/nim-normal.game", "--piles", "3,4,5"],
        ),
        (
            "solve_nimcala_4_4",
            &["solve", "games/nimcala.game", "--pits", "4", "--tokens", "4"],
        ),
        ("solve_select19", &["solve", "games/select19.game"]),
    ];
    for (name, args) in cases {
        let r = gdl(args);
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        snap!(name, r.stdout);
    }
}

#[test]
fn solve_json_has_the_documented_fields_and_all_searches_agree() {
    for args in [
        &["solve", "games/nim.game", "--piles", "1,3,5"][..],
        &["solve", "games/nim.game", "--from", "[0, 2, 3, 1]; MIN to move"],
        &["solve", "games/nimcala.game", "--pits", "3", "--tokens", "5"],
        &["solve", "games/nimcala.game", "--pits", "5", "--tokens", "3"],
        &[
            "solve",
            "games/select19.game",
            "--from",
            "free: {1, 2, 3, 4, 7, 8, 9}, last: 6; A to move",
        ],
    ] {
        let base = json(args);
        for key in ["value", "best_moves", "pv", "nodes", "states", "seconds"] {
            assert!(base.get(key).is_some(), "{key} missing in {base}");
        }
        assert!(!base["best_moves"].as_array().unwrap().is_empty());
        for extra in [
            &["--no-memo"][..],
            &["--algorithm", "minimax"],
            &["--algorithm", "minimax", "--no-memo"],
        ] {
            let mut all = args.to_vec();
            all.extend_from_slice(extra);
            let other = json(&all);
            assert_eq!(other["value"], base["value"], "{all:?}");
            assert_eq!(other["best_moves"], base["best_moves"], "{all:?}");
        }
    }
}

#[test]
fn nim_from_seed_position_matches_bouton() {
    // [0, 2, 3, 1] with MIN to move: nim-sum 2^3^1 = 0 and a pile above 1, so the mover loses.
    let v = json(&["solve", "games/nim.game", "--from", "[0, 2, 3, 1]; MIN to move"]);
    assert_eq!(v["to_move"], "MIN");
    assert_eq!(v["value"], 1.0, "MAX (the first player) wins");
}

#[test]
fn parameters_become_flags_with_help() {
    let r = gdl(&["solve", "games/nimcala.game", "--help"]);
    assert_eq!(r.code, 0);
    assert!(r.stdout.contains("--pits <INT>"), "{}", r.stdout);
    assert!(
        r.stdout
            .contains("How many pits the board has [default: 4] [range: 1..16]"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("--tokens <INT>"));
}

#[test]
fn bad_input_gives_a_clear_error_and_exit_code_2() {
    let cases: [(&str, &[&str]); 7] = [
        (
            "err_param_out_of_range",
            &["solve", "games/nimcala.game", "--pits", "40"],
        ),
        (
            "err_param_not_a_number",
            &["solve", "games/nimcala.game", "--tokens", "many"],
        ),
        ("err_unknown_flag", &["solve", "games/nimcala.game", "--pitz", "4"]),
        ("err_bad_from", &["solve", "games/nim.game", "--from", "[0, 2, x, 1]"]),
        (
            "err_from_wrong_player",
            &["solve", "games/nim.game", "--from", "[0, 2, 3, 1]; MAXX to move"],
        ),
        ("err_missing_file", &["solve", "games/nope.game"]),
        ("err_broken_file", &["check", "tests/inputs/err/several_errors.game"]),
    ];
    for (name, args) in cases {
        let r = gdl(args);
        assert_eq!(r.code, 2, "{args:?}\n{}", r.stderr);
        assert!(r.stdout.is_empty());
        assert!(!r.stderr.contains("panicked"));
        snap!(name, r.stderr);
    }
}

#[test]
fn a_search_over_its_budget_stops_with_exit_code_1() {
    let r = gdl(&["solve", "games/nim.game", "--no-memo", "--max-nodes", "1000"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("1000"), "{}", r.stderr);
    assert!(r.stdout.is_empty());
}

#[test]
fn check_summarizes_a_game() {
    let cases: [(&str, &[&str]); 3] = [
        ("check_nimcala", &["check", "games/nimcala.game", "--pits", "5"]),
        ("check_tictactoe", &["check", "games/tictactoe.game"]),
        ("check_connect4", &["check", "games/connect4.game"]),
    ];
    for (name, args) in cases {
        let r = gdl(args);
        assert_eq!(r.code, 0, "{}", r.stderr);
        snap!(name, r.stdout);
    }
}

/// `--timings` adds the engine and the load time after the summary, which is
/// otherwise the one `gdl check` prints; compiled, some rules were made (a
/// count and a time), on the VM none.
#[test]
fn check_timings_adds_the_compile_time() {
    let plain = gdl(&["check", "games/connect4.game"]);
    for engine in ["jit", "vm"] {
        let r = gdl(&["check", "games/connect4.game", "--timings", "--engine", engine]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let (summary, added) = r.stdout.split_at(plain.stdout.len());
        assert_eq!(summary, plain.stdout);
        let lines: Vec<&str> = added.lines().collect();
        assert_eq!(lines.len(), 2, "{added}");
        let number = |text: &str, after: &str| -> f64 {
            text.strip_prefix(after)
                .and_then(|l| l.split(' ').next())
                .and_then(|x| x.parse().ok())
                .unwrap_or_else(|| panic!("{added}"))
        };
        if engine == "jit" {
            assert!(number(lines[0], "engine      jit: ") > 0.0, "{added}");
            assert!(lines[0].contains(" rules compiled to machine code in "), "{added}");
        } else {
            assert_eq!(lines[0], "engine      vm: the rules run on the interpreter");
        }
        assert!(number(lines[1], "loaded in   ") > 0.0, "{added}");
    }
}

/// Each rule that fails at run time gives a diagnostic that points at the
/// rule in the file and shows the position, and exit code 1 (issue 7).
#[test]
fn runtime_errors_point_at_the_rule() {
    let cases = [
        ("index_out_of_range", "gdl::runtime::index"),
        ("division_by_zero", "gdl::runtime::division_by_zero"),
        ("endless_recursion", "gdl::runtime::recursion"),
        ("exponential_recursion", "gdl::runtime::steps"),
        ("never_legal", "gdl::runtime::no_moves"),
        ("back_and_forth", "gdl::solve::cycle"),
        ("too_long", "gdl::solve::too_deep"),
    ];
    for (name, code) in cases {
        let file = format!("tests/inputs/runtime/{name}.game");
        let r = gdl(&["solve", &file]);
        assert_eq!(r.code, 1, "{file}\n{}", r.stderr);
        assert!(r.stdout.is_empty());
        assert!(r.stderr.starts_with(code), "{file}:\n{}", r.stderr);
        assert!(
            r.stderr.contains(&format!("[{file}:")),
            "no place in the file:\n{}",
            r.stderr
        );
        assert!(
            r.stderr.contains("; ") && r.stderr.contains(" to"),
            "no position:\n{}",
            r.stderr
        );
        snap!(format!("runtime_{name}"), r.stderr);
    }
}

/// A search that reaches a limit stops, says so, and reports what iterative
/// deepening found within the same limits, marked as not proven.
#[test]
fn a_search_at_a_limit_reports_what_it_found_as_not_proven() {
    for limit in [["--max-nodes", "5000"], ["--max-states", "300"]] {
        let r = gdl(&[
            "solve",
            "games/nimcala.game",
            "--pits",
            "6",
            "--tokens",
            "9",
            limit[0],
            limit[1],
        ]);
        assert_eq!(r.code, 1, "{}", r.stderr);
        assert!(r.stderr.starts_with("gdl::solve::budget"), "{}", r.stderr);
        assert!(r.stderr.contains("NOT PROVEN"), "{}", r.stderr);
        snap!(format!("limit{}", limit[0].replace('-', "_")), r.stderr);
    }
    // A time limit stops a search that would run for minutes (8 pits, 20
    // tokens). The bound is loose on purpose: how close to the limit gdl
    // stops is measured by hand (README, Solving), not on a shared machine.
    let started = std::time::Instant::now();
    let r = gdl(&[
        "solve",
        "games/nimcala.game",
        "--pits",
        "8",
        "--tokens",
        "20",
        "--time-limit",
        "0.5",
    ]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    // Both limits: the one given, and the exact search's three quarters of it.
    let flat = r
        .stderr
        .replace('│', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        flat.contains("the time limit of 0.5s (three quarters of it, 0.375s, for the exact search) was reached"),
        "{}",
        r.stderr
    );
    assert!(started.elapsed().as_secs_f64() < 30.0, "{:?}", started.elapsed());
    // Too small a budget for even one ply (three moves, two nodes): said so.
    let r = gdl(&["solve", "games/nim.game", "--piles", "1,2", "--max-nodes", "2"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("did not complete depth 1"), "{}", r.stderr);
}

/// The catalogue of bad command lines and unreadable files (issue 7): each
/// message is snapshotted, exit code 2, nothing on stdout, no panic.
#[test]
fn a_catalogue_of_bad_command_lines() {
    let dir = std::env::temp_dir().join(format!("gdl-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let binary = dir.join("binary.game");
    std::fs::write(&binary, [0x67u8, 0x61, 0x6d, 0x65, 0x20, 0xff, 0xfe, 0x00, 0x9f]).unwrap();
    let empty = dir.join("empty.game");
    std::fs::write(&empty, "").unwrap();
    let huge = dir.join("huge.game");
    let mut text = String::from("game Huge\nplayers A, B\n");
    while text.len() < 10 << 20 {
        text.push_str("// a long comment line to make the file ten megabytes long............\n");
    }
    std::fs::write(&huge, &text).unwrap();
    let (b, e, h, d) = (
        binary.display().to_string(),
        empty.display().to_string(),
        huge.display().to_string(),
        dir.display().to_string(),
    );
    let cases: Vec<(&str, Vec<&str>)> = vec![
        ("err_no_file", vec!["solve"]),
        ("err_unknown_command", vec!["slove", "games/nim.game"]),
        (
            "err_max_nodes_negative",
            vec!["solve", "games/nim.game", "--max-nodes", "-5"],
        ),
        (
            "err_max_states_not_a_number",
            vec!["solve", "games/nim.game", "--max-states", "lots"],
        ),
        (
            "err_time_limit_zero",
            vec!["solve", "games/nim.game", "--time-limit", "0"],
        ),
        (
            "err_time_limit_not_a_number",
            vec!["solve", "games/nim.game", "--time-limit", "1s"],
        ),
        (
            "err_algorithm_unknown",
            vec!["solve", "games/nim.game", "--algorithm", "mcts"],
        ),
        ("err_from_empty", vec!["solve", "games/nim.game", "--from", ""]),
        (
            "err_from_too_long",
            vec![
                "solve",
                "games/nim.game",
                "--from",
                "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]",
            ],
        ),
        (
            "err_param_huge",
            vec!["solve", "games/nim.game", "--piles", "99999999999999999999"],
        ),
        (
            "err_param_list_garbage",
            vec!["solve", "games/nim.game", "--piles", "1,,2"],
        ),
        ("err_directory", vec!["check", &d]),
    ];
    for (name, args) in &cases {
        let r = gdl(args);
        assert_eq!(r.code, 2, "{args:?}\n{}", r.stderr);
        assert!(r.stdout.is_empty(), "{args:?}");
        assert!(!r.stderr.contains("panicked"));
        let text = r.stderr.replace(&d, "[dir]");
        snap!(*name, text);
    }
    for (name, file) in [
        ("err_binary_file", &b),
        ("err_empty_file", &e),
        ("err_ten_megabyte_file", &h),
    ] {
        let r = gdl(&["check", file]);
        assert_eq!(r.code, 2, "{file}\n{}", r.stderr);
        assert!(!r.stderr.contains("panicked"));
        snap!(name, r.stderr.replace(&d, "[dir]"));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The memo table stops before the memory limit (`--max-memory`, or 3/4 of
/// the memory available): the search says so and reports what iterative
/// deepening found, marked as not proven, with exit code 1 (issue 13).
#[test]
fn a_solve_at_the_memory_limit_stops_with_a_partial_answer() {
    let r = gdl(&[
        "solve",
        "games/nimcala.game",
        "--pits",
        "8",
        "--tokens",
        "12",
        "--max-memory",
        "16M",
    ]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.starts_with("gdl::memory::limit"), "{}", r.stderr);
    assert!(r.stderr.contains("NOT PROVEN"), "{}", r.stderr);
    snap!("limit_memory", r.stderr);
    for (bad, why) in [
        ("1K", "too little"),
        ("lots", "not a size"),
        ("-1G", "not a size"),
        ("99999999T", "more memory than any machine has"),
    ] {
        let r = gdl(&["check", "games/nim.game", "--max-memory", bad]);
        assert_eq!(r.code, 2, "{bad}: {}", r.stderr);
        assert!(r.stderr.contains(why), "{bad}: {}", r.stderr);
    }
}

/// Time limits too large to add to the clock, or too small to measure, are
/// refused with their range; the largest one accepted works (issue 13: 1e20
/// panicked, 1e19 overflowed the clock, 1e-300 printed 300 zeros).
#[test]
fn time_limits_outside_their_range_are_refused_with_the_range() {
    for (name, flag, value) in [
        ("err_time_limit_huge", "--time-limit", "1e20"),
        ("err_time_limit_tiny", "--time-limit", "1e-300"),
        ("err_bench_seconds_huge", "--seconds", "1e7"),
    ] {
        let command = if flag == "--seconds" { "bench" } else { "solve" };
        let r = gdl(&[command, "games/nim.game", flag, value]);
        assert_eq!(r.code, 2, "{flag} {value}: {}", r.stderr);
        snap!(name, r.stderr);
    }
    let r = gdl(&["solve", "games/nim.game", "--max-nodes", "10", "--time-limit", "1e9"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.starts_with("gdl::solve::budget"), "{}", r.stderr);
}

/// `gdl tree` on states wider than 65,535 characters, on a node with 10^10
/// joint moves, and on a tree of wide states over the memory limit: a tree,
/// a count, and a clean stop (issue 13: a panic, 5.6 GB, no bound).
#[test]
fn trees_of_wide_states_and_many_joint_moves_stay_bounded() {
    let r = gdl(&["tree", "tests/inputs/cli/wide_state.game", "--depth", "1"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let first = r.stdout.lines().next().unwrap();
    assert!(first.starts_with("start     xs: [123456789, "), "{first:.80}");
    assert!(
        first.ends_with("], n: 0  A to move"),
        "{:.80}",
        &first[first.len() - 80..]
    );

    // Counted without being made, within a small memory limit.
    let r = gdl(&[
        "tree",
        "tests/inputs/cli/ten_players_at_once.game",
        "--depth",
        "1",
        "--force",
        "--max-memory",
        "16M",
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("more than 1,000,000 nodes"), "{}", r.stderr);

    let r = gdl(&[
        "tree",
        "tests/inputs/cli/wide_tree.game",
        "--depth",
        "2",
        "--force",
        "--max-memory",
        "32M",
    ]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stdout.is_empty());
    snap!("tree_memory_limit", r.stderr);
}

/// `gdl tree --values` takes the solver's limits (issue 13).
#[test]
fn tree_values_take_the_solvers_limits() {
    let r = gdl(&[
        "tree",
        "games/nim.game",
        "--depth",
        "1",
        "--values",
        "--max-nodes",
        "100",
    ]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.starts_with("gdl::solve::budget"), "{}", r.stderr);
    let r = gdl(&[
        "tree",
        "games/nim.game",
        "--depth",
        "1",
        "--values",
        "--time-limit",
        "1e20",
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
}

/// Runs gdl in `dir` as `gdl_in` does, with its address space limited to
/// `bytes` (as `ulimit -v` would).
fn gdl_capped(dir: &std::path::Path, args: &[&str], bytes: u64) -> Run {
    use std::os::unix::process::CommandExt;
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_gdl"));
    cmd.args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::null());
    // SAFETY: setrlimit is async-signal-safe; nothing else runs in the child.
    unsafe {
        cmd.pre_exec(move || {
            let lim = libc::rlimit {
                rlim_cur: bytes,
                rlim_max: bytes,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &lim) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let out = cmd.output().expect("gdl runs");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// 250,000 nested `not`: under an address-space limit the parser's large
/// stack could not be reserved, and the fallback overflowed (issue 13).
/// Files nested far too deep are refused on any stack.
#[test]
fn deep_files_are_refused_under_an_address_space_limit() {
    let dir = common::scratch("cli", "deep_files", &[]);
    let nots = format!(
        "game Deep\nplayers A, B\nstate x: bool = {}true\nmove m(k in 1..1) {{ x = false }}\nend when not x {{ winner previous }}\n",
        "not ".repeat(250_000)
    );
    std::fs::write(dir.join("nots.game"), nots).unwrap();
    let parens = format!(
        "game Deep\nplayers A, B\nstate x: int = {}1{}\nmove m(k in 1..1) {{ x = 0 }}\nend when x == 0 {{ winner previous }}\n",
        "(".repeat(300_000),
        ")".repeat(300_000)
    );
    std::fs::write(dir.join("parens.game"), parens).unwrap();
    for (file, cap) in [("nots.game", 1_100_000_000), ("parens.game", 512 << 20)] {
        let r = gdl_capped(&dir, &["check", file], cap);
        assert_eq!(r.code, 2, "{file} under {cap}: {}", r.stderr);
        assert!(r.stderr.starts_with("gdl::syntax::too_deep"), "{file}: {}", r.stderr);
    }
}

/// A game file is read once and no further than the largest file gdl takes,
/// so pipes, FIFOs, `/dev/stdin` and devices work or fail cleanly; a file
/// with a byte-order mark or old Mac line endings reads as text; and a file
/// that cannot be read or parsed says why, not that its parameters' flags
/// are unknown (issue 13).
#[test]
fn game_files_are_read_once_and_their_problems_told() {
    let dir = common::scratch("cli", "reading", &["nim.game"]);
    let nim = std::fs::read_to_string(dir.join("nim.game")).unwrap();
    std::fs::write(dir.join("bom.game"), format!("\u{feff}{nim}")).unwrap();
    std::fs::write(dir.join("cr.game"), nim.replace('\n', "\r")).unwrap();
    std::fs::write(dir.join("crlf.game"), nim.replace('\n', "\r\n")).unwrap();
    for file in ["bom.game", "cr.game", "crlf.game", "/dev/stdin"] {
        let r = common::gdl_in(&dir, &["solve", file, "--piles", "1,2"], Some(&nim));
        assert_eq!(r.code, 0, "{file}: {}", r.stderr);
        assert!(r.stdout.contains("value       1"), "{file}: {}", r.stdout);
    }
    // A FIFO, written once.
    let fifo = dir.join("fifo.game");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let writer = {
        let (fifo, nim) = (fifo.clone(), nim.clone());
        std::thread::spawn(move || std::fs::write(fifo, nim).unwrap())
    };
    let r = common::gdl_in(&dir, &["solve", "fifo.game", "--piles", "1,2"], None);
    writer.join().unwrap();
    assert_eq!(r.code, 0, "{}", r.stderr);

    // Too large, said before reading it all: a sparse 3 GB file, a device.
    std::fs::File::create(dir.join("big.game"))
        .unwrap()
        .set_len(3 << 30)
        .unwrap();
    std::fs::write(dir.join("latin1.game"), b"game Caf\xe9\nplayers A, B\n").unwrap();
    std::fs::write(dir.join("broken.game"), "game X\nplayers A B\n").unwrap();
    let cases: [(&str, &[&str]); 6] = [
        ("err_read_big_file", &["check", "big.game"]),
        ("err_read_dev_zero", &["check", "/dev/zero"]),
        ("err_read_missing_with_flag", &["solve", "nope.game", "--piles", "1,2"]),
        (
            "err_read_not_utf8_with_flag",
            &["solve", "latin1.game", "--piles", "1,2"],
        ),
        ("err_read_broken_with_flag", &["solve", "broken.game", "--piles", "1,2"]),
        ("err_read_directory_with_flag", &["solve", ".", "--piles", "1,2"]),
    ];
    for (name, args) in cases {
        let r = common::gdl_in(&dir, args, None);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(!r.stderr.contains("unexpected argument"), "{args:?}: {}", r.stderr);
        snap!(name, r.stderr);
    }
}

/// Thousands of parameters, or of errors: each parameter checked against
/// the others pair by pair, and each error drawn by reading the file from
/// its start, took minutes (issue 13: 30,000 parameters, 21 s; 52,000
/// unknown names, 210 s). The first 50 errors are drawn, the rest counted.
#[test]
fn thousands_of_parameters_or_errors_are_handled_in_one_pass() {
    let dir = common::scratch("cli", "thousands", &[]);
    let mut params = String::from("game Params\nplayers A, B\n");
    for i in 0..30_000 {
        params.push_str(&format!("param p{i}: int = 1\n"));
    }
    params.push_str("state x: int = p29999\nmove m(k in 1..1) { x += k }\nend when x > 5 { winner previous }\n");
    std::fs::write(dir.join("params.game"), params).unwrap();
    let r = common::gdl_in(&dir, &["solve", "params.game", "--p29999", "5"], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("position    x: 5"), "{}", r.stdout);

    let mut unknown = String::from("game Unknown\nplayers A, B\nstate x: int = 0\nmove m(k in 1..1) {\n");
    for i in 0..5_000 {
        unknown.push_str(&format!("  x = u{i}\n"));
    }
    unknown.push_str("}\nend when x > 0 { winner previous }\n");
    std::fs::write(dir.join("unknown.game"), unknown).unwrap();
    let r = common::gdl_in(&dir, &["check", "unknown.game"], None);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(r.stderr.matches("gdl::compile::unknown_name").count(), 50);
    assert!(
        r.stderr.ends_with(
            "... and 4950 more errors (the first 50 are shown)\n\nerror: could not compile `unknown.game`: 5000 errors\n"
        ),
        "{}",
        &r.stderr[r.stderr.len() - 200..]
    );
}

/// Outputs are checked before any work (issue 13): never onto an input
/// (the game file, a Q-table an agent reads), never two outputs on one
/// file, a name too long for its temporary file or a folder refused at
/// once; a symbolic link is kept and the file it names written, a device
/// written through; a stale temporary file of a killed gdl is removed.
#[test]
fn outputs_are_checked_before_any_work() {
    let dir = common::scratch("cli", "outputs", &["nim.game"]);
    std::fs::write(dir.join("q.json"), "{}").unwrap();
    let long = format!("{}.csv", "a".repeat(248));
    let match_ = ["match", "nim.game", "--players", "random,random", "--games", "4"];
    let cases: Vec<(&str, Vec<&str>)> = vec![
        ("outputs_err_csv_is_the_game", vec!["--csv", "nim.game"]),
        (
            "outputs_err_csv_is_the_game_by_another_name",
            vec!["--csv", "./nim.game"],
        ),
        (
            "outputs_err_csv_is_a_q_table_read",
            vec!["--players", "q:q.json,random", "--csv", "q.json"],
        ),
        (
            "outputs_err_csv_and_plot_one_file",
            vec!["--csv", "p.svg", "--plot", "./p.svg"],
        ),
        ("outputs_err_name_too_long", vec!["--csv", &long]),
        ("outputs_err_folder", vec!["--csv", "newdir/"]),
    ];
    for (name, extra) in cases {
        let mut args = match_.to_vec();
        if extra[0] == "--players" {
            args.truncate(2);
            args.extend(["--games", "4"]);
        }
        args.extend(extra);
        let r = common::gdl_in(&dir, &args, None);
        assert_eq!(r.code, 2, "{name}: {}", r.stderr);
        snap!(name, r.stderr);
    }
    for args in [
        &["train", "nim.game", "--episodes", "5", "--out", "nim.game"][..],
        &["tree", "nim.game", "--depth", "1", "--out", "nim.game"],
    ] {
        let r = common::gdl_in(&dir, args, None);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains("which this command reads"), "{}", r.stderr);
    }
    assert!(
        std::fs::read_to_string(dir.join("nim.game"))
            .unwrap()
            .starts_with("// Nim")
    );

    // A link is followed, a device written through.
    std::os::unix::fs::symlink("real.csv", dir.join("link.csv")).unwrap();
    std::fs::write(dir.join(".real.csv.999999999.tmp"), "left by a killed gdl").unwrap();
    let mut args = match_.to_vec();
    args.extend(["--csv", "link.csv"]);
    let r = common::gdl_in(&dir, &args, None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        std::fs::symlink_metadata(dir.join("link.csv"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("real.csv")).unwrap().lines().count(),
        5
    );
    let mut args = match_.to_vec();
    args.extend(["--csv", "/dev/stdout"]);
    let r = common::gdl_in(&dir, &args, None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.starts_with("game,random #1 seat,"), "{}", r.stdout);
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["link.csv", "nim.game", "q.json", "real.csv"]);
}

/// A match's CSV is written as games end: Ctrl-C or SIGTERM stops the match
/// between two games, and the CSV and the report cover what was played.
#[test]
fn an_interrupted_match_keeps_the_games_played() {
    let dir = common::scratch("cli", "interrupted_match", &["nim.game"]);
    for (signal, code, told) in [("-INT", 130, "Ctrl-C"), ("-TERM", 143, "SIGTERM")] {
        let csv = format!("games{signal}.csv");
        let args = [
            "match",
            "nim.game",
            "--players",
            "random,random",
            "--games",
            "1000000000",
            "--csv",
            &csv,
        ];
        let child = common::spawn_gdl(&dir, &args);
        // Long enough for the match to start and play some games.
        std::thread::sleep(std::time::Duration::from_millis(1500));
        let killed = std::process::Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let r = child.wait_with_output().unwrap();
        let stdout = String::from_utf8(r.stdout).unwrap();
        let stderr = String::from_utf8(r.stderr).unwrap();
        assert_eq!(r.status.code(), Some(code), "{stdout}\n{stderr}");
        let text = std::fs::read_to_string(dir.join(&csv)).unwrap();
        let games = text.lines().count() - 1;
        assert!(games > 0, "{text}");
        assert!(
            stderr.contains(&format!("interrupted by {told} after {games} of 1000000000 games")),
            "{stderr}"
        );
        assert!(stdout.contains(&format!("games    {games} (")), "{stdout}");
        assert!(stdout.contains(&format!("csv      {csv} ({games} games)")), "{stdout}");
        let last = text.lines().last().unwrap();
        assert!(last.starts_with(&format!("{games},")), "{last}");
    }
    let left = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(left, 3, "no temporary file is left");
}

/// Standard output that cannot be written: `| head` ends gdl silently and
/// successfully, a full device is an error (issue 13).
#[test]
fn standard_output_failures() {
    let gdl = env!("CARGO_BIN_EXE_gdl");
    // Megabytes of tree, far more than a pipe holds.
    let head = std::process::Command::new("bash")
        .arg("-c")
        .arg(format!(
            "set -o pipefail; '{gdl}' tree games/nim.game --depth 4 --force | head -1"
        ))
        .current_dir(common::crate_dir())
        .output()
        .unwrap();
    assert_eq!(head.status.code(), Some(0), "{head:?}");
    assert!(head.stderr.is_empty(), "{head:?}");
    assert_eq!(String::from_utf8_lossy(&head.stdout).lines().count(), 1);
    for args in [
        &["--help"][..],
        &["check", "games/nim.game"],
        &["tree", "games/nim.game", "--depth", "2"],
    ] {
        let full = std::process::Command::new(gdl)
            .args(args)
            .current_dir(common::crate_dir())
            .stdout(std::fs::File::create("/dev/full").unwrap())
            .output()
            .unwrap();
        assert_eq!(full.status.code(), Some(1), "{args:?}");
        assert!(
            String::from_utf8_lossy(&full.stderr).contains("cannot write to standard output: No space left on device"),
            "{full:?}"
        );
    }
}

/// What a hostile afternoon found (issue 13), each case as a user meets it:
/// the exit code and what gdl says.
#[test]
fn found_bugs_end_in_clear_answers() {
    let dir = common::scratch("cli", "found_bugs", &["nim.game"]);
    let nim = std::fs::read_to_string(dir.join("nim.game")).unwrap();
    std::fs::write(dir.join("bom.game"), format!("\u{feff}{nim}")).unwrap();
    std::fs::write(dir.join("cr.game"), nim.replace('\n', "\r")).unwrap();
    std::fs::write(
        dir.join("wide_set.game"),
        "game W\nplayers A, B\nstate s: set<0..4096> = {4096}\nmove m(k in 0..1) { s.add(k) }\nend when 0 in s { winner previous }\n",
    )
    .unwrap();
    let run = |args: &[&str], input: Option<&str>| common::gdl_in(&dir, args, input);
    // Byte-order mark and CR-only line endings: the file reads as any other.
    for file in ["bom.game", "cr.game"] {
        let r = run(&["solve", file, "--piles", "1,2"], None);
        assert_eq!(r.code, 0, "{file}: {}", r.stderr);
        assert!(r.stdout.contains("value       1 "), "{file}: {}", r.stdout);
    }
    // A set as wide as the reference allows.
    let r = run(&["check", "wide_set.game"], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // Extra spaces in a position.
    let r = run(&["solve", "nim.game", "--from", "[1, 2];   MIN    to   move "], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("to move     MIN"), "{}", r.stdout);
    // Moves typed with their name or leading zeros; a line that is not UTF-8 is asked again.
    for typed in ["take(0,1)", "(0,01)", "take( 00, 1 )"] {
        let mut child = common::spawn_gdl(&dir, &["play", "nim.game", "--piles", "1,2", "--seed", "1"]);
        let mut input = b"\xff\xfe not text\n".to_vec();
        input.extend_from_slice(format!("{typed}\nquit\n").as_bytes());
        std::io::Write::write_all(child.stdin.as_mut().unwrap(), &input).unwrap();
        let r = child.wait_with_output().unwrap();
        let stdout = String::from_utf8_lossy(&r.stdout);
        assert_eq!(r.status.code(), Some(0), "{typed}: {stdout}");
        assert!(stdout.contains("that line is not text (UTF-8)"), "{typed}: {stdout}");
        assert!(!stdout.contains("is not a legal move"), "{typed}: {stdout}");
        assert!(
            stdout.contains(&format!("Your move? {typed}\n(0, 1)\n")),
            "{typed}: {stdout}"
        );
    }
    // A Q-table whose values would overflow while learning.
    let r = run(
        &[
            "train",
            "nim.game",
            "--piles",
            "1,2",
            "--episodes",
            "50",
            "--out",
            "q.json",
        ],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let table = std::fs::read_to_string(dir.join("q.json")).unwrap();
    let at = table.find("\"(0, 1)\": ").unwrap() + "\"(0, 1)\": ".len();
    let end = at + table[at..].find([',', '\n']).unwrap();
    std::fs::write(dir.join("q.json"), format!("{}1.7e308{}", &table[..at], &table[end..])).unwrap();
    let r = run(
        &[
            "train", "nim.game", "--piles", "1,2", "--init", "q.json", "--out", "q2.json",
        ],
        None,
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("beyond ±1e15"), "{}", r.stderr);
    let snaps: &[(&str, &[&str])] = &[
        (
            "found_negative_games",
            &["match", "nim.game", "--players", "random,random", "--games", "-1"],
        ),
        (
            "found_negative_episodes",
            &["train", "nim.game", "--episodes", "-5", "--out", "q.json"],
        ),
        (
            "found_bench_seconds_too_long",
            &["bench", "nim.game", "--seconds", "1e7"],
        ),
        (
            "found_time_limit_tiny",
            &["solve", "nim.game", "--time-limit", "1e-300"],
        ),
        (
            "found_alpha_huge",
            &["train", "nim.game", "--alpha", "1.7e308", "--out", "q.json"],
        ),
    ];
    for (name, args) in snaps {
        let r = run(args, None);
        assert_eq!(r.code, 2, "{name}: {}", r.stderr);
        assert!(r.stderr.len() < 400, "{name}: {}", r.stderr);
        snap!(*name, r.stderr);
    }
    // A line without end on standard input: no move, and no memory eaten.
    let gdl = env!("CARGO_BIN_EXE_gdl");
    let zero = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("'{gdl}' play nim.game --piles 1,2 < /dev/zero"))
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(zero.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&zero.stderr).contains("a line of input longer than 4096 bytes is no move"),
        "{zero:?}"
    );
}

/// The memory limit's message says what gdl was doing: a solve of a game
/// with chance (Pig's value iteration) is "solving", not "compiling the
/// game" (the last thing said before).
#[test]
fn the_memory_limit_names_the_solve_of_a_game_with_chance() {
    for args in [
        &["solve", "games/pig.game", "--max-memory", "64M"][..],
        &["solve", "games/pig.game", "--max-memory", "64M", "--threads", "2"],
    ] {
        let r = common::gdl(args);
        assert_eq!(r.code, 1, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains("memory limit of"), "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains("while solving"), "{args:?}: {}", r.stderr);
    }
}

/// Every command that can grow, under a 512 MiB address-space limit (as
/// `ulimit -v` sets), on a game whose search would need gigabytes (40 moves
/// of 2 choices, each state 32 KB): a clear message and exit 1, never an
/// abort (issue 13, item 5). The memory limit is what the address space
/// leaves, found at start.
#[test]
fn every_command_stops_cleanly_under_512_mib_of_address_space() {
    let dir = common::scratch("cli", "address_space", &[]);
    std::fs::write(
        dir.join("wide.game"),
        "game Wide\nplayers A, B\nstate x: list<int> = [0; 4000]\nstate i: int = 0\n\
         move m(v in 0..1) { x[i] = v; i += 1 }\nend when i >= 40 { winner previous }\n",
    )
    .unwrap();
    let commands: &[&[&str]] = &[
        &["solve", "wide.game"],
        &["tree", "wide.game", "--depth", "16", "--force"],
        &["match", "wide.game", "--players", "optimal,random", "--games", "1"],
        &["trace", "wide.game", "--players", "optimal,random"],
        &["play", "wide.game", "--players", "optimal,optimal"],
        &["train", "wide.game", "--episodes", "1000000", "--out", "q.json"],
    ];
    for args in commands {
        let r = gdl_capped(&dir, args, 512 << 20);
        assert_eq!(r.code, 1, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains("memory limit of"), "{args:?}: {}", r.stderr);
        assert!(
            r.stderr.contains("address-space") || args[0] == "train",
            "{args:?}: {}",
            r.stderr
        );
        assert!(!r.stderr.contains("panicked"), "{args:?}: {}", r.stderr);
    }
    // Training stopped before the limit, and saved what it learned.
    assert!(dir.join("q.json").exists());
}

/// `--max-nodes` and `--time-limit` bound the search of every `optimal`
/// agent, per move, as `gdl solve` takes them: a budget too small for the
/// first move stops the game there, saying whose search ran out and where
/// (exit 1); a budget large enough changes nothing.
#[test]
fn optimal_agents_take_the_solvers_limits() {
    let dir = common::scratch("cli", "optimal_limits", &["nim.game", "nimcala.game"]);
    let train = common::gdl_in(
        &dir,
        &[
            "train",
            "nim.game",
            "--piles",
            "1,2,3",
            "--episodes",
            "200",
            "--out",
            "q.json",
        ],
        None,
    );
    assert_eq!(train.code, 0, "{}", train.stderr);
    let nimcala = ["nimcala.game", "--pits", "4", "--tokens", "4"];
    let with = |head: &[&str], game: &[&str], tail: &[&str]| -> Vec<String> {
        head.iter().chain(game).chain(tail).map(|s| s.to_string()).collect()
    };
    let commands: Vec<(&str, Vec<String>)> = vec![
        ("trace", with(&["trace"], &nimcala, &["--players", "optimal,optimal"])),
        (
            "play",
            with(
                &["play"],
                &nimcala,
                &["--players", "optimal:first,optimal", "--seed", "1"],
            ),
        ),
        (
            "match",
            with(
                &["match"],
                &nimcala,
                &[
                    "--players",
                    "optimal,random",
                    "--games",
                    "4",
                    "--threads",
                    "1",
                    "--csv",
                    "m.csv",
                ],
            ),
        ),
        (
            "league",
            with(
                &["match"],
                &nimcala,
                &["--players", "optimal,random,greedy", "--games", "2", "--threads", "1"],
            ),
        ),
        (
            "eval",
            with(
                &["eval"],
                &["nim.game", "--piles", "1,2,3"],
                &["--q", "q.json", "--games", "10"],
            ),
        ),
    ];
    for (name, args) in &commands {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let plain = common::gdl_in(&dir, &args, None);
        assert_eq!(plain.code, 0, "{args:?}: {}", plain.stderr);
        let plain_csv = std::fs::read_to_string(dir.join("m.csv")).ok();

        let mut small = args.clone();
        small.extend(["--max-nodes", "3"]);
        let r = common::gdl_in(&dir, &small, None);
        assert_eq!(r.code, 1, "{small:?}: {}", r.stderr);
        assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
        snap!(format!("optimal_limits_{name}_max_nodes"), r.stderr);

        let mut ample = args.clone();
        ample.extend(["--max-nodes", "100000000", "--time-limit", "1000", "--max-memory", "1G"]);
        let r = common::gdl_in(&dir, &ample, None);
        assert_eq!(r.code, 0, "{ample:?}: {}", r.stderr);
        // The same games, move for move (a match's times per decision aside).
        if *name == "match" {
            assert_eq!(std::fs::read_to_string(dir.join("m.csv")).ok(), plain_csv);
        } else if *name != "league" {
            assert_eq!(r.stdout, plain.stdout, "{ample:?}");
        }
    }
    // The time limit, on misère Nim from a position too big to solve in a millisecond.
    let r = common::gdl_in(
        &dir,
        &[
            "trace",
            "nim.game",
            "--piles",
            "3,4,5,6,7,8,9",
            "--players",
            "random,optimal",
            "--time-limit",
            "0.001",
        ],
        None,
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("the game stopped at move 2"), "{}", r.stderr);
    assert!(r.stderr.contains("for MIN ran out on its 1st move"), "{}", r.stderr);
    assert!(r.stderr.contains("(--time-limit) was reached"), "{}", r.stderr);
}

/// `solve --csv` (a sweep) and `man --out` write through the checks every
/// output has: the game file is never overwritten, and pages are whole.
#[test]
fn sweep_csv_and_man_pages_are_checked_outputs() {
    let dir = common::scratch("cli", "sweep_man_outputs", &["nimcala.game"]);
    let before = std::fs::read(dir.join("nimcala.game")).unwrap();
    let r = common::gdl_in(
        &dir,
        &[
            "solve",
            "nimcala.game",
            "--pits",
            "1..2",
            "--tokens",
            "1",
            "--csv",
            "nimcala.game",
        ],
        None,
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    snap!("sweep_csv_is_the_game", r.stderr);
    assert_eq!(std::fs::read(dir.join("nimcala.game")).unwrap(), before);
    let r = common::gdl_in(
        &dir,
        &[
            "solve",
            "nimcala.game",
            "--pits",
            "1..2",
            "--tokens",
            "1",
            "--csv",
            "rows.csv",
        ],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let rows = std::fs::read_to_string(dir.join("rows.csv")).unwrap();
    assert_eq!(rows.lines().count(), 3, "{rows}");

    std::fs::create_dir_all(dir.join("man")).unwrap();
    let r = common::gdl_in(&dir, &["man", "--out", "man"], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    for page in ["gdl.1", "gdl-solve.1", "gdl-match.1"] {
        let text = std::fs::read_to_string(dir.join("man").join(page)).unwrap();
        assert!(text.starts_with(".ie"), "{page}: {}", &text[..text.len().min(80)]);
    }
    let stray: Vec<_> = std::fs::read_dir(dir.join("man"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(stray.is_empty());
    let r = common::gdl_in(&dir, &["man", "--out", "nimcala.game"], None);
    assert_eq!(r.code, 2, "{}", r.stderr);
}

/// Found by the command-line fuzzer (case 4732 of seed 1): `--max-states`
/// with `--no-memo` was ignored, and the search ran without a limit.
#[test]
fn max_states_without_a_memo_table_is_refused() {
    let r = gdl(&["solve", "games/kalah.game", "--max-states", "10", "--no-memo"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("--max-nodes or --time-limit"), "{}", r.stderr);
    let r = gdl(&["solve", "games/nim.game", "--max-states", "100000"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
}

/// A folder named like a bundled game (someone's own `chess/`) is no game
/// file: the bundled game is read, with a note; a folder named like no game
/// is still an error.
#[test]
fn a_folder_named_like_a_game_reads_the_bundled_game() {
    let dir = common::scratch("cli", "folder_named_like_a_game", &[]);
    std::fs::create_dir_all(dir.join("chess")).unwrap();
    std::fs::create_dir_all(dir.join("mine")).unwrap();
    let r = common::gdl_in(&dir, &["perft", "chess", "--depth", "2"], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("400"), "{}", r.stdout);
    assert!(r.stderr.starts_with("note: chess here is a folder"), "{}", r.stderr);
    let r = common::gdl_in(&dir, &["check", "mine"], None);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("cannot read mine: it is a directory"), "{}", r.stderr);
}

/// Found by the command-line fuzzer (case 2947 of seed 7): in a folder
/// holding nim-normal.game, `train nim-normal --out nim-normal.game` read the
/// bundled game and wrote the Q-table over the file. No output replaces a
/// game file, whatever its name; a bundled name read beside a different
/// `NAME.game` says which game it used.
#[test]
fn no_output_replaces_a_game_file() {
    let dir = common::scratch("cli", "game_file_outputs", &["nim-normal.game", "nim.game"]);
    let train = ["train", "nim-normal", "--episodes", "0", "--out", "nim-normal.game"];
    let bundled = std::fs::read(dir.join("nim-normal.game")).unwrap();
    let r = common::gdl_in(&dir, &train, None);
    assert_eq!(r.code, 2, "{}", r.stderr);
    snap!("outputs_err_out_is_a_game_file", r.stderr);
    assert_eq!(std::fs::read(dir.join("nim-normal.game")).unwrap(), bundled);

    // An edited copy: the command says it read the bundled game instead.
    let mut edited = bundled.clone();
    edited.extend_from_slice(b"// my edit\n");
    std::fs::write(dir.join("nim-normal.game"), &edited).unwrap();
    let r = common::gdl_in(&dir, &train, None);
    assert_eq!(r.code, 2, "{}", r.stderr);
    snap!("outputs_err_out_is_a_game_file_beside_the_bundled_name", r.stderr);
    assert_eq!(std::fs::read(dir.join("nim-normal.game")).unwrap(), edited);
    let r = common::gdl_in(&dir, &["check", "nim-normal"], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.starts_with("note: `nim-normal` is the game"), "{}", r.stderr);

    // A game file under another name, with a byte-order mark and comments.
    let mut rules = b"\xef\xbb\xbf// my rules\n\n".to_vec();
    rules.extend(std::fs::read(dir.join("nim.game")).unwrap());
    std::fs::write(dir.join("rules.txt"), &rules).unwrap();
    for args in [
        &[
            "match",
            "nim.game",
            "--players",
            "random,random",
            "--games",
            "2",
            "--csv",
            "rules.txt",
        ][..],
        &["tree", "nim", "--depth", "1", "--out", "rules.txt"],
        &["train", "nim", "--episodes", "0", "--out", "rules.txt"],
    ] {
        let r = common::gdl_in(&dir, args, None);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains("rules.txt: it is a game file"), "{}", r.stderr);
    }
    assert_eq!(std::fs::read(dir.join("rules.txt")).unwrap(), rules);

    // What gdl wrote before it may replace: a CSV begins `game,`.
    let csv = [
        "match",
        "nim.game",
        "--players",
        "random,random",
        "--games",
        "2",
        "--csv",
        "games.csv",
    ];
    for _ in 0..2 {
        let r = common::gdl_in(&dir, &csv, None);
        assert_eq!(r.code, 0, "{}", r.stderr);
    }
    let r = common::gdl_in(&dir, &["train", "nim", "--episodes", "5", "--out", "q.game"], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = common::gdl_in(&dir, &["train", "nim", "--episodes", "5", "--out", "q.game"], None);
    assert_eq!(r.code, 0, "a Q-table named .game is not a game file: {}", r.stderr);
}

/// A league (more agents than seats) streams its CSV too: Ctrl-C stops it
/// between two games, and the CSV and the report cover what was played.
#[test]
fn an_interrupted_league_keeps_the_games_played() {
    let dir = common::scratch("cli", "interrupted_league", &["nim.game"]);
    let args = [
        "match",
        "nim.game",
        "--players",
        "random,random,random",
        "--games",
        "1000000000",
        "--csv",
        "league.csv",
        "--plot",
        "league.svg",
    ];
    let child = common::spawn_gdl(&dir, &args);
    // Long enough for the league to start and play some games.
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let killed = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let r = child.wait_with_output().unwrap();
    let stdout = String::from_utf8(r.stdout).unwrap();
    let stderr = String::from_utf8(r.stderr).unwrap();
    assert_eq!(r.status.code(), Some(130), "{stdout}\n{stderr}");
    let text = std::fs::read_to_string(dir.join("league.csv")).unwrap();
    let games = text.lines().count() - 1;
    assert!(games > 0, "{text}");
    assert!(
        stderr.contains(&format!("interrupted by Ctrl-C after {games} of 3000000000 games")),
        "{stderr}"
    );
    assert!(stdout.contains(&format!("{games} games in all")), "{stdout}");
    assert!(
        stdout.contains(&format!("csv      league.csv ({games} games)")),
        "{stdout}"
    );
    let last = text.lines().last().unwrap();
    assert!(last.starts_with(&format!("1,{games},")), "{last}");
    let svg = std::fs::read_to_string(dir.join("league.svg")).unwrap();
    assert!(svg.contains(&format!("{games} games")));
    let left = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(left, 3, "no temporary file is left");
}

/// `alphabeta:D` takes `--max-nodes` and `--time-limit` per move, as
/// `optimal` does: a limit too small to look one move ahead stops the game
/// (exit 1) with a message naming the agent, its seat, the position and the
/// limit; a moderate one plays the deepest search it finished; an ample one
/// changes nothing.
#[test]
fn alphabeta_agents_take_the_search_limits() {
    let dir = common::scratch("cli", "alphabeta_limits", &["nimcala.game"]);
    let game = ["nimcala.game", "--pits", "4", "--tokens", "4"];
    let with = |head: &[&str], tail: &[&str]| -> Vec<String> {
        head.iter().chain(&game).chain(tail).map(|s| s.to_string()).collect()
    };
    let trace = with(&["trace"], &["--players", "alphabeta:4,random"]);
    let match_ = with(
        &["match"],
        &["--players", "random,alphabeta:4", "--games", "6", "--csv", "m.csv"],
    );
    for (name, args) in [("trace", &trace), ("match", &match_)] {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let plain = common::gdl_in(&dir, &args, None);
        assert_eq!(plain.code, 0, "{args:?}: {}", plain.stderr);
        let plain_csv = std::fs::read_to_string(dir.join("m.csv")).ok();

        let mut tiny = args.clone();
        tiny.extend(["--max-nodes", "1"]);
        let r = common::gdl_in(&dir, &tiny, None);
        assert_eq!(r.code, 1, "{tiny:?}: {}", r.stderr);
        snap!(format!("alphabeta_limits_{name}_max_nodes"), r.stderr);

        let mut moderate = args.clone();
        moderate.extend(["--max-nodes", "30"]);
        let r = common::gdl_in(&dir, &moderate, None);
        assert_eq!(r.code, 0, "{moderate:?}: {}", r.stderr);
        if name == "trace" {
            // Its first move comes from a shallower search than 4 plies.
            assert_ne!(r.stdout, plain.stdout, "{moderate:?}");
        }

        let mut ample = args.clone();
        ample.extend(["--max-nodes", "100000000", "--time-limit", "1000"]);
        let r = common::gdl_in(&dir, &ample, None);
        assert_eq!(r.code, 0, "{ample:?}: {}", r.stderr);
        if name == "match" {
            assert_eq!(std::fs::read_to_string(dir.join("m.csv")).ok(), plain_csv);
        } else {
            assert_eq!(r.stdout, plain.stdout, "{ample:?}");
        }
    }
}

/// `train` at its share of the memory limit: a diagnostic as every other
/// stop at the limit (the memory guard's code, a help), saying what was
/// saved; exit 1, and the table is there.
#[test]
fn training_at_the_memory_limit_is_a_diagnostic() {
    let dir = common::scratch("cli", "train_memory", &[]);
    std::fs::write(
        dir.join("wide.game"),
        "game Wide\nplayers A, B\nstate x: list<int> = [0; 4000]\nstate i: int = 0\n\
         move m(v in 0..1) { x[i] = v; i += 1 }\nend when i >= 40 { winner previous }\n",
    )
    .unwrap();
    let r = common::gdl_in(
        &dir,
        &[
            "train",
            "wide.game",
            "--episodes",
            "1000000",
            "--out",
            "q.json",
            "--max-memory",
            "64M",
        ],
        None,
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    // The episodes done depend on the allocator, not on gdl's answer; the
    // lines are joined, since the count's width moves where they wrap.
    let joined = r.stderr.replace("\n  │ ", " ");
    let at = joined.find("stopped after ").expect("the count") + "stopped after ".len();
    let end = at + joined[at..].find(' ').unwrap();
    assert!(joined[at..end].parse::<u64>().unwrap() < 1_000_000);
    let told = format!("{}[N]{}", &joined[..at], &joined[end..]);
    snap!("train_memory_limit", told);
    assert!(r.stdout.contains("stopped at the memory limit"), "{}", r.stdout);
    assert!(dir.join("q.json").exists());
}

// ------------------------------------------------- issue 23: what solve says

/// Ctrl-C (or SIGTERM) during a long exact solve stops it and prints the best
/// answer a second of iterative deepening finds, marked NOT PROVEN, with the
/// signal's exit code; nothing is printed as if the solve had finished.
#[test]
fn an_interrupted_solve_gives_its_best_answer_so_far() {
    let dir = common::scratch("cli", "interrupted_solve", &["nimcala.game"]);
    for (signal, code, told) in [("-INT", 130, "Ctrl-C"), ("-TERM", 143, "SIGTERM")] {
        let args = ["solve", "nimcala.game", "--pits", "16", "--tokens", "40"];
        let child = common::spawn_gdl(&dir, &args);
        std::thread::sleep(std::time::Duration::from_millis(1500));
        let killed = std::process::Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let started = std::time::Instant::now();
        let r = child.wait_with_output().unwrap();
        let stdout = String::from_utf8(r.stdout).unwrap();
        let stderr = String::from_utf8(r.stderr).unwrap();
        assert_eq!(r.status.code(), Some(code), "{stdout}\n{stderr}");
        assert!(stdout.is_empty(), "{stdout}");
        assert!(
            stderr.contains(&format!("the search was interrupted by {told} after ")),
            "{stderr}"
        );
        assert!(
            stderr.contains("searched again to a depth limit, for a second:"),
            "{stderr}"
        );
        assert!(stderr.contains("NOT PROVEN"), "{stderr}");
        assert!(stderr.contains("best moves  ("), "{stderr}");
        // A second of deepening, and the memo table is not freed entry by entry.
        assert!(started.elapsed().as_secs_f64() < 10.0, "{:?}", started.elapsed());
    }
}

/// Expectiminimax too can be stopped by Ctrl-C: it has no partial value,
/// and says so, with Ctrl-C's exit code (Pig ran for minutes with no way out).
#[test]
fn an_interrupted_expectiminimax_says_it_has_no_value_yet() {
    let dir = common::scratch("cli", "interrupted_pig", &["pig.game"]);
    let child = common::spawn_gdl(&dir, &["solve", "pig.game"]);
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let killed = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let r = child.wait_with_output().unwrap();
    let stderr = String::from_utf8(r.stderr).unwrap();
    assert_eq!(r.status.code(), Some(130), "{stderr}");
    assert!(r.stdout.is_empty());
    assert!(
        stderr.contains("the search was interrupted by Ctrl-C after "),
        "{stderr}"
    );
    assert!(
        stderr.contains("expectiminimax has no value before it is done"),
        "{stderr}"
    );
}

/// Flags the solver of a game does not use are refused, not ignored: the
/// expectiminimax of chance and simultaneous games, CFR+ for hidden cards,
/// `--depth` (issue 23). The same flags still work where they apply.
#[test]
fn solve_flags_that_do_not_apply_are_refused() {
    for (args, says) in [
        (
            &["solve", "games/pig.game", "--target", "5", "--algorithm", "minimax"][..],
            "--algorithm does not apply here: Pig has chance moves",
        ),
        (
            &["solve", "games/pig.game", "--target", "5", "--no-memo", "--json"],
            "--no-memo does not apply here",
        ),
        (
            &["solve", "games/goofspiel.game", "--fast", "--stats"],
            "--fast, --stats do not apply here: Goofspiel has chance and simultaneous moves",
        ),
        (
            &["solve", "games/kuhn-poker.game", "--algorithm", "alphabeta"],
            "Kuhn poker has hidden information, which gdl solves by CFR+",
        ),
        (
            &["solve", "games/kuhn-poker.game", "--max-states", "10"],
            "--max-states does not apply here",
        ),
        (
            &["solve", "games/pig.game", "--target", "5", "--depth", "3"],
            "--depth does not apply here",
        ),
        (
            &["solve", "games/nim.game", "--depth", "3", "--no-memo"],
            "--no-memo does not apply to --depth",
        ),
    ] {
        let r = gdl(args);
        assert_eq!(r.code, 2, "{args:?}: {}{}", r.stdout, r.stderr);
        assert!(r.stderr.contains(says), "{args:?}: {}", r.stderr);
        assert!(r.stdout.is_empty(), "{args:?}");
    }
    for args in [
        &[
            "solve",
            "games/nim.game",
            "--piles",
            "1,2,3",
            "--algorithm",
            "minimax",
            "--no-memo",
        ][..],
        &["solve", "games/pig.game", "--target", "5", "--max-states", "100000"],
    ] {
        let r = gdl(args);
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
    }
}

/// `solve --depth D --json` is JSON (it printed the text report): the same
/// value, best moves and depth as the text, and, where the search reaches
/// the end of the game, the exact solver's value (issue 23).
#[test]
fn a_depth_limited_solve_speaks_json() {
    let text = gdl(&["solve", "games/nim.game", "--piles", "2,3,4", "--depth", "2"]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    let v = json(&["solve", "games/nim.game", "--piles", "2,3,4", "--depth", "2"]);
    assert_eq!(v["depth"], 2);
    assert_eq!(v["proven"], false);
    assert_eq!(v["stopped"], "depth");
    let best: Vec<&str> = v["best_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert!(
        text.stdout.contains(&format!("best moves  {}\n", best.join(", "))),
        "{}",
        text.stdout
    );
    assert_eq!(v["moves"].as_array().unwrap().len(), 9, "every root move of [2, 3, 4]");
    let deep = json(&["solve", "games/nim.game", "--piles", "2,3,4", "--depth", "20"]);
    let exact = json(&["solve", "games/nim.game", "--piles", "2,3,4"]);
    assert_eq!(deep["proven"], true);
    assert_eq!(deep["value"], exact["value"]);
    assert_eq!(deep["best_moves"], exact["best_moves"]);
}

/// At a simultaneous node `best_moves` gives each player's own moves (one
/// flat list mixed both players'): a game with a saddle point, where A's
/// second row dominates and B's first column answers it, value 1 (issue 23).
#[test]
fn simultaneous_best_moves_are_given_per_player() {
    let dir = common::scratch("cli", "saddle", &[]);
    std::fs::write(
        dir.join("saddle.game"),
        "game Saddle\nplayers A, B\nstate shown: list<int> = [0, 0]\nstate done: bool = false\n\
         simultaneous move show(side in 1..2) requires not done { shown[me] = side } then { done = true }\n\
         end when done and shown[0] == 1 and shown[1] == 1 { draw }\n\
         end when done { winner A payoff 2 * shown[1] + shown[0] - 3 }\n",
    )
    .unwrap();
    let r = common::gdl_in(&dir, &["solve", "saddle.game", "--json"], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["value"], 1.0, "{v}");
    for (p, name) in ["A", "B"].iter().enumerate() {
        let played: Vec<&String> = v["strategies"][p]
            .as_object()
            .unwrap()
            .iter()
            .filter(|(_, q)| q.as_f64().unwrap() > 1e-9)
            .map(|(m, _)| m)
            .collect();
        assert_eq!(played.len(), 1, "{v}");
        assert_eq!(v["best_moves"][name], serde_json::json!(played), "{v}");
    }
    assert!(v["best_moves"]["A"][0].as_str().unwrap().contains('2'), "{v}");
    assert!(v["best_moves"]["B"][0].as_str().unwrap().contains('1'), "{v}");
}

/// `--first B` starts the game with B to move, as `--from` would with the
/// initial position written out; a name that is not a player, or both
/// flags at once, is bad input (issue 23).
#[test]
fn the_first_player_can_be_chosen() {
    let max_first = json(&["solve", "games/nim.game"]);
    let min_first = json(&["solve", "games/nim.game", "--first", "MIN"]);
    let from = json(&["solve", "games/nim.game", "--from", "[7, 5, 3, 1]; MIN to move"]);
    // 7 ^ 5 ^ 3 ^ 1 = 0: whoever moves first loses.
    assert_eq!(max_first["value"], -1.0);
    assert_eq!(min_first["value"], 1.0);
    assert_eq!(min_first["to_move"], "MIN");
    for key in ["value", "best_moves", "pv", "position", "to_move"] {
        assert_eq!(min_first[key], from[key], "{key}");
    }
    let tree = gdl(&[
        "tree",
        "games/nim.game",
        "--piles",
        "1,2",
        "--depth",
        "1",
        "--first",
        "MIN",
    ]);
    assert!(tree.stdout.contains("MIN: (0, 1)"), "{}", tree.stdout);
    let r = gdl(&["solve", "games/nim.game", "--first", "NOBODY"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("`NOBODY` is not a player of Nim; the players are MAX, MIN"),
        "{}",
        r.stderr
    );
    let r = gdl(&[
        "solve",
        "games/nim.game",
        "--first",
        "MIN",
        "--from",
        "[1, 1]; MAX to move",
    ]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("--from and --first both say who moves"),
        "{}",
        r.stderr
    );
}

/// The report gives the wall time next to the search's: the command in
/// all is never shorter than its search (issue 23, a 6×6 Domineering run).
#[test]
fn solve_reports_the_wall_time() {
    let v = json(&["solve", "games/nimcala.game", "--pits", "4", "--tokens", "4"]);
    let (search, wall) = (v["seconds"].as_f64().unwrap(), v["wall_seconds"].as_f64().unwrap());
    assert!(wall >= search, "{v}");
    let r = gdl(&["solve", "games/nim.game"]);
    assert!(
        r.stdout.contains(" s for the search, ") && r.stdout.contains(" s in all\n"),
        "{}",
        r.stdout
    );
}
