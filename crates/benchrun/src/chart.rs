//! The PNG chart: one horizontal bar per kernel for jxvm / `java` (both with their JITs, HotSpot's
//! C2), on a log scale, with the 1.0 line (parity with HotSpot) and the geometric mean as the last
//! bar; coloured by issue 18's target (1.5) and limit (3.0).

use crate::runner::Row;
use crate::stats::geomean;
use crate::vms::{Pair, Vm};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::error::Error;
use std::path::Path;

/// Fonts tried for the labels, first `BENCHRUN_FONT` if set. Without any, the chart is drawn
/// without text.
/// The ratio drawn.
const PAIR: Pair = (Vm::Jxvm, Vm::Java);

/// Bars at or below this are green (issue 18's target for the geometric mean)...
const TARGET: f64 = 1.5;
/// ...up to this orange (its limit for any kernel), above it red.
const LIMIT: f64 = 3.0;

const FONT_PATHS: &[&str] = &[
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/truetype/freefont/FreeSans.ttf",
];

fn register_font() -> bool {
    let env = std::env::var("BENCHRUN_FONT").ok();
    for path in env
        .iter()
        .map(String::as_str)
        .chain(FONT_PATHS.iter().copied())
    {
        if let Ok(bytes) = std::fs::read(path) {
            let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
            if plotters::style::register_font("sans-serif", FontStyle::Normal, bytes).is_ok() {
                return true;
            }
        }
    }
    false
}

pub fn draw(path: &Path, rows: &[Row], subtitle: &str) -> Result<(), Box<dyn Error>> {
    let with_text = register_font();
    if !with_text {
        eprintln!(
            "benchrun: no TrueType font found (set BENCHRUN_FONT); chart drawn without labels"
        );
    }
    let mut bars: Vec<(String, Option<f64>, bool)> = rows
        .iter()
        .map(|r| (r.name().to_string(), r.ratio(PAIR), false))
        .collect();
    if let Some(g) = geomean(rows.iter().filter_map(|r| r.ratio(PAIR))) {
        bars.push(("geometric mean".into(), Some(g), true));
    }
    let n = bars.len().max(1);
    let height = 110 + 34 * n as u32;
    let root = BitMapBackend::new(path, (1000, height)).into_drawing_area();
    draw_on(&root, &bars, subtitle, with_text)?;
    root.present()?;
    Ok(())
}

fn label_style(color: &'static RGBColor) -> TextStyle<'static> {
    TextStyle::from(("sans-serif", 14).into_font())
        .color(color)
        .pos(Pos::new(HPos::Left, VPos::Center))
}

fn draw_on(
    root: &DrawingArea<BitMapBackend<'_>, Shift>,
    bars: &[(String, Option<f64>, bool)],
    subtitle: &str,
    with_text: bool,
) -> Result<(), Box<dyn Error>> {
    root.fill(&WHITE)?;
    let n = bars.len().max(1) as i32;
    let values = bars.iter().filter_map(|b| b.1);
    let lo = values.clone().fold(1.0f64, f64::min) / 1.6;
    let hi = values.fold(1.0f64, f64::max) * 1.8;
    let mut builder = ChartBuilder::on(root);
    builder.margin(16);
    if with_text {
        builder
            .caption(
                format!("jxvm / java (C2), per kernel ({subtitle})"),
                ("sans-serif", 20),
            )
            .x_label_area_size(46)
            .y_label_area_size(140);
    }
    let mut chart =
        builder.build_cartesian_2d((lo..hi).log_scale(), (0..n - 1).into_segmented())?;
    // Row i of the table is drawn from the top.
    let slot = |i: usize| n - 1 - i as i32;
    if with_text {
        let names: Vec<String> = bars.iter().map(|b| b.0.clone()).collect();
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(bars.len())
            .disable_x_mesh()
            .x_labels(0)
            .x_label_formatter(&|_| String::new())
            .set_tick_mark_size(LabelAreaPosition::Bottom, 0)
            .y_label_formatter(&|v: &SegmentValue<i32>| match v {
                SegmentValue::CenterOf(s) => {
                    names.get((n - 1 - s) as usize).cloned().unwrap_or_default()
                }
                _ => String::new(),
            })
            .x_desc("jxvm time / java time (log scale; < 1 means jxvm is faster)")
            .label_style(("sans-serif", 14))
            .axis_desc_style(("sans-serif", 15))
            .draw()?;
    }
    // Grid lines and labels at round ratios (plotters' own log ticks are sparse).
    const TICKS: &[f64] = &[
        0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0, 5.0, 7.0, 10.0, 15.0, 20.0, 30.0, 50.0,
        100.0,
    ];
    let (_, ys) = chart.plotting_area().get_pixel_range();
    for &t in TICKS.iter().filter(|&&t| t > lo && t < hi) {
        let px = chart.backend_coord(&(t, SegmentValue::Exact(0))).0;
        root.draw(&PathElement::new(
            [(px, ys.start), (px, ys.end)],
            RGBColor(215, 215, 215).stroke_width(1),
        ))?;
        if with_text {
            root.draw(&Text::new(
                format!("{t}"),
                (px, ys.end + 6),
                TextStyle::from(("sans-serif", 14).into_font())
                    .pos(Pos::new(HPos::Center, VPos::Top)),
            ))?;
        }
    }
    // Parity with java.
    let px = chart.backend_coord(&(1.0, SegmentValue::Exact(0))).0;
    root.draw(&PathElement::new(
        [(px, ys.start), (px, ys.end)],
        BLACK.stroke_width(2),
    ))?;
    for (i, (_, ratio, is_mean)) in bars.iter().enumerate() {
        let s = slot(i);
        match ratio {
            Some(r) => {
                let color = if *is_mean {
                    RGBColor(60, 60, 160)
                } else if *r <= TARGET {
                    RGBColor(60, 160, 80)
                } else if *r <= LIMIT {
                    RGBColor(230, 160, 40)
                } else {
                    RGBColor(210, 60, 50)
                };
                let mut rect = Rectangle::new(
                    [
                        (lo, SegmentValue::Exact(s)),
                        (*r, SegmentValue::Exact(s + 1)),
                    ],
                    color.filled(),
                );
                rect.set_margin(5, 5, 0, 0);
                chart.draw_series(std::iter::once(rect))?;
                if with_text {
                    chart.draw_series(std::iter::once(Text::new(
                        format!(" {r:.2}"),
                        (*r, SegmentValue::CenterOf(s)),
                        label_style(&BLACK),
                    )))?;
                }
            }
            None if with_text => {
                chart.draw_series(std::iter::once(Text::new(
                    " failed or wrong checksum on jxvm or java",
                    (lo, SegmentValue::CenterOf(s)),
                    label_style(&RED),
                )))?;
            }
            None => {}
        }
    }
    Ok(())
}
