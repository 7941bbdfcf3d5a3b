//! `explain`: every parameter of a validated instance with its resource use (LDS, waves, a
//! register estimate) and an occupancy estimate per target.

use crate::arch;
use crate::ir::{Checked, Instance};
use crate::model::{Arch, Kind};
use crate::ops;
use crate::validate::lds::{lds_budget, lds_bytes};
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Explanation {
    pub name: String,
    /// The CK device-op class.
    pub device_op: &'static str,
    /// Every parameter after defaults and derivation.
    pub instance: Checked,
    pub lds_bytes: u32,
    /// Estimated 32-bit registers per thread (accumulators, A/B staging, addressing).
    pub registers_per_thread: u32,
    pub targets: Vec<TargetUse>,
}

/// What bounds the number of resident workgroups.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Limit {
    Lds,
    Waves,
    Registers,
    Workgroups,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TargetUse {
    pub arch: Arch,
    pub wave_size: u32,
    /// Threads launched per workgroup on this target.
    pub threads: u32,
    pub waves_per_workgroup: u32,
    pub lds_budget: u32,
    pub workgroups_per_cu: u32,
    pub limited_by: Limit,
    /// Resident waves per CU over the CU's maximum.
    pub occupancy: f64,
}

/// Registers one thread needs, estimated: its share of the fp32/int32 accumulator tile, one
/// vector register per 4 bytes of the A/B tiles it stages, and a fixed 32 for indices.
fn registers(i: &Instance, threads: u32, math_threads: u32) -> u32 {
    let acc = (i.tile.m * i.tile.n * i.types.acc.bytes()).div_ceil(4 * math_threads);
    let staged =
        i.tile.k * (i.tile.m * i.types.compute_a.bytes() + i.tile.n * i.types.compute_b.bytes());
    acc + staged.div_ceil(4 * threads) + 32
}

pub fn explain(inst: &Checked) -> Explanation {
    let lds = lds_bytes(inst);
    let device_op = ops::device_op(inst.op, inst.kind).map_or("", |d| d.class);
    let math = inst.wavelet.map_or(inst.block, |w| w.math);
    let registers_per_thread = registers(inst, inst.block, math);
    let targets = inst
        .targets
        .iter()
        .map(|&a| target_use(inst, a, lds, registers_per_thread))
        .collect();
    Explanation {
        name: inst.name.clone(),
        device_op,
        instance: inst.clone(),
        lds_bytes: lds,
        registers_per_thread,
        targets,
    }
}

fn target_use(inst: &Instance, a: Arch, lds: u32, regs: u32) -> TargetUse {
    let info = arch::info(a);
    // CK-Tile blocks are warps x wave size of each target; others launch `block` threads.
    let threads = if inst.kind == Kind::Tile {
        inst.waves.iter().product::<u32>() * info.wave_size
    } else {
        inst.block
    };
    let waves = threads.div_ceil(info.wave_size);
    let by_lds = info.lds_per_cu.checked_div(lds).unwrap_or(u32::MAX);
    let by_waves = info.max_waves_per_cu / waves;
    // Registers are allocated in granules of 8 per lane; each SIMD holds a fixed file.
    let per_wave = regs.min(info.max_regs_per_thread).div_ceil(8) * 8;
    let waves_per_simd = info.regs_per_simd_lane / per_wave.max(1);
    let by_regs = waves_per_simd * info.simds_per_cu / waves;
    let limits = [
        (by_lds, Limit::Lds),
        (by_waves, Limit::Waves),
        (by_regs, Limit::Registers),
        (info.max_workgroups_per_cu, Limit::Workgroups),
    ];
    let (workgroups_per_cu, limited_by) = limits
        .into_iter()
        .min_by_key(|l| l.0)
        .unwrap_or((0, Limit::Waves));
    TargetUse {
        arch: a,
        wave_size: info.wave_size,
        threads,
        waves_per_workgroup: waves,
        lds_budget: lds_budget(inst, a),
        workgroups_per_cu,
        limited_by,
        occupancy: f64::from(workgroups_per_cu * waves) / f64::from(info.max_waves_per_cu),
    }
}

impl std::fmt::Display for Explanation {
    /// Every parameter as explicit `.ck` source, then resource use per target.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let i = &self.instance;
        let doc = format!(
            "{} — every parameter after defaults and derivation.",
            self.device_op
        );
        f.write_str(&crate::import::instance_source(i, i.format(), &doc))?;
        // Split-K and StreamK are launch settings, not template parameters: no variant prints them.
        let split_k = match i.work.split_k {
            crate::ir::SplitK::Fixed(k) => k.to_string(),
            crate::ir::SplitK::Auto => "auto".to_string(),
        };
        let streamk = i.work.streamk.map_or("none".to_string(), |s| {
            format!("{} reduction, persistent {}", s.reduction, s.persistent)
        });
        writeln!(
            f,
            "// work: split_k = {split_k}; two_stage = {}; streamk: {streamk}; merge_groups = {}",
            i.work.two_stage, i.work.merge_groups
        )?;
        writeln!(
            f,
            "// waves [M, N, K] = {:?}; LDS {} bytes; about {} registers per thread",
            i.waves, self.lds_bytes, self.registers_per_thread
        )?;
        for t in &self.targets {
            writeln!(
                f,
                "// {}: {} threads = {} waves of {}; LDS budget {} bytes; {} workgroups per CU \
                 (limited by {:?}); occupancy {:.0}%",
                t.arch,
                t.threads,
                t.waves_per_workgroup,
                t.wave_size,
                t.lds_budget,
                t.workgroups_per_cu,
                t.limited_by,
                t.occupancy * 100.0
            )?;
        }
        Ok(())
    }
}
