// Backward weight, two-stage XDL: DeviceGroupedConvBwdWeightTwoStage_Xdl_CShuffle. Stage one is a
// V3 GEMM into an fp32 workspace, stage two converts into the weight type. Rows: CK's
// device_grouped_conv_bwd_weight_two_stage_xdl_instance.hpp (f16), each with its own
// NumGroupsToMerge; Intrawave v1 as in CK's tests/nhwgc_fp16.conf.
import "common.ck";

/// Two-stage XDL f16, 2-D NHWGC. Merged groups read one channel per group, which only the
/// channels-last grouped layout keeps contiguous, so GNHWC gets the generic row alone (below).
family bwd_weight_two_stage_xdl_2d : bwd_weight_cdna {
    kind = xdl_two_stage;
    dims = 2;
    dtype = fp16;
    block = 64;
    k1 = 8;
    c.vector = 1;
    over layout = [nhwgc];
    over spec = [default, filter1x1_stride1_pad0];
    rows (tile, instr, repeat, a.cluster, a.src_vector, a.dst_vector, b.cluster, b.src_vector, b.dst_vector, c.cluster, merge_groups) {
        /// `64,16,16,32,8,16,16,1,1`, scalar loads: the generic row.
        m16n16 = ([16, 16, 32], [16, 16], [1, 1], [4, 8, 1], 1, 4, [4, 8, 1], 1, 4, [1, 8, 1, 8], 1);
        /// `64,32,32,32,8,32,32,1,1`, two groups per block.
        m32n32_merge2 = ([32, 32, 32], [32, 32], [1, 1], [4, 8, 1], 2, 2, [4, 16, 1], 2, 2, [1, 8, 1, 8], 2);
        /// `64,32,64,32,8,32,32,1,2`, four groups per block.
        m32n64_merge4 = ([32, 64, 32], [32, 32], [1, 2], [4, 8, 1], 4, 4, [4, 16, 1], 4, 4, [1, 8, 1, 8], 4);
        /// `64,32,128,32,8,32,32,1,4`, eight groups per block (the .conf line).
        m32n128_merge8 = ([32, 128, 32], [32, 32], [1, 4], [4, 4, 1], 8, 8, [4, 16, 1], 8, 8, [1, 8, 1, 8], 8);
    }
}

/// Two-stage XDL f16, 2-D GNHWC: the generic row.
family bwd_weight_two_stage_xdl_2d_gnhwc : bwd_weight_cdna {
    kind = xdl_two_stage;
    dims = 2;
    dtype = fp16;
    layout = gnhwc;
    block = 64;
    k1 = 8;
    c.vector = 1;
    over spec = [default, filter1x1_stride1_pad0];
    rows (tile, instr, repeat, a.cluster, a.src_vector, a.dst_vector, b.cluster, b.src_vector, b.dst_vector, c.cluster) {
        /// `64,16,16,32,8,16,16,1,1`, scalar loads: the generic row.
        m16n16 = ([16, 16, 32], [16, 16], [1, 1], [4, 8, 1], 1, 4, [4, 8, 1], 1, 4, [1, 8, 1, 8]);
    }
}

/// Two-stage XDL f16, the generic row over 3-D NDHWGC (CK instantiates the same list for
/// NDimSpatial = 3).
family bwd_weight_two_stage_xdl_3d : bwd_weight_cdna {
    kind = xdl_two_stage;
    dims = 3;
    layout = ndhwgc;
    dtype = fp16;
    over spec = [default, filter1x1_stride1_pad0];
    rows (block, tile, k1, instr, repeat, a.cluster, a.src_vector, a.dst_vector, b.cluster, b.src_vector, b.dst_vector, c.cluster, c.vector) {
        /// `64,16,16,32,8,16,16,1,1`, scalar loads.
        m16n16 = (64, [16, 16, 32], 8, [16, 16], [1, 1], [4, 8, 1], 1, 4, [4, 8, 1], 1, 4, [1, 8, 1, 8], 1);
    }
}
