// Defaults shared by the backward-weight families.
import "../common.ck";

/// Backward weight on CDNA.
defaults bwd_weight_cdna : cdna {
    op = bwd_weight;
}

/// Backward weight on RDNA.
defaults bwd_weight_rdna : rdna {
    op = bwd_weight;
}

/// DeviceGroupedConvBwdWeight_Xdl_CShuffle (v1 GEMM): K0 x K1 per block, 4-D clusters, LDS padding
/// on both operands as in every CK v1 row.
defaults bwd_weight_xdl : bwd_weight_cdna {
    kind = xdl;
    a.lds_pad = true;
    b.lds_pad = true;
}

/// DeviceGroupedConvBwdWeight_Xdl_CShuffleV3: K per block, 3-D clusters; k_batch from occupancy
/// (CK's split_k < 0).
defaults bwd_weight_xdl_v3 : bwd_weight_cdna {
    kind = xdl_v3;
    split_k = auto;
}

/// WMMA V3 with the shape every row shares: K1 8, 16x16 WMMA, Intrawave v1 (the template
/// defaults of CK's lists).
defaults bwd_weight_wmma_v3 : bwd_weight_rdna {
    kind = wmma_v3;
    k1 = 8;
    instr = [16, 16];
}
