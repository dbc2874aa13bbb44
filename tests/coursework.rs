//! docs/COURSEWORK.md runs: every `$ ` command in its text blocks is run (by
//! `sh`, in one scratch folder, in order, with this build's `gdl` first on
//! the PATH) and must print what the document shows, so the document never
//! goes stale. In the document, a line `...` stands for any lines (a table
//! of times, a long list cut short), and digits on a `time` line may differ.
//!
//! `GDL_COURSEWORK_UPDATE=1 cargo test --test main coursework::` rewrites each
//! block with what the commands print now; review the diff, then put back
//! the `...` lines.

use crate::common;

use std::process::Command;

use common::{crate_dir, scratch};

/// One command of the document and what it should print.
struct Example {
    command: String,
    expected: Vec<String>,
    /// The block's place in the document: its first and last line (0-based).
    lines: (usize, usize),
}

fn examples(doc: &str) -> Vec<Example> {
    let lines: Vec<&str> = doc.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i] == "```text" && lines.get(i + 1).is_some_and(|l| l.starts_with("$ ")) {
            let start = i + 1;
            let mut end = start + 1;
            while lines[end] != "```" {
                end += 1;
            }
            out.push(Example {
                command: lines[start][2..].to_string(),
                expected: lines[start + 1..end].iter().map(|l| l.to_string()).collect(),
                lines: (start, end),
            });
            i = end;
        }
        i += 1;
    }
    out
}

/// A line as compared: a time's numbers do not count, however many digits
/// they have (a rate may gain one on a faster machine).
fn normalize(line: &str) -> String {
    if line.trim_start().starts_with("time ") {
        let mut out = String::new();
        for c in line.trim_end().chars() {
            if !c.is_ascii_digit() {
                out.push(c);
            } else if !out.ends_with('#') {
                out.push('#');
            }
        }
        out
    } else {
        line.trim_end().to_string()
    }
}

/// Whether `actual` is `expected`, where a `...` line stands for any lines.
fn matches(expected: &[String], actual: &[String]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == "..." => (0..=actual.len()).any(|k| matches(rest, &actual[k..])),
        Some((first, rest)) => {
            actual.first().is_some_and(|a| normalize(a) == normalize(first)) && matches(rest, &actual[1..])
        }
    }
}

#[test]
fn every_command_in_coursework_prints_what_it_shows() {
    let path = crate_dir().join("docs/COURSEWORK.md");
    let doc = std::fs::read_to_string(&path).unwrap();
    let examples = examples(&doc);
    assert!(examples.len() >= 10, "the document shows its commands");
    let dir = scratch("coursework", "run", &[]);
    let bin_dir = std::path::Path::new(env!("CARGO_BIN_EXE_gdl")).parent().unwrap();
    let path_var = format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap_or_default());
    let update = std::env::var_os("GDL_COURSEWORK_UPDATE").is_some();
    let mut lines: Vec<String> = doc.lines().map(str::to_string).collect();
    let mut failures = Vec::new();
    // Replaced from the end, so that the places of earlier blocks hold.
    let mut outputs = Vec::new();
    for ex in &examples {
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!("{} 2>&1", ex.command))
            .current_dir(&dir)
            .env("PATH", &path_var)
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        let actual: Vec<String> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_string)
            .collect();
        if !matches(&ex.expected, &actual) {
            failures.push(format!(
                "$ {}\n--- the document shows:\n{}\n--- it prints:\n{}",
                ex.command,
                ex.expected.join("\n"),
                actual.join("\n")
            ));
        }
        outputs.push(actual);
    }
    if update {
        for (ex, actual) in examples.iter().zip(outputs).rev() {
            lines.splice(ex.lines.0 + 1..ex.lines.1, actual);
        }
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
        return;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn an_ellipsis_stands_for_any_lines_and_only_there() {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert!(matches(&s(&["a", "...", "d"]), &s(&["a", "b", "c", "d"])));
    assert!(matches(&s(&["a", "...", "d"]), &s(&["a", "d"])));
    assert!(!matches(&s(&["a", "...", "d"]), &s(&["a", "b"])));
    assert!(!matches(&s(&["a", "b"]), &s(&["a", "c"])));
    assert!(matches(&s(&["time        0.000 s"]), &s(&["time        0.012 s"])));
    assert!(matches(
        &s(&["time        0.305 s (32821 episodes/s)"]),
        &s(&["time        0.043 s (230830 episodes/s)"])
    ));
    assert!(!matches(
        &s(&["time        0.305 s (per game)"]),
        &s(&["time        0.305 s"])
    ));
}
