//! CK Builder instance strings (`InstanceTraits<T>::instance_string()`): `Name<f1,...,fN>` with
//! the fields of the instance's format variant in template order.

use super::access::{
    element_op_slot, flag_slot, int_slot, layout_slot, seq_slot, sources_slot, type_slot,
};
use super::format::{CkFormat, IntField, Spelling, TypeSlot, Value};
use super::spelling::*;
use crate::ir::{Checked, Instance};
use crate::model::{DataType, Layout, Op};

/// The instance string in the format variant validation resolved for the instance.
pub fn instance_string(inst: &Checked) -> String {
    instance_string_as(inst, inst.format())
}

/// The instance string in the given format variant.
pub fn instance_string_as(inst: &Checked, format: CkFormat) -> String {
    print(inst, format)
}

/// The fields of `format` as `inst` holds them; the importer's round trips print instances no
/// validation would pass, every field set apart.
pub(crate) fn print(inst: &Instance, format: CkFormat) -> String {
    // The accessors fill absent optional parts (DL, CK-Tile, wavelet) with neutral values, so
    // they work on a scratch copy.
    let mut scratch = inst.clone();
    let fields: Vec<String> = format
        .fields()
        .iter()
        .map(|f| field_text(&mut scratch, format.op(), f.value))
        .collect();
    format!("{}<{}>", format.ck_name(), fields.join(","))
}

pub(crate) fn seq_text(v: &[u32]) -> String {
    let items: Vec<String> = v.iter().map(u32::to_string).collect();
    format!("Seq({})", items.join(","))
}

fn tuple_text(items: Vec<String>) -> String {
    if items.is_empty() {
        "EmptyTuple".to_string()
    } else {
        format!("Tuple({})", items.join(","))
    }
}

pub(crate) fn ds_layouts_text(ds: &[Layout]) -> String {
    tuple_text(ds.iter().map(|&l| layout_text(l)).collect())
}

pub(crate) fn ds_types_text(ds: &[DataType]) -> String {
    tuple_text(ds.iter().map(|&t| type_text(t)).collect())
}

fn type_text(t: DataType) -> String {
    DATA_TYPE.text(t).unwrap_or(t.keyword()).to_string()
}

fn flag_text(b: bool, spelling: Spelling) -> &'static str {
    match (spelling, b) {
        (Spelling::TrueFalse, true) => "true",
        (Spelling::TrueFalse, false) => "false",
        (Spelling::ZeroOne, true) => "1",
        (Spelling::ZeroOne, false) => "0",
    }
}

fn field_text(inst: &mut Instance, op: Op, value: Value) -> String {
    let pipeline = inst.pipeline.version;
    let or_keyword = |s: Option<&'static str>| s.unwrap_or(pipeline.keyword()).to_string();
    match value {
        Value::NDim => inst.ndim.to_string(),
        Value::Layout(role) => layout_text(*layout_slot(inst, op, role)),
        Value::DsLayouts => ds_layouts_text(&inst.layout.ds),
        Value::Type(slot) => type_text(*type_slot(inst, op, slot)),
        Value::Sources(role) => match sources_slot(inst, op, role).as_slice() {
            [] => type_text(*type_slot(inst, op, TypeSlot::Tensor(role))),
            several => ds_types_text(several),
        },
        Value::DsTypes => ds_types_text(&inst.types.ds),
        Value::ElementOp(role) => {
            let e = *element_op_slot(inst, op, role);
            ELEMENT_OP.text(e).unwrap_or(e.keyword()).to_string()
        }
        Value::ConvSpec => CONV_SPEC
            .text(inst.spec)
            .unwrap_or(inst.spec.keyword())
            .to_string(),
        Value::GemmSpec => GEMM_SPEC
            .text(inst.gemm_spec)
            .unwrap_or(inst.gemm_spec.keyword())
            .to_string(),
        Value::Int(IntField::K0) => inst.tile.k.checked_div(inst.k1[0]).unwrap_or(0).to_string(),
        Value::Int(IntField::K1) => inst.k1[0].to_string(),
        Value::Int(f) => int_slot(inst, f).map_or(0, |v| *v).to_string(),
        Value::Seq(f) => seq_text(seq_slot(inst, f)),
        Value::Flag(f, spelling) => flag_text(*flag_slot(inst, f), spelling).to_string(),
        Value::Scheduler => SCHEDULER
            .text(inst.pipeline.scheduler)
            .unwrap_or("Intrawave")
            .to_string(),
        Value::BlockGemmVersion => or_keyword(BLOCK_GEMM_VERSION.text(pipeline)),
        Value::WmmaPipelineVersion => or_keyword(WMMA_PIPELINE_VERSION.text(pipeline)),
        Value::TilePipeline => or_keyword(TILE_PIPELINE.text(pipeline)),
        Value::LoopScheduler => LOOP_SCHEDULER
            .text(inst.pipeline.loop_scheduler)
            .unwrap_or("Default")
            .to_string(),
        Value::PrefetchAgain => inst.pipeline.prefetch.to_string(),
        Value::StreamK => match inst.work.streamk {
            None => "0".to_string(),
            Some(sk) => format!(
                "1,{},{}",
                REDUCTION.text(sk.reduction).unwrap_or("0"),
                u8::from(sk.persistent)
            ),
        },
    }
}
