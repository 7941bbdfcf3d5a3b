//! What `ckc bench` measured, as plain numbers, and its renderings: the table, the JSON file and
//! the SVG chart of the ratios cuDNN time / our time. Nothing here needs a GPU.

use ck_runtime::timings::Spread;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::fmt::Write;

/// Shapes whose ratio is below this are counted (and drawn) as well behind cuDNN.
pub const BEHIND: f64 = 0.7;

/// Models (of a network corpus) whose geometric mean is below this are counted as behind.
pub const MODEL_BEHIND: f64 = 0.85;

/// One instance on one shape.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InstanceResult {
    pub name: String,
    /// The portable kernel's symbol (instances deriving the same kernel share one timing).
    pub kernel: String,
    /// Median microseconds per launch; `None` when not timed.
    pub us: Option<f64>,
    /// Relative error against the fp64 reference; `None` when it did not run.
    pub relative_error: Option<f64>,
    pub bound: f64,
    pub verified: bool,
    /// Why it did not run or did not verify.
    pub failure: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ShapeResult {
    pub name: String,
    /// The problem string.
    pub problem: String,
    pub flops: u64,
    /// Every supporting instance, in library order.
    pub instances: Vec<InstanceResult>,
    pub cudnn_us: Option<f64>,
    /// The instance selection picks for the problem on the card (no tuning); `None` where
    /// none is supported.
    pub default: Option<String>,
    /// The models the layer occurs in and its class, where the shapes file names them (a
    /// network corpus): the table and the JSON summarise each.
    pub models: Vec<String>,
    pub class: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub card: String,
    /// UTC, `YYYY-MM-DDTHH:MM:SSZ`.
    pub date: String,
    pub command: String,
    pub op: String,
    pub dtype: String,
    pub warmup: u32,
    pub trials: u32,
    pub reps: u32,
    pub seed: u64,
    pub shapes: Vec<ShapeResult>,
}

impl ShapeResult {
    /// The fastest verified instance (the first of equal times).
    pub fn best(&self) -> Option<(&InstanceResult, f64)> {
        self.instances
            .iter()
            .filter(|i| i.verified)
            .filter_map(|i| i.us.map(|us| (i, us)))
            .fold(None, |best, (i, us)| match best {
                Some((_, b)) if b <= us => best,
                _ => Some((i, us)),
            })
    }

    /// cuDNN's time over ours: above 1 we are faster.
    pub fn ratio(&self) -> Option<f64> {
        Some(self.cudnn_us? / self.best()?.1)
    }

    /// The default choice's result where it was timed.
    fn default_result(&self) -> Option<&InstanceResult> {
        let name = self.default.as_deref()?;
        self.instances.iter().find(|i| i.name == name)
    }

    /// The default choice's time, where it ran and verified.
    pub fn default_us(&self) -> Option<f64> {
        self.default_result().filter(|i| i.verified)?.us
    }

    /// The fastest verified instance's time over the default choice's: 1 where selection
    /// found the fastest, 0 where its choice failed to run or verify.
    pub fn default_of_best(&self) -> Option<f64> {
        let best = self.best()?.1;
        self.default_result()?;
        Some(self.default_us().map_or(0.0, |us| best / us))
    }

    /// cuDNN's time over the default choice's.
    pub fn default_ratio(&self) -> Option<f64> {
        Some(self.cudnn_us? / self.default_us()?)
    }

    fn failures(&self) -> usize {
        self.instances.iter().filter(|i| !i.verified).count()
    }
}

/// One line for a finished shape: its best instance and time, the ratio, and the failures.
#[cfg(any(feature = "cuda", test))]
pub fn progress_line(s: &ShapeResult) -> String {
    let best = s.best().map_or("no verified instance".into(), |(i, us)| {
        format!("best {} {us:.1} µs", i.name)
    });
    let ratio = s
        .ratio()
        .map_or(String::new(), |r| format!(", {r:.2}x cuDNN"));
    format!(
        "{}: {} instances, {best}{ratio}, {} failed",
        s.name,
        s.instances.len(),
        s.failures()
    )
}

pub fn tflops(flops: u64, us: f64) -> f64 {
    flops as f64 / (us * 1e-6) / 1e12
}

/// The geometric mean; `None` for no values.
pub fn geomean(values: &[f64]) -> Option<f64> {
    (!values.is_empty())
        .then(|| (values.iter().map(|v| v.ln()).sum::<f64>() / values.len() as f64).exp())
}

impl Report {
    fn ratios(&self) -> Vec<f64> {
        self.shapes.iter().filter_map(ShapeResult::ratio).collect()
    }

    /// Runs that failed to verify or to run.
    pub fn failures(&self) -> usize {
        self.shapes.iter().map(ShapeResult::failures).sum()
    }

    /// Shapes whose default choice was timed and failed to run or verify.
    fn failed_defaults(&self) -> Vec<&str> {
        self.shapes
            .iter()
            .filter(|s| s.default_result().is_some_and(|i| !i.verified))
            .map(|s| s.name.as_str())
            .collect()
    }

    fn without_best(&self) -> Vec<&str> {
        self.shapes
            .iter()
            .filter(|s| s.best().is_none())
            .map(|s| s.name.as_str())
            .collect()
    }
}

/// The geometric mean of the ratios of each group's shapes (a shape in several groups counts
/// in each), lowest first, with the shape count; groups without a ratio are left out.
fn by_group<'a>(
    shapes: &'a [ShapeResult],
    groups: impl Fn(&'a ShapeResult) -> Vec<&'a str>,
) -> Vec<(&'a str, f64, usize)> {
    let mut ratios: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    for s in shapes {
        if let Some(r) = s.ratio() {
            for g in groups(s) {
                ratios.entry(g).or_default().push(r);
            }
        }
    }
    let mut out: Vec<(&str, f64, usize)> = ratios
        .into_iter()
        .filter_map(|(g, v)| Some((g, geomean(&v)?, v.len())))
        .collect();
    out.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(b.0)));
    out
}

fn models_of(s: &ShapeResult) -> Vec<&str> {
    s.models.iter().map(String::as_str).collect()
}

fn class_of(s: &ShapeResult) -> Vec<&str> {
    s.class.as_deref().into_iter().collect()
}

/// Fixed-point with `digits` decimals, `-` for none.
fn num(v: Option<f64>, digits: usize) -> String {
    v.map_or("-".into(), |v| format!("{v:.digits$}"))
}

/// The table for the terminal: one row per shape, then the summary.
pub fn table(r: &Report) -> String {
    let head = [
        "shape",
        "best instance",
        "µs",
        "TFLOP/s",
        "cuDNN µs",
        "ratio",
        "default µs",
        "of best",
    ];
    let rows: Vec<[String; 8]> = r
        .shapes
        .iter()
        .map(|s| {
            let best = s.best();
            [
                s.name.clone(),
                best.map_or("-".into(), |(i, _)| i.name.clone()),
                num(best.map(|b| b.1), 1),
                num(best.map(|b| tflops(s.flops, b.1)), 1),
                num(s.cudnn_us, 1),
                num(s.ratio(), 2),
                num(s.default_us(), 1),
                num(s.default_of_best().map(|f| 100.0 * f), 0),
            ]
        })
        .collect();
    let width = |c: usize| {
        rows.iter()
            .map(|row| row[c].chars().count())
            .chain([head[c].chars().count()])
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..head.len()).map(width).collect();
    let mut out = String::new();
    let mut line = |cells: &[&str]| {
        let text: Vec<String> = cells
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(c, (cell, &w))| match c {
                0 | 1 => format!("{cell:<w$}"),
                _ => format!("{cell:>w$}"),
            })
            .collect();
        let _ = writeln!(out, "{}", text.join("  ").trim_end());
    };
    line(&head);
    for row in &rows {
        line(&row.each_ref().map(String::as_str));
    }
    let ratios = r.ratios();
    match geomean(&ratios) {
        Some(g) => {
            let behind = ratios.iter().filter(|&&x| x < BEHIND).count();
            let _ = writeln!(
                out,
                "\n{} {} on {}: geometric mean of cuDNN µs / ours over {} shapes {g:.2}×; \
                 {behind} below {BEHIND}×",
                r.op,
                r.dtype,
                r.card,
                ratios.len()
            );
        }
        None => {
            let _ = writeln!(out, "\n{} {} on {}: no cuDNN ratios", r.op, r.dtype, r.card);
        }
    }
    let of_best: Vec<f64> = r
        .shapes
        .iter()
        .filter_map(ShapeResult::default_of_best)
        .collect();
    if let Some(spread) = Spread::of(&of_best) {
        let _ = writeln!(out, "default choice / best instance: {spread}");
    }
    // Over the shapes where the default choice verified, beside the best instance's there.
    let (default_ratios, best_ratios): (Vec<f64>, Vec<f64>) = r
        .shapes
        .iter()
        .filter_map(|s| Some((s.default_ratio()?, s.ratio()?)))
        .unzip();
    if let (Some(g), Some(b)) = (geomean(&default_ratios), geomean(&best_ratios)) {
        let _ = writeln!(
            out,
            "default choice: geometric mean of cuDNN µs / ours over {} shapes {g:.2}× (best instance {b:.2}×)",
            default_ratios.len()
        );
    }
    for (names, what) in [
        (
            r.failed_defaults(),
            "whose default choice failed to run or verify",
        ),
        (r.without_best(), "without a verified instance"),
    ] {
        if !names.is_empty() {
            let _ = writeln!(out, "{} shapes {what}: {}", names.len(), names.join(", "));
        }
    }
    let failed = r.failures();
    if failed > 0 {
        let _ = writeln!(
            out,
            "{failed} runs failed to run or verify (excluded from best; see the JSON)"
        );
    }
    let models = by_group(&r.shapes, models_of);
    if !models.is_empty() {
        let behind = models.iter().filter(|m| m.1 < MODEL_BEHIND).count();
        let _ = writeln!(
            out,
            "\nby model, geometric mean of cuDNN µs / ours ({behind} of {} below {MODEL_BEHIND}×):",
            models.len()
        );
        for (m, g, n) in &models {
            let _ = writeln!(out, "  {m}  {g:.2}×  ({n})");
        }
    }
    let classes = by_group(&r.shapes, class_of);
    if !classes.is_empty() {
        let _ = writeln!(out, "\nby class:");
        for (c, g, n) in &classes {
            let _ = writeln!(out, "  {c}  {g:.2}×  ({n})");
        }
    }
    out
}

/// Every shape with every instance timed, the best, cuDNN's time and the ratio, and the summary.
pub fn to_json(r: &Report) -> Value {
    let shapes: Vec<Value> = r
        .shapes
        .iter()
        .map(|s| {
            let best = s
                .best()
                .map(|(i, us)| json!({"name": i.name, "us": us, "tflops": tflops(s.flops, us)}));
            let default = s.default.as_ref().map(
                |name| json!({"name": name, "us": s.default_us(), "of_best": s.default_of_best()}),
            );
            json!({
                "name": s.name,
                "problem": s.problem,
                "flops": s.flops,
                "best": best,
                "cudnn_us": s.cudnn_us,
                "ratio": s.ratio(),
                "default": default,
                "models": s.models,
                "class": s.class,
                "instances": s.instances,
            })
        })
        .collect();
    let ratios = r.ratios();
    let of_best: Vec<f64> = r
        .shapes
        .iter()
        .filter_map(ShapeResult::default_of_best)
        .collect();
    let default_ratios: Vec<f64> = r
        .shapes
        .iter()
        .filter_map(ShapeResult::default_ratio)
        .collect();
    let spread = Spread::of(&of_best).map(|s| {
        json!({"mean": s.mean, "median": s.median, "p10": s.p10, "worst": s.worst, "shapes": s.n})
    });
    json!({
        "card": r.card,
        "date": r.date,
        "command": r.command,
        "op": r.op,
        "dtype": r.dtype,
        "warmup": r.warmup,
        "trials": r.trials,
        "reps": r.reps,
        "seed": r.seed,
        "shapes": shapes,
        "summary": {
            "geomean_ratio": geomean(&ratios),
            "shapes_compared": ratios.len(),
            "below_0_7": ratios.iter().filter(|&&x| x < BEHIND).count(),
            "without_verified_instance": r.without_best(),
            "failed_runs": r.failures(),
            "default_of_best": spread,
            "default_geomean_ratio": geomean(&default_ratios),
            "failed_defaults": r.failed_defaults(),
            "by_model": groups_json(&by_group(&r.shapes, models_of)),
            "by_class": groups_json(&by_group(&r.shapes, class_of)),
        },
    })
}

/// Each group's geometric mean and shape count, by name.
fn groups_json(groups: &[(&str, f64, usize)]) -> Value {
    groups
        .iter()
        .map(|(g, r, n)| ((*g).to_string(), json!({"geomean_ratio": r, "shapes": n})))
        .collect::<serde_json::Map<String, Value>>()
        .into()
}

/// The report of a JSON file [`to_json`] wrote.
pub fn from_json(v: &Value) -> Result<Report, String> {
    let text = |key: &str| {
        v[key]
            .as_str()
            .map(String::from)
            .ok_or(format!("no string `{key}`"))
    };
    let int = |key: &str| v[key].as_u64().ok_or(format!("no integer `{key}`"));
    let small = |key: &str| int(key).and_then(|n| u32::try_from(n).map_err(|e| e.to_string()));
    let shapes = v["shapes"]
        .as_array()
        .ok_or("no `shapes` list")?
        .iter()
        .map(|s| {
            let name = s["name"].as_str().ok_or("a shape without a name")?;
            let field = |key: &str| format!("shape {name}: no `{key}`");
            Ok(ShapeResult {
                name: name.into(),
                problem: s["problem"].as_str().ok_or(field("problem"))?.into(),
                flops: s["flops"].as_u64().ok_or(field("flops"))?,
                instances: serde_json::from_value(s["instances"].clone())
                    .map_err(|e| format!("shape {name}: {e}"))?,
                cudnn_us: s["cudnn_us"].as_f64(),
                // Runs saved before the default choice was reported have none.
                default: s["default"]["name"].as_str().map(String::from),
                // Runs of shapes files without models or classes (and older runs) have none.
                models: match &s["models"] {
                    Value::Null => Vec::new(),
                    m => serde_json::from_value(m.clone())
                        .map_err(|e| format!("shape {name}: {e}"))?,
                },
                class: s["class"].as_str().map(String::from),
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    check_shapes(&shapes)?;
    Ok(Report {
        card: text("card")?,
        date: text("date")?,
        command: text("command")?,
        op: text("op")?,
        dtype: text("dtype")?,
        warmup: small("warmup")?,
        trials: small("trials")?,
        reps: small("reps")?,
        seed: int("seed")?,
        shapes,
    })
}

/// Longest shape or instance name a report takes (the suite's are under 60 characters).
const MAX_NAME: usize = 256;

/// What a saved run must hold for its table and chart to mean anything: unique shape names of
/// printable text, and times that are finite and positive.
fn check_shapes(shapes: &[ShapeResult]) -> Result<(), String> {
    let mut seen = std::collections::BTreeSet::new();
    let name_ok = |n: &str| n.len() <= MAX_NAME && !n.chars().any(char::is_control);
    let time_ok = |us: f64| us.is_finite() && us > 0.0;
    for s in shapes {
        if !name_ok(&s.name) {
            return Err(format!(
                "a shape name is longer than {MAX_NAME} bytes or holds control characters"
            ));
        }
        if !seen.insert(s.name.as_str()) {
            return Err(format!("shape {} appears twice in one run", s.name));
        }
        if !s.models.iter().chain(&s.class).all(|m| name_ok(m)) {
            return Err(format!(
                "shape {}: a model or class name is longer than {MAX_NAME} bytes or holds control characters",
                s.name
            ));
        }
        if s.cudnn_us.is_some_and(|us| !time_ok(us)) {
            return Err(format!(
                "shape {}: cuDNN's time is not a positive number",
                s.name
            ));
        }
        for i in &s.instances {
            if !name_ok(&i.name) || !name_ok(&i.kernel) {
                return Err(format!(
                    "shape {}: an instance or kernel name is longer than {MAX_NAME} bytes or holds control characters",
                    s.name
                ));
            }
            if i.us.is_some_and(|us| !time_ok(us)) {
                return Err(format!(
                    "shape {}: instance {} has a time that is not a positive number",
                    s.name, i.name
                ));
            }
        }
    }
    Ok(())
}

/// One report of several runs of one op and data type on one card: the shapes of later runs
/// replace those of earlier ones by name (each ratio stays that of its own run, cuDNN timed
/// in the same process), new ones are appended; the date, settings and seed are the last
/// run's, the commands all of them.
pub fn merge(runs: Vec<Report>) -> Result<Report, String> {
    let mut runs = runs.into_iter();
    let mut out = runs.next().ok_or("no reports to merge")?;
    for r in runs {
        for (what, a, b) in [
            ("op", &out.op, &r.op),
            ("data type", &out.dtype, &r.dtype),
            ("card", &out.card, &r.card),
        ] {
            if a != b {
                return Err(format!("cannot merge runs of {what} {a} and {b}"));
            }
        }
        for s in r.shapes {
            match out.shapes.iter_mut().find(|o| o.name == s.name) {
                Some(o) => *o = s,
                None => out.shapes.push(s),
            }
        }
        out.command = format!("{}; {}", out.command, r.command);
        (out.date, out.warmup, out.trials, out.reps, out.seed) =
            (r.date, r.warmup, r.trials, r.reps, r.seed);
    }
    Ok(out)
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// What the bars of a chart stand for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bars {
    /// One a shape, in the run's order.
    Shapes,
    /// One a model the shapes are tagged with (a network corpus): the geometric mean of its
    /// shapes' ratios, lowest first, labelled with its shape count.
    Models,
}

/// A bar chart of cuDNN µs / ours, a bar per shape or per model ([`Bars`]), with lines at 1.0
/// and at [`BEHIND`]; shapes without a ratio get a label and no bar.
pub fn svg(r: &Report, bars: Bars) -> String {
    const LEFT: f64 = 56.0;
    const TOP: f64 = 44.0;
    const PLOT_H: f64 = 260.0;
    const STEP: f64 = 26.0;
    const LABELS_H: f64 = 170.0;
    let bars: Vec<(String, Option<f64>)> = match bars {
        Bars::Shapes => r
            .shapes
            .iter()
            .map(|s| (s.name.clone(), s.ratio()))
            .collect(),
        Bars::Models => by_group(&r.shapes, models_of)
            .into_iter()
            .map(|(m, g, n)| (format!("{m} ({n})"), Some(g)))
            .collect(),
    };
    let n = bars.len().max(1) as f64;
    // Wide enough for the title.
    let width = (LEFT + STEP * n + 24.0).max(640.0);
    let height = TOP + PLOT_H + LABELS_H;
    let ratios: Vec<Option<f64>> = bars.iter().map(|b| b.1).collect();
    let top_ratio = ratios.iter().flatten().fold(1.5f64, |m, &v| m.max(v));
    let y_max = (top_ratio * 2.0).ceil() / 2.0;
    let y = |v: f64| TOP + PLOT_H * (1.0 - v / y_max);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="sans-serif">"#
    );
    let _ = writeln!(
        s,
        r#"<rect width="{width:.0}" height="{height:.0}" fill="white"/>"#
    );
    // The run's geometric mean over its shapes, whatever the bars.
    let shape_ratios: Vec<f64> = r.shapes.iter().filter_map(ShapeResult::ratio).collect();
    let title = match geomean(&shape_ratios) {
        Some(g) => format!(
            "cuDNN time / ckdsl time, {} {}, {} (geometric mean {g:.2})",
            r.op, r.dtype, r.card
        ),
        None => format!("cuDNN time / ckdsl time, {} {}, {}", r.op, r.dtype, r.card),
    };
    let _ = writeln!(
        s,
        r#"<text x="{LEFT}" y="24" font-size="14">{}</text>"#,
        escape(&title)
    );
    // Y axis with a tick every 0.5, or every whole multiple of it that keeps ten or so ticks.
    let right = LEFT + STEP * n;
    let step = ((y_max / 10.0) * 2.0).ceil().max(1.0) / 2.0;
    for t in 0..=(y_max / step).round().min(20.0) as u32 {
        let v = f64::from(t) * step;
        let _ = writeln!(
            s,
            r##"<line x1="{LEFT}" y1="{yv:.1}" x2="{right:.1}" y2="{yv:.1}" stroke="#e0e0e0"/><text x="{tx:.1}" y="{ty:.1}" font-size="10" text-anchor="end">{v:.1}</text>"##,
            yv = y(v),
            tx = LEFT - 6.0,
            ty = y(v) + 3.0,
        );
    }
    for (i, (label, ratio)) in bars.iter().enumerate() {
        let x = LEFT + STEP * i as f64;
        if let Some(v) = ratio {
            let colour = if *v >= 1.0 {
                "#3a8c3a"
            } else if *v >= BEHIND {
                "#e0a030"
            } else {
                "#c83232"
            };
            let _ = writeln!(
                s,
                r#"<rect x="{bx:.1}" y="{by:.1}" width="{bw:.1}" height="{bh:.1}" fill="{colour}"><title>{name}: {v:.2}</title></rect><text x="{cx:.1}" y="{ty:.1}" font-size="8" text-anchor="middle">{v:.2}</text>"#,
                bx = x + 4.0,
                by = y(*v),
                bw = STEP - 8.0,
                bh = PLOT_H - (y(*v) - TOP),
                name = escape(label),
                cx = x + STEP / 2.0,
                ty = y(*v) - 3.0,
            );
        }
        let _ = writeln!(
            s,
            r#"<text transform="translate({lx:.1},{ly:.1}) rotate(-60)" font-size="10" text-anchor="end">{}</text>"#,
            escape(label),
            lx = x + STEP / 2.0 + 3.0,
            ly = TOP + PLOT_H + 8.0,
        );
    }
    for (v, dash, colour) in [(1.0, "6,3", "#202020"), (BEHIND, "2,3", "#c83232")] {
        let _ = writeln!(
            s,
            r#"<line x1="{LEFT}" y1="{yv:.1}" x2="{right:.1}" y2="{yv:.1}" stroke="{colour}" stroke-dasharray="{dash}"/>"#,
            yv = y(v),
        );
    }
    let _ = writeln!(
        s,
        r#"<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{b:.1}" stroke="black"/><line x1="{LEFT}" y1="{b:.1}" x2="{right:.1}" y2="{b:.1}" stroke="black"/>"#,
        b = TOP + PLOT_H
    );
    s.push_str("</svg>\n");
    s
}

#[cfg(any(feature = "cuda", test))]
#[derive(serde::Deserialize)]
struct CudnnRow {
    name: String,
    op: String,
    dtype: String,
    median_us: f64,
}

/// cuDNN's median µs by shape name from the rows `cudnn_baseline.py --out` writes; rows of
/// another op or data type, or without a positive time, are errors.
#[cfg(any(feature = "cuda", test))]
pub fn read_cudnn(text: &str, op: &str, dtype: &str) -> Result<BTreeMap<String, f64>, String> {
    let rows: Vec<CudnnRow> = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let mut out = BTreeMap::new();
    for row in rows {
        if row.op != op || row.dtype != dtype {
            return Err(format!(
                "row `{}` is {} {}, the bench times {op} {dtype}",
                row.name, row.op, row.dtype
            ));
        }
        if !(row.median_us.is_finite() && row.median_us > 0.0) {
            return Err(format!("row `{}`: median_us {}", row.name, row.median_us));
        }
        out.insert(row.name, row.median_us);
    }
    Ok(out)
}

/// `YYYY-MM-DDTHH:MM:SSZ` of a Unix time.
#[cfg(any(feature = "cuda", test))]
pub fn utc(secs: u64) -> String {
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Civil date from days since 1970-01-01 (proleptic Gregorian, 400-year eras from 0000-03-01).
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z % 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inst(name: &str, us: Option<f64>, verified: bool) -> InstanceResult {
        InstanceResult {
            name: name.into(),
            kernel: format!("k_{name}"),
            us,
            relative_error: Some(if verified { 1e-4 } else { 0.5 }),
            bound: 2e-3,
            verified,
            failure: (!verified).then(|| "relative error 5.00e-1 > 2.0e-3: FAIL".into()),
        }
    }

    /// A shape whose default choice is its first instance.
    fn shape(name: &str, instances: Vec<InstanceResult>, cudnn_us: Option<f64>) -> ShapeResult {
        ShapeResult {
            name: name.into(),
            problem: format!("bwd_weight 2d N=4 K=64 C=64 filter=3x3 input=14x14 ({name})"),
            flops: 2_000_000_000,
            default: instances.first().map(|i| i.name.clone()),
            instances,
            cudnn_us,
            models: Vec::new(),
            class: None,
        }
    }

    #[test]
    fn the_default_choice_against_the_best_and_cudnn() {
        let r = report();
        let of_best: Vec<_> = r.shapes.iter().map(ShapeResult::default_of_best).collect();
        // win: a (20 µs) where b took 10; failed_fastest: a failed verification.
        assert_eq!(
            of_best,
            [Some(0.5), Some(1.0), Some(1.0), Some(0.0), Some(1.0), None]
        );
        assert_eq!(r.shapes[0].default_ratio(), Some(0.75));
        assert_eq!(r.failed_defaults(), ["failed_fastest", "<none>"]);
        let text = table(&r);
        assert!(
            text.contains("default choice / best instance: mean 70.0 %, median 100.0 %"),
            "{text}"
        );
    }

    /// Fixed numbers: a win, a loss below 0.7, a near tie, a shape whose fastest run failed
    /// verification, one without cuDNN time and one without any verified instance.
    fn report() -> Report {
        Report {
            card: "NVIDIA H100 80GB HBM3".into(),
            date: utc(1_767_225_600),
            command: "ckc bench --shapes shapes.json --op bwd_weight --dtype fp16".into(),
            op: "bwd_weight".into(),
            dtype: "fp16".into(),
            warmup: 5,
            trials: 15,
            reps: 20,
            seed: 7,
            shapes: vec![
                shape(
                    "win",
                    vec![inst("a", Some(20.0), true), inst("b", Some(10.0), true)],
                    Some(15.0),
                ),
                shape("loss", vec![inst("a", Some(100.0), true)], Some(50.0)),
                shape("tie", vec![inst("c", Some(40.0), true)], Some(38.0)),
                shape(
                    "failed_fastest",
                    vec![inst("a", Some(5.0), false), inst("b", Some(8.0), true)],
                    Some(9.0),
                ),
                shape("no_cudnn", vec![inst("a", Some(12.5), true)], None),
                shape("<none>", vec![inst("a", None, false)], Some(3.0)),
            ],
        }
    }

    /// The report's shapes as layers of a corpus: models and classes.
    fn corpus_report() -> Report {
        let mut r = report();
        let tag = [
            (&["resnet", "vgg"][..], "regular"),
            (&["resnet"][..], "1x1"),
            (&["vgg"][..], "regular"),
        ];
        for (s, (models, class)) in r.shapes.iter_mut().zip(tag) {
            s.models = models.iter().map(|m| m.to_string()).collect();
            s.class = Some(class.into());
        }
        r
    }

    #[test]
    fn models_and_classes_are_summarised_lowest_first() {
        let r = corpus_report();
        // Ratios (cuDNN ÷ best): win 1.5, loss 0.5, tie 0.95.
        let models = by_group(&r.shapes, models_of);
        let names: Vec<_> = models.iter().map(|m| (m.0, m.2)).collect();
        assert_eq!(names, [("resnet", 2), ("vgg", 2)]);
        assert!((models[0].1 - (1.5f64 * 0.5).sqrt()).abs() < 1e-12);
        assert!((models[1].1 - (1.5f64 * 0.95).sqrt()).abs() < 1e-12);
        let text = table(&r);
        assert!(
            text.contains("by model, geometric mean of cuDNN µs / ours (0 of 2 below 0.85×):\n  resnet  0.87×  (2)\n"),
            "{text}"
        );
        assert!(
            text.contains("\nby class:\n  1x1  0.50×  (1)\n  regular  1.19×  (2)\n"),
            "{text}"
        );
        let v = to_json(&r);
        assert_eq!(v["summary"]["by_model"]["vgg"]["shapes"], 2);
        assert_eq!(from_json(&v), Ok(r));
        // Without models or classes nothing is added.
        assert!(!table(&report()).contains("by model"));
    }

    #[test]
    fn saved_runs_read_back_and_merge_by_shape() {
        let r = report();
        assert_eq!(from_json(&to_json(&r)), Ok(r.clone()));
        // A later run of two shapes: one replaces its namesake, one is appended.
        let later = Report {
            date: utc(1_767_312_000),
            command: "ckc bench --only loss,extra".into(),
            seed: 9,
            shapes: vec![
                shape("loss", vec![inst("d", Some(40.0), true)], Some(52.0)),
                shape("extra", vec![inst("a", Some(4.0), true)], Some(4.0)),
            ],
            ..r.clone()
        };
        let m = merge(vec![r.clone(), later.clone()]).unwrap();
        let names: Vec<&str> = m.shapes.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "win",
                "loss",
                "tie",
                "failed_fastest",
                "no_cudnn",
                "<none>",
                "extra"
            ]
        );
        assert_eq!(m.shapes[1].ratio(), Some(1.3));
        assert_eq!((m.date.as_str(), m.seed), (later.date.as_str(), 9));
        assert_eq!(m.command, format!("{}; {}", r.command, later.command));
        let other = Report {
            dtype: "bf16".into(),
            ..later
        };
        assert!(merge(vec![r, other]).unwrap_err().contains("data type"));
    }

    #[test]
    fn best_ratio_and_geomean() {
        let r = report();
        let best: Vec<_> = r
            .shapes
            .iter()
            .map(|s| s.best().map(|(i, us)| (i.name.as_str(), us)))
            .collect();
        assert_eq!(
            best,
            [
                Some(("b", 10.0)),
                Some(("a", 100.0)),
                Some(("c", 40.0)),
                Some(("b", 8.0)),
                Some(("a", 12.5)),
                None
            ]
        );
        assert_eq!(r.shapes[0].ratio(), Some(1.5));
        assert_eq!(r.shapes[4].ratio(), None);
        assert_eq!(r.shapes[5].ratio(), None);
        assert_eq!(r.failures(), 2);
        let g = geomean(&[2.0, 8.0]).unwrap();
        assert!((g - 4.0).abs() < 1e-12);
        assert_eq!(geomean(&[]), None);
        assert!((tflops(2_000_000_000, 10.0) - 200.0).abs() < 1e-9);
    }

    #[test]
    fn progress_lines_name_the_best_and_the_failures() {
        let r = report();
        assert_eq!(
            progress_line(&r.shapes[0]),
            "win: 2 instances, best b 10.0 µs, 1.50x cuDNN, 0 failed"
        );
        assert_eq!(
            progress_line(&r.shapes[5]),
            "<none>: 1 instances, no verified instance, 1 failed"
        );
    }

    #[test]
    fn table_snapshot() {
        insta::assert_snapshot!(table(&report()));
    }

    #[test]
    fn svg_snapshot() {
        let s = svg(&report(), Bars::Shapes);
        assert_eq!(s, svg(&report(), Bars::Shapes));
        assert!(s.contains("&lt;none&gt;") && !s.contains("<none>"));
        insta::assert_snapshot!(s);
    }

    #[test]
    fn a_chart_by_model_has_a_bar_a_model_lowest_first() {
        let r = corpus_report();
        let s = svg(&r, Bars::Models);
        // resnet (0.87) before vgg (1.19), each labelled with its shape count; the title keeps
        // the run's geometric mean over its shapes.
        assert_eq!(s.matches("<rect x=").count(), 2);
        let at = |label: &str| s.find(&format!(">{label}</text>")).expect(label);
        assert!(at("resnet (2)") < at("vgg (2)"));
        assert!(s.contains("<title>resnet (2): 0.87</title>"), "{s}");
        let title = |c: &str| {
            c.lines()
                .find(|l| l.contains("geometric mean"))
                .map(String::from)
        };
        assert_eq!(title(&s), title(&svg(&r, Bars::Shapes)));
    }

    #[test]
    fn json_has_every_instance_and_the_summary() {
        let j = to_json(&report());
        assert_eq!(j["shapes"].as_array().unwrap().len(), 6);
        assert_eq!(j["shapes"][0]["best"]["name"], "b");
        assert_eq!(j["shapes"][0]["ratio"], 1.5);
        assert_eq!(j["shapes"][3]["instances"][0]["verified"], false);
        assert_eq!(j["shapes"][5]["best"], Value::Null);
        assert_eq!(j["summary"]["shapes_compared"], 4);
        assert_eq!(j["summary"]["below_0_7"], 1);
        assert_eq!(j["summary"]["failed_runs"], 2);
        assert_eq!(j["date"], "2026-01-01T00:00:00Z");
    }

    #[test]
    fn hostile_saved_runs_are_refused_and_the_chart_stays_small() {
        let good = to_json(&report());
        assert!(from_json(&good).is_ok());
        let with = |edit: &dyn Fn(&mut Value)| {
            let mut v = good.clone();
            edit(&mut v);
            from_json(&v)
        };
        // Zero, tiny-but-valid and negative times; a 65,536-character name; a repeated shape.
        assert!(with(&|v| v["shapes"][0]["instances"][0]["us"] = 0.0.into()).is_err());
        assert!(with(&|v| v["shapes"][0]["instances"][0]["us"] = (-3.0).into()).is_err());
        assert!(with(&|v| v["shapes"][0]["cudnn_us"] = (-1.0).into()).is_err());
        assert!(with(&|v| v["shapes"][0]["name"] = "x".repeat(65_536).into()).is_err());
        // A model name with a control character; models that are not a list of names.
        assert!(with(&|v| v["shapes"][0]["models"] = json!(["resnet\u{1b}[2J"])).is_err());
        assert!(with(&|v| v["shapes"][0]["models"] = json!({"a": 1})).is_err());
        let twice = with(&|v| {
            let first = v["shapes"][0].clone();
            v["shapes"].as_array_mut().unwrap().push(first);
        });
        assert!(twice.unwrap_err().contains("twice"));
        // A ratio of ten million gives a chart of a few ticks, not ten million.
        let mut tiny = with(&|v| {
            for i in v["shapes"][0]["instances"].as_array_mut().unwrap() {
                i["us"] = 0.001.into();
            }
            v["shapes"][0]["cudnn_us"] = 10_000.0.into();
        })
        .unwrap();
        tiny.shapes.truncate(1);
        let chart = svg(&tiny, Bars::Shapes);
        assert!(chart.matches("<line").count() <= 25, "{}", chart.len());
    }

    #[test]
    fn cudnn_rows() {
        let text = r#"[{"name": "a", "op": "fwd", "dtype": "fp16", "median_us": 12.5,
            "tflops": 1.0, "relerr": 1e-4}]"#;
        let m = read_cudnn(text, "fwd", "fp16").unwrap();
        assert_eq!(m["a"], 12.5);
        assert!(
            read_cudnn(text, "fwd", "bf16")
                .unwrap_err()
                .contains("fwd fp16")
        );
        assert!(read_cudnn(&text.replace("12.5", "0"), "fwd", "fp16").is_err());
        assert!(read_cudnn("{}", "fwd", "fp16").is_err());
    }

    #[test]
    fn utc_dates() {
        assert_eq!(utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(utc(951_782_400 + 3_661), "2000-02-29T01:01:01Z");
        assert_eq!(utc(4_107_542_399), "2100-02-28T23:59:59Z");
    }
}
