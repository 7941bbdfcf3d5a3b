//! The format variant an instance prints in, resolved once by validation and kept in
//! [`crate::ir::Checked`], so that no emitter resolves it again.

use crate::emit::format::{
    CkFormat, FlagField, FormatError, IntField, Value, check_format, variants,
};
use crate::ir::Instance;
use crate::model::Kind;

/// The variant an instance prints in: its `ck_format`, or else the default variant when that can
/// print every feature the instance uses, or else the first other variant that can (so a
/// large-tensor V3 instance prints in the 46-field form).
pub(crate) fn format_for(inst: &Instance) -> Result<CkFormat, FormatError> {
    let named = inst.ck_format.as_deref();
    let format = check_format(inst.op, inst.kind, named)?;
    let Some(feature) = unprintable(inst, format) else {
        return Ok(format);
    };
    let fallback = variants(inst.op, inst.kind)
        .into_iter()
        .find(|&f| unprintable(inst, f).is_none());
    if let (None, Some(other)) = (named, fallback) {
        return Ok(other);
    }
    Err(FormatError::Unprintable {
        variant: format.variant_name(),
        ck_name: format.ck_name(),
        feature,
    })
}

/// A feature `inst` uses that no field of `format` carries.
pub fn unprintable(inst: &Instance, format: CkFormat) -> Option<&'static str> {
    let fields = format.fields();
    let has = |carries: &dyn Fn(Value) -> bool| fields.iter().any(|f| carries(f.value));
    type Carries<'a> = &'a dyn Fn(Value) -> bool;
    let used: [(bool, Carries, &'static str); 5] = [
        (
            inst.pipeline.direct_load,
            &|v| matches!(v, Value::Flag(FlagField::DirectLoad, _)),
            "direct load",
        ),
        (
            // The large-tensor forward op says so in its name.
            inst.work.large_tensor && inst.kind != Kind::XdlLargeTensor,
            &|v| matches!(v, Value::Flag(FlagField::LargeTensor, _)),
            "large tensors",
        ),
        (
            inst.work.merge_groups != 1,
            &|v| v == Value::Int(IntField::MergeGroups),
            "groups to merge",
        ),
        (
            inst.tile_kernel.is_some_and(|t| t.split_image),
            &|v| matches!(v, Value::Flag(FlagField::SplitImage, _)),
            "split image",
        ),
        (
            inst.work.streamk.is_some(),
            &|v| v == Value::StreamK,
            "StreamK",
        ),
    ];
    used.iter()
        .find(|(on, carries, _)| *on && !has(*carries))
        .map(|u| u.2)
}
