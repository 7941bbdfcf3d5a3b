//! tf32 backward data in the library: the warpgroup tiles read the weights through a transposed
//! copy of their own, which cannot also pad them, so problems whose weights need padded copies
//! run on the 16-deep `mma.sync` tiles; where both run, selection on sm_90 ranks the warpgroup
//! tiles first.

use ck_compiler::ir::Checked;
use ck_compiler::kernel::KernelConfig;
use ck_compiler::model::Arch;
use ck_runtime::support::{Formulation, formulation};
use ck_runtime::{ConvProblem, DeviceModel, Registry};

fn named(name: &str) -> &'static Checked {
    ck_instances::all()
        .iter()
        .find(|i| i.name == name)
        .unwrap_or_else(|| panic!("{name} is in the library"))
}

const SM90: DeviceModel = DeviceModel {
    arch: Some(Arch::Sm90),
    compute_units: 132,
    occupancy: 2,
};

#[test]
fn transposed_weights_are_not_padded_and_warpgroup_tiles_rank_first() {
    let wg = named("nv_tf32_fwd_bwd_data_2d_bwd_data_t128x128x32");
    let sync = named("nv_tf32_bwd_data_2d_t64x64x16_w4");
    let transposed = |i: &Checked| KernelConfig::new(i).is_ok_and(|c| c.weights_transposed());
    assert!(transposed(wg) && !transposed(sync));

    // Five channels break the 4-element vectors: only the copy that pads them runs it.
    let odd =
        ConvProblem::parse("bwd_data 2d N=2 K=5 C=5 filter=3 input=9 pad=1 dtype=tf32").unwrap();
    let err = formulation(wg, &odd, &SM90).expect_err("the padded weights are refused");
    assert!(err.reason.contains("transposed"), "{}", err.reason);
    assert!(matches!(
        formulation(sync, &odd, &SM90),
        Ok(Formulation::Padded(_))
    ));

    // A ResNet layer: every tile runs it; the warpgroup tiles are chosen.
    let mut registry = Registry::new(SM90);
    registry
        .extend(ck_instances::all().iter().cloned(), 0)
        .unwrap();
    let layer = ConvProblem::parse("bwd_data 2d N=32 K=64 C=64 filter=3 input=56 pad=1 dtype=tf32")
        .unwrap();
    assert!(formulation(sync, &layer, &SM90).is_ok());
    let chosen = registry.select(&layer).unwrap();
    assert!(transposed(chosen), "{}", chosen.name);
    let fallback = registry.select(&odd).unwrap();
    assert!(!transposed(fallback), "{}", fallback.name);
}
