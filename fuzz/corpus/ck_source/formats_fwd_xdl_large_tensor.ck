/// Forward XDL for tensors past 2 GiB, f16.
instance fwd_large_tensor_f16 {
    op = fwd;
    kind = xdl_large_tensor;
    dims = 2;
    layout = nhwgc;
    dtype = fp16;
    targets = [gfx942];
    block = 256;
    tile = [256, 128, 32];
    k1 = 8;
    instr = [32, 32];
    repeat = [4, 2];
}
