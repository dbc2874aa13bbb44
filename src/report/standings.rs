//! A match's results as a short table: per agent, all games then each seat;
//! wins, draws, losses, the win rate and the average utility with their 95%
//! intervals.

use super::stats::{Record, Tally};

/// The table of `tally`, one block of rows per agent.
pub fn text(tally: &Tally) -> String {
    let mut rows: Vec<Vec<String>> = vec![
        [
            "agent",
            "seat",
            "games",
            "wins",
            "draws",
            "losses",
            "win rate (95%)",
            "avg utility (95%)",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect(),
    ];
    for (a, name) in tally.agents.iter().enumerate() {
        rows.push(row(name, "all", &tally.overall[a]));
        for (s, seat) in tally.seats.iter().enumerate() {
            let r = &tally.by_seat[a][s];
            if r.games > 0 {
                rows.push(row("", &format!("as {seat}"), r));
            }
        }
    }
    table(&rows, &[false, false, true, true, true, true, false, false])
}

/// One row of the table: agent, seat, counts, and the two intervals.
pub fn row(agent: &str, seat: &str, r: &Record) -> Vec<String> {
    let rate = match r.win_rate_ci95() {
        Some((lo, hi)) => format!("{:5.1}% [{:.1}, {:.1}]", 100.0 * r.win_rate(), 100.0 * lo, 100.0 * hi),
        None => "-".into(),
    };
    let mean = match r.mean_ci95() {
        Some(h) => format!("{:+.3} ± {:.3}", r.mean(), h),
        None => format!("{:+.3}", r.mean()),
    };
    vec![
        agent.to_string(),
        seat.to_string(),
        r.games.to_string(),
        r.wins.to_string(),
        r.draws.to_string(),
        r.losses.to_string(),
        rate,
        mean,
    ]
}

/// Lays out `rows` in columns two spaces apart; `right[c]` right-aligns column `c`.
pub fn table(rows: &[Vec<String>], right: &[bool]) -> String {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let width: Vec<usize> = (0..cols)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for r in rows {
        let mut line = String::new();
        for (c, cell) in r.iter().enumerate() {
            if c > 0 {
                line.push_str("  ");
            }
            let pad = width[c] - cell.chars().count();
            if right.get(c).copied().unwrap_or(false) {
                line.push_str(&" ".repeat(pad));
                line.push_str(cell);
            } else {
                line.push_str(cell);
                line.push_str(&" ".repeat(pad));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}
