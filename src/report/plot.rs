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

/// The font every label is laid out with.
const FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

/// Gives plotters the font, once: without it no text can be measured or drawn.
fn register_font() {
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
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
        draw_histogram(&root, 1, title, x_label, series);
        let _ = root.present();
    }
    if !svg.ends_with('\n') {
        svg.push('\n');
    }
    svg
}

/// The picture's size in SVG's pixels; a PNG has twice as many each way,
/// to stay sharp on a slide.
const WIDTH: u32 = 760;
const HEIGHT: u32 = 440;
const PNG_SCALE: u32 = 2;

/// [`histogram_of_counts`] as a PNG file's bytes.
pub fn histogram_png(title: &str, x_label: &str, series: &[Counted]) -> Vec<u8> {
    let (w, h) = (WIDTH * PNG_SCALE, HEIGHT * PNG_SCALE);
    let mut rgb = vec![0u8; (w * h * 3) as usize];
    {
        let root = BitMapBackend::with_buffer(&mut rgb, (w, h)).into_drawing_area();
        draw_histogram(&root, PNG_SCALE, title, x_label, series);
        let _ = root.present();
    }
    png_bytes(&rgb, w, h)
}

/// [`histogram_of_counts`] in `format`, as a file's bytes.
pub fn histogram_file(format: Format, title: &str, x_label: &str, series: &[Counted]) -> Vec<u8> {
    match format {
        Format::Svg => histogram_of_counts(title, x_label, series).into_bytes(),
        Format::Png => histogram_png(title, x_label, series),
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

/// The histogram drawn on `root`, every length times `k`.
fn draw_histogram<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    k: u32,
    title: &str,
    x_label: &str,
    series: &[Counted],
) {
    register_font();
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
    // Room above the highest bar for the legend.
    let top = (round_step(peak * 1.35 / 5.0) * 5.0).clamp(5.0, 100.0 * 1.35);
    // Each bin centred on its first value, so that the ticks name the bars.
    let x_range = start - width / 2.0..start + bins as f64 * width - width / 2.0;

    let _ = root.fill(&WHITE);
    let chart = ChartBuilder::on(root)
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
        let mx = mean;
        if let Ok(drawn) = chart.draw_series(bars) {
            drawn
                .label(label)
                .legend(move |(x, y)| Rectangle::new([(x, y - 5 * ki), (x + 12 * ki, y + 5 * ki)], color.filled()));
        }
        let _ = chart.draw_series(std::iter::once(PathElement::new(
            vec![(mx, 0.0), (mx, top)],
            color.stroke_width(2 * k),
        )));
    }
    let _ = chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK.mix(0.4))
        .label_font(("sans-serif", 13 * k))
        .draw();
}

/// A tick label: whole numbers without a decimal point.
fn tick(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round() as i64)
    } else {
        format!("{v:.1}")
    }
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
        assert_eq!((info.width, info.height), (WIDTH * PNG_SCALE, HEIGHT * PNG_SCALE));
        // The title is text, drawn with the font compiled in: dark pixels in
        // the band above the plot, where nothing else is drawn.
        let row = (info.width * 3) as usize;
        let band = &pixels[8 * row..40 * row];
        let dark = band.chunks(3).filter(|p| p.iter().all(|&c| c < 100)).count();
        assert!(dark > 100, "{dark} dark pixels where the title is");
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
