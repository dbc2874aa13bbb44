//! `gdl solve FILE --pits 1..8 --tokens 1..10`: one exact solve per
//! combination of the parameters given as ranges, one row each (winner,
//! value, best first moves, states, time); `--csv` writes the same rows.
//! A combination that fails or exceeds a limit gets a row that says so,
//! and the sweep goes on.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::SolveArgs;
use crate::cli::kit::context::{Context, Failure, stdout_failed};
use crate::cli::kit::csv::csv_line;
use crate::cli::kit::game_args::load_game;
use crate::cli::kit::{limits, output};
use crate::game::Game;
use crate::report::solve::thousands;
use crate::solve::{self, SolveError, SolveOptions, Watch};

/// Set when the reader of standard output has gone: the sweep stops.
static READER_GONE: AtomicBool = AtomicBool::new(false);

/// How often the sweep looks whether that reader has gone.
const READER_POLL: Duration = Duration::from_millis(100);

/// The most combinations one sweep solves.
const MOST_COMBINATIONS: usize = 10_000;

/// `lo..hi` (both included), as a sweep takes a parameter.
fn range_of(text: &str) -> Option<(i64, i64)> {
    let (lo, hi) = text.trim().split_once("..")?;
    Some((lo.trim().parse().ok()?, hi.trim().parse().ok()?))
}

/// Whether any parameter on the command line is a range: then `gdl solve` sweeps.
pub(in crate::cli) fn is_sweep(ctx: &Context) -> bool {
    ctx.bindings.iter().any(|(_, v)| range_of(v).is_some())
}

/// One combination's row.
struct Row {
    params: Vec<String>,
    winner: String,
    value: String,
    best: String,
    states: String,
    seconds: f64,
}

pub(in crate::cli) fn run(args: &SolveArgs, ctx: &mut Context) -> Result<(), Failure> {
    // The file is checked before the sweep, as every output is.
    let csv_out = match args.csv.as_deref() {
        Some("-") | None => None,
        Some(path) => {
            let path = std::path::Path::new(path);
            output::check(&[("--csv", path)], &[output::Input::game(&args.game.file)])?;
            Some(output::Output {
                flag: "--csv",
                path: path.to_path_buf(),
            })
        }
    };
    let given = ctx.bindings.clone();
    // Counted before any range is spelled out: `1..9223372036854775807`
    // has more values than memory holds.
    let mut total: u128 = 1;
    for (name, value) in &given {
        match range_of(value) {
            Some((lo, hi)) if lo <= hi => total = total.saturating_mul((i128::from(hi) - i128::from(lo) + 1) as u128),
            Some(_) => {
                return Err(Failure::input(format!(
                    "error: --{name} {value}: a range to sweep goes up (write `1..8`)"
                )));
            }
            None => {}
        }
    }
    if total > MOST_COMBINATIONS as u128 {
        return Err(Failure::input(format!(
            "error: the ranges make {} combinations; a sweep solves at most {}",
            crate::report::solve::thousands(total),
            thousands(MOST_COMBINATIONS as u64)
        )));
    }
    let total = total as usize;
    let mut axes: Vec<(String, Vec<String>)> = Vec::new();
    for (name, value) in &given {
        match range_of(value) {
            Some((lo, hi)) => axes.push((name.clone(), (lo..=hi).map(|v| v.to_string()).collect())),
            None => axes.push((name.clone(), vec![value.clone()])),
        }
    }
    let swept: Vec<usize> = (0..axes.len())
        .filter(|&i| axes[i].1.len() > 1 || range_of(&given[i].1).is_some())
        .collect();
    let names: Vec<String> = swept.iter().map(|&i| axes[i].0.clone()).collect();
    let io = |e: std::io::Error| Failure::runtime(format!("error: {e}"));
    // `--csv -` writes each row as it is solved: a reader who stopped
    // reading (`| head -1`) stops the sweep at once.
    let streamed = args.csv.as_deref() == Some("-");
    if streamed {
        write!(ctx.out, "{}", csv_header(&names))
            .and_then(|()| ctx.out.flush())
            .map_err(stdout_failed)?;
    }
    // A thread looks, while the sweep runs, whether the reader of standard
    // output has gone: then the solve under way stops too (`| head -1`).
    let (done, ticks) = mpsc::channel::<()>();
    let swept_rows = std::thread::scope(|scope| {
        scope.spawn(move || {
            while let Err(mpsc::RecvTimeoutError::Timeout) = ticks.recv_timeout(READER_POLL) {
                if stdout_reader_gone() {
                    READER_GONE.store(true, Ordering::Relaxed);
                    break;
                }
            }
        });
        let rows = sweep_rows(args, ctx, total, &axes, &swept, streamed);
        drop(done);
        rows
    });
    let rows = match swept_rows {
        Ok(rows) => rows,
        Err(e) => {
            ctx.bindings = given;
            return Err(e);
        }
    };
    ctx.bindings = given;
    match args.csv.as_deref() {
        Some("-") => {}
        Some(_) => {
            // The table is printed even when the file cannot be written.
            write!(ctx.out, "{}", table(&names, &rows)).map_err(io)?;
            if let Some(out) = &csv_out {
                out.write(csv(&names, &rows).as_bytes())?;
            }
        }
        None => write!(ctx.out, "{}", table(&names, &rows)).map_err(io)?,
    }
    Ok(())
}

/// Solves every combination, in order (`axes`: each parameter's values;
/// `swept`: those that vary); with `streamed`, each row is written as a
/// CSV line as it is solved.
fn sweep_rows(
    args: &SolveArgs,
    ctx: &mut Context,
    total: usize,
    axes: &[(String, Vec<String>)],
    swept: &[usize],
    streamed: bool,
) -> Result<Vec<Row>, Failure> {
    let mut rows = Vec::with_capacity(total);
    for k in 0..total {
        // A table is printed at the end; a reader gone before is not waited for.
        if READER_GONE.load(Ordering::Relaxed) || stdout_reader_gone() {
            return Err(stdout_failed(std::io::ErrorKind::BrokenPipe.into()));
        }
        // The combination number k, the last axis fastest.
        let mut rest = k;
        let mut bindings = vec![(String::new(), String::new()); axes.len()];
        for i in (0..axes.len()).rev() {
            let n = axes[i].1.len();
            bindings[i] = (axes[i].0.clone(), axes[i].1[rest % n].clone());
            rest /= n;
        }
        ctx.bindings = bindings.clone();
        let params = swept.iter().map(|&i| bindings[i].1.clone()).collect();
        crate::memory::doing("solving");
        let row = solve_one(args, ctx, params);
        if READER_GONE.load(Ordering::Relaxed) {
            return Err(stdout_failed(std::io::ErrorKind::BrokenPipe.into()));
        }
        if streamed {
            write!(ctx.out, "{}", csv_row(&row))
                .and_then(|()| ctx.out.flush())
                .map_err(stdout_failed)?;
        }
        rows.push(row);
    }
    Ok(rows)
}

/// Solves the game with the bindings in `ctx`; a failure becomes the row's text.
fn solve_one(args: &SolveArgs, ctx: &Context, params: Vec<String>) -> Row {
    let started = Instant::now();
    let failed = |why: String, started: Instant| Row {
        params: params.clone(),
        winner: why,
        value: String::new(),
        best: String::new(),
        states: String::new(),
        seconds: started.elapsed().as_secs_f64(),
    };
    let game = match load_game(&args.game.file, ctx) {
        Ok(g) => g,
        // The parameters' own checks (`require`) refuse some combinations.
        Err(_) => return failed("(not a valid combination)".into(), started),
    };
    let root = match game.initial_state() {
        Ok(r) => r,
        Err(e) => return failed(format!("(the rules failed: {})", e.message()), started),
    };
    let mut opts = SolveOptions {
        memo: !args.no_memo,
        max_nodes: args.max_nodes,
        time_limit: args.time_limit.map(Duration::from_secs_f64),
        max_states: args.max_states,
        watch: Some(Arc::new(Watch::stopped_by(&READER_GONE))),
        ..SolveOptions::default()
    };
    limits::cap_memo(&mut opts, &root, 1);
    match solve::solve(&game, &root, &opts) {
        Ok(sol) => Row {
            params,
            winner: if sol.value > 0.0 {
                game.player_name(0).to_string()
            } else if sol.value < 0.0 {
                game.player_name(1).to_string()
            } else {
                "draw".into()
            },
            value: sol.value.to_string(),
            best: sol
                .best_moves
                .iter()
                .map(|m| game.move_text(m))
                .collect::<Vec<_>>()
                .join(" "),
            states: thousands(sol.states),
            seconds: sol.seconds,
        },
        Err(SolveError::Budget { what, limit, .. }) => failed(format!("(stopped: {what} limit {limit})"), started),
        Err(SolveError::Game(e)) => failed(format!("(the rules failed: {})", e.message()), started),
        Err(e) => failed(format!("({e})"), started),
    }
}

fn table(names: &[String], rows: &[Row]) -> String {
    let mut header: Vec<String> = names.to_vec();
    header.extend(["winner", "value", "best first moves", "states", "time"].map(String::from));
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let mut c = r.params.clone();
            c.extend([
                r.winner.clone(),
                r.value.clone(),
                r.best.clone(),
                r.states.clone(),
                format!("{:.3} s", r.seconds),
            ]);
            c
        })
        .collect();
    let widths: Vec<usize> = (0..header.len())
        .map(|i| {
            cells
                .iter()
                .map(|c| c[i].chars().count())
                .chain([header[i].chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |c: &[String]| {
        let mut s = c
            .iter()
            .zip(&widths)
            .map(|(x, w)| format!("{x:<w$}"))
            .collect::<Vec<_>>()
            .join("  ");
        s.truncate(s.trim_end().len());
        s.push('\n');
        s
    };
    let mut out = line(&header);
    for c in &cells {
        out.push_str(&line(c));
    }
    out
}

fn csv(names: &[String], rows: &[Row]) -> String {
    let mut out = csv_header(names);
    for r in rows {
        out.push_str(&csv_row(r));
    }
    out
}

fn csv_header(names: &[String]) -> String {
    let mut header: Vec<&str> = names.iter().map(String::as_str).collect();
    header.extend(["winner", "value", "best_first_moves", "states", "seconds"]);
    csv_line(&header)
}

fn csv_row(r: &Row) -> String {
    let mut c: Vec<String> = r.params.clone();
    c.extend([
        r.winner.clone(),
        r.value.clone(),
        r.best.clone(),
        r.states.replace(',', ""),
        format!("{:.6}", r.seconds),
    ]);
    csv_line(&c)
}

/// Whether standard output is a pipe whose reader has gone: writing to it
/// would fail, so the solves left would be for no one.
fn stdout_reader_gone() -> bool {
    let mut fd = libc::pollfd {
        fd: 1,
        events: libc::POLLOUT,
        revents: 0,
    };
    // SAFETY: poll(2) of one descriptor that this function owns the record
    // of, without waiting; a closed descriptor answers POLLNVAL, not a
    // gone reader.
    let ready = unsafe { libc::poll(&mut fd, 1, 0) };
    ready > 0 && fd.revents & libc::POLLERR != 0
}
