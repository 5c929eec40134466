//! SVG charts of results (feature `plot`): ratings with error bars, win rates against a
//! parameter, and heat maps.

use std::path::Path;

use plotters::prelude::*;

use crate::Rating;

/// Why a chart could not be drawn.
pub type PlotError = Box<dyn std::error::Error + Send + Sync>;

/// One line of a [`line_chart`]: its name and its points `(x, y, low, high)`, `low` and
/// `high` being the ends of the error bar.
#[derive(Clone, PartialEq, Debug)]
pub struct Series {
    /// The legend's text.
    pub name: String,
    /// The points, in the order to join them.
    pub points: Vec<(f64, f64, f64, f64)>,
}

/// A chart's title and axis labels.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Labels<'a> {
    /// Above the chart.
    pub title: &'a str,
    /// Under the horizontal axis.
    pub x: &'a str,
    /// Beside the vertical axis.
    pub y: &'a str,
}

const COLOURS: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
];

/// Draws the agents' Elo ratings with their 95% intervals, best at the top, into an SVG file.
///
/// # Errors
///
/// Drawing or writing the file failed.
pub fn rating_chart(
    path: &Path,
    title: &str,
    names: &[String],
    ratings: &[Rating],
) -> Result<(), PlotError> {
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by(|&a, &b| ratings[a].elo.total_cmp(&ratings[b].elo));
    let finite = |x: f64| if x.is_finite() { x } else { 0.0 };
    let low = order
        .iter()
        .map(|&i| finite(ratings[i].elo - ratings[i].margin))
        .fold(0.0, f64::min);
    let high = order
        .iter()
        .map(|&i| finite(ratings[i].elo + ratings[i].margin))
        .fold(0.0, f64::max);
    let pad = ((high - low) * 0.1).max(10.0);
    let height = 120 + 40 * u32::try_from(names.len()).unwrap_or(20);
    let root = SVGBackend::new(path, (800, height)).into_drawing_area();
    root.fill(&WHITE)?;
    let label_width = names.iter().map(String::len).max().unwrap_or(8);
    let label_area = u32::try_from(label_width * 7 + 20).unwrap_or(300).min(400);
    let rows = names.len() as f64;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(label_area)
        .build_cartesian_2d((low - pad)..(high + pad), -0.5..(rows - 0.5))?;
    chart
        .configure_mesh()
        .x_desc("Elo (95% interval)")
        .y_labels(names.len())
        .y_label_formatter(&|y| {
            let k = y.round();
            if (y - k).abs() < 1e-6 && k >= 0.0 && (k as usize) < order.len() {
                names[order[k as usize]].clone()
            } else {
                String::new()
            }
        })
        .disable_y_mesh()
        .draw()?;
    chart.draw_series(order.iter().enumerate().map(|(row, &i)| {
        let r = ratings[i];
        let margin = finite(r.margin);
        ErrorBar::new_horizontal(
            row as f64,
            r.elo - margin,
            r.elo,
            r.elo + margin,
            COLOURS[0].filled(),
            10,
        )
    }))?;
    root.present()?;
    Ok(())
}

/// Draws lines with error bars into an SVG file: `y` against `x` for each series, with a
/// legend. `y_range` fixes the vertical axis (win rates: `0.0..1.0`).
///
/// # Errors
///
/// Drawing or writing the file failed.
pub fn line_chart(
    path: &Path,
    labels: Labels<'_>,
    series: &[Series],
    y_range: std::ops::Range<f64>,
) -> Result<(), PlotError> {
    let xs = series.iter().flat_map(|s| s.points.iter().map(|p| p.0));
    let (x_low, x_high) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
        (lo.min(x), hi.max(x))
    });
    let (x_low, x_high) = if x_low.is_finite() {
        let pad = ((x_high - x_low) * 0.05).max(1e-9);
        (x_low - pad, x_high + pad)
    } else {
        (0.0, 1.0)
    };
    let root = SVGBackend::new(path, (800, 500)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(labels.title, ("sans-serif", 20))
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(x_low..x_high, y_range)?;
    chart
        .configure_mesh()
        .x_desc(labels.x)
        .y_desc(labels.y)
        .draw()?;
    for (k, s) in series.iter().enumerate() {
        let colour = COLOURS[k % COLOURS.len()];
        chart
            .draw_series(LineSeries::new(
                s.points.iter().map(|p| (p.0, p.1)),
                colour.stroke_width(2),
            ))?
            .label(s.name.as_str())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
            });
        chart.draw_series(s.points.iter().map(|&(x, y, low, high)| {
            ErrorBar::new_vertical(x, low, y, high, colour.filled(), 6)
        }))?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}

/// Draws a heat map into an SVG file: `values[row][column]` from 0 (blue) through 0.5 (white)
/// to 1 (red), each cell labelled with its value; rows bottom to top.
///
/// # Errors
///
/// Drawing or writing the file failed.
pub fn heat_map(
    path: &Path,
    labels: Labels<'_>,
    columns: &[String],
    rows: &[String],
    values: &[Vec<f64>],
) -> Result<(), PlotError> {
    let root = SVGBackend::new(path, (900, 600)).into_drawing_area();
    root.fill(&WHITE)?;
    let (nc, nr) = (columns.len(), rows.len());
    let mut chart = ChartBuilder::on(&root)
        .caption(labels.title, ("sans-serif", 20))
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(0.0..nc as f64, 0.0..nr as f64)?;
    let pick = |names: &[String], v: f64| {
        let k = v - 0.5;
        if (k - k.round()).abs() < 1e-6 && k >= 0.0 && (k.round() as usize) < names.len() {
            names[k.round() as usize].clone()
        } else {
            String::new()
        }
    };
    chart
        .configure_mesh()
        .x_desc(labels.x)
        .y_desc(labels.y)
        .x_labels(2 * nc + 1)
        .y_labels(2 * nr + 1)
        .x_label_formatter(&|x| pick(columns, *x))
        .y_label_formatter(&|y| pick(rows, *y))
        .disable_mesh()
        .draw()?;
    let colour = |v: f64| {
        let v = v.clamp(0.0, 1.0);
        // Blue below 0.5, red above, white at 0.5.
        let t = ((v - 0.5).abs() * 2.0 * 255.0) as u8;
        if v < 0.5 {
            RGBColor(255 - t, 255 - t, 255)
        } else {
            RGBColor(255, 255 - t, 255 - t)
        }
    };
    for (r, row) in values.iter().enumerate() {
        for (c, &v) in row.iter().enumerate() {
            let (x, y) = (c as f64, r as f64);
            chart.draw_series(std::iter::once(Rectangle::new(
                [(x, y), (x + 1.0, y + 1.0)],
                colour(v).filled(),
            )))?;
            chart.draw_series(std::iter::once(Text::new(
                format!("{v:.2}"),
                (x + 0.3, y + 0.6),
                ("sans-serif", 12),
            )))?;
        }
    }
    root.present()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charts_are_written_as_svg() {
        let dir = std::env::temp_dir().join(format!("arena-plot-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let names = vec!["uct:iterations=1000".to_owned(), "random".to_owned()];
        let ratings = crate::ratings(
            &[vec![0.0, 9.0], vec![1.0, 0.0]],
            &[vec![0, 10], vec![10, 0]],
        );
        rating_chart(&dir.join("r.svg"), "Elo", &names, &ratings).unwrap();
        let labels = Labels {
            title: "t",
            x: "c",
            y: "win rate",
        };
        let series = [Series {
            name: "UCT".to_owned(),
            points: vec![(0.0, 0.2, 0.1, 0.3), (1.0, 0.6, 0.5, 0.7)],
        }];
        line_chart(&dir.join("l.svg"), labels, &series, 0.0..1.0).unwrap();
        heat_map(
            &dir.join("h.svg"),
            labels,
            &names,
            &names,
            &[vec![0.1, 0.9], vec![0.5, 0.7]],
        )
        .unwrap();
        for file in ["r.svg", "l.svg", "h.svg"] {
            let svg = std::fs::read_to_string(dir.join(file)).unwrap();
            assert!(svg.starts_with("<svg") && svg.contains("</svg>"), "{file}");
        }
        let rating_svg = std::fs::read_to_string(dir.join("r.svg")).unwrap();
        assert!(rating_svg.contains("uct:iterations=1000"));
        std::fs::remove_dir_all(dir).unwrap();
    }
}
