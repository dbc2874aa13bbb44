//! The real `gdl` binary: arguments in; standard output, standard error and
//! exit code out.

mod common;

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
    assert!(r.stderr.contains("the time limit of 0.5s was reached"), "{}", r.stderr);
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
