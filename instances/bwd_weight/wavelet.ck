/// Wavelet XDL V3 (wave-specialized): 256 load + 256 math threads, 128x128 tile,
/// K0 32, K1 8, 32x32 XDL 2x2, clusters S<4,32,2>, src vector M/32, dst 4, C cluster S<1,32,1,8>
/// (CK's device_grouped_conv_bwd_weight_wavelet_xdl_instance.hpp).
instance bwd_weight_wavelet_f16_128x128 {
    op = bwd_weight;
    kind = wavelet;
    dims = 2;
    layout = nhwgc;
    dtype = fp16;
    targets = [gfx942];
    tile = [128, 128, 32];
    k1 = 8;
    instr = [32, 32];
    repeat = [2, 2];
    wavelet.load = 256;
    wavelet.math = 256;
    pipeline { prefetch = 1; }
    a { cluster = [4, 32, 2]; src_vector = 4; dst_vector = 4; }
    b { cluster = [4, 32, 2]; src_vector = 4; dst_vector = 4; }
    c { cluster = [1, 32, 1, 8]; }
}
