//! `ckc features`: the training table of a run-time model from `ckc bench --records` files.

use crate::cli::{Color, FeaturesArgs};
use std::process::ExitCode;

/// `ckc features`: the training table of the records given.
pub fn run(args: &FeaturesArgs, color: Color) -> Result<ExitCode, String> {
    let mut timings = Vec::new();
    for path in &args.records {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        timings.extend(
            ck_runtime::timings::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?,
        );
    }
    let Some(reg) =
        crate::input::registry(&args.instances, color, ck_runtime::DeviceModel::default())?
    else {
        return Ok(super::exit(false));
    };
    let table = ck_runtime::timings::table(&timings, &reg);
    let csv = table.to_csv();
    match &args.out {
        Some(out) => std::fs::write(out, csv).map_err(|e| format!("{}: {e}", out.display()))?,
        None => crate::output::text(&csv),
    }
    eprintln!(
        "{} rows of {} features from {} records; {} superseded by a later record of the same instance, problem and card, {} left out (not verified, not in the library, or no longer supported)",
        table.rows.len(),
        table.header.len() - ck_runtime::timings::META.len(),
        timings.len(),
        table.superseded,
        table.left_out
    );
    Ok(super::exit(true))
}
