// Backward weight, wave-specialized XDL V3: DeviceGroupedConvBwdWeight_Xdl_WaveletModel_CShuffleV3.
// A load thread group streams tiles into LDS while a math group runs the MFMAs. Rows: CK's
// device_grouped_conv_bwd_weight_wavelet_xdl_instance.hpp (f16 and bf16 hold the same rows).
import "common.ck";

/// What every wavelet row shares: one prefetch stage, 256 load threads, K per block 32 with
/// K1 8, 32x32 XDL, load clusters S<4,32,2> (256 threads), LDS write vector 4 (K1 / 2), C vector
/// 2; k_batch from occupancy (CK clamps it to 128).
defaults bwd_weight_wavelet : bwd_weight_cdna {
    kind = wavelet;
    wavelet.load = 256;
    pipeline.prefetch = 1;
    k1 = 8;
    instr = [32, 32];
    a { cluster = [4, 32, 2]; dst_vector = 4; }
    b { cluster = [4, 32, 2]; dst_vector = 4; }
    c.vector = 2;
    split_k = auto;
}

/// Ratio (4,4): 256 math threads (2x2 waves), C cluster S<1,32,1,8>; 2-D NHWGC. The source
/// vector is M/32 (A) and N/32 (B): one 32-wide column slice per thread.
family bwd_weight_wavelet_4w4_2d : bwd_weight_wavelet {
    dims = 2;
    layout = nhwgc;
    wavelet.math = 256;
    c.cluster = [1, 32, 1, 8];
    over dtype = [fp16, bf16];
    over spec = [default, filter1x1_stride1_pad0];
    rows (tile, repeat, a.src_vector, b.src_vector) {
        /// M128 N128: 2x2 XDL per wave, 64 accumulator registers per wave.
        m128n128 = ([128, 128, 32], [2, 2], 4, 4);
        /// M64 N64: the smallest tile, 16 accumulator registers per wave.
        m64n64 = ([64, 64, 32], [1, 1], 2, 2);
        /// M128 N64: asymmetric, M > N.
        m128n64 = ([128, 64, 32], [2, 1], 4, 2);
        /// M64 N128: asymmetric, N > M.
        m64n128 = ([64, 128, 32], [1, 2], 2, 4);
    }
}

/// Ratio (4,4) over 3-D NDHWGC: the rows of the 2-D family (CK instantiates the same list for
/// NDimSpatial = 3).
family bwd_weight_wavelet_4w4_3d : bwd_weight_wavelet {
    dims = 3;
    layout = ndhwgc;
    wavelet.math = 256;
    c.cluster = [1, 32, 1, 8];
    over dtype = [fp16, bf16];
    over spec = [default, filter1x1_stride1_pad0];
    rows (tile, repeat, a.src_vector, b.src_vector) {
        /// M128 N128, 2x2 XDL per wave.
        m128n128 = ([128, 128, 32], [2, 2], 4, 4);
        /// M64 N64, 1x1 XDL per wave.
        m64n64 = ([64, 64, 32], [1, 1], 2, 2);
        /// M128 N64, 2x1 XDL per wave.
        m128n64 = ([128, 64, 32], [2, 1], 4, 2);
        /// M64 N128, 1x2 XDL per wave.
        m64n128 = ([64, 128, 32], [1, 2], 2, 4);
    }
}

/// Ratio (4,2) ("4w2"): 128 math threads (two waves, 384 threads in all), so each wave holds
/// twice the XDL repeats; C cluster S<1,16,1,8>; 2-D NHWGC.
family bwd_weight_wavelet_4w2_2d : bwd_weight_wavelet {
    dims = 2;
    layout = nhwgc;
    wavelet.math = 128;
    c.cluster = [1, 16, 1, 8];
    over dtype = [fp16, bf16];
    over spec = [default, filter1x1_stride1_pad0];
    rows (tile, repeat, a.src_vector, b.src_vector) {
        /// M64 N64: 1x2 waves, 2x1 XDL per wave.
        m64n64 = ([64, 64, 32], [2, 1], 2, 2);
        /// M128 N64: 2x1 waves, 2x2 XDL per wave.
        m128n64 = ([128, 64, 32], [2, 2], 4, 2);
        /// M64 N128: 1x2 waves, 2x2 XDL per wave.
        m64n128 = ([64, 128, 32], [2, 2], 2, 4);
    }
}
