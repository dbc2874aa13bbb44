//! `gdl bench`: the figures are there and positive. (Speed itself is
//! measured by the benchmarks, never by tests.)

use crate::common;

fn bench(args: &[&str]) -> (i32, String, String) {
    let mut all = vec!["bench"];
    all.extend_from_slice(args);
    let r = common::gdl(&all);
    (r.code, r.stdout, r.stderr)
}

/// The first number on the line that starts with `label`.
fn figure(out: &str, label: &str) -> f64 {
    let line = out
        .lines()
        .find(|l| l.starts_with(label))
        .unwrap_or_else(|| panic!("no `{label}` line in:\n{out}"));
    line[label.len()..]
        .split_whitespace()
        .find_map(|w| w.parse::<f64>().ok())
        .unwrap_or_else(|| panic!("no number in `{line}`"))
}

#[test]
fn bench_prints_every_figure_and_says_what_it_skips() {
    let (code, out, err) = bench(&["games/nim.game", "--piles", "1,2,3", "--seconds", "0.05"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("game        Nim (piles = [1, 2, 3])\n"), "{out}");
    let labels: Vec<&str> = out.lines().map(|l| l.split("  ").next().unwrap()).collect();
    assert_eq!(
        labels,
        ["game", "engine", "playouts", "alpha-beta", "memo solve"],
        "{out}"
    );
    assert!(figure(&out, "playouts") > 0.0, "{out}");
    assert!(out.contains("random playouts/s"), "{out}");
    assert!(figure(&out, "alpha-beta") > 0.0, "{out}");
    assert!(out.contains("nodes/s without memo"), "{out}");
    assert!(figure(&out, "memo solve") > 0.0, "{out}");
    assert!(out.contains("table entries"), "{out}");

    // A game the exact solver cannot take: the solves are skipped, with the reason.
    let (code, out, err) = bench(&["games/xnimmt.game", "--seconds", "0.05"]);
    assert_eq!(code, 0, "{err}");
    assert!(figure(&out, "playouts") > 0.0, "{out}");
    for label in ["alpha-beta", "memo solve"] {
        let line = out.lines().find(|l| l.starts_with(label)).unwrap();
        assert!(
            line.contains("skipped: the game has chance or simultaneous moves"),
            "{line}"
        );
    }
}
