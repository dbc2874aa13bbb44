//! Pictures for reports, drawn with `plotters`: SVG, or PNG where a path
//! ends in `.png` (a picture to paste into a report or a slide).
//!
//! Text is laid out with DejaVu Sans, compiled into gdl (assets/fonts/, its
//! licence beside it), so that nothing is looked up on this machine and a
//! PNG has the same labels everywhere. An SVG names the font `sans-serif`
//! and leaves drawing it to the viewer.

use std::path::Path;
use std::sync::Once;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::rating::{Crosstable, Ratings};

/// The font every label is laid out with.
const FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

/// Gives plotters the font, once: without it no text can be measured or drawn.
pub(crate) fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The font is compiled in and known to parse; a failure would show as
        // pictures without labels, which the tests would catch.
        let _ = plotters::style::register_font("sans-serif", FontStyle::Normal, FONT);
    });
}

/// How a picture is written, from its file's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Svg,
    Png,
}

impl Format {
    /// The format a path's extension names (`.svg` or `.png`, any case).
    pub fn of(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "svg" => Some(Format::Svg),
            "png" => Some(Format::Png),
            _ => None,
        }
    }

    /// Why `--plot PATH` is refused, if it is: a picture is SVG or PNG.
    pub fn check(path: &Path) -> Result<Format, String> {
        Format::of(path).ok_or_else(|| {
            format!(
                "error: --plot {}: the picture is SVG or PNG; name the file FILE.svg or FILE.png",
                path.display()
            )
        })
    }
}

/// One series of a histogram: a name and its values (one per game).
pub struct Series<'a> {
    pub name: &'a str,
    pub values: &'a [f64],
}

const COLORS: [RGBColor; 6] = [
    RGBColor(0x1f, 0x77, 0xb4),
    RGBColor(0xd6, 0x27, 0x28),
    RGBColor(0x2c, 0xa0, 0x2c),
    RGBColor(0xff, 0x7f, 0x0e),
    RGBColor(0x94, 0x67, 0xbd),
    RGBColor(0x8c, 0x56, 0x4b),
];

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

/// The smallest of 1, 2, 5, 10, 20, 50, ... at least `x`: bins and ticks
/// on round numbers.
fn round_step(x: f64) -> f64 {
    let x = x.max(1.0);
    let mut p = 1.0;
    loop {
        for m in [1.0, 2.0, 5.0] {
            if m * p >= x {
                return m * p;
            }
        }
        p *= 10.0;
    }
}

/// A series' mean and the half-width of its 95% confidence interval
/// (normal approximation: 1.96 standard errors; 0 with fewer than 2 games).
fn mean_and_interval(counts: &[(f64, u64)]) -> (f64, f64, u64) {
    let n: u64 = counts.iter().map(|c| c.1).sum();
    if n == 0 {
        return (0.0, 0.0, 0);
    }
    let mean = counts.iter().map(|&(v, k)| v * k as f64).sum::<f64>() / n as f64;
    if n < 2 {
        return (mean, 0.0, n);
    }
    let var = counts.iter().map(|&(v, k)| (v - mean).powi(2) * k as f64).sum::<f64>() / (n - 1) as f64;
    (mean, 1.96 * (var / n as f64).sqrt(), n)
}

/// [`histogram_svg`] from counts of values: the share of each series' games
/// per bin of values, bins of a round width centred on their first value;
/// each series' mean as a line,
/// with its 95% confidence interval shaded around it.
pub fn histogram_of_counts(title: &str, x_label: &str, series: &[Counted]) -> String {
    let bytes = render(Format::Svg, &Histogram { title, x_label, series });
    String::from_utf8(bytes).unwrap_or_default()
}

/// The picture's size in SVG's pixels; a PNG has twice as many each way,
/// to stay sharp on a slide.
const WIDTH: u32 = 760;
const HEIGHT: u32 = 440;
const PNG_SCALE: u32 = 2;

/// [`histogram_of_counts`] as a PNG file's bytes.
pub fn histogram_png(title: &str, x_label: &str, series: &[Counted]) -> Vec<u8> {
    render(Format::Png, &Histogram { title, x_label, series })
}

/// [`histogram_of_counts`] in `format`, as a file's bytes.
pub fn histogram_file(format: Format, title: &str, x_label: &str, series: &[Counted]) -> Vec<u8> {
    render(format, &Histogram { title, x_label, series })
}

/// A picture that can be drawn on any of plotters' backends.
trait Picture {
    /// Its size in SVG's pixels.
    fn size(&self) -> (u32, u32);
    /// Draws it on `root`, every length times `k`.
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, k: u32);
}

/// A picture as a file's bytes: SVG text, or a PNG of twice the size.
fn render(format: Format, picture: &impl Picture) -> Vec<u8> {
    register_font();
    let (w, h) = picture.size();
    match format {
        Format::Svg => {
            let mut svg = String::new();
            {
                let root = SVGBackend::with_string(&mut svg, (w, h)).into_drawing_area();
                let _ = root.fill(&WHITE);
                picture.draw(&root, 1);
                let _ = root.present();
            }
            if !svg.ends_with('\n') {
                svg.push('\n');
            }
            svg.into_bytes()
        }
        Format::Png => {
            let (w, h) = (w * PNG_SCALE, h * PNG_SCALE);
            let mut rgb = vec![0u8; (w * h * 3) as usize];
            {
                let root = BitMapBackend::with_buffer(&mut rgb, (w, h)).into_drawing_area();
                let _ = root.fill(&WHITE);
                picture.draw(&root, PNG_SCALE);
                let _ = root.present();
            }
            png_bytes(&rgb, w, h)
        }
    }
}

/// An RGB picture as a PNG file.
fn png_bytes(rgb: &[u8], w: u32, h: u32) -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, w, h);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    // Writing to memory fails only on a buffer of the wrong size, which
    // is made above to fit.
    let mut writer = encoder.write_header().expect("a PNG header writes to memory");
    writer.write_image_data(rgb).expect("the buffer holds w x h RGB pixels");
    drop(writer);
    out
}

struct Histogram<'a> {
    title: &'a str,
    x_label: &'a str,
    series: &'a [Counted<'a>],
}

/// The height of one line of a legend drawn under a chart.
const LEGEND_LINE: u32 = 20;

impl Picture for Histogram<'_> {
    fn size(&self) -> (u32, u32) {
        (WIDTH, HEIGHT + LEGEND_LINE * (self.series.len() as u32 + 1))
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, k: u32) {
        draw_histogram(root, k, self.title, self.x_label, self.series);
    }
}

/// The histogram drawn on `root`, every length times `k`.
fn draw_histogram<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    k: u32,
    title: &str,
    x_label: &str,
    series: &[Counted],
) {
    let ki = k as i32;
    let all = series.iter().flat_map(|s| s.counts.iter().map(|c| c.0));
    let (lo, hi) = all.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v)));
    let (lo, hi) = if lo.is_finite() { (lo, hi) } else { (0.0, 1.0) };
    // One bin per whole number when the range is small, else at most about
    // 30 bins of a round width, starting on a multiple of it.
    let width = round_step((hi - lo) / 30.0);
    let start = (lo / width).floor() * width;
    let bins = (((hi - start) / width).floor() as usize) + 1;
    let mut shares = vec![vec![0.0f64; bins]; series.len()];
    for (i, s) in series.iter().enumerate() {
        let games = s.counts.iter().map(|c| c.1).sum::<u64>().max(1) as f64;
        for &(v, n) in s.counts {
            let b = (((v - start) / width).floor() as usize).min(bins - 1);
            shares[i][b] += n as f64 / games * 100.0;
        }
    }
    let peak = shares.iter().flatten().copied().fold(0.0f64, f64::max);
    // A little room above the highest bar; a share never passes 100%.
    let top = (round_step(peak * 1.1 / 5.0) * 5.0).clamp(5.0, 100.0);
    // Each bin centred on its first value, so that the ticks name the bars.
    let x_range = start - width / 2.0..start + bins as f64 * width - width / 2.0;

    let h = root.dim_in_pixel().1;
    let lines = series.len() as u32 + 1;
    let (plot_area, legend_area) = root.split_vertically(h.saturating_sub(LEGEND_LINE * k * lines + 6 * k));
    let chart = ChartBuilder::on(&plot_area)
        .caption(title, ("sans-serif", 18 * k))
        .margin(14 * k)
        .x_label_area_size(44 * k)
        .y_label_area_size(56 * k)
        .build_cartesian_2d(x_range.clone(), 0.0..top);
    let Ok(mut chart) = chart else {
        // Only a plot area too small to draw in fails: an empty picture.
        return;
    };
    let x_ticks = bins.clamp(2, 12);
    let _ = chart
        .configure_mesh()
        .disable_x_mesh()
        .light_line_style(TRANSPARENT)
        .x_desc(x_label)
        .y_desc("share of games (%)")
        .x_labels(x_ticks)
        .y_labels(6)
        .x_label_formatter(&|v| tick(*v))
        .y_label_formatter(&|v| format!("{v:.0}"))
        .axis_desc_style(("sans-serif", 14 * k))
        .label_style(("sans-serif", 12 * k))
        .draw();
    let bar = width * 0.8 / series.len().max(1) as f64;
    for (i, s) in series.iter().enumerate() {
        let color = COLORS[i % COLORS.len()];
        let (mean, half, games) = mean_and_interval(s.counts);
        // The interval first, under the bars.
        if half > 0.0 {
            let _ = chart.draw_series(std::iter::once(Rectangle::new(
                [(mean - half, 0.0), (mean + half, top)],
                color.mix(0.12).filled(),
            )));
        }
        let bars = shares[i].iter().enumerate().filter(|(_, f)| **f > 0.0).map(|(b, &f)| {
            let x0 = start + b as f64 * width - width * 0.4 + i as f64 * bar;
            Rectangle::new([(x0, 0.0), (x0 + bar, f)], color.mix(0.85).filled())
        });
        let label = format!("{} (mean {mean:.2}, {games} games)", s.name);
        let _ = chart.draw_series(bars);
        let _ = chart.draw_series(std::iter::once(PathElement::new(
            vec![(mean, 0.0), (mean, top)],
            color.stroke_width(2 * k),
        )));
        // The legend under the chart, where no line runs through it.
        let y = (LEGEND_LINE * k) as i32 * i as i32 + 8 * ki;
        let x = 70 * ki;
        let _ = legend_area.draw(&Rectangle::new([(x, y), (x + 12 * ki, y + 10 * ki)], color.filled()));
        let _ = legend_area.draw(&PathElement::new(
            vec![(x + 18 * ki, y - 2 * ki), (x + 18 * ki, y + 12 * ki)],
            color.stroke_width(2 * k),
        ));
        let _ = legend_area.draw(&Text::new(
            label,
            (x + 26 * ki, y - ki),
            ("sans-serif", 13 * k).into_font().color(&BLACK),
        ));
    }
    let y = (LEGEND_LINE * k) as i32 * series.len() as i32 + 8 * ki;
    let _ = legend_area.draw(&Text::new(
        "each line is a mean, the shade around it its 95% interval",
        (70 * ki, y - ki),
        ("sans-serif", 12 * k).into_font().color(&BLACK.mix(0.7)),
    ));
}

/// A tick label: whole numbers without a decimal point.
fn tick(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round() as i64)
    } else {
        format!("{v:.1}")
    }
}

/// Text centred on a point.
fn centred(size: u32) -> TextStyle<'static> {
    ("sans-serif", size)
        .into_font()
        .color(&BLACK)
        .pos(Pos::new(HPos::Center, VPos::Center))
}

/// A score's colour: red at 0, white at ½, blue at 1 (light enough for
/// black text on every cell).
pub fn score_color(score: f64) -> RGBColor {
    let (lo, mid, hi) = ((0xef, 0x8a, 0x62), (0xf7, 0xf7, 0xf7), (0x67, 0xa9, 0xcf));
    let mix = |a: (u8, u8, u8), b: (u8, u8, u8), t: f64| {
        let c = |x: u8, y: u8| (f64::from(x) + (f64::from(y) - f64::from(x)) * t).round() as u8;
        RGBColor(c(a.0, b.0), c(a.1, b.1), c(a.2, b.2))
    };
    let t = score.clamp(0.0, 1.0);
    if t < 0.5 {
        mix(lo, mid, t * 2.0)
    } else {
        mix(mid, hi, t * 2.0 - 1.0)
    }
}

/// A league's picture: the crosstable as a heat map beside the agents'
/// Elo ratings with their intervals.
struct League<'a> {
    title: &'a str,
    table: &'a Crosstable,
    ratings: &'a Ratings,
}

/// The heat map's cells, in SVG's pixels.
const CELL_W: u32 = 72;
const CELL_H: u32 = 40;
/// The width of the ratings chart.
const RATINGS_W: u32 = 430;

impl League<'_> {
    /// The row labels' width: a numbered agent's name in 12 px text.
    fn label_w(&self) -> u32 {
        let longest = self.table.agents.iter().map(|a| a.chars().count()).max().unwrap_or(0) as u32;
        40 + 7 * longest
    }

    fn heat_w(&self) -> u32 {
        self.label_w() + CELL_W * self.table.agents.len() as u32 + 20
    }
}

impl Picture for League<'_> {
    fn size(&self) -> (u32, u32) {
        let k = self.table.agents.len() as u32;
        let w = self.heat_w() + RATINGS_W.max(self.label_w() + 260);
        let h = (110 + CELL_H * k + 40).max(320);
        (w, h)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, k: u32) {
        let ki = k as i32;
        let Ok(area) = root.margin(8 * k, 0, 0, 0).titled(self.title, ("sans-serif", 18 * k)) else {
            return;
        };
        let (heat, chart) = area.split_horizontally(self.heat_w() * k);
        let agents = &self.table.agents;
        let n = agents.len();
        let small = ("sans-serif", 12 * k).into_font().color(&BLACK);
        let _ = heat.draw(&Text::new(
            "score of the row against the column (95% interval)",
            (14 * ki, 10 * ki),
            ("sans-serif", 13 * k).into_font().color(&BLACK),
        ));
        let (x0, y0) = ((self.label_w() as i32 + 4) * ki, 56 * ki);
        let (cw, ch) = ((CELL_W * k) as i32, (CELL_H * k) as i32);
        for b in 0..n {
            let _ = heat.draw(&Text::new(
                (b + 1).to_string(),
                (x0 + cw * b as i32 + cw / 2, y0 - 10 * ki),
                centred(12 * k),
            ));
        }
        for (a, name) in agents.iter().enumerate() {
            let y = y0 + ch * a as i32;
            let _ = heat.draw(&Text::new(
                format!("{}  {name}", a + 1),
                (14 * ki, y + ch / 2),
                small.pos(Pos::new(HPos::Left, VPos::Center)),
            ));
            for b in 0..n {
                let x = x0 + cw * b as i32;
                let cell = [(x, y), (x + cw, y + ch)];
                let centre = (x + cw / 2, y + ch / 2);
                match self.table.score(a, b) {
                    _ if a == b => {
                        let _ = heat.draw(&Rectangle::new(cell, RGBColor(0xd9, 0xd9, 0xd9).filled()));
                    }
                    None => {
                        let _ = heat.draw(&Rectangle::new(cell, RGBColor(0xf0, 0xf0, 0xf0).filled()));
                        let _ = heat.draw(&Text::new("never met", centre, centred(10 * k)));
                    }
                    Some((share, lo, hi)) => {
                        let _ = heat.draw(&Rectangle::new(cell, score_color(share).filled()));
                        let _ = heat.draw(&Text::new(
                            format!("{:.0}%", 100.0 * share),
                            (centre.0, centre.1 - 7 * ki),
                            centred(13 * k),
                        ));
                        let _ = heat.draw(&Text::new(
                            format!("{:.0}–{:.0}", 100.0 * lo, 100.0 * hi),
                            (centre.0, centre.1 + 9 * ki),
                            centred(10 * k),
                        ));
                    }
                }
                let _ = heat.draw(&Rectangle::new(cell, WHITE.stroke_width(k)));
            }
        }
        let _ = heat.draw(&Text::new(
            "a win counts 1, a draw ½; colour: red below 50%, blue above",
            (14 * ki, y0 + ch * n as i32 + 14 * ki),
            ("sans-serif", 11 * k).into_font().color(&BLACK.mix(0.7)),
        ));
        draw_ratings(&chart, k, agents, self.ratings);
    }
}

/// The ratings as points with their 95% intervals, the best at the top.
fn draw_ratings<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, k: u32, agents: &[String], ratings: &Ratings) {
    let ki = k as i32;
    let mut rated: Vec<(usize, f64, f64)> = (0..agents.len())
        .filter_map(|a| Some((a, ratings.elo[a]?, ratings.half[a]?)))
        .collect();
    rated.sort_by(|x, y| x.1.total_cmp(&y.1));
    if rated.is_empty() {
        let _ = area.draw(&Text::new("no games, no ratings", (20 * ki, 40 * ki), centred(13 * k)));
        return;
    }
    let lo = rated.iter().map(|r| r.1 - r.2).fold(0.0f64, f64::min);
    let hi = rated.iter().map(|r| r.1 + r.2).fold(0.0f64, f64::max);
    let pad = ((hi - lo) * 0.08).max(20.0);
    let names: Vec<String> = rated.iter().map(|r| agents[r.0].clone()).collect();
    let longest = names.iter().map(|a| a.chars().count()).max().unwrap_or(0) as u32;
    let caption = match (ratings.prior, ratings.table) {
        (true, None) => "Elo rating (95% interval), mean 0; one virtual draw a pair".to_string(),
        (true, Some(n)) => format!("Elo rating (95%, widened ×√{}), mean 0; one virtual draw a pair", n - 1),
        (false, Some(n)) => format!(
            "Elo rating (95% interval, widened ×√{} for tables of {n}), mean 0",
            n - 1
        ),
        (false, None) => "Elo rating (95% interval), the agents' mean 0".to_string(),
    };
    let chart = ChartBuilder::on(area)
        .caption(caption, ("sans-serif", 13 * k))
        .margin_right(24 * k)
        .margin_top(4 * k)
        .margin_bottom(10 * k)
        .x_label_area_size(40 * k)
        .y_label_area_size((16 + 7 * longest) * k)
        .build_cartesian_2d(lo - pad..hi + pad, (0..rated.len() - 1).into_segmented());
    let Ok(mut chart) = chart else {
        return;
    };
    let _ = chart
        .configure_mesh()
        .disable_y_mesh()
        .light_line_style(TRANSPARENT)
        .bold_line_style(BLACK.mix(0.08))
        .x_desc("Elo")
        .x_labels(6)
        .y_labels(rated.len())
        .x_label_formatter(&|v| {
            if v.abs() < 0.5 {
                "0".to_string()
            } else {
                format!("{v:+.0}")
            }
        })
        .y_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) => names.get(*i).cloned().unwrap_or_default(),
            _ => String::new(),
        })
        .axis_desc_style(("sans-serif", 12 * k))
        .label_style(("sans-serif", 12 * k))
        .draw();
    let _ = chart.draw_series(std::iter::once(PathElement::new(
        vec![(0.0, SegmentValue::Exact(0)), (0.0, SegmentValue::Last)],
        BLACK.mix(0.3).stroke_width(k),
    )));
    let color = COLORS[0];
    // Each interval a line with a tick at either end, the rating a dot.
    let line = color.stroke_width(2 * k);
    let _ = chart.draw_series(rated.iter().enumerate().map(|(i, &(_, elo, half))| {
        PathElement::new(
            vec![
                (elo - half, SegmentValue::CenterOf(i)),
                (elo + half, SegmentValue::CenterOf(i)),
            ],
            line,
        )
    }));
    let _ = chart.draw_series(rated.iter().enumerate().flat_map(|(i, &(_, elo, half))| {
        [elo - half, elo + half].map(|x| {
            EmptyElement::at((x, SegmentValue::CenterOf(i))) + PathElement::new(vec![(0, -6 * ki), (0, 6 * ki)], line)
        })
    }));
    let _ = chart.draw_series(
        rated
            .iter()
            .enumerate()
            .map(|(i, &(_, elo, _))| Circle::new((elo, SegmentValue::CenterOf(i)), 5 * k, color.filled())),
    );
    let _ = chart.draw_series(rated.iter().enumerate().map(|(i, &(_, elo, half))| {
        EmptyElement::at((elo, SegmentValue::CenterOf(i)))
            + Text::new(
                format!("{:+.0} ± {:.0}", elo + 0.0, half),
                (0, -14 * ki),
                centred(11 * k),
            )
    }));
}

/// A league's picture in `format`, as a file's bytes: the crosstable as a
/// heat map, and the Elo ratings with their 95% intervals.
pub fn league_file(format: Format, title: &str, table: &Crosstable, ratings: &Ratings) -> Vec<u8> {
    render(format, &League { title, table, ratings })
}

/// One agent's games of a match by outcome.
pub struct Outcomes<'a> {
    pub name: &'a str,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

struct OutcomeBars<'a> {
    title: &'a str,
    agents: &'a [Outcomes<'a>],
}

impl Picture for OutcomeBars<'_> {
    fn size(&self) -> (u32, u32) {
        (WIDTH.max(160 + 190 * self.agents.len() as u32), HEIGHT)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, k: u32) {
        let ki = k as i32;
        let kinds = [
            ("wins", RGBColor(0x2c, 0xa0, 0x2c)),
            ("draws", RGBColor(0x99, 0x99, 0x99)),
            ("losses", RGBColor(0xd6, 0x27, 0x28)),
        ];
        let Ok(area) = root.margin(8 * k, 0, 0, 0).titled(self.title, ("sans-serif", 18 * k)) else {
            return;
        };
        let (legend, area) = area.split_vertically(24 * k);
        let mut x = 70 * ki;
        for (name, color) in kinds {
            let _ = legend.draw(&Rectangle::new([(x, 6 * ki), (x + 12 * ki, 18 * ki)], color.filled()));
            let _ = legend.draw(&Text::new(
                name,
                (x + 18 * ki, 5 * ki),
                ("sans-serif", 13 * k).into_font().color(&BLACK),
            ));
            x += 90 * ki;
        }
        let _ = legend.draw(&Text::new(
            "bars: share of the agent's games; whiskers: 95% (Wilson) interval",
            (x, 6 * ki),
            ("sans-serif", 12 * k).into_font().color(&BLACK.mix(0.7)),
        ));
        let n = self.agents.len();
        let names: Vec<String> = self.agents.iter().map(|a| a.name.to_string()).collect();
        let chart = ChartBuilder::on(&area)
            .margin(14 * k)
            .x_label_area_size(30 * k)
            .y_label_area_size(56 * k)
            .build_cartesian_2d((0..n.max(1) - 1).into_segmented(), 0.0..100.0);
        let Ok(mut chart) = chart else {
            return;
        };
        let _ = chart
            .configure_mesh()
            .disable_x_mesh()
            .light_line_style(TRANSPARENT)
            .y_desc("share of games (%)")
            .y_labels(6)
            .x_labels(n)
            .x_label_formatter(&|v| match v {
                SegmentValue::CenterOf(i) => names.get(*i).cloned().unwrap_or_default(),
                _ => String::new(),
            })
            .y_label_formatter(&|v| format!("{v:.0}"))
            .axis_desc_style(("sans-serif", 14 * k))
            .label_style(("sans-serif", 13 * k))
            .draw();
        // Each agent's segment holds its three bars side by side, drawn on
        // the root in the pixels the chart maps its values to.
        let (left, _) = chart.backend_coord(&(SegmentValue::Exact(0), 0.0));
        let (right, _) = chart.backend_coord(&(SegmentValue::Exact(1), 0.0));
        let seg = (right - left).max(1);
        for (i, agent) in self.agents.iter().enumerate() {
            let games = agent.wins + agent.draws + agent.losses;
            let (seg_left, _) = chart.backend_coord(&(SegmentValue::Exact(i), 0.0));
            let bar = seg / 4;
            for (j, (count, (_, color))) in [agent.wins, agent.draws, agent.losses]
                .into_iter()
                .zip(kinds)
                .enumerate()
            {
                if games == 0 {
                    continue;
                }
                let share = 100.0 * count as f64 / games as f64;
                let (lo, hi) = crate::report::stats::wilson(count, games).unwrap_or((0.0, 0.0));
                let x = seg_left + bar / 2 + bar * j as i32;
                let (_, y0) = chart.backend_coord(&(SegmentValue::Exact(i), 0.0));
                let (_, y) = chart.backend_coord(&(SegmentValue::Exact(i), share));
                let (_, ylo) = chart.backend_coord(&(SegmentValue::Exact(i), 100.0 * lo));
                let (_, yhi) = chart.backend_coord(&(SegmentValue::Exact(i), 100.0 * hi));
                if count > 0 {
                    let _ = root.draw(&Rectangle::new(
                        [(x + 2 * ki, y), (x + bar - 2 * ki, y0)],
                        color.mix(0.85).filled(),
                    ));
                }
                let mid = x + bar / 2;
                let whisker = BLACK.stroke_width(k);
                let _ = root.draw(&PathElement::new(vec![(mid, ylo), (mid, yhi)], whisker));
                let _ = root.draw(&PathElement::new(
                    vec![(mid - 5 * ki, ylo), (mid + 5 * ki, ylo)],
                    whisker,
                ));
                let _ = root.draw(&PathElement::new(
                    vec![(mid - 5 * ki, yhi), (mid + 5 * ki, yhi)],
                    whisker,
                ));
                let _ = root.draw(&Text::new(format!("{share:.0}%"), (mid, yhi - 9 * ki), centred(12 * k)));
            }
        }
    }
}

/// A match's outcomes as bars (each agent's share of wins, draws and
/// losses with their 95% Wilson intervals), in `format`, as a file's bytes.
pub fn outcomes_file(format: Format, title: &str, agents: &[Outcomes]) -> Vec<u8> {
    render(format, &OutcomeBars { title, agents })
}

/// One opponent's line of a learning curve: after each evaluation, the
/// training's progress (`x`) and the score with its 95% interval, in [0, 1].
pub struct CurveSeries<'a> {
    pub name: &'a str,
    pub points: &'a [CurvePoint],
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CurvePoint {
    pub x: f64,
    pub score: f64,
    pub low: f64,
    pub high: f64,
}

struct LearningCurve<'a> {
    title: &'a str,
    x_label: &'a str,
    series: &'a [CurveSeries<'a>],
}

impl Picture for LearningCurve<'_> {
    fn size(&self) -> (u32, u32) {
        (WIDTH, HEIGHT)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, k: u32) {
        let ki = k as i32;
        let Ok(area) = root.margin(8 * k, 0, 0, 0).titled(self.title, ("sans-serif", 18 * k)) else {
            return;
        };
        let (legend, area) = area.split_vertically(24 * k);
        let mut x = 70 * ki;
        for (i, s) in self.series.iter().enumerate() {
            let color = COLORS[i % COLORS.len()];
            let _ = legend.draw(&Rectangle::new([(x, 6 * ki), (x + 12 * ki, 18 * ki)], color.filled()));
            let label = format!("against {}", s.name);
            let _ = legend.draw(&Text::new(
                label.clone(),
                (x + 18 * ki, 5 * ki),
                ("sans-serif", 13 * k).into_font().color(&BLACK),
            ));
            x += (30 + 8 * label.chars().count() as i32) * ki;
        }
        let _ = legend.draw(&Text::new(
            "bands: 95% (Wilson) interval",
            (x, 6 * ki),
            ("sans-serif", 12 * k).into_font().color(&BLACK.mix(0.7)),
        ));
        let x_max = self
            .series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.x))
            .fold(1.0f64, f64::max);
        let chart = ChartBuilder::on(&area)
            .margin(14 * k)
            .x_label_area_size(36 * k)
            .y_label_area_size(56 * k)
            .build_cartesian_2d(0.0..x_max, 0.0..100.0);
        let Ok(mut chart) = chart else {
            return;
        };
        let _ = chart
            .configure_mesh()
            .light_line_style(BLACK.mix(0.06))
            .x_desc(self.x_label)
            .y_desc("score (%): a win 1, a draw ½")
            .y_labels(6)
            .x_labels(8)
            .x_label_formatter(&|v| tick(*v))
            .y_label_formatter(&|v| format!("{v:.0}"))
            .axis_desc_style(("sans-serif", 14 * k))
            .label_style(("sans-serif", 13 * k))
            .draw();
        // Even odds: above the line the network scores more than its opponent.
        let _ = chart.draw_series(std::iter::once(PathElement::new(
            vec![(0.0, 50.0), (x_max, 50.0)],
            BLACK.mix(0.4).stroke_width(k),
        )));
        for (i, s) in self.series.iter().enumerate() {
            let color = COLORS[i % COLORS.len()];
            let mut band: Vec<(f64, f64)> = s.points.iter().map(|p| (p.x, 100.0 * p.high)).collect();
            band.extend(s.points.iter().rev().map(|p| (p.x, 100.0 * p.low)));
            if band.len() >= 4 {
                let _ = chart.draw_series(std::iter::once(Polygon::new(band, color.mix(0.18).filled())));
            }
            let line: Vec<(f64, f64)> = s.points.iter().map(|p| (p.x, 100.0 * p.score)).collect();
            let _ = chart.draw_series(std::iter::once(PathElement::new(
                line.clone(),
                color.stroke_width(2 * k),
            )));
            let _ = chart.draw_series(line.iter().map(|&p| Circle::new(p, 3 * ki, color.filled())));
        }
    }
}

/// A learning curve: each opponent's score against the network over
/// training, with its 95% interval as a band, in `format`, as a file's bytes.
pub fn learning_curve_file(format: Format, title: &str, x_label: &str, series: &[CurveSeries]) -> Vec<u8> {
    render(format, &LearningCurve { title, x_label, series })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_one_bar_per_nonempty_bin_and_series_and_a_legend_with_means() {
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
        // Bars in each series' colour: search has bins 0, 3, 5; random 10, 12
        // (plus each series' legend square).
        assert_eq!(svg.matches(r##"opacity="0.85" fill="#1F77B4""##).count(), 3, "{svg}");
        assert_eq!(svg.matches(r##"opacity="0.85" fill="#D62728""##).count(), 2, "{svg}");
        assert!(svg.contains("search (mean 2.00, 4 games)"), "{svg}");
        assert!(svg.contains("random (mean 11.00, 2 games)"), "{svg}");
        assert!(svg.contains("t &lt;1&gt;"), "{svg}");
        assert!(svg.contains("share of games (%)"));
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
    }

    #[test]
    fn a_learning_curve_draws_each_opponent_with_its_band() {
        let a = [
            CurvePoint {
                x: 1.0,
                score: 0.5,
                low: 0.3,
                high: 0.7,
            },
            CurvePoint {
                x: 2.0,
                score: 0.9,
                low: 0.7,
                high: 0.97,
            },
        ];
        let b = [CurvePoint {
            x: 2.0,
            score: 0.25,
            low: 0.1,
            high: 0.5,
        }];
        let svg = String::from_utf8(learning_curve_file(
            Format::Svg,
            "Connect four",
            "iteration",
            &[
                CurveSeries {
                    name: "random",
                    points: &a,
                },
                CurveSeries {
                    name: "mcts:200",
                    points: &b,
                },
            ],
        ))
        .unwrap();
        assert!(
            svg.contains("against random") && svg.contains("against mcts:200"),
            "{svg}"
        );
        assert!(svg.contains("iteration") && svg.contains("Connect four"), "{svg}");
        // One band for the series of two points; a single point has none.
        assert_eq!(svg.matches("<polygon").count(), 1, "{svg}");
        // Each point is a dot in its series' colour.
        assert_eq!(svg.matches(r##"<circle"##).count(), 3, "{svg}");
    }

    #[test]
    fn bins_and_ticks_are_round() {
        assert_eq!(round_step(0.2), 1.0);
        assert_eq!(round_step(3.3), 5.0);
        assert_eq!(round_step(13.0), 20.0);
        assert_eq!(round_step(101.0), 200.0);
        assert_eq!(tick(20.0), "20");
        assert_eq!(tick(2.5), "2.5");
    }

    #[test]
    fn the_interval_is_about_two_standard_errors() {
        // Values 0 and 2, 50 games each: mean 1, sd ≈ 1.005, se ≈ 0.1005.
        let (mean, half, n) = mean_and_interval(&[(0.0, 50), (2.0, 50)]);
        assert_eq!((mean, n), (1.0, 100));
        assert!((half - 1.96 * (100.0f64 / 99.0).sqrt() / 10.0).abs() < 1e-12, "{half}");
        assert_eq!(mean_and_interval(&[(3.0, 1)]), (3.0, 0.0, 1));
    }

    #[test]
    fn survives_no_values() {
        let svg = histogram_svg("empty", "points", &[Series { name: "x", values: &[] }]);
        assert!(svg.contains("</svg>"));
    }

    #[test]
    fn a_png_has_its_size_and_its_labels_drawn() {
        let counts = [(0.0, 3), (1.0, 1)];
        let bytes = histogram_png(
            "Title",
            "points",
            &[Counted {
                name: "a",
                counts: &counts,
            }],
        );
        let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        let mut reader = decoder.read_info().expect("a PNG");
        let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut pixels).unwrap();
        // The legend's line and its note under the chart.
        let height = HEIGHT + 2 * LEGEND_LINE;
        assert_eq!((info.width, info.height), (WIDTH * PNG_SCALE, height * PNG_SCALE));
        // The title is text, drawn with the font compiled in: dark pixels in
        // the band above the plot, where nothing else is drawn.
        let row = (info.width * 3) as usize;
        let band = &pixels[8 * row..40 * row];
        let dark = band.chunks(3).filter(|p| p.iter().all(|&c| c < 100)).count();
        assert!(dark > 100, "{dark} dark pixels where the title is");
    }

    /// Every text of an SVG picture: its tag and its words.
    fn texts(svg: &str) -> Vec<(&str, String)> {
        svg.split("<text")
            .skip(1)
            .filter_map(|t| {
                let (tag, rest) = t.split_once('>')?;
                Some((tag, rest.split('<').next()?.trim().to_string()))
            })
            .collect()
    }

    /// How many texts of `svg` read `words`.
    fn count(svg: &str, words: &str) -> usize {
        texts(svg).iter().filter(|(_, w)| w == words).count()
    }

    /// The y axis's tick labels of an SVG chart (right-aligned numbers).
    fn y_ticks(svg: &str) -> Vec<f64> {
        texts(svg)
            .into_iter()
            .filter(|(tag, _)| tag.contains(r#"text-anchor="end""#))
            .filter_map(|(_, w)| w.parse().ok())
            .collect()
    }

    #[test]
    fn a_share_never_reaches_past_100_percent_and_the_legend_is_under_the_chart() {
        // Every game the same value: one bar of 100%.
        let counts = [(7.0, 40)];
        let svg = histogram_of_counts(
            "t",
            "points",
            &[Counted {
                name: "a",
                counts: &counts,
            }],
        );
        let ticks = y_ticks(&svg);
        assert!(ticks.contains(&100.0), "{ticks:?}");
        assert!(ticks.iter().all(|&t| t <= 100.0), "{ticks:?}");
        // The legend's text lies below the x axis's title.
        let y_of = |words: &str| -> i32 {
            let all = texts(&svg);
            let (tag, _) = all
                .iter()
                .find(|(_, w)| w == words)
                .unwrap_or_else(|| panic!("{words} in {svg}"));
            let y = tag.split(" y=\"").nth(1).unwrap();
            y[..y.find('"').unwrap()].parse().unwrap()
        };
        assert!(y_of("a (mean 7.00, 40 games)") > y_of("points"), "{svg}");
    }

    #[test]
    fn outcome_bars_have_their_shares_and_stop_at_100_percent() {
        let agents = [
            Outcomes {
                name: "mcts",
                wins: 46,
                draws: 4,
                losses: 0,
            },
            Outcomes {
                name: "random",
                wins: 0,
                draws: 4,
                losses: 46,
            },
        ];
        let svg = String::from_utf8(outcomes_file(Format::Svg, "Tic-tac-toe: 50 games", &agents)).unwrap();
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        // Each bar's share over it: 92% twice (mcts's wins, random's losses),
        // 8% twice, 0% twice.
        assert_eq!(count(&svg, "92%"), 2, "{svg}");
        assert_eq!(count(&svg, "8%"), 2, "{svg}");
        assert_eq!(count(&svg, "0%"), 2, "{svg}");
        for name in ["mcts", "random", "wins", "draws", "losses"] {
            assert_eq!(count(&svg, name), 1, "{name}: {svg}");
        }
        let ticks = y_ticks(&svg);
        assert_eq!(ticks.iter().copied().fold(0.0, f64::max), 100.0, "{ticks:?}");
        // Four bars drawn (no bar for a share of 0), in the three colours.
        assert_eq!(svg.matches(r##"opacity="0.85" fill="#2CA02C""##).count(), 1, "{svg}");
        assert_eq!(svg.matches(r##"opacity="0.85" fill="#999999""##).count(), 2, "{svg}");
        assert_eq!(svg.matches(r##"opacity="0.85" fill="#D62728""##).count(), 1, "{svg}");
    }

    fn kalah_league() -> (Crosstable, Ratings) {
        let mut t = Crosstable::new(vec!["random".into(), "greedy".into(), "mcts".into()]);
        let u = crate::report::stats::Measure::Utility;
        // greedy beats random 3 of 4; mcts and random never meet; mcts and greedy draw twice.
        for (seating, values) in [
            ([1, 0], [1.0, -1.0]),
            ([0, 1], [-1.0, 1.0]),
            ([1, 0], [1.0, -1.0]),
            ([0, 1], [1.0, -1.0]),
            ([2, 1], [0.0, 0.0]),
            ([1, 2], [0.0, 0.0]),
        ] {
            t.record(u, &seating, &values);
        }
        let r = t.ratings();
        (t, r)
    }

    #[test]
    fn a_league_picture_shows_the_crosstable_and_the_ratings() {
        let (table, ratings) = kalah_league();
        let svg = String::from_utf8(league_file(Format::Svg, "Kalah: 6 games", &table, &ratings)).unwrap();
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        // The crosstable's cells: greedy 75% against random, random 25%,
        // the draws 50% each way, and the pair that never met.
        assert_eq!(count(&svg, "75%"), 1, "{svg}");
        assert_eq!(count(&svg, "25%"), 1, "{svg}");
        assert_eq!(count(&svg, "50%"), 2, "{svg}");
        assert_eq!(count(&svg, "never met"), 2, "{svg}");
        let (_, lo, hi) = table.score(1, 0).unwrap();
        assert_eq!(count(&svg, &format!("{:.0}–{:.0}", 100.0 * lo, 100.0 * hi)), 1, "{svg}");
        // Each agent's rating as the report prints it.
        for a in 0..3 {
            let label = format!(
                "{:+.0} ± {:.0}",
                ratings.elo[a].unwrap() + 0.0,
                ratings.half[a].unwrap()
            );
            assert_eq!(count(&svg, &label), 1, "{label}: {svg}");
        }
        for name in ["1  random", "2  greedy", "3  mcts"] {
            assert_eq!(count(&svg, name), 1, "{name}");
        }
        // The cells are coloured by score: 75% a blue, 25% a red.
        let fill = |c: RGBColor| format!("fill=\"#{:02X}{:02X}{:02X}\"", c.0, c.1, c.2);
        assert!(svg.contains(&fill(score_color(0.75))) && svg.contains(&fill(score_color(0.25))));
        assert!(score_color(0.75).2 > score_color(0.75).0 && score_color(0.25).0 > score_color(0.25).2);
        assert_eq!(score_color(0.5), RGBColor(0xf7, 0xf7, 0xf7));
        // A PNG of twice the size that decodes.
        let png = league_file(Format::Png, "Kalah: 6 games", &table, &ratings);
        let reader = png::Decoder::new(std::io::Cursor::new(png)).read_info().expect("a PNG");
        let (w, h) = League {
            title: "",
            table: &table,
            ratings: &ratings,
        }
        .size();
        assert_eq!((reader.info().width, reader.info().height), (2 * w, 2 * h));
    }

    #[test]
    fn a_league_without_games_is_still_a_picture() {
        let table = Crosstable::new(vec!["a".into(), "b".into()]);
        let ratings = table.ratings();
        let svg = String::from_utf8(league_file(Format::Svg, "t", &table, &ratings)).unwrap();
        assert!(
            svg.contains("no games, no ratings") && svg.ends_with("</svg>\n"),
            "{svg}"
        );
    }

    #[test]
    fn a_picture_is_svg_or_png_by_its_name() {
        assert_eq!(Format::of(Path::new("a/points.svg")), Some(Format::Svg));
        assert_eq!(Format::of(Path::new("points.PNG")), Some(Format::Png));
        assert_eq!(Format::of(Path::new("points.jpg")), None);
        assert_eq!(Format::of(Path::new("points")), None);
        let bytes = histogram_file(Format::Svg, "t", "x", &[]);
        assert!(bytes.starts_with(b"<svg"));
    }
}
