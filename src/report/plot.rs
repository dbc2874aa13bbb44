//! Pictures for reports, as SVG text: no plotting library, no fonts to find,
//! and a file any browser or LaTeX (via svg/inkscape) shows.

use std::fmt::Write as _;

/// One series of a histogram: a name and its values (one per game).
pub struct Series<'a> {
    pub name: &'a str,
    pub values: &'a [f64],
}

const COLORS: [&str; 6] = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"];

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// One series of a histogram as counts: each distinct value and how many
/// games had it. A match keeps these, not its games.
pub struct Counted<'a> {
    pub name: &'a str,
    pub counts: &'a [(f64, u64)],
}

/// A histogram of each series' values (bars side by side per value bin), with
/// each series' mean marked and written in the legend.
pub fn histogram_svg(title: &str, x_label: &str, series: &[Series]) -> String {
    let counts: Vec<Vec<(f64, u64)>> = series
        .iter()
        .map(|s| s.values.iter().map(|&v| (v, 1)).collect())
        .collect();
    let counted: Vec<Counted> = series
        .iter()
        .zip(&counts)
        .map(|(s, c)| Counted {
            name: s.name,
            counts: c,
        })
        .collect();
    histogram_of_counts(title, x_label, &counted)
}

/// [`histogram_svg`] from counts of values.
pub fn histogram_of_counts(title: &str, x_label: &str, series: &[Counted]) -> String {
    let (w, h) = (720.0f64, 420.0f64);
    let (left, right, top, bottom) = (60.0, 20.0, 50.0, 60.0);
    let all = series.iter().flat_map(|s| s.counts.iter().map(|c| c.0));
    let (lo, hi) = all.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v)));
    let (lo, hi) = if lo.is_finite() {
        (lo.floor(), hi.ceil())
    } else {
        (0.0, 1.0)
    };
    // One bin per whole number when the range is small, else about 30 bins.
    let span = (hi - lo).max(1.0);
    let width = if span <= 40.0 { 1.0 } else { (span / 30.0).ceil() };
    let bins = ((span / width).floor() as usize) + 1;
    let mut counts = vec![vec![0usize; bins]; series.len()];
    for (i, s) in series.iter().enumerate() {
        for &(v, n) in s.counts {
            let b = (((v - lo) / width).floor() as usize).min(bins - 1);
            counts[i][b] += n as usize;
        }
    }
    let games = |s: &Counted| s.counts.iter().map(|c| c.1).sum::<u64>();
    let fractions: Vec<Vec<f64>> = counts
        .iter()
        .zip(series)
        .map(|(c, s)| c.iter().map(|&n| n as f64 / games(s).max(1) as f64).collect())
        .collect();
    let peak = fractions.iter().flatten().copied().fold(0.0f64, f64::max).max(1e-9);
    let plot_w = w - left - right;
    let plot_h = h - top - bottom;
    let bin_w = plot_w / bins as f64;
    let bar_w = bin_w * 0.8 / series.len().max(1) as f64;
    let x_of = |v: f64| left + (v - lo) / width * bin_w;
    let y_of = |f: f64| top + plot_h - f / peak * plot_h;

    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(svg, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="24" text-anchor="middle" font-size="16">{}</text>"#,
        w / 2.0,
        escape(title)
    );
    // Axes, ticks and labels.
    let _ = writeln!(
        svg,
        r#"<line x1="{left}" y1="{}" x2="{}" y2="{}" stroke="black"/>"#,
        top + plot_h,
        left + plot_w,
        top + plot_h
    );
    let _ = writeln!(
        svg,
        r#"<line x1="{left}" y1="{top}" x2="{left}" y2="{}" stroke="black"/>"#,
        top + plot_h
    );
    let step = ((bins as f64) / 12.0).ceil().max(1.0) as usize;
    for b in (0..bins).step_by(step) {
        let v = lo + b as f64 * width;
        let _ = writeln!(
            svg,
            r#"<text x="{:.1}" y="{}" text-anchor="middle">{v}</text>"#,
            x_of(v) + bin_w / 2.0,
            top + plot_h + 16.0
        );
    }
    for k in 0..=4 {
        let f = peak * k as f64 / 4.0;
        let _ = writeln!(
            svg,
            r#"<text x="{}" y="{:.1}" text-anchor="end">{:.0}%</text>"#,
            left - 6.0,
            y_of(f) + 4.0,
            f * 100.0
        );
    }
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#,
        left + plot_w / 2.0,
        h - 18.0,
        escape(x_label)
    );
    let _ = writeln!(
        svg,
        r#"<text x="16" y="{}" text-anchor="middle" transform="rotate(-90 16 {})">games</text>"#,
        top + plot_h / 2.0,
        top + plot_h / 2.0
    );
    for (i, s) in series.iter().enumerate() {
        let color = COLORS[i % COLORS.len()];
        for (b, &f) in fractions[i].iter().enumerate() {
            if f == 0.0 {
                continue;
            }
            let x = left + b as f64 * bin_w + bin_w * 0.1 + i as f64 * bar_w;
            let _ = writeln!(
                svg,
                r#"<rect x="{x:.1}" y="{:.1}" width="{bar_w:.1}" height="{:.1}" fill="{color}" fill-opacity="0.85"/>"#,
                y_of(f),
                top + plot_h - y_of(f)
            );
        }
        let mean = s.counts.iter().map(|&(v, n)| v * n as f64).sum::<f64>() / games(s).max(1) as f64;
        let mx = x_of(mean) + bin_w / 2.0;
        let _ = writeln!(
            svg,
            r#"<line x1="{mx:.1}" y1="{top}" x2="{mx:.1}" y2="{}" stroke="{color}" stroke-dasharray="5,4" stroke-width="2"/>"#,
            top + plot_h
        );
        let ly = top + 8.0 + 18.0 * i as f64;
        let lx = left + plot_w - 230.0;
        let _ = writeln!(
            svg,
            r#"<rect x="{lx}" y="{}" width="12" height="12" fill="{color}"/>"#,
            ly - 10.0
        );
        let _ = writeln!(
            svg,
            r#"<text x="{}" y="{ly}">{} (mean {mean:.2}, {} games)</text>"#,
            lx + 18.0,
            escape(s.name),
            games(s)
        );
    }
    svg.push_str("</svg>\n");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_one_bar_per_nonempty_bin_and_series_and_a_mean_line_each() {
        let a = [0.0, 0.0, 3.0, 5.0];
        let b = [10.0, 12.0];
        let svg = histogram_svg(
            "t <1>",
            "points",
            &[
                Series {
                    name: "search",
                    values: &a,
                },
                Series {
                    name: "random",
                    values: &b,
                },
            ],
        );
        // Bars: search has bins 0, 3, 5; random 10, 12; plus the background and two legend squares.
        assert_eq!(svg.matches("<rect").count(), 1 + 3 + 2 + 2);
        assert_eq!(svg.matches("stroke-dasharray").count(), 2);
        assert!(svg.contains("search (mean 2.00, 4 games)"));
        assert!(svg.contains("t &lt;1&gt;"));
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
    }

    #[test]
    fn survives_no_values() {
        let svg = histogram_svg("empty", "points", &[Series { name: "x", values: &[] }]);
        assert!(svg.contains("</svg>"));
    }
}
