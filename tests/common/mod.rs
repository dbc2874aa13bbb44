//! What the test files share: the one runner of the `gdl` binary, the one
//! loader of game files, the one set of snapshot settings, and the
//! conformance checks of the `Game` contract (`conformance.rs`).

// Each test file uses a different part of this module.
#![allow(dead_code)]

mod conformance;

#[allow(unused_imports)]
pub use conformance::{conformance, conformance_of_file, conformance_of_native};

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use gdl::runtime::Interpreted;

/// What a run of `gdl` printed, and its exit code.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// The crate's folder: `games/` is there.
pub fn crate_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Starts the `gdl` binary in `dir`, without colour, with its standard
/// streams piped: for a test that must act while it runs (send it a signal).
pub fn spawn_gdl(dir: &Path, args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_gdl"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gdl runs")
}

/// Runs the `gdl` binary in `dir`, without colour, with `input` on its
/// standard input (`None`: an empty one).
pub fn gdl_in(dir: &Path, args: &[&str], input: Option<&str>) -> Run {
    let mut child = spawn_gdl(dir, args);
    if let Some(text) = input {
        // gdl may stop reading early (a finished game); a closed pipe is fine.
        let _ = child.stdin.take().unwrap().write_all(text.as_bytes());
    }
    drop(child.stdin.take());
    let out = child.wait_with_output().expect("gdl ends");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

/// Runs the `gdl` binary from the crate's folder, with an empty standard input.
pub fn gdl(args: &[&str]) -> Run {
    gdl_in(crate_dir(), args, None)
}

/// A fresh folder `group/name` under the tests' scratch space, holding copies
/// of `games` from games/: files there are named briefly in gdl's messages,
/// which then read the same on every machine.
pub fn scratch(group: &str, name: &str, games: &[&str]) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(group).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for game in games {
        std::fs::copy(crate_dir().join("games").join(game), dir.join(game)).unwrap();
    }
    dir
}

/// Every game file in games/, as `games/NAME.game`, sorted: a file added
/// there is covered by every test that goes through this list.
pub fn game_files() -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(crate_dir().join("games"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".game"))
        .map(|name| format!("games/{name}"))
        .collect();
    files.sort();
    files
}

/// The game file at `path` (from the crate's folder) with these parameter
/// values, compiled; a file that does not compile fails the test with its
/// diagnostics.
pub fn load_game(path: &str, bindings: &[(&str, &str)]) -> Interpreted {
    let text = std::fs::read_to_string(crate_dir().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
    let bindings: Vec<(String, String)> = bindings.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
    match gdl::compile::load(path, &text, &bindings) {
        Ok(p) => Interpreted::new(p),
        Err(e) => panic!(
            "{path} does not compile:\n{}",
            gdl::report::diagnostic::render_compile_errors(&e, false)
        ),
    }
}

/// The `canonical` block of games/nim.game and games/nim-normal.game: it
/// sorts the rows.
pub const NIM_CANONICAL: &str = "canonical { board.sort() }\n";

/// The text of `path` (games/nim.game or games/nim-normal.game) without its
/// `canonical` block: the same rules with every order of the rows a position
/// of its own, for the tests that compare the game with and without it.
pub fn nim_text_without_canonical(path: &str) -> String {
    let text = std::fs::read_to_string(crate_dir().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert_eq!(text.matches(NIM_CANONICAL).count(), 1, "{path} sorts its rows once");
    text.replace(NIM_CANONICAL, "")
}

/// `text` as a regular expression that matches exactly it.
fn literally(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if "\\.+*?()|[]{}^$".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The one set of snapshot settings: snapshots in snapshots/ at the top,
/// named without the test's module; whatever changes from run to run or
/// machine to machine masked. The filters apply in this order.
pub fn snapshot_settings() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.set_snapshot_path("../snapshots");
    s.set_prepend_module_to_snapshot(false);
    // `gdl train`: time and speed.
    s.add_filter(r"time        \d+\.\d+ s \(\d+ episodes/s\)", "time        [time]");
    // `gdl solve`: the time of the search.
    s.add_filter(r"time        \d+\.\d+ s", "time        [time] s");
    s.add_filter(r"search, \d+\.\d s in all", "search, [time] s in all");
    // `gdl solve --mcts`: the speed of the search.
    s.add_filter(r"\([\d,]+ simulations/s\)", "([rate] simulations/s)");
    // Times in reports (`--stats` and the like).
    s.add_filter(r"\d+\.\d{3} s", "[time] s");
    // `gdl match`: the times per decision, and their header, which widens
    // with them (a max time of 12.34 ms against 740.0 µs).
    s.add_filter(r" +\d+\.\d+ (µs|ms|s)\b", " [time]");
    s.add_filter(r"mean time +max time", "mean time  max time");
    // The memo table's memory depends on the layout of states and entries.
    s.add_filter(r"about \d+(\.\d)? (B|KiB|MiB)", "about [bytes]");
    // The scratch folder lies inside the crate's folder: it goes first.
    s.add_filter(&literally(env!("CARGO_TARGET_TMPDIR")), "[tmp]");
    s.add_filter(&literally(env!("CARGO_MANIFEST_DIR")), "[dir]");
    s
}

/// `snap!(name, text)`: an insta snapshot under [`snapshot_settings`].
#[allow(unused_macros)]
macro_rules! snap {
    ($name:expr, $value:expr) => {
        $crate::common::snapshot_settings().bind(|| {
            insta::assert_snapshot!($name, $value);
        })
    };
}
#[allow(unused_imports)]
pub(crate) use snap;

/// Fails the test where `python3` does not run: the tests of Python agents
/// need it, as the README says (a test that passed without running its
/// agent would report nothing true).
pub fn require_python() {
    let ok = std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        ok,
        "python3 is not installed, and this test runs Python agents: install Python 3.9 or newer"
    );
}

/// `exec:python3 FILE ARGS` for a file of this repository.
pub fn py(file: &str, args: &str) -> String {
    format!("exec:python3 {} {args}", crate_dir().join(file).display())
        .trim_end()
        .to_string()
}

/// A CSV file's rows as cells (for files where no cell holds a comma).
pub fn rows(path: &Path) -> Vec<Vec<String>> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect()
}
