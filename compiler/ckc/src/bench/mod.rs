//! `ckc bench`: time instances on the shapes of a shapes file on an NVIDIA GPU, against cuDNN.
//! The measuring needs the `cuda` feature; the shapes file and the renderings do not
//! (`ckc bench-report` re-renders and merges saved runs).

#[cfg(feature = "cuda")]
mod gpu;

// The library's, so that tests and the fuzz targets read saved runs as `ckc bench-report` does.
use ckc::bench::report;

/// Today's UTC date, `YYYY-MM-DD` (measurement records and tuning results).
#[cfg(feature = "cuda")]
pub(crate) fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    report::utc(secs).chars().take(10).collect()
}

use crate::cli::{BenchArgs, BenchReportArgs, Color};
use report::{Bars, Report, svg, table, to_json};
use std::path::Path;
use std::process::ExitCode;

/// `ckc bench-report`: the table (and the JSON file and chart where asked) of saved runs,
/// merged in order.
pub fn report(args: &BenchReportArgs) -> Result<ExitCode, String> {
    let runs = args
        .runs
        .iter()
        .map(|path| {
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let value =
                serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
            report::from_json(&value).map_err(|e| format!("{}: {e}", path.display()))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let merged = report::merge(runs)?;
    let bars = if args.by_model {
        Bars::Models
    } else {
        Bars::Shapes
    };
    write_outputs(&merged, args.json.as_deref(), args.svg.as_deref(), bars)?;
    Ok(crate::output::exit(merged.failures() == 0))
}

/// Writes the JSON file and the chart (of `bars`) where asked, and prints the table.
fn write_outputs(
    r: &Report,
    json: Option<&Path>,
    chart: Option<&Path>,
    bars: Bars,
) -> Result<(), String> {
    let write = |path: &Path, text: &str| {
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
    };
    if let Some(f) = json {
        let text = serde_json::to_string_pretty(&to_json(r)).map_err(|e| e.to_string())?;
        write(f, &(text + "\n"))?;
    }
    if let Some(f) = chart {
        write(f, &svg(r, bars))?;
    }
    crate::output::out!("{}", table(r));
    Ok(())
}

#[cfg(feature = "cuda")]
pub fn run(args: &BenchArgs, color: Color) -> Result<ExitCode, String> {
    gpu::run(args, color)
}

#[cfg(not(feature = "cuda"))]
pub fn run(_args: &BenchArgs, _color: Color) -> Result<ExitCode, String> {
    Err(
        "this ckc was built without CUDA support (cargo feature `cuda`): `ckc bench` needs it"
            .into(),
    )
}
