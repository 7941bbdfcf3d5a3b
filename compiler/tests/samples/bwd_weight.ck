import "common.ck";

/// The generic V3 instance: supported for any C and K divisible by 2.
instance bwd_weight_v3_generic : cdna_v3 {
    dims = 2;
    layout = nhwgc;
    dtype = fp16;
    block = 64;
    tile = [32, 32, 32];
    k1 = 8;
    instr = [32, 32];
    repeat = [1, 1];
    a { cluster = [4, 8, 1]; src_vector = 2; dst_vector = 2; }
    b { cluster = [4, 16, 1]; src_vector = 2; dst_vector = 2; }
    c { cluster = [1, 8, 1, 8]; vector = 2; }
    split_k = auto;
    streamk.reduction = tree;
    ck_format = "v2 \"quoted\"";
}

/// V3 XDL bwd-weight, f16 and bf16.
family bwd_weight_v3_xdl : cdna_v3 {
    layout = nhwgc;
    over dims = [2, 3];
    over dtype = [fp16, bf16];
    over spec = [default, filter1x1_stride1_pad0];
    rows (block, tile, k1, instr, repeat, a.cluster, a.src_vector, b.cluster, b.src_vector, c.cluster, c.vector) {
        /// Generic: any C and K divisible by 2.
        generic = (64, [32, 32, 32], 8, [32, 32], [1, 1], [4, 8, 1], 2, [4, 16, 1], 2, [1, 8, 1, 8], 2);
        wide    = (64, [32, 128, 32], 8, [32, 32], [1, 4], [4, 4, 1], 8, [4, 16, 1], 8, [1, 8, 1, 8], 2,);
    }
}

family named {
    name = "{family}_{pipeline.version}_{row}";
    over pipeline.version = [v1, v3];
    rows (block) { small = (64); big = (256); }
}
