//! Test support: instances built directly in the IR that exercise corners of the portable
//! kernel's launch plan (ops, types, tiles, split-K, two-stage, StreamK) without going through
//! validation ([`crate::validate::unvalidated`]), so a test can set exactly the parameter it is
//! about, in combinations no CK device op has. The compile and GPU checks run over the instance
//! library instead.

use crate::ir::*;
use crate::model::*;

/// Builder over a plain bwd-weight XDL-style instance (256 threads, 128x128x32 tile, fp16).
#[derive(Clone, Debug)]
pub struct SampleBuilder(Instance);

fn transfer(vector: u32) -> Transfer {
    Transfer {
        cluster: vec![1, 4, 64, 1],
        arrange: vec![0, 3, 1, 2],
        access: vec![0, 2, 1, 3],
        vector_dim: 2,
        src_vector: vector,
        dst_vector: 4,
        lds_pad: true,
    }
}

impl SampleBuilder {
    pub fn new(name: &str, op: Op) -> Self {
        let mut i = Instance::blank(op, Kind::XdlV3);
        i.name = name.into();
        i.source = "samples".into();
        i.block = 256;
        i.tile = Tile {
            m: 128,
            n: 128,
            k: 32,
        };
        i.k1 = [8, 8];
        i.mma = [32, 32, 0];
        i.repeat = [2, 2];
        i.waves = [2, 2, 1];
        i.a = transfer(8);
        i.b = transfer(8);
        i.c = CShuffle {
            m_per_shuffle: 1,
            n_per_shuffle: 1,
            cluster: vec![1, 32, 1, 8],
            vector: 8,
        };
        i.targets = vec![
            Arch::Gfx90a,
            Arch::Gfx942,
            Arch::Gfx1100,
            Arch::Gfx1201,
            Arch::Sm90,
        ];
        SampleBuilder(i)
    }

    pub fn dtype(mut self, dt: DataType) -> Self {
        let t = &mut self.0.types;
        (
            t.input,
            t.weight,
            t.output,
            t.compute_a,
            t.compute_b,
            t.cshuffle,
        ) = (dt, dt, dt, dt, dt, dt);
        self
    }

    pub fn ndim(mut self, ndim: u32) -> Self {
        let (i, w, o) = match ndim {
            1 => (Layout::Nwgc, Layout::Gkxc, Layout::Nwgk),
            3 => (Layout::Ndhwgc, Layout::Gkzyxc, Layout::Ndhwgk),
            _ => (Layout::Nhwgc, Layout::Gkyxc, Layout::Nhwgk),
        };
        self.0.ndim = ndim;
        self.0.layout = ConvLayout {
            input: i,
            weight: w,
            output: o,
            ds: vec![],
        };
        self
    }

    pub fn layout(mut self, input: Layout, weight: Layout, output: Layout) -> Self {
        self.0.layout = ConvLayout {
            input,
            weight,
            output,
            ds: vec![],
        };
        self
    }

    /// Block size, block tile `[M, N, K]` and K1.
    pub fn tile(mut self, block: u32, tile: [u32; 3], k1: u32) -> Self {
        self.0.block = block;
        self.0.tile = Tile {
            m: tile[0],
            n: tile[1],
            k: tile[2],
        };
        self.0.k1 = [k1, k1];
        self
    }

    /// Warps (waves) per block along M, N and K.
    pub fn waves(mut self, waves: [u32; 3]) -> Self {
        self.0.waves = waves;
        self
    }

    /// Global-load vector widths of A and B and LDS padding.
    pub fn vectors(mut self, a: u32, b: u32, lds_pad: bool) -> Self {
        self.0.a.src_vector = a;
        self.0.b.src_vector = b;
        self.0.a.lds_pad = lds_pad;
        self.0.b.lds_pad = lds_pad;
        self
    }

    pub fn pipeline(mut self, prefetch: u32, double_buffer: bool) -> Self {
        self.0.pipeline.prefetch = prefetch;
        self.0.pipeline.double_buffer = double_buffer;
        self
    }

    /// A CK-Tile kernel with pipeline `version` (its workgroups per compute unit follow it).
    pub fn tile_kind(mut self, version: PipelineVersion) -> Self {
        self.0.kind = Kind::Tile;
        self.0.pipeline.version = version;
        self
    }

    pub fn wavelet(mut self, load: u32, math: u32) -> Self {
        self.0.kind = Kind::Wavelet;
        self.0.wavelet = Some(Wavelet { load, math });
        self.0.block = load + math;
        self
    }

    pub fn spec(mut self, spec: ConvSpec) -> Self {
        self.0.spec = spec;
        self
    }

    pub fn split_k(mut self, split_k: SplitK, two_stage: bool) -> Self {
        self.0.work.split_k = split_k;
        self.0.work.two_stage = two_stage;
        self
    }

    pub fn streamk(mut self, reduction: Reduction, persistent: bool) -> Self {
        self.0.work.streamk = Some(StreamK {
            reduction,
            persistent,
        });
        self
    }

    pub fn merge_groups(mut self, merge: u32) -> Self {
        self.0.work.merge_groups = merge;
        self
    }

    pub fn output_op(mut self, op: ElementOp) -> Self {
        match self.0.op {
            Op::Fwd => self.0.elementwise.output = op,
            Op::BwdData => self.0.elementwise.input = op,
            Op::BwdWeight => self.0.elementwise.weight = op,
        }
        self
    }

    pub fn build(self) -> Checked {
        crate::validate::unvalidated(self.0)
    }
}

/// The reference set: each instance stresses one feature on top of a plain configuration.
pub fn instances() -> Vec<Checked> {
    use SampleBuilder as B;
    let mut out = Vec::new();
    for (op, tag) in [
        (Op::Fwd, "fwd"),
        (Op::BwdData, "bwd_data"),
        (Op::BwdWeight, "bwd_weight"),
    ] {
        let s = |name: &str| B::new(&format!("{tag}_{name}"), op);
        out.extend([
            s("f16_128x128x32").build(),
            s("bf16_64x64x32_db")
                .dtype(DataType::Bf16)
                .tile(256, [64, 64, 32], 8)
                .pipeline(2, true)
                .build(),
            s("f32_64x128x16_prefetch")
                .dtype(DataType::Fp32)
                .tile(256, [64, 128, 16], 4)
                .vectors(4, 4, false)
                .pipeline(2, false)
                .build(),
            s("f16_32x64x32_scalar")
                .tile(64, [32, 64, 32], 8)
                .vectors(1, 1, false)
                .build(),
            s("f16_1d").ndim(1).tile(128, [64, 32, 32], 8).build(),
            s("f16_3d").ndim(3).tile(128, [32, 64, 32], 8).build(),
            s("f16_gnhwc")
                .layout(Layout::Gnhwc, Layout::Gkyxc, Layout::Gnhwk)
                .tile(128, [64, 64, 32], 8)
                .build(),
            s("f16_1x1")
                .spec(ConvSpec::Filter1x1Stride1Pad0)
                .tile(128, [64, 64, 32], 8)
                .build(),
            s("f16_merge4")
                .merge_groups(4)
                .tile(64, [16, 16, 32], 8)
                .build(),
            s("f16_splitk4")
                .split_k(SplitK::Fixed(4), false)
                .tile(128, [64, 64, 32], 8)
                .build(),
            s("f32_splitk3")
                .dtype(DataType::Fp32)
                .split_k(SplitK::Fixed(3), false)
                .tile(128, [64, 64, 16], 4)
                .build(),
            s("bf16_two_stage")
                .dtype(DataType::Bf16)
                .split_k(SplitK::Auto, true)
                .tile(128, [64, 64, 32], 8)
                .build(),
            s("f16_scale")
                .output_op(ElementOp::Scale)
                .tile(128, [64, 64, 32], 8)
                .build(),
            s("f16_sk_linear")
                .streamk(Reduction::Linear, false)
                .tile(128, [64, 64, 32], 8)
                .build(),
            s("bf16_sk_tree_persistent")
                .dtype(DataType::Bf16)
                .streamk(Reduction::Tree, true)
                .tile(128, [64, 64, 32], 8)
                .build(),
            s("f32_sk_atomic")
                .dtype(DataType::Fp32)
                .streamk(Reduction::Atomic, true)
                .tile(128, [64, 64, 16], 4)
                .build(),
            s("f16_wavelet_4w4")
                .wavelet(256, 256)
                .tile(512, [128, 128, 32], 8)
                .wavelet(256, 256)
                .build(),
            s("bf16_wavelet_4w2")
                .dtype(DataType::Bf16)
                .wavelet(256, 128)
                .build(),
        ]);
    }
    out
}
