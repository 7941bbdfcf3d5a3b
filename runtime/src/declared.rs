//! Instances declared in Rust with `conv_instance! { ... }`.

use ck_compiler::ir::Checked;

/// An instance checked at compile time by `conv_instance!`: its validated IR and its CK
/// instance string, embedded in the program. Built only by the macro.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Declared {
    name: &'static str,
    ir_json: &'static str,
    instance_string: &'static str,
}

impl Declared {
    /// Called by the `conv_instance!` expansion, which validated the instance.
    #[doc(hidden)]
    pub const fn __new(
        name: &'static str,
        ir_json: &'static str,
        instance_string: &'static str,
    ) -> Declared {
        Declared {
            name,
            ir_json,
            instance_string,
        }
    }

    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The validated IR as JSON (one `ck_compiler::ir::Instance`).
    pub fn ir_json(&self) -> &'static str {
        self.ir_json
    }

    /// CK's `InstanceTraits<T>::instance_string()` for the instance.
    pub fn instance_string(&self) -> &'static str {
        self.instance_string
    }

    /// The instance, to register or run, validated again as it is read.
    pub fn instance(&self) -> Checked {
        // The macro validated the instance and serialized this JSON from the same type (one
        // ck-compiler in the build), so it always reads back.
        serde_json::from_str(self.ir_json).expect("conv_instance! embeds a valid instance")
    }
}

#[cfg(test)]
mod tests {
    use crate::conv_instance;

    static DECLARED: crate::Declared = conv_instance! {
        /// A bwd_weight XDL V3 instance.
        instance declared_in_a_static {
            op = bwd_weight; kind = xdl_v3; dims = 2; layout = nhwgc; dtype = fp16;
            targets = [gfx942]; block = 64; tile = [32, 128, 32]; k1 = 8;
            instr = [32, 32]; repeat = [1, 4];
            a { cluster = [4, 4, 1]; src_vector = 8; dst_vector = 8; }
            b { cluster = [4, 16, 1]; src_vector = 8; dst_vector = 8; }
            c { shuffle = [1, 1]; cluster = [1, 8, 1, 8]; vector = 2; }
        }
    };

    #[test]
    fn the_declared_instance_reads_back() {
        let inst = DECLARED.instance();
        assert_eq!(inst.name, "declared_in_a_static");
        assert_eq!(DECLARED.name(), inst.name);
        assert_eq!(inst.doc, ["A bwd_weight XDL V3 instance."]);
        assert_eq!(
            DECLARED.instance_string(),
            ck_compiler::emit::instance_string(&inst)
        );
        let mut registry = crate::Registry::default();
        registry.register(inst, 0).unwrap();
        let p = crate::ConvProblem::parse(
            "bwd_weight 2d N=2 K=32 C=32 filter=3 input=8 pad=1 dtype=fp16",
        )
        .unwrap();
        assert_eq!(registry.select(&p).unwrap().name, "declared_in_a_static");
    }
}
