//! `shyfr speed --plot FILE`: throughput against buffer size, as SVG or PNG.
//!
//! Drawn with `plotters`, without system libraries or system fonts: text is laid out with
//! `ab_glyph` from DejaVu Sans, embedded by the `dejavu` crate, for both formats (the SVG
//! names the font family `sans-serif`, so a viewer draws it with its own sans-serif font).

use std::path::Path;
use std::sync::Once;

use plotters::coord::Shift;
use plotters::prelude::*;

/// The picture size in pixels.
const SIZE: (u32, u32) = (1100, 680);

/// The font family name the chart asks for (registered from the embedded font).
const FONT: &str = "sans-serif";

/// What a file name ending asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `.svg`
    Svg,
    /// `.png`
    Png,
}

/// The format for `path`, from its extension (`.svg` or `.png`, any case).
pub fn format_of(path: &Path) -> Result<Format, String> {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("svg") => Ok(Format::Svg),
        Some("png") => Ok(Format::Png),
        _ => Err(format!(
            "cannot tell the format of '{}': the file name must end in .svg or .png",
            path.display()
        )),
    }
}

/// One line of the chart: throughput in bytes per second at each buffer size.
#[derive(Clone, Debug)]
pub struct Series {
    /// The legend entry.
    pub label: String,
    /// (buffer size in bytes, bytes per second), in increasing size.
    pub points: Vec<(usize, f64)>,
    /// Series of one group share a colour (one backend of one algorithm).
    pub group: usize,
    /// Drawn dashed (the multi-threaded measurement of a group).
    pub dashed: bool,
}

/// Line colours: Tableau 10, distinct and readable on white.
const COLORS: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// Registers the embedded font once.
fn register_font() -> Result<(), String> {
    static ONCE: Once = Once::new();
    let mut result = Ok(());
    ONCE.call_once(|| {
        result = plotters::style::register_font(FONT, FontStyle::Normal, dejavu::sans::regular())
            .map_err(|_| "the embedded font cannot be read".to_string());
    });
    result
}

/// Draws `series` into `path` (SVG or PNG, by its extension) under `title`.
pub fn draw(path: &Path, title: &str, series: &[Series]) -> Result<(), String> {
    let format = format_of(path)?;
    register_font()?;
    let result = match format {
        Format::Svg => chart(
            SVGBackend::new(path, SIZE).into_drawing_area(),
            title,
            series,
        ),
        Format::Png => chart(
            BitMapBackend::new(path, SIZE).into_drawing_area(),
            title,
            series,
        ),
    };
    result.map_err(|e| format!("cannot write the chart to '{}': {e}", path.display()))
}

/// A buffer size for an axis label: bytes, or KiB / MiB when whole.
fn size_label(bytes: f64) -> String {
    let b = bytes.round() as u64;
    if b >= 1 << 20 && b.is_multiple_of(1 << 20) {
        format!("{} MiB", b >> 20)
    } else if b >= 1 << 10 && b.is_multiple_of(1 << 10) {
        format!("{} KiB", b >> 10)
    } else {
        format!("{b}")
    }
}

/// A throughput in MB/s for an axis label.
fn mbps_label(mbps: f64) -> String {
    if mbps >= 10.0 {
        format!("{mbps:.0}")
    } else if mbps >= 0.1 {
        format!("{mbps:.1}")
    } else {
        format!("{mbps:.3}")
    }
}

fn chart<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    title: &str,
    series: &[Series],
) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let sizes = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.0 as f64));
    let (xmin, xmax) = sizes.fold((f64::INFINITY, 0.0f64), |(lo, hi), x| {
        (lo.min(x), hi.max(x))
    });
    let speeds = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.1 / 1e6));
    let (ymin, ymax) = speeds.fold((f64::INFINITY, 0.0f64), |(lo, hi), y| {
        (lo.min(y), hi.max(y))
    });
    if !(xmin.is_finite() && ymin.is_finite() && ymin > 0.0) {
        return Err("nothing to draw".into());
    }
    // Some room around the points; a single size still gets a visible axis. Above the
    // highest point, room for the legend (about 20 px per entry of a plot about 540 px
    // high), so it hides no line.
    let (xlo, xhi) = (xmin / 1.5, xmax * 1.5);
    let ylo = ymin / 1.6;
    let top = ymax * 1.3;
    let legend = ((series.len() as f64 * 20.0 + 24.0) / 540.0).min(0.6);
    let yhi = top * (top / ylo).powf(legend / (1.0 - legend));

    root.fill(&WHITE).map_err(e)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, (FONT, 24))
        .margin(20)
        .x_label_area_size(56)
        .y_label_area_size(80)
        .build_cartesian_2d(
            (xlo..xhi).log_scale().base(2.0),
            (ylo..yhi).log_scale().base(10.0),
        )
        .map_err(e)?;
    chart
        .configure_mesh()
        .x_desc("buffer size in bytes (log2 scale)")
        .y_desc("throughput in MB/s (10^6 bytes/s, log scale)")
        .axis_desc_style((FONT, 16))
        .label_style((FONT, 14))
        .x_label_formatter(&|x| size_label(*x))
        .y_label_formatter(&|y| mbps_label(*y))
        .draw()
        .map_err(e)?;

    for s in series {
        let color = COLORS[s.group % COLORS.len()];
        let style = color.stroke_width(2);
        let points: Vec<(f64, f64)> = s.points.iter().map(|&(x, y)| (x as f64, y / 1e6)).collect();
        let drawn = if s.dashed {
            chart.draw_series(DashedLineSeries::new(points.clone(), 8, 5, style))
        } else {
            chart.draw_series(LineSeries::new(points.clone(), style))
        };
        let dashed = s.dashed;
        drawn
            .map_err(e)?
            .label(s.label.as_str())
            .legend(move |(x, y)| {
                let style = color.stroke_width(3);
                // Two segments: a gap between them for a dashed line, none for a solid one.
                let (end, start) = if dashed { (9, 15) } else { (12, 12) };
                EmptyElement::at((x, y))
                    + PathElement::new(vec![(0, 0), (end, 0)], style)
                    + PathElement::new(vec![(start, 0), (24, 0)], style)
            });
        chart
            .draw_series(
                points
                    .into_iter()
                    .map(|p| Circle::new(p, 3, color.filled())),
            )
            .map_err(e)?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .label_font((FONT, 14))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(e)?;
    root.present().map_err(e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(format_of(Path::new("a/b.SVG")), Ok(Format::Svg));
        assert_eq!(format_of(Path::new("x.png")), Ok(Format::Png));
        for bad in ["x.jpg", "x", "svg"] {
            assert!(format_of(Path::new(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn labels() {
        assert_eq!(size_label(16.0), "16");
        assert_eq!(size_label(16384.0), "16 KiB");
        assert_eq!(size_label(1536.0), "1536");
        assert_eq!(size_label(f64::from(1u32 << 21)), "2 MiB");
        assert_eq!(mbps_label(1234.6), "1235");
        assert_eq!(mbps_label(2.0), "2.0");
    }
}
