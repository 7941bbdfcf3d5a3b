//! Instances built field by field, for the importer's round trips: CK's builder-test
//! configurations, and per format variant a sample whose every printed field has a distinct
//! value (no valid instance has them all, so the samples are printed by the crate's own
//! printer, never through the public emitters, which take checked instances only).

use crate::emit::CkFormat;
use crate::emit::access::blank_instance;
use crate::ir::*;
use crate::model::*;

pub fn transfer(
    cluster: &[u32],
    arrange: &[u32],
    access: &[u32],
    dim: u32,
    src: u32,
    dst: u32,
    pad: bool,
) -> Transfer {
    Transfer {
        cluster: cluster.to_vec(),
        arrange: arrange.to_vec(),
        access: access.to_vec(),
        vector_dim: dim,
        src_vector: src,
        dst_vector: dst,
        lds_pad: pad,
    }
}

pub fn cshuffle(cluster: &[u32], vector: u32) -> CShuffle {
    CShuffle {
        m_per_shuffle: 1,
        n_per_shuffle: 1,
        cluster: cluster.to_vec(),
        vector,
    }
}

fn types(t: DataType) -> Types {
    Types {
        input: t,
        weight: t,
        output: t,
        acc: DataType::Fp32,
        compute_a: t,
        compute_b: t,
        cshuffle: t,
        ds: Vec::new(),
        input_sources: Vec::new(),
        weight_sources: Vec::new(),
    }
}

fn nhwgc() -> ConvLayout {
    ConvLayout {
        input: Layout::Nhwgc,
        weight: Layout::Gkyxc,
        output: Layout::Nhwgk,
        ds: Vec::new(),
    }
}

fn gnhwc() -> ConvLayout {
    ConvLayout {
        input: Layout::Gnhwc,
        weight: Layout::Gkyxc,
        output: Layout::Gnhwk,
        ds: Vec::new(),
    }
}

/// An old-CK XDL bwd-weight instance: block, tile `[m, n, k]`, k1, instr 32x32, repeats.
pub fn xdl(kind: Kind, block: u32, tile: [u32; 3], k1: u32, repeat: [u32; 2]) -> Instance {
    let mut i = blank_instance(Op::BwdWeight, kind);
    i.name = format!("{kind}_{}x{}x{}", tile[0], tile[1], tile[2]);
    i.layout = nhwgc();
    i.types = types(DataType::Fp16);
    i.block = block;
    i.tile = Tile {
        m: tile[0],
        n: tile[1],
        k: tile[2],
    };
    i.k1 = [k1, k1];
    i.mma = [32, 32, 0];
    i.repeat = repeat;
    i.waves = [tile[0] / (32 * repeat[0]), tile[1] / (32 * repeat[1]), 1];
    i.targets = vec![Arch::Gfx942];
    i
}

/// `DeviceGroupedConvBwdWeight_Xdl_CShuffle<...,256,128,128,4,8,...>` of CK's builder test.
pub fn v1_256() -> Instance {
    let mut i = xdl(Kind::Xdl, 256, [128, 128, 32], 8, [2, 2]);
    i.layout = gnhwc();
    i.a = transfer(&[4, 64, 1], &[1, 0, 2], &[1, 0, 2], 2, 8, 8, false);
    i.b = i.a.clone();
    i.c = cshuffle(&[1, 32, 1, 8], 8);
    i
}

/// The generic V1 instance `...,64,64,64,4,8,...` of CK's builder test.
pub fn v1_generic() -> Instance {
    let mut i = xdl(Kind::Xdl, 64, [64, 64, 32], 8, [2, 2]);
    i.layout = gnhwc();
    i.a = transfer(&[1, 4, 8, 2], &[0, 3, 1, 2], &[0, 2, 1, 3], 2, 2, 4, true);
    i.b = i.a.clone();
    i.c = cshuffle(&[1, 16, 1, 4], 2);
    i
}

fn v3_body(kind: Kind) -> Instance {
    let mut i = xdl(kind, 64, [32, 128, 32], 8, [1, 4]);
    i.a = transfer(&[4, 4, 1], &[2, 0, 1], &[1, 0, 2], 1, 8, 8, false);
    i.b = transfer(&[4, 16, 1], &[2, 0, 1], &[1, 0, 2], 1, 8, 8, false);
    i
}

/// The 45-field V3 line of `configs/backward_weight/tests/nhwgc_fp16.conf`.
pub fn v3_conf() -> Instance {
    let mut i = v3_body(Kind::XdlV3);
    i.c = cshuffle(&[1, 8, 1, 8], 2);
    i.pipeline.version = PipelineVersion::V2;
    i
}

/// The two-stage line of the same file.
pub fn two_stage_conf() -> Instance {
    let mut i = v3_body(Kind::XdlTwoStage);
    i.c = cshuffle(&[1, 8, 1, 8], 1);
    i.work.two_stage = true;
    i.work.merge_groups = 8;
    i
}

/// A CK-Tile bwd-weight kernel.
pub fn tile(
    t: DataType,
    tile: [u32; 3],
    warps: [u32; 3],
    vector: u32,
    pipeline: PipelineVersion,
) -> Instance {
    let mut i = blank_instance(Op::BwdWeight, Kind::Tile);
    i.name = format!("tile_{t}_{}x{}x{}", tile[0], tile[1], tile[2]);
    i.layout = nhwgc();
    i.types = types(t);
    i.tile = Tile {
        m: tile[0],
        n: tile[1],
        k: tile[2],
    };
    i.waves = warps;
    i.block = warps.iter().product::<u32>() * 64;
    i.mma = [16, 16, 16];
    i.pipeline.version = pipeline;
    i.tile_kernel = Some(TileKernel {
        vector: [vector; 3],
        wave_groups: 1,
        epilogue: Epilogue::Cshuffle,
        explicit_gemm: false,
        split_image: false,
        pad: [true, true, true],
    });
    i.targets = vec![Arch::Gfx942];
    i
}

/// The CK-Tile string of CK's builder test (31 fields, layout A).
pub fn tile_builder_test() -> Instance {
    let mut i = tile(
        DataType::Bf16,
        [128, 128, 32],
        [4, 1, 1],
        4,
        PipelineVersion::CompV3,
    );
    i.ck_format = Some("a".to_string());
    i
}

/// The StreamK line of `configs/backward_weight/tests/nhwgc_fp16_streamk.conf`.
pub fn tile_streamk_conf() -> Instance {
    let mut i = tile(
        DataType::Fp16,
        [64, 64, 64],
        [2, 2, 1],
        8,
        PipelineVersion::BasicAsyncV1,
    );
    i.work.streamk = Some(StreamK {
        reduction: Reduction::Tree,
        persistent: false,
    });
    i.targets = vec![Arch::Gfx950];
    i
}

/// An instance of `format`'s op and kind whose every printed field has a distinct, non-default
/// value, so that a round trip through the importer shows any field that is lost or swapped.
pub fn sample(format: CkFormat) -> Instance {
    let mut i = blank_instance(format.op(), format.kind());
    i.name = format!("sample_{}", format.variant_name());
    i.ndim = 3;
    i.layout = ConvLayout {
        input: Layout::Ndhwgc,
        weight: Layout::Gkzyxc,
        output: Layout::Ndhwgk,
        ds: vec![Layout::Gc],
    };
    i.types = Types {
        input: DataType::Bf16,
        weight: DataType::Fp16,
        output: DataType::Fp32,
        acc: DataType::Fp32,
        compute_a: DataType::Fp8,
        compute_b: DataType::Bf8,
        cshuffle: DataType::Tf32,
        ds: vec![DataType::Fp16],
        input_sources: Vec::new(),
        weight_sources: Vec::new(),
    };
    i.elementwise = ElementOps {
        input: ElementOp::Scale,
        weight: ElementOp::Bilinear,
        output: ElementOp::AddRelu,
    };
    i.spec = ConvSpec::Filter1x1Stride1Pad0;
    i.gemm_spec = GemmSpec::MnkPadding;
    i.block = 256;
    i.tile = Tile {
        m: 128,
        n: 64,
        k: 32,
    };
    i.k1 = if matches!(format.kind(), Kind::Tile) {
        [8, 8]
    } else {
        [8, 4]
    };
    i.mma = [32, 16, if format.kind() == Kind::Tile { 8 } else { 0 }];
    i.repeat = [2, 1];
    i.waves = [2, 4, 1];
    i.a = transfer(&[1, 4, 32, 2], &[0, 3, 1, 2], &[0, 2, 1, 3], 2, 4, 2, true);
    i.b = transfer(&[4, 64, 1], &[1, 0, 2], &[1, 0, 2], 1, 8, 4, false);
    i.c = CShuffle {
        m_per_shuffle: 2,
        n_per_shuffle: 3,
        cluster: vec![1, 32, 1, 8],
        vector: 4,
    };
    i.pipeline = Pipeline {
        scheduler: Scheduler::Interwave,
        version: if format.kind() == Kind::Tile {
            PipelineVersion::CompV4
        } else {
            PipelineVersion::V4
        },
        prefetch: 2,
        double_buffer: true,
        direct_load: true,
        loop_scheduler: LoopScheduler::Interwave,
        thread_tile_transfer: false,
    };
    if format.kind() == Kind::Wmma {
        i.pipeline.version = PipelineVersion::WeightOnly;
    }
    i.work = Work {
        split_k: SplitK::Fixed(1),
        two_stage: false,
        streamk: None,
        merge_groups: 4,
        large_tensor: true,
    };
    if matches!(
        format,
        CkFormat::TileBwdWeightB | CkFormat::TileBwdWeightC | CkFormat::TileBwdWeightD
    ) {
        i.work.streamk = Some(StreamK {
            reduction: Reduction::Linear,
            persistent: true,
        });
    }
    i.transpose = [4, 2];
    i.pad_gemm = [true, false];
    i.wavelet = (format.kind() == Kind::Wavelet).then_some(Wavelet {
        load: 256,
        math: 128,
    });
    i.tile_kernel = (format.kind() == Kind::Tile).then_some(TileKernel {
        vector: [8, 4, 2],
        wave_groups: 2,
        epilogue: Epilogue::Cshuffle,
        explicit_gemm: true,
        split_image: true,
        pad: [true, true, true],
    });
    i.dl = (format.kind() == Kind::Dl).then(|| {
        let t = |base: u32| DlTransfer {
            slice: vec![base, 1, 1, 2],
            cluster: vec![2, 1, 128, 1],
            arrange: vec![1, 2, 0, 3],
            access: vec![1, 2, 0, 3],
            src_vector: vec![base, 1, 1, 2],
            src_order: vec![1, 2, 0, 3],
            dst_vector: vec![1, 1, 1, 2],
        };
        Dl {
            m1_per_thread: 4,
            n1_per_thread: 2,
            k_per_thread: 1,
            cluster_m1: vec![8, 2],
            cluster_n1: vec![8, 2],
            a: t(4),
            b: t(1),
            c_access_order: vec![0, 1, 2, 3, 4, 5],
            c_vector_dim: 5,
            c_vector: 4,
        }
    });
    i.targets = vec![Arch::Gfx950];
    i.ck_format = (!format.is_default()).then(|| format.variant_name().to_string());
    i
}
