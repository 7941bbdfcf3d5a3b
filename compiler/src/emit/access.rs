//! Where each format field lives in an [`Instance`]: one accessor per field kind, used to print
//! a field and to store a parsed one, so the two directions cannot disagree.

use super::format::{DlPart, FlagField, IntField, Role, SeqField, Side, TypeSlot};
use crate::ir::*;
use crate::model::*;

/// An instance of `op` and `kind` with every parameter neutral (see [`Instance::blank`]); the
/// importer fills it field by field.
pub fn blank_instance(op: Op, kind: Kind) -> Instance {
    Instance::blank(op, kind)
}

fn dl_transfer() -> DlTransfer {
    DlTransfer {
        slice: Vec::new(),
        cluster: Vec::new(),
        arrange: Vec::new(),
        access: Vec::new(),
        src_vector: Vec::new(),
        src_order: Vec::new(),
        dst_vector: Vec::new(),
    }
}

fn dl(inst: &mut Instance) -> &mut Dl {
    inst.dl.get_or_insert_with(|| Dl {
        m1_per_thread: 0,
        n1_per_thread: 0,
        k_per_thread: 0,
        cluster_m1: Vec::new(),
        cluster_n1: Vec::new(),
        a: dl_transfer(),
        b: dl_transfer(),
        c_access_order: Vec::new(),
        c_vector_dim: 0,
        c_vector: 0,
    })
}

/// The CK-Tile settings, neutral ones inserted where absent.
pub fn tile_kernel(inst: &mut Instance) -> &mut TileKernel {
    inst.tile_kernel.get_or_insert(TileKernel {
        vector: [0, 0, 0],
        wave_groups: 1,
        epilogue: Epilogue::Cshuffle,
        explicit_gemm: false,
        split_image: false,
        pad: [true, true, true],
    })
}

fn wavelet(inst: &mut Instance) -> &mut Wavelet {
    inst.wavelet.get_or_insert(Wavelet { load: 0, math: 0 })
}

fn transfer(inst: &mut Instance, side: Side) -> &mut Transfer {
    match side {
        Side::A => &mut inst.a,
        Side::B => &mut inst.b,
    }
}

/// The integer a field names; None for K0 and K1, which are computed from several parameters.
pub fn int_slot(inst: &mut Instance, f: IntField) -> Option<&mut u32> {
    use IntField::*;
    Some(match f {
        Block => &mut inst.block,
        TileM => &mut inst.tile.m,
        TileN => &mut inst.tile.n,
        TileK => &mut inst.tile.k,
        K0 | K1 => return None,
        AK1 => &mut inst.k1[0],
        BK1 => &mut inst.k1[1],
        MmaM => &mut inst.mma[0],
        MmaN => &mut inst.mma[1],
        MmaK => &mut inst.mma[2],
        RepeatM => &mut inst.repeat[0],
        RepeatN => &mut inst.repeat[1],
        WarpsM => &mut inst.waves[0],
        WarpsN => &mut inst.waves[1],
        WarpsK => &mut inst.waves[2],
        VectorDim(s) => &mut transfer(inst, s).vector_dim,
        SrcVector(s) => &mut transfer(inst, s).src_vector,
        DstVector(s) => &mut transfer(inst, s).dst_vector,
        ShuffleM => &mut inst.c.m_per_shuffle,
        ShuffleN => &mut inst.c.n_per_shuffle,
        CVector => &mut inst.c.vector,
        Prefetch => &mut inst.pipeline.prefetch,
        MergeGroups => &mut inst.work.merge_groups,
        TransposeSrc => &mut inst.transpose[0],
        TransposeDst => &mut inst.transpose[1],
        TileVector(i) => tile_kernel(inst).vector.get_mut(i)?,
        WaveGroups => &mut tile_kernel(inst).wave_groups,
        WaveletLoad => &mut wavelet(inst).load,
        WaveletMath => &mut wavelet(inst).math,
        DlM1PerThread => &mut dl(inst).m1_per_thread,
        DlN1PerThread => &mut dl(inst).n1_per_thread,
        DlKPerThread => &mut dl(inst).k_per_thread,
        DlCVectorDim => &mut dl(inst).c_vector_dim,
        DlCVector => &mut dl(inst).c_vector,
    })
}

pub fn seq_slot(inst: &mut Instance, f: SeqField) -> &mut Vec<u32> {
    use SeqField::*;
    match f {
        Cluster(s) => &mut transfer(inst, s).cluster,
        Arrange(s) => &mut transfer(inst, s).arrange,
        Access(s) => &mut transfer(inst, s).access,
        CCluster => &mut inst.c.cluster,
        DlClusterM1 => &mut dl(inst).cluster_m1,
        DlClusterN1 => &mut dl(inst).cluster_n1,
        DlCAccessOrder => &mut dl(inst).c_access_order,
        Dl(side, part) => {
            let d = dl(inst);
            let t = match side {
                Side::A => &mut d.a,
                Side::B => &mut d.b,
            };
            match part {
                DlPart::Slice => &mut t.slice,
                DlPart::Cluster => &mut t.cluster,
                DlPart::Arrange => &mut t.arrange,
                DlPart::Access => &mut t.access,
                DlPart::SrcVector => &mut t.src_vector,
                DlPart::SrcOrder => &mut t.src_order,
                DlPart::DstVector => &mut t.dst_vector,
            }
        }
    }
}

pub fn flag_slot(inst: &mut Instance, f: FlagField) -> &mut bool {
    use FlagField::*;
    match f {
        LdsPad(s) => &mut transfer(inst, s).lds_pad,
        DirectLoad => &mut inst.pipeline.direct_load,
        LargeTensor => &mut inst.work.large_tensor,
        PadGemmM => &mut inst.pad_gemm[0],
        PadGemmN => &mut inst.pad_gemm[1],
        ThreadTileTransfer => &mut inst.pipeline.thread_tile_transfer,
        SplitImage => &mut tile_kernel(inst).split_image,
        ExplicitGemm => &mut tile_kernel(inst).explicit_gemm,
        DoubleSmemBuffer => &mut inst.pipeline.double_buffer,
    }
}

pub fn type_slot(inst: &mut Instance, op: Op, slot: TypeSlot) -> &mut DataType {
    match slot {
        TypeSlot::Tensor(role) => match role.tensor(op) {
            Role::In => &mut inst.types.input,
            Role::Wei => &mut inst.types.weight,
            _ => &mut inst.types.output,
        },
        TypeSlot::Acc => &mut inst.types.acc,
        TypeSlot::ComputeA => &mut inst.types.compute_a,
        TypeSlot::ComputeB => &mut inst.types.compute_b,
        TypeSlot::CShuffle => &mut inst.types.cshuffle,
    }
}

pub fn layout_slot(inst: &mut Instance, op: Op, role: Role) -> &mut Layout {
    match role.tensor(op) {
        Role::In => &mut inst.layout.input,
        Role::Wei => &mut inst.layout.weight,
        _ => &mut inst.layout.output,
    }
}

/// The several tensors' types of a multiple-A/B source (empty for one tensor).
pub fn sources_slot(inst: &mut Instance, op: Op, role: Role) -> &mut Vec<DataType> {
    match role.tensor(op) {
        Role::Wei => &mut inst.types.weight_sources,
        _ => &mut inst.types.input_sources,
    }
}

pub fn element_op_slot(inst: &mut Instance, op: Op, role: Role) -> &mut ElementOp {
    match role.tensor(op) {
        Role::In => &mut inst.elementwise.input,
        Role::Wei => &mut inst.elementwise.weight,
        _ => &mut inst.elementwise.output,
    }
}
