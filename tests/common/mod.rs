//! What the tests that run the real `gdl` binary share.

// Each test file uses a different part of this module.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

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

/// Runs the `gdl` binary in `dir`, without colour, with `input` on its
/// standard input (`None`: an empty one).
pub fn gdl_in(dir: &Path, args: &[&str], input: Option<&str>) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gdl"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gdl runs");
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
