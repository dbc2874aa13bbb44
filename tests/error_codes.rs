//! Every diagnostic code is unique, written once in the source (in its
//! kind's `code()` or its enum's `#[diagnostic(code(...))]`), listed in
//! docs/ERRORS.md, and ends gdl with the exit code written there.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use gdl::compile::CompileKind;
use gdl::error_kind::{ErrorKind, Exits, RuntimeKind};
use gdl::memory::{MemoryLimit, Source};
use gdl::solve::SolveKind;
use gdl::solve::learn::qfile::QFileError;
use gdl::solve::learn::strategy_file::StrategyFileError;
use gdl::syntax::SyntaxKind;

/// docs/ERRORS.md's rows: code → exit code. A code listed twice fails.
fn documented() -> BTreeMap<String, i32> {
    let text = std::fs::read_to_string("docs/ERRORS.md").expect("docs/ERRORS.md");
    let mut rows = BTreeMap::new();
    for line in text.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        // "| `gdl::x::y` | 2 | what |" splits into ["", code, exit, what, ""].
        let [_, code, exit, _, _] = cells[..] else { continue };
        let Some(code) = code.strip_prefix("`gdl::").and_then(|c| c.strip_suffix('`')) else {
            continue;
        };
        let exit: i32 = exit
            .parse()
            .unwrap_or_else(|_| panic!("gdl::{code}: exit code `{exit}`"));
        let old = rows.insert(format!("gdl::{code}"), exit);
        assert!(old.is_none(), "gdl::{code} is listed twice in docs/ERRORS.md");
    }
    rows
}

/// Every kind of the stages' enums, as (code, exit code).
fn kinds() -> Vec<(&'static str, i32)> {
    let mut all = Vec::new();
    all.extend(SyntaxKind::ALL.iter().map(|k| (k.code(), k.exit_code())));
    all.extend(CompileKind::ALL.iter().map(|k| (k.code(), k.exit_code())));
    all.extend(RuntimeKind::ALL.iter().map(|k| (k.code(), k.exit_code())));
    all.extend(SolveKind::ALL.iter().map(|k| (k.code(), k.exit_code())));
    all
}

#[test]
fn every_kind_has_its_own_code_documented_with_its_exit_code() {
    let docs = documented();
    let mut seen = BTreeSet::new();
    for (code, exit) in kinds() {
        assert!(seen.insert(code), "{code} is the code of two kinds");
        assert_eq!(
            docs.get(code),
            Some(&exit),
            "{code}: exit code {exit}, docs/ERRORS.md says"
        );
    }
}

/// The errors that are enums of their own, one of each exit code.
#[test]
fn file_and_memory_errors_exit_as_documented() {
    let docs = documented();
    let check = |e: &dyn Exits| {
        let code = e.code().expect("a code").to_string();
        assert_eq!(docs.get(&code), Some(&e.exit_code()), "{code}");
    };
    let (path, reason) = (String::from("t.json"), String::from("no"));
    check(&QFileError::Unreadable {
        path: path.clone(),
        reason: reason.clone(),
    });
    check(&QFileError::Unwritable {
        path: path.clone(),
        reason: reason.clone(),
    });
    check(&QFileError::Format {
        path: path.clone(),
        reason: reason.clone(),
    });
    check(&StrategyFileError::Unreadable {
        path: path.clone(),
        reason: reason.clone(),
    });
    check(&StrategyFileError::Unwritable { path, reason });
    check(&MemoryLimit {
        limit: 1 << 20,
        activity: "testing",
        origin: Source::Flag,
    });
}

/// The codes in a file of src/, outside comments: `"gdl::x::y"` string
/// literals and `code(gdl::x::y)` attributes; not paths of the crate's
/// items, nor a code quoted in a message rendered by hand (the memory
/// guard's, which cannot allocate).
fn codes_in(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(i) = rest.find("gdl::") {
            let before = &rest[..i];
            let tail: String = rest[i..]
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '_' || *c == ':')
                .collect();
            rest = &rest[i + tail.len()..];
            let after = rest.chars().next();
            let literal = before.ends_with('"') && after == Some('"');
            if literal || before.ends_with("code(") && after == Some(')') {
                out.push(tail);
            }
        }
    }
    out
}

/// The codes of the errors `file_error!` makes in `text` (`pub enum
/// QFileError in qtable {`: `gdl::qtable::unreadable`...): the macro's
/// `code(gdl::$ns::unreadable)`, with the namespace each use names.
fn file_error_codes(text: &str, files: &[(String, String)]) -> Vec<String> {
    let cases: Vec<String> = files
        .iter()
        .flat_map(|(_, t)| t.split("code(gdl::$ns::").skip(1))
        .map(|rest| {
            rest.chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                .collect()
        })
        .collect();
    let mut out = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.trim().strip_prefix("pub enum ") else {
            continue;
        };
        let mut words = rest.split_whitespace();
        if let (Some(_), Some("in"), Some(ns), Some("{")) = (words.next(), words.next(), words.next(), words.next())
            && !ns.starts_with('$')
        {
            out.extend(cases.iter().map(|case| format!("gdl::{ns}::{case}")));
        }
    }
    out
}

fn sources(dir: &Path, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).expect("src") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push((
                path.display().to_string(),
                std::fs::read_to_string(&path).expect("read"),
            ));
        }
    }
}

#[test]
fn every_code_in_the_source_is_documented_and_written_once() {
    let docs = documented();
    let mut files = Vec::new();
    sources(Path::new("src"), &mut files);
    let mut found: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (file, text) in &files {
        for code in codes_in(text).into_iter().chain(file_error_codes(text, &files)) {
            found.entry(code).or_default().push(file.clone());
        }
    }
    for (code, files) in &found {
        assert!(
            docs.contains_key(code),
            "{code} ({}) is not in docs/ERRORS.md",
            files.join(", ")
        );
        assert_eq!(
            files.len(),
            1,
            "{code} is written {} times: {}",
            files.len(),
            files.join(", ")
        );
    }
    for code in docs.keys() {
        assert!(
            found.contains_key(code),
            "docs/ERRORS.md lists {code}, which gdl no longer has"
        );
    }
}
