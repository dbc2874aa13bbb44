//! The crate's stages stay in order (issue 12, item 5): a module may import
//! from the modules before it in [`STAGES`], never from one after it, so a
//! change at the bottom (the syntax, the IR) never has to know about the
//! commands at the top. The order is the one src/lib.rs writes down.
//!
//! Edges are read from the source: every `crate::X` path (in `use` lines and
//! in code, `crate::{X, Y}` groups included) outside comments, per top-level
//! module of src/. Within a directory, files that import each other (`super::X`
//! both ways) are a cycle, which this refuses too, except the ones listed.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The stages, bottom first. Modules on one line are at the same level and
/// do not import each other.
const STAGES: &[&[&str]] = &[
    // The kinds of error, their diagnostic codes and exit codes; numbers as
    // people read them.
    &["error_kind", "digits"],
    // A position as a game's display draws it: plain data and its text.
    &["board"],
    // Foundations every stage may use: the `Game` trait and its errors,
    // atomic file writes, the memory guard.
    &["game", "fsutil", "memory"],
    // Text to syntax tree; its error type (`syntax::file_error`) is the one
    // the compiler reports with too.
    &["syntax"],
    // The compiled program and the flat code the executor runs; the game
    // files bundled into gdl, read by name.
    &["ir", "bundled"],
    // Run-time values and their layout in cells.
    &["value"],
    // Syntax tree to IR.
    &["compile"],
    // The interpreter: the IR run as a `Game`.
    &["runtime"],
    // Algorithms over any `Game`.
    &["solve"],
    // Text and JSON for people.
    &["report"],
    // The library's front door: a game from its path or name, and agents for it.
    &["load"],
    // The commands.
    &["cli"],
];

/// Files of one module that import each other, allowed for now: each pair
/// is one piece of work split over two files (a command and its variants, a
/// parser and its depth guard, a file format and its shared header), not
/// two layers.
const SIBLING_CYCLES_ALLOWED: &[(&str, &str, &str)] = &[
    // The code generator emits calls to the callbacks of the one module that
    // runs compiled code, which in turn holds what the generator made.
    ("runtime/jit", "call", "compile"),
    // The repetition rule's part of the exact search: methods of `Solver`
    // that keep the line searched, in a file of their own.
    ("solve/exact", "line", "solver"),
    ("solve/learn", "file_header", "qfile"),
    ("syntax", "nesting", "parser"),
];

/// Code without its comments (line comments, doc comments included).
fn code_of(text: &str) -> String {
    text.lines()
        .map(|line| match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first path segment of each path that follows `prefix` (`crate::`,
/// `super::`): `prefix X::...` gives X; `prefix {X, Y::z}` gives X and Y.
fn targets(code: &str, prefix: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let ident = |s: &str| -> String { s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect() };
    let mut rest = code;
    while let Some(i) = rest.find(prefix) {
        // Not the tail of a longer name (`my_crate::`).
        let before = rest[..i].chars().last();
        rest = &rest[i + prefix.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            // Top-level items of the group only: skip nested braces.
            let mut depth = 0;
            let mut item_start = true;
            for (k, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => item_start = true,
                    c if c.is_whitespace() => {}
                    _ if item_start && depth == 0 => {
                        let name = ident(&group[k..]);
                        if !name.is_empty() {
                            out.insert(name);
                        }
                        item_start = false;
                    }
                    _ => {}
                }
            }
        } else {
            let name = ident(rest);
            if !name.is_empty() {
                out.insert(name);
            }
        }
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `module -> {module it imports}` over src/, and per directory (`cli`,
/// `solve/exact`) its files' imports of the files and folders beside them.
type Edges = BTreeMap<String, BTreeMap<String, BTreeSet<String>>>;

fn edges() -> (Edges, Edges) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let top_modules: BTreeSet<String> = std::fs::read_dir(&src)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter_map(|p| {
            let stem = p.file_stem()?.to_str()?.to_string();
            (p.is_dir() || p.extension().is_some_and(|e| e == "rs")).then_some(stem)
        })
        .filter(|m| m != "lib" && m != "main")
        .collect();
    let mut across: Edges = BTreeMap::new();
    let mut within: Edges = BTreeMap::new();
    for path in files {
        let rel = path.strip_prefix(&src).unwrap();
        let parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
        let top = parts[0].trim_end_matches(".rs").to_string();
        if top == "lib" || top == "main" {
            continue;
        }
        let code = code_of(&std::fs::read_to_string(&path).unwrap());
        let shown = rel.display().to_string();
        for target in targets(&code, "crate::") {
            if target != top && top_modules.contains(&target) {
                across
                    .entry(top.clone())
                    .or_default()
                    .entry(target)
                    .or_default()
                    .insert(shown.clone());
            }
        }
        // A file directly in a directory (a module's, or a folder inside
        // one): its imports of the files and folders beside it.
        if parts.len() >= 2 && parts[parts.len() - 1] != "mod.rs" {
            let me = parts[parts.len() - 1].trim_end_matches(".rs").to_string();
            let dir_parts = &parts[..parts.len() - 1];
            let dir = dir_parts.iter().fold(src.clone(), |d, p| d.join(p));
            let mut sib = targets(&code, "super::");
            sib.extend(targets(&code, &format!("crate::{}::", dir_parts.join("::"))));
            for target in sib {
                if target != me && (dir.join(format!("{target}.rs")).exists() || dir.join(&target).is_dir()) {
                    within
                        .entry(dir_parts.join("/"))
                        .or_default()
                        .entry(me.clone())
                        .or_default()
                        .insert(target);
                }
            }
        }
    }
    (across, within)
}

fn stage_of(module: &str) -> Option<usize> {
    STAGES.iter().position(|level| level.contains(&module))
}

#[test]
fn every_module_has_a_stage() {
    let (across, _) = edges();
    let mut missing = BTreeSet::new();
    for (from, to) in &across {
        for m in std::iter::once(from).chain(to.keys()) {
            if stage_of(m).is_none() {
                missing.insert(m.clone());
            }
        }
    }
    assert!(
        missing.is_empty(),
        "modules with no place in STAGES (tests/layering.rs and src/lib.rs): {missing:?}"
    );
}

#[test]
fn no_module_imports_a_later_stage() {
    let (across, _) = edges();
    assert!(across.len() >= 6, "too few modules seen: {across:?}");
    let mut wrong = Vec::new();
    for (from, to) in &across {
        let Some(a) = stage_of(from) else {
            continue;
        };
        for (target, files) in to {
            match stage_of(target) {
                Some(b) if b < a => {}
                _ => wrong.push(format!("{from} imports {target} (in {files:?})")),
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the stage order:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn no_two_files_of_a_module_import_each_other() {
    let (_, within) = edges();
    let mut cycles = Vec::new();
    for (module, files) in &within {
        for (a, targets) in files {
            for b in targets {
                let back = files.get(b).is_some_and(|t| t.contains(a));
                let allowed = SIBLING_CYCLES_ALLOWED
                    .iter()
                    .any(|&(m, x, y)| m == module && ((x, y) == (a, b) || (y, x) == (a, b)));
                if back && a < b && !allowed {
                    cycles.push(format!("{module}: {a} <-> {b}"));
                }
            }
        }
    }
    assert!(
        cycles.is_empty(),
        "files that import each other:\n{}",
        cycles.join("\n")
    );
    // The exceptions are still needed: one that is gone must leave the list.
    for &(m, x, y) in SIBLING_CYCLES_ALLOWED {
        let one = |a: &str, b: &str| within.get(m).and_then(|f| f.get(a)).is_some_and(|t| t.contains(b));
        assert!(
            one(x, y) && one(y, x),
            "{m}: {x} <-> {y} is no longer a cycle: take it off SIBLING_CYCLES_ALLOWED"
        );
    }
}

#[test]
fn the_reader_finds_grouped_and_plain_paths() {
    let code = code_of(
        "use crate::{ir::{self, Op}, value::Value};\nlet x = crate::game::Turn::Terminal; // crate::cli\nmy_crate::solve",
    );
    let found: Vec<String> = targets(&code, "crate::").into_iter().collect();
    assert_eq!(found, ["game", "ir", "value"]);
}

/// The folders of `solve`, bottom first (src/solve/mod.rs): a folder imports
/// only the folders before it. The files directly in `solve/` (the agent
/// builder, which builds every kind) may import any of them.
const SOLVE_FOLDERS: &[&[&str]] = &[&["exact"], &["agents"], &["learn", "matches"]];

#[test]
fn solve_folders_import_only_the_ones_before_them() {
    let solve = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/solve");
    let level = |f: &str| SOLVE_FOLDERS.iter().position(|l| l.contains(&f));
    let mut files = Vec::new();
    rust_files(&solve, &mut files);
    let mut seen = BTreeSet::new();
    let mut wrong = Vec::new();
    for path in files {
        let rel = path.strip_prefix(&solve).unwrap();
        let Some(folder) = rel
            .iter()
            .next()
            .and_then(|f| f.to_str())
            .filter(|_| rel.iter().count() > 1)
        else {
            continue;
        };
        let Some(mine) = level(folder) else {
            wrong.push(format!("solve/{folder} has no place in SOLVE_FOLDERS"));
            continue;
        };
        seen.insert(folder.to_string());
        let code = code_of(&std::fs::read_to_string(&path).unwrap());
        for target in targets(&code, "crate::solve::") {
            if let Some(theirs) = level(&target).filter(|_| target != folder)
                && theirs >= mine
            {
                wrong.push(format!("solve/{} imports solve/{target}", rel.display()));
            }
        }
    }
    assert!(seen.len() >= 4, "too few folders seen: {seen:?}");
    assert!(
        wrong.is_empty(),
        "imports against the folder order:\n{}",
        wrong.join("\n")
    );
}

/// src/cli's floors, top first: the dispatcher (`cli/mod.rs`: the clap tree
/// and `run`), the commands (every other file or folder of cli/, one room
/// each: `solve/` is one room, `check.rs` another), and the kit (`cli/kit/`)
/// that the commands share. An arrow is one file naming another
/// (`use super::x`, `crate::cli::kit::y::Z` in code); it runs back up when a
/// command names another command or the dispatcher, or the kit names
/// anything but the kit.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Floor {
    Dispatcher,
    Command(String),
    Kit,
}

fn floor_of(file: &str) -> Floor {
    match file.split('/').collect::<Vec<_>>().as_slice() {
        ["mod.rs"] => Floor::Dispatcher,
        ["kit", ..] => Floor::Kit,
        [first, ..] => Floor::Command(first.trim_end_matches(".rs").to_string()),
        [] => Floor::Dispatcher,
    }
}

/// The room of a file of src/cli: the dispatcher (`mod.rs`), a command's
/// file or folder (`check`, `solve`), or one file or folder of the kit
/// (`kit/context`).
fn room_of(file: &str) -> String {
    let parts: Vec<&str> = file.split('/').collect();
    match parts.as_slice() {
        [one] => one.trim_end_matches(".rs").to_string(),
        ["kit", rest, ..] => format!("kit/{}", rest.trim_end_matches(".rs")),
        [folder, ..] => folder.to_string(),
        [] => String::new(),
    }
}

/// Every path that starts at `at` in `code` (`a::b::{c, d::{e, f}}` gives
/// a::b::c, a::b::d::e and a::b::d::f), segments split.
fn paths_at(code: &str, at: usize) -> Vec<Vec<String>> {
    fn tree(s: &[u8], mut i: usize, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
        let start_len = prefix.len();
        loop {
            while i < s.len() && s[i].is_ascii_whitespace() {
                i += 1;
            }
            if i < s.len() && s[i] == b'{' {
                i += 1;
                loop {
                    while i < s.len() && (s[i].is_ascii_whitespace() || s[i] == b',') {
                        i += 1;
                    }
                    if i >= s.len() || s[i] == b'}' {
                        i += 1;
                        break;
                    }
                    let before = i;
                    i = tree(s, i, prefix, out);
                    if i == before {
                        // Something not a path (`*`): skip it.
                        i += 1;
                    }
                }
                prefix.truncate(start_len);
                return i;
            }
            let begin = i;
            while i < s.len() && (s[i].is_ascii_alphanumeric() || s[i] == b'_') {
                i += 1;
            }
            if i == begin {
                break;
            }
            prefix.push(String::from_utf8_lossy(&s[begin..i]).into_owned());
            if s[i..].starts_with(b"::") {
                i += 2;
            } else {
                break;
            }
        }
        if prefix.len() > start_len {
            out.push(prefix.clone());
        }
        prefix.truncate(start_len);
        i
    }
    let mut out = Vec::new();
    tree(code.as_bytes(), at, &mut Vec::new(), &mut out);
    out
}

/// The files of src/cli (relative to it) that `code`, the text of module
/// `me` (`["cli", "solve", "kinds"]`), names: by paths from `crate`,
/// `super` or `self`, or from one of its `children` by bare name (a
/// folder's mod.rs: `kinds::kind`, `use start::start_position`).
fn cli_targets(
    code: &str,
    me: &[String],
    children: &[String],
    modules: &BTreeMap<Vec<String>, String>,
) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let starts = ["crate", "super", "self"]
        .into_iter()
        .chain(children.iter().map(String::as_str));
    for start in starts {
        for (at, _) in code.match_indices(&format!("{start}::")) {
            let before = &code[..at];
            // Not the tail of a longer path or name, and not a visibility
            // (`pub(in crate::cli)`).
            if before.ends_with("::")
                || before.chars().last().is_some_and(|c| c.is_alphanumeric() || c == '_')
                || before.ends_with("(in ")
            {
                continue;
            }
            for path in paths_at(code, at) {
                let mut abs: Vec<String> = Vec::new();
                let mut segs = path.iter().peekable();
                match segs.peek().map(|s| s.as_str()) {
                    Some("crate") => {
                        segs.next();
                    }
                    _ => {
                        abs = me.to_vec();
                        while segs.peek().map(|s| s.as_str()) == Some("super") {
                            segs.next();
                            abs.pop();
                        }
                        if segs.peek().map(|s| s.as_str()) == Some("self") {
                            segs.next();
                        }
                    }
                }
                abs.extend(segs.filter(|s| *s != "self").cloned());
                // The longest prefix that is a module of its own file.
                let target = (1..=abs.len()).rev().find_map(|n| modules.get(&abs[..n]));
                if let Some(file) = target {
                    found.insert(file.clone());
                }
            }
        }
    }
    found
}

/// The arrows of src/cli: (file, file it names), both relative to src/cli.
fn cli_arrows() -> BTreeSet<(String, String)> {
    let cli = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/cli");
    let mut files = Vec::new();
    rust_files(&cli, &mut files);
    let module_of = |rel: &str| -> Vec<String> {
        let mut m = vec!["cli".to_string()];
        m.extend(rel.trim_end_matches(".rs").split('/').map(str::to_string));
        if m.last().is_some_and(|l| l == "mod") {
            m.pop();
        }
        m
    };
    let rels: Vec<String> = files
        .iter()
        .map(|p| p.strip_prefix(&cli).unwrap().to_string_lossy().into_owned())
        .collect();
    let modules: BTreeMap<Vec<String>, String> = rels.iter().map(|r| (module_of(r), r.clone())).collect();
    let mut arrows = BTreeSet::new();
    for (path, rel) in files.iter().zip(&rels) {
        let code = code_of(&std::fs::read_to_string(path).unwrap());
        let me = module_of(rel);
        // A file's tests are a module inside it: their `super` is the file.
        let (body, tests) = match code.find("#[cfg(test)]\nmod tests") {
            Some(i) => code.split_at(i),
            None => (code.as_str(), ""),
        };
        let mut in_tests = me.clone();
        in_tests.push("tests".into());
        let children = declared_modules(body);
        let mut targets = cli_targets(body, &me, &children, &modules);
        targets.extend(cli_targets(tests, &in_tests, &[], &modules));
        for t in targets {
            if &t != rel {
                arrows.insert((rel.clone(), t));
            }
        }
    }
    arrows
}

/// The modules `code` declares in files of their own (`mod x;`, `pub mod x;`).
fn declared_modules(code: &str) -> Vec<String> {
    code.lines()
        .filter_map(|line| {
            let line = line.trim();
            let rest = line
                .strip_prefix("mod ")
                .or_else(|| Some(line.split_once(") mod ").or(line.split_once("pub mod "))?.1))?;
            let name = rest.strip_suffix(';')?;
            name.chars()
                .all(|c| c.is_alphanumeric() || c == '_')
                .then(|| name.to_string())
        })
        .collect()
}

/// Whether the arrow `from -> to` runs back up.
fn runs_back_up(from: &str, to: &str) -> bool {
    match (floor_of(from), floor_of(to)) {
        (Floor::Dispatcher, _) => false,
        (Floor::Kit, Floor::Kit) => false,
        (Floor::Command(a), Floor::Command(b)) => a != b,
        (Floor::Command(_), Floor::Kit) => false,
        _ => true,
    }
}

/// The groups of files that reach each other by arrows (strongly connected
/// components of more than one file).
fn cycles(arrows: &BTreeSet<(String, String)>) -> Vec<BTreeSet<String>> {
    let mut next: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (a, b) in arrows {
        next.entry(a).or_default().push(b);
    }
    let reach = |from: &str| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.to_string()];
        while let Some(f) = todo.pop() {
            for &n in next.get(f.as_str()).into_iter().flatten() {
                if seen.insert(n.to_string()) {
                    todo.push(n.to_string());
                }
            }
        }
        seen
    };
    let files: BTreeSet<&str> = arrows.iter().flat_map(|(a, b)| [a.as_str(), b.as_str()]).collect();
    let reached: BTreeMap<&str, BTreeSet<String>> = files.iter().map(|&f| (f, reach(f))).collect();
    let mut groups: Vec<BTreeSet<String>> = Vec::new();
    for &f in &files {
        let group: BTreeSet<String> = files
            .iter()
            .filter(|&&g| g == f || (reached[f].contains(g) && reached[g].contains(f)))
            .map(|g| g.to_string())
            .collect();
        if group.len() > 1 && !groups.contains(&group) {
            groups.push(group);
        }
    }
    groups
}

#[test]
fn cli_commands_import_only_the_kit_and_nothing_cycles() {
    let arrows = cli_arrows();
    assert!(arrows.len() >= 20, "too few arrows seen in src/cli: {arrows:?}");
    let back: Vec<String> = arrows
        .iter()
        .filter(|(a, b)| runs_back_up(a, b))
        .map(|(a, b)| format!("{a} -> {b}"))
        .collect();
    // Between rooms: a folder's mod.rs and its files are one piece of work
    // (the files beside each other are held apart by
    // `no_two_files_of_a_module_import_each_other`).
    let rooms: BTreeSet<(String, String)> = arrows
        .iter()
        .map(|(a, b)| (room_of(a), room_of(b)))
        .filter(|(a, b)| a != b)
        .collect();
    let cycles = cycles(&rooms);
    let pairs: Vec<String> = rooms
        .iter()
        .filter(|(a, b)| a < b && rooms.contains(&(b.clone(), a.clone())))
        .map(|(a, b)| format!("{a} <-> {b}"))
        .collect();
    eprintln!(
        "src/cli: {} arrows, {} back up; between its {} rooms, {} cycles ({} rooms in them), {} pairs that import each other",
        arrows.len(),
        back.len(),
        arrows
            .iter()
            .flat_map(|(a, b)| [room_of(a), room_of(b)])
            .collect::<BTreeSet<_>>()
            .len(),
        cycles.len(),
        cycles.iter().map(BTreeSet::len).sum::<usize>(),
        pairs.len()
    );
    assert!(
        back.is_empty() && cycles.is_empty(),
        "src/cli: {} arrows; running back up ({}):\n{}\nrooms that import each other ({}):\n{}\ncycles ({}):\n{}",
        arrows.len(),
        back.len(),
        back.join("\n"),
        pairs.len(),
        pairs.join("\n"),
        cycles.len(),
        cycles
            .iter()
            .map(|c| c.iter().cloned().collect::<Vec<_>>().join(" <-> "))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// The algorithms see a game only through the `Game` trait (and
/// `FileGame`): nothing under solve/ names the compiled program, the
/// compiler or the interpreter, so a hand-written game runs through the
/// same code.
#[test]
fn solve_sees_no_compiled_program() {
    let solve = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/solve");
    let mut files = Vec::new();
    rust_files(&solve, &mut files);
    assert!(files.len() >= 20, "too few files seen in src/solve");
    let mut wrong = Vec::new();
    for path in files {
        let code = code_of(&std::fs::read_to_string(&path).unwrap());
        for target in targets(&code, "crate::") {
            if ["ir", "compile", "runtime"].contains(&target.as_str()) {
                wrong.push(format!(
                    "{} imports {target}",
                    path.strip_prefix(&solve).unwrap().display()
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "solve/ reaches below the Game trait:\n{}",
        wrong.join("\n")
    );
}
