//! Build-time facts compiled into `gdl`: every game of games/, so that an
//! installed `gdl solve nim` needs no checkout, and the git commit for
//! `gdl --version`.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

fn main() {
    let root = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    bundle_games(Path::new(&root), Path::new(&out));
    stamp_commit(Path::new(&root));
}

/// Writes `bundled_games.rs`: a table of (name, text) for every
/// games/*.game, sorted by name. A directory as rerun-if-changed makes cargo
/// look at every file in it, so a game added later is picked up.
fn bundle_games(root: &Path, out: &Path) {
    let games = root.join("games");
    println!("cargo:rerun-if-changed={}", games.display());
    let mut files: Vec<_> = std::fs::read_dir(&games)
        .map(|dir| {
            dir.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "game") && p.is_file())
                .collect()
        })
        .unwrap_or_default();
    files.sort_by_key(|p| p.file_stem().map(|s| s.to_os_string()));
    let mut table = String::from("/// Every game of games/ at build time: (name, the file's text).\n");
    table.push_str("pub(crate) static BUNDLED_GAMES: &[(&str, &str)] = &[\n");
    for path in &files {
        let name = path.file_stem().expect("a .game file has a stem").to_string_lossy();
        let _ = writeln!(table, "    ({name:?}, include_str!({:?})),", path.display().to_string());
    }
    table.push_str("];\n");
    std::fs::write(out.join("bundled_games.rs"), table).expect("OUT_DIR is writable");
}

/// Sets `GDL_GIT_COMMIT` to the short hash of the commit built, or to
/// nothing when there is no git or no repository (a source archive):
/// `--version` then gives the version alone.
fn stamp_commit(root: &Path) {
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .current_dir(root)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let commit = git(&["rev-parse", "--short=10", "HEAD"]).unwrap_or_default();
    // Rebuild when HEAD moves: a checkout (HEAD) or a commit (the branch's
    // ref, loose or packed). Only files that exist: cargo reruns a build
    // script at every build while one it watches is missing, and a
    // repository whose refs were never packed has no packed-refs.
    let watch = |p: String| {
        let path = root.join(p);
        if path.exists() {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    };
    for path in ["HEAD", "packed-refs"] {
        if let Some(p) = git(&["rev-parse", "--git-path", path]) {
            watch(p);
        }
    }
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"])
        && let Some(p) = git(&["rev-parse", "--git-path", &branch])
    {
        watch(p);
    }
    println!("cargo:rustc-env=GDL_GIT_COMMIT={commit}");
}
