//! Drawing DOT as SVG with Graphviz's `dot`, when it is installed.

use std::io::{Error, ErrorKind, Write};
use std::process::{Command, Stdio};

/// The program run: `GDL_DOT` if set (a test can name one that is missing),
/// else `dot` on the PATH.
fn program() -> String {
    std::env::var("GDL_DOT").unwrap_or_else(|_| "dot".to_string())
}

/// Whether `dot` runs: checked before a tree is built, so that a missing
/// Graphviz is told at once (with what to do), as bad input.
pub(crate) fn check() -> Result<(), String> {
    let program = program();
    match Command::new(&program)
        .arg("-V")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
    {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == ErrorKind::NotFound => Err(missing(&program)),
        Err(e) => Err(format!("cannot run `{program}`: {e}")),
    }
}

fn missing(program: &str) -> String {
    format!(
        "--format svg draws with Graphviz's `{program}`, which is not installed (apt install graphviz, \
         brew install graphviz); --format dot writes the DOT text it would draw"
    )
}

/// `dot` for SVG: what it printed, or why it could not be run.
pub(crate) fn svg(dot: &[u8]) -> std::io::Result<Vec<u8>> {
    let program = program();
    let mut child = Command::new(&program)
        .arg("-Tsvg")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| match e.kind() {
            ErrorKind::NotFound => Error::new(ErrorKind::NotFound, missing(&program)),
            _ => Error::new(e.kind(), format!("cannot run `{program}`: {e}")),
        })?;
    // Written on a thread: `dot` may fill its output pipe before reading all its input.
    let mut stdin = child.stdin.take().expect("piped");
    let input = dot.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output()?;
    let _ = writer.join();
    if !out.status.success() {
        return Err(Error::other(format!(
            "`{program}` failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    Ok(out.stdout)
}
