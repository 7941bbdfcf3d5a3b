//! The CK release the C++ is emitted for, and what each release's tree lacks: features a
//! release does not have are left out of its emission and named, never emitted to fail later.

use crate::emit::format::CkFormat;
use crate::ir::Checked;

/// A CK tree the emitted C++ compiles against.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CkRelease {
    /// CK's tree of October 2024 (commit `8e22e1ae`): backward weight's XDL CShuffle without
    /// the transpose-transfer vectors, forward XDL V3 of 49 parameters, no `tf32_t`, and none
    /// of the V3 backward-weight, WMMA V3, wavelet, explicit-GEMM or CK-Tile device ops.
    Oct2024,
    /// CK as the instance strings and formats of this compiler describe it.
    #[default]
    Current,
}

impl CkRelease {
    pub const ALL: [CkRelease; 2] = [CkRelease::Oct2024, CkRelease::Current];

    /// The release's name on the command line.
    pub fn keyword(self) -> &'static str {
        match self {
            CkRelease::Oct2024 => "2024-10",
            CkRelease::Current => "current",
        }
    }

    pub fn from_keyword(s: &str) -> Option<CkRelease> {
        CkRelease::ALL.into_iter().find(|r| r.keyword() == s)
    }

    /// Why `inst`, emitted in its format, has no C++ in this release, where it has none.
    pub fn lacks(self, inst: &Checked) -> Option<String> {
        use CkFormat::*;
        let format = inst.format();
        if self == CkRelease::Current {
            return None;
        }
        let why = match format {
            FwdXdlV3Fields50 => format!(
                "its {} takes 49 parameters (ck_format = \"49\")",
                format.ck_name()
            ),
            f if !self.has_format(f) => format!("it has no {}", format.ck_name()),
            FwdXdlV3Fields49 if inst.pipeline.direct_load => {
                format!("its {} has no direct loads", format.ck_name())
            }
            BwdWeightXdl | BwdDataXdl if inst.transpose != [1, 1] => format!(
                "its {} has no transpose-transfer vectors (here {:?})",
                format.ck_name(),
                inst.transpose
            ),
            _ if !self.has_tf32() && inst.types.tf32_products() => {
                "it has no tf32 type".to_string()
            }
            _ => return None,
        };
        Some(format!("CK {}: {why}", self.keyword()))
    }

    /// Whether the tree has the device op of `format` with that format's parameters.
    pub fn has_format(self, format: CkFormat) -> bool {
        use CkFormat::*;
        self == CkRelease::Current
            || !matches!(
                format,
                BwdWeightXdlV3Fields43
                    | BwdWeightXdlV3Fields45
                    | BwdWeightXdlV3Fields46
                    | BwdWeightWmmaV3
                    | BwdWeightTwoStageWmma
                    | BwdWeightMultipleDWmma
                    | BwdWeightWavelet
                    | BwdWeightExplicit
                    | FwdWmmaV3
                    | BwdDataWmmaV3
                    | TileBwdWeightA
                    | TileBwdWeightB
                    | TileBwdWeightC
                    | TileBwdWeightD
                    | TileFwd
                    | TileFwdFields30
                    | TileBwdData
                    | FwdXdlV3Fields50
            )
    }

    /// Whether the tree has `ck::tf32_t` (the preamble's `TF32`).
    pub fn has_tf32(self) -> bool {
        self == CkRelease::Current
    }

    /// Whether `format`'s template takes the parameter named `field` in this release: the
    /// October 2024 backward-weight and backward-data XDL CShuffle ops end before the
    /// transpose-transfer vectors, and its forward XDL V3 (48 parameters) before `DirectLoad`.
    pub fn takes(self, format: CkFormat, field: &str) -> bool {
        use CkFormat::*;
        match format {
            _ if self == CkRelease::Current => true,
            BwdWeightXdl | BwdDataXdl => !field.starts_with("MaxTransposeTransfer"),
            FwdXdlV3Fields49 => field != "DirectLoad",
            _ => true,
        }
    }
}
