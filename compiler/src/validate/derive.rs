//! Builds the concrete [`Instance`] from a spec: every omitted parameter gets its semantic
//! default or is derived from the others (docs/derivation.md). Derived values are then checked
//! by the same rules as written ones.

use super::Basics;
use super::codes as c;
use super::report::{MAX_INT, Report, SpanOf, array, indices, int, ints};
use crate::arch;
use crate::ir::*;
use crate::model::*;
use crate::ops::{Mma, PipelineFamily, Support};
use crate::spec::{DlTransferSpec, Int, Ints, SplitKSpec, TransferSpec};
use ck_dsl::Diagnostic;

/// Largest fixed k_batch.
const MAX_SPLIT_K: u64 = 1 << 16;

/// Largest vector (in elements) a 16-byte access holds.
pub fn max_vector(dtype: DataType) -> u32 {
    16 / dtype.bytes()
}

/// Largest power of two no larger than `cap` that divides `extent`.
pub fn pow2_divisor(extent: u32, cap: u32) -> u32 {
    let mut v = 1;
    while v * 2 <= cap && extent.is_multiple_of(v * 2) {
        v *= 2;
    }
    v
}

fn divisors(n: u32) -> impl DoubleEndedIterator<Item = u32> {
    (1..=n).filter(move |d| n.is_multiple_of(*d))
}

/// Splits `waves` into `[M, N]` waves so each covers whole instructions of the tile, as square
/// as possible (ties: more waves along M). Returns the repeats `[M, N]`.
pub fn derive_repeat(tile: [u32; 2], instr: [u32; 2], waves: u32) -> Option<[u32; 2]> {
    divisors(waves)
        .filter_map(|mw| {
            let nw = waves / mw;
            let (rm, rn) = (
                tile[0].checked_div(instr[0] * mw)?,
                tile[1].checked_div(instr[1] * nw)?,
            );
            let fits =
                rm > 0 && rn > 0 && tile[0] == rm * instr[0] * mw && tile[1] == rn * instr[1] * nw;
            fits.then_some((rm.abs_diff(rn), std::cmp::Reverse(mw), [rm, rn]))
        })
        .min()
        .map(|(_, _, r)| r)
}

/// Thread-cluster lengths over `extents = [K0, rows, K1]` (prefixed by KBatch = 1 when `rank4`)
/// for `threads` threads: K1 kept whole per thread where possible, then as much of K0 as fits,
/// the rest along rows. Fewer threads (halving) are tried when no exact split exists; CK lets
/// threads beyond the cluster idle.
pub fn derive_cluster(extents: [u32; 3], threads: u32, exact: bool) -> Option<[u32; 3]> {
    let [k0, rows, k1] = extents;
    let mut t = threads;
    while t >= 1 {
        for k1c in divisors(k1) {
            for k0c in divisors(k0).rev() {
                let per = k0c * k1c;
                if t.is_multiple_of(per) && rows % (t / per) == 0 {
                    return Some([k0c, t / per, k1c]);
                }
            }
        }
        if exact || !t.is_multiple_of(2) {
            return None;
        }
        t /= 2;
    }
    None
}

/// C-shuffle cluster `[1, M, 1, N]` and vector for a shuffle tile of `m x n` with `threads`
/// threads: the widest vector first, then the most threads along N.
pub fn derive_c(
    m: u32,
    n: u32,
    threads: u32,
    max_vec: u32,
    fixed_vec: Option<u32>,
) -> Option<([u32; 4], u32)> {
    let vectors: Vec<u32> = match fixed_vec {
        Some(v) => vec![v],
        None => std::iter::successors(Some(max_vec), |v| (*v > 1).then_some(v / 2)).collect(),
    };
    for v in vectors {
        if !n.is_multiple_of(v) {
            continue;
        }
        for nc in divisors(n / v).rev() {
            if threads.is_multiple_of(nc) && m.is_multiple_of(threads / nc) {
                return Some(([1, threads / nc, 1, nc], v));
            }
        }
    }
    None
}

/// Which tensor extents a transfer covers and how it reads them.
struct Side<'a> {
    key: &'a str,
    spec: &'a TransferSpec,
    rows: u32,
    k1: u32,
    threads: u32,
    global: DataType,
    lds: DataType,
    /// Vector dimension in the 3-D `[K0, rows, K1]` view.
    vector_dim3: u32,
    orders3: ([u32; 3], [u32; 3]),
}

/// Per-side defaults that depend on the op: which dimension is contiguous in memory, and CK's
/// usual orders for it.
fn side_defaults(b: &Basics, is_a: bool) -> (u32, ([u32; 3], [u32; 3])) {
    match (b.op, is_a) {
        // Bwd-weight reads dOut along K (= M) and In along C (= N).
        (Op::BwdWeight, _) => (1, ([2, 0, 1], [1, 0, 2])),
        // Bwd-data reads dOut along K (GEMM K) and Wei along C (= N).
        (Op::BwdData, false) => (1, ([0, 2, 1], [0, 2, 1])),
        _ => (2, ([1, 0, 2], [1, 0, 2])),
    }
}

fn transfer(
    r: &mut Report,
    side: Side,
    k: u32,
    rank4: bool,
    exact: bool,
    direct: bool,
) -> Option<Transfer> {
    let s = side.spec;
    let key = side.key;
    let k0 = (k / side.k1).max(1);
    let cluster = match ints(r, &s.cluster, &format!("{key}.cluster"), None) {
        Some(c) => c,
        None if s.cluster.is_some() => return None,
        None => {
            let Some(c3) = derive_cluster([k0, side.rows, side.k1], side.threads, exact) else {
                r.error(
                    c::CLUSTER_PRODUCT,
                    None,
                    format!(
                        "cannot derive `{key}.cluster`: no split of {} threads covers K0 = {k0}, {} = {}, K1 = {}",
                        side.threads,
                        if key == "a" { "M" } else { "N" },
                        side.rows,
                        side.k1
                    ),
                    "no thread cluster fits",
                    format!("set `{key}.cluster` explicitly, or change `block` or `tile`"),
                );
                return None;
            };
            if rank4 {
                vec![1, c3[0], c3[1], c3[2]]
            } else {
                c3.to_vec()
            }
        }
    };
    let rank4_given = cluster.len() == 4;
    let (arrange_d, access_d) = if rank4_given {
        (vec![0, 3, 1, 2], vec![0, 2, 1, 3])
    } else {
        (side.orders3.0.to_vec(), side.orders3.1.to_vec())
    };
    let arrange = indices(r, &s.arrange, &format!("{key}.arrange")).unwrap_or(arrange_d);
    let access = indices(r, &s.access, &format!("{key}.access")).unwrap_or(access_d);
    let vector_dim = match &s.vector_dim {
        Some(v) => v.value.min(u64::from(u32::MAX)) as u32,
        None if rank4 => 2,
        None => side.vector_dim3,
    };
    let extents = transfer_extents(cluster.len(), k0, side.rows, side.k1);
    let slice = |d: usize| {
        extents
            .get(d)
            .zip(cluster.get(d))
            .map_or(1, |(e, c)| (e / c).max(1))
    };
    let src_vector = match int(r, &s.src_vector, &format!("{key}.src_vector")) {
        Some(v) => v,
        None => {
            let v = pow2_divisor(slice(vector_dim as usize), max_vector(side.global));
            if v == 1 {
                let warning = Diagnostic::warning(
                    c::SCALAR_LOADS,
                    format!(
                        "`{key}.src_vector` derives to 1: each thread's slice along the vector dimension is one element, so the {} tile is read an element at a time",
                        if key == "a" { "A" } else { "B" }
                    ),
                )
                .help(format!(
                    "write `{key}.src_vector = 1;` if that is meant, or give `{key}.cluster` fewer threads along the vector dimension"
                ));
                r.warn(warning, s.cluster.sp(), "scalar global loads");
            }
            v
        }
    };
    let k1_slice = slice(cluster.len().saturating_sub(1));
    let dst_default = if direct {
        src_vector
    } else {
        pow2_divisor(k1_slice, max_vector(side.lds))
    };
    let dst_vector = int(r, &s.dst_vector, &format!("{key}.dst_vector")).unwrap_or(dst_default);
    let lds_pad = s.lds_pad.as_ref().is_some_and(|v| v.value);
    Some(Transfer {
        cluster,
        arrange,
        access,
        vector_dim,
        src_vector,
        dst_vector,
        lds_pad,
    })
}

/// Tile extents a cluster of `rank` covers: `[K0, rows, K1]` or `[KBatch = 1, K0, rows, K1]`.
pub fn transfer_extents(rank: usize, k0: u32, rows: u32, k1: u32) -> Vec<u32> {
    if rank == 4 {
        vec![1, k0, rows, k1]
    } else {
        vec![k0, rows, k1]
    }
}

/// What the GEMM core of an instance resolves to.
struct Core {
    block: u32,
    tile: Tile,
    k1: [u32; 2],
    mma: [u32; 3],
    repeat: [u32; 2],
    waves: [u32; 3],
    a: Transfer,
    b: Transfer,
    c: CShuffle,
    wavelet: Option<Wavelet>,
    tile_kernel: Option<TileKernel>,
    dl: Option<Dl>,
}

fn required<T>(r: &mut Report, v: Option<T>, given: bool, key: &str, example: &str) -> Option<T> {
    if v.is_none() && !given {
        super::missing(r, key, example);
    }
    v
}

fn read_tile(r: &mut Report) -> Option<Tile> {
    let given = r.spec.tile.is_some();
    let t = array::<3>(r, &r.spec.tile.clone(), "tile");
    required(r, t, given, "tile", "tile = [128, 128, 32]").map(|[m, n, k]| Tile { m, n, k })
}

fn gemm_core(r: &mut Report, b: &Basics) -> Option<Core> {
    let s = r.spec;
    let dev = b.dev;
    let tile = read_tile(r);
    let ak1 = int(r, &s.ak1, "ak1");
    let bk1 = int(r, &s.bk1, "bk1");
    let k1 = required(
        r,
        ak1.or(bk1),
        s.ak1.is_some() || s.bk1.is_some(),
        "k1",
        "k1 = 8",
    );
    let wavelet = if dev.kind == Kind::Wavelet {
        let load = int(r, &s.wavelet_load, "wavelet.load");
        let load = required(
            r,
            load,
            s.wavelet_load.is_some(),
            "wavelet.load",
            "wavelet.load = 256",
        );
        let math = int(r, &s.wavelet_math, "wavelet.math");
        let math = required(
            r,
            math,
            s.wavelet_math.is_some(),
            "wavelet.math",
            "wavelet.math = 256",
        );
        Some(Wavelet {
            load: load?,
            math: math?,
        })
    } else {
        None
    };
    let block = match wavelet {
        Some(w) => Some(w.load + w.math),
        None => {
            let v = int(r, &s.block, "block");
            required(r, v, s.block.is_some(), "block", "block = 256")
        }
    };
    let instr_given = array::<2>(r, &s.instr, "instr");
    let repeat_given = array::<2>(r, &s.repeat, "repeat");
    let (tile, k1, block) = (tile?, k1?, block?);
    let k1 = [ak1.unwrap_or(k1), bk1.unwrap_or(k1)];
    let (math, load) = wavelet.map_or((block, block), |w| (w.math, w.load));
    let native = if dev.mma == Mma::Wmma { 32 } else { 64 };
    let instr = match instr_given {
        Some(i) => i,
        None if s.instr.is_some() => return None,
        None => derive_instr(b, tile),
    };
    let repeat = match repeat_given {
        Some(rp) => rp,
        None if s.repeat.is_some() => return None,
        None => {
            let waves = math / native;
            let derived = (math % native == 0 && waves > 0)
                .then(|| derive_repeat([tile.m, tile.n], instr, waves))
                .flatten();
            let Some(rp) = derived else {
                // Either the block is not whole waves, or its waves split the tile no way.
                if math % native != 0 || waves == 0 {
                    r.error(
                        c::WAVES,
                        s.block.sp(),
                        format!(
                            "cannot derive `repeat`: {math} threads are not whole wave{native}s"
                        ),
                        "not a multiple of the wave size",
                        format!("a block size that is a multiple of {native}, or set `repeat`"),
                    );
                } else {
                    r.error(
                        c::WAVES,
                        r.spec.tile.sp(),
                        format!(
                            "cannot derive `repeat`: {waves} wave{native}s cannot split the {}x{} tile into whole {}x{} instructions",
                            tile.m, tile.n, instr[0], instr[1]
                        ),
                        "no wave layout fits this tile",
                        format!(
                            "a tile whose M and N are multiples of the instruction ({}x{}) times a split of {waves} waves, or set `repeat`",
                            instr[0], instr[1]
                        ),
                    );
                }
                return None;
            };
            rp
        }
    };
    let waves = [
        (tile.m / (instr[0] * repeat[0])).max(1),
        (tile.n / (instr[1] * repeat[1])).max(1),
        1,
    ];
    let mma_k = b
        .targets
        .iter()
        .map(|&a| {
            arch::info(a)
                .mma_k(b.types.compute_a, instr[0], instr[1])
                .unwrap_or(0)
        })
        .collect::<Vec<_>>();
    let mma = [
        instr[0],
        instr[1],
        if mma_k.windows(2).all(|w| w[0] == w[1]) {
            mma_k[0]
        } else {
            0
        },
    ];
    let (ga, gb, ge) = b.gemm_types();
    let direct = s.pipeline.direct_load.as_ref().is_some_and(|v| v.value);
    let exact = wavelet.is_some();
    let (vda, orda) = side_defaults(b, true);
    let (vdb, ordb) = side_defaults(b, false);
    let a = Side {
        key: "a",
        spec: &s.a,
        rows: tile.m,
        k1: k1[0],
        threads: load,
        global: ga,
        lds: b.types.compute_a,
        vector_dim3: vda,
        orders3: orda,
    };
    let bb = Side {
        key: "b",
        spec: &s.b,
        rows: tile.n,
        k1: k1[1],
        threads: load,
        global: gb,
        lds: b.types.compute_b,
        vector_dim3: vdb,
        orders3: ordb,
    };
    let a = transfer(r, a, tile.k, dev.cluster_4d, exact, direct);
    let bt = transfer(r, bb, tile.k, dev.cluster_4d, exact, direct);
    let c = cshuffle(r, waves, instr, math, ge)?;
    Some(Core {
        block,
        tile,
        k1,
        mma,
        repeat,
        waves,
        a: a?,
        b: bt?,
        c,
        wavelet,
        tile_kernel: None,
        dl: None,
    })
}

/// 32x32 instructions when the tile and every target allow them, else 16x16.
fn derive_instr(b: &Basics, tile: Tile) -> [u32; 2] {
    let all_32 = b.targets.iter().all(|&a| {
        let info = arch::info(a);
        info.is_wave64() && info.mma_k(b.types.compute_a, 32, 32).is_some()
    });
    if b.dev.mma == Mma::Xdl && all_32 && tile.m.is_multiple_of(32) && tile.n.is_multiple_of(32) {
        [32, 32]
    } else {
        [16, 16]
    }
}

fn cshuffle(
    r: &mut Report,
    waves: [u32; 3],
    instr: [u32; 2],
    threads: u32,
    e: DataType,
) -> Option<CShuffle> {
    let s = r.spec;
    let shuffle = array::<2>(r, &s.c.shuffle, "c.shuffle");
    if s.c.shuffle.is_some() && shuffle.is_none() {
        return None;
    }
    let [sm, sn] = shuffle.unwrap_or([1, 1]);
    let (m, n) = (sm * waves[0] * instr[0], sn * waves[1] * instr[1]);
    let vector = int(r, &s.c.vector, "c.vector");
    let cluster = ints(r, &s.c.cluster, "c.cluster", None);
    let max_vec = max_vector(e);
    let (cluster, vector) = match (cluster, vector) {
        (Some(cl), Some(v)) => (cl, v),
        (Some(cl), None) => {
            let nc = cl.last().copied().unwrap_or(1);
            let v = if n % nc == 0 {
                pow2_divisor(n / nc, max_vec)
            } else {
                1
            };
            (cl, v)
        }
        (None, fixed) if s.c.cluster.is_none() => {
            let Some((cl, v)) = derive_c(m, n, threads, max_vec, fixed) else {
                r.error(
                    c::C_CLUSTER,
                    s.c.vector.sp(),
                    format!("cannot derive `c.cluster`: {threads} threads do not tile the {m}x{n} shuffle tile"),
                    "no C-shuffle cluster fits",
                    "set `c.cluster` and `c.vector` explicitly",
                );
                return None;
            };
            (cl.to_vec(), v)
        }
        _ => return None,
    };
    Some(CShuffle {
        m_per_shuffle: sm,
        n_per_shuffle: sn,
        cluster,
        vector,
    })
}

fn tile_core(r: &mut Report, b: &Basics) -> Option<Core> {
    let s = r.spec;
    let tile = read_tile(r);
    let warps = array::<3>(r, &s.warps, "warps");
    let warps = required(r, warps, s.warps.is_some(), "warps", "warps = [2, 2, 1]");
    let wt = array::<3>(r, &s.warp_tile, "warp_tile");
    let wt = required(
        r,
        wt,
        s.warp_tile.is_some(),
        "warp_tile",
        "warp_tile = [32, 32, 16]",
    );
    let vector = array::<3>(r, &s.vector, "vector");
    let wave_groups = int(r, &s.wave_groups, "wave_groups").unwrap_or(1);
    let (tile, warps, wt) = (tile?, warps?, wt?);
    if s.vector.is_some() && vector.is_none() {
        return None;
    }
    let (ga, gb, ge) = b.gemm_types();
    let vector = vector.unwrap_or([
        4.min(max_vector(ga)),
        8.min(max_vector(gb)),
        8.min(max_vector(ge)),
    ]);
    let wave = arch::info(b.targets[0]).wave_size;
    let nwarps = warps.iter().map(|&w| u64::from(w)).product::<u64>();
    if nwarps * u64::from(wave) > 1024 {
        r.error(
            c::BLOCK,
            s.warps.sp(),
            format!(
                "{}x{}x{} warps of {wave} threads exceed 1024 threads",
                warps[0], warps[1], warps[2]
            ),
            "too many warps",
            format!("use at most {} warps", 1024 / wave),
        );
        return None;
    }
    let block = nwarps as u32 * wave;
    let repeat = [
        (tile.m / (warps[0] * wt[0])).max(1),
        (tile.n / (warps[1] * wt[1])).max(1),
    ];
    let pad = s
        .pad
        .as_ref()
        .map_or(Some([true; 3]), |p| p.value.clone().try_into().ok());
    let Some(pad) = pad else {
        r.error(
            c::LIST_LEN,
            s.pad.sp(),
            "`pad` needs 3 flags [m, n, k]",
            "expected 3 elements",
            "write `pad = [true, true, true];`",
        );
        return None;
    };
    let tile_kernel = TileKernel {
        vector,
        wave_groups,
        epilogue: s.epilogue.as_ref().map_or(Epilogue::Cshuffle, |v| v.value),
        explicit_gemm: s.explicit_gemm.as_ref().is_some_and(|v| v.value),
        split_image: s.split_image.as_ref().is_some_and(|v| v.value),
        pad,
    };
    let vec_only = |v: u32| Transfer {
        cluster: vec![],
        arrange: vec![],
        access: vec![],
        vector_dim: 1,
        src_vector: v,
        dst_vector: v,
        lds_pad: false,
    };
    Some(Core {
        block,
        tile,
        k1: [1, 1],
        mma: wt,
        repeat,
        waves: warps,
        a: vec_only(vector[0]),
        b: vec_only(vector[1]),
        c: CShuffle {
            m_per_shuffle: 1,
            n_per_shuffle: 1,
            cluster: vec![],
            vector: vector[2],
        },
        wavelet: None,
        tile_kernel: Some(tile_kernel),
        dl: None,
    })
}

fn req_int(r: &mut Report, v: &Option<Int>, key: &str, example: &str) -> Option<u32> {
    let x = int(r, v, key);
    required(r, x, v.is_some(), key, example)
}

fn req_list(r: &mut Report, v: &Option<Ints>, key: &str, indexes: bool) -> Option<Vec<u32>> {
    let x = if indexes {
        indices(r, v, key)
    } else {
        ints(r, v, key, None)
    };
    required(r, x, v.is_some(), key, &format!("{key} = [...]"))
}

fn dl_side(r: &mut Report, t: &DlTransferSpec, key: &str) -> Option<DlTransfer> {
    let slice = req_list(r, &t.slice, &format!("dl.{key}.slice"), false);
    let cluster = req_list(r, &t.cluster, &format!("dl.{key}.cluster"), false);
    let arrange = req_list(r, &t.arrange, &format!("dl.{key}.arrange"), true);
    let access = req_list(r, &t.access, &format!("dl.{key}.access"), true);
    let src_vector = req_list(r, &t.src_vector, &format!("dl.{key}.src_vector"), false);
    let src_order = req_list(r, &t.src_order, &format!("dl.{key}.src_order"), true);
    let dst_vector = req_list(r, &t.dst_vector, &format!("dl.{key}.dst_vector"), false);
    Some(DlTransfer {
        slice: slice?,
        cluster: cluster?,
        arrange: arrange?,
        access: access?,
        src_vector: src_vector?,
        src_order: src_order?,
        dst_vector: dst_vector?,
    })
}

fn dl_core(r: &mut Report) -> Option<Core> {
    let s = r.spec;
    let d = &s.dl;
    let tile = read_tile(r);
    let block = req_int(r, &s.block, "block", "block = 256");
    let k1 = req_int(r, &s.ak1, "k1", "k1 = 2");
    let m1 = req_int(
        r,
        &d.m1_per_thread,
        "dl.m1_per_thread",
        "dl.m1_per_thread = 4",
    );
    let n1 = req_int(
        r,
        &d.n1_per_thread,
        "dl.n1_per_thread",
        "dl.n1_per_thread = 4",
    );
    let kpt = req_int(r, &d.k_per_thread, "dl.k_per_thread", "dl.k_per_thread = 1");
    let c_vector = req_int(r, &d.c_vector, "dl.c_vector", "dl.c_vector = 1");
    let c_vector_dim = d.c_vector_dim.as_ref().map(|v| v.value.min(7) as u32);
    let c_vector_dim = required(
        r,
        c_vector_dim,
        false,
        "dl.c_vector_dim",
        "dl.c_vector_dim = 5",
    );
    let cluster_m1 = req_list(r, &d.cluster_m1, "dl.cluster_m1", false);
    let cluster_n1 = req_list(r, &d.cluster_n1, "dl.cluster_n1", false);
    let c_access_order = req_list(r, &d.c_access_order, "dl.c_access_order", true);
    let (da, db) = (dl_side(r, &d.a, "a"), dl_side(r, &d.b, "b"));
    let dl = Dl {
        m1_per_thread: m1?,
        n1_per_thread: n1?,
        k_per_thread: kpt?,
        cluster_m1: cluster_m1?,
        cluster_n1: cluster_n1?,
        a: da?,
        b: db?,
        c_access_order: c_access_order?,
        c_vector_dim: c_vector_dim?,
        c_vector: c_vector?,
    };
    let (tile, block, k1) = (tile?, block?, k1?);
    let none = Transfer {
        cluster: vec![],
        arrange: vec![],
        access: vec![],
        vector_dim: 0,
        src_vector: 1,
        dst_vector: 1,
        lds_pad: false,
    };
    Some(Core {
        block,
        tile,
        k1: [k1, k1],
        mma: [dl.m1_per_thread, dl.n1_per_thread, dl.k_per_thread],
        repeat: [1, 1],
        waves: [1, 1, 1],
        a: none.clone(),
        b: none,
        c: CShuffle {
            m_per_shuffle: 1,
            n_per_shuffle: 1,
            cluster: vec![],
            vector: dl.c_vector,
        },
        wavelet: None,
        tile_kernel: None,
        dl: Some(dl),
    })
}

fn pipeline(r: &mut Report, b: &Basics) -> Option<Pipeline> {
    let p = &r.spec.pipeline;
    let fam = b.dev.pipeline;
    let version = p
        .version
        .as_ref()
        .map_or(fam.default_version(), |v| v.value);
    let prefetch = int(r, &p.prefetch, "pipeline.prefetch");
    if p.prefetch.is_some() && prefetch.is_none() {
        return None;
    }
    let double_default = match fam {
        PipelineFamily::Tile => matches!(
            version,
            PipelineVersion::CompV4 | PipelineVersion::CompAsync
        ),
        PipelineFamily::BlockGemm => version == PipelineVersion::V4,
        _ => false,
    };
    Some(Pipeline {
        scheduler: p
            .scheduler
            .as_ref()
            .map_or(Scheduler::Intrawave, |v| v.value),
        version,
        prefetch: prefetch.unwrap_or(1),
        double_buffer: p.double_buffer.as_ref().map_or(double_default, |v| v.value),
        direct_load: p.direct_load.as_ref().is_some_and(|v| v.value),
        thread_tile_transfer: p.thread_tile_transfer.as_ref().is_none_or(|v| v.value),
        loop_scheduler: p
            .loop_scheduler
            .as_ref()
            .map_or(LoopScheduler::Default, |v| v.value),
    })
}

fn work(r: &mut Report, b: &Basics) -> Option<Work> {
    let s = r.spec;
    let split_k = match &s.split_k {
        None => SplitK::Fixed(1),
        Some(v) => match v.value {
            SplitKSpec::Auto => SplitK::Auto,
            SplitKSpec::Fixed(k) if (1..=MAX_SPLIT_K).contains(&k) => SplitK::Fixed(k as u32),
            SplitKSpec::Fixed(k) => {
                r.error(
                    c::RANGE,
                    Some(v.span),
                    format!("split_k = {k} is out of range"),
                    "out of range",
                    format!("use a k_batch from 1 to {MAX_SPLIT_K}, or `auto`"),
                );
                return None;
            }
        },
    };
    let merge_groups = int(r, &s.merge_groups, "merge_groups");
    if s.merge_groups.is_some() && merge_groups.is_none() {
        return None;
    }
    let streamk = (s.streamk_span.is_some()
        || s.streamk.reduction.is_some()
        || s.streamk.persistent.is_some())
    .then(|| StreamK {
        reduction: s
            .streamk
            .reduction
            .as_ref()
            .map_or(Reduction::Tree, |v| v.value),
        persistent: s.streamk.persistent.as_ref().is_some_and(|v| v.value),
    });
    Some(Work {
        split_k,
        two_stage: s
            .two_stage
            .as_ref()
            .map_or(b.dev.two_stage == Support::Always, |v| v.value),
        streamk,
        merge_groups: merge_groups.unwrap_or(1),
        large_tensor: s
            .large_tensor
            .as_ref()
            .map_or(b.dev.large_tensor == Support::Always, |v| v.value),
    })
}

/// Builds the instance, or reports why a parameter could not be read or derived.
pub(crate) fn build(r: &mut Report, b: &Basics) -> Option<Instance> {
    let s = r.spec;
    let before = r.count();
    let core = match b.dev.mma {
        Mma::Tile => tile_core(r, b),
        Mma::Dl => dl_core(r),
        Mma::Xdl | Mma::Wmma => gemm_core(r, b),
    };
    let pipeline = pipeline(r, b);
    let work = work(r, b);
    let transpose = array::<2>(r, &s.transpose, "transpose");
    if r.count() != before {
        return None;
    }
    let (core, pipeline, work) = (core?, pipeline?, work?);
    let pad_gemm = match (&s.pad, b.dev.pad_gemm) {
        (Some(p), true) => [
            p.value.first().copied().unwrap_or(true),
            p.value.get(1).copied().unwrap_or(true),
        ],
        (None, true) => [true, true],
        _ => [false, false],
    };
    let family = s.origin.family.clone();
    Some(Instance {
        name: s.name.value.clone(),
        doc: s.doc.clone(),
        source: String::new(),
        family,
        op: b.op,
        ndim: b.ndim,
        kind: b.kind,
        layout: b.layout.clone(),
        types: b.types.clone(),
        elementwise: b.elementwise,
        spec: b.spec,
        gemm_spec: b.gemm_spec,
        block: core.block,
        tile: core.tile,
        k1: core.k1,
        mma: core.mma,
        repeat: core.repeat,
        waves: core.waves,
        a: core.a,
        b: core.b,
        c: core.c,
        pipeline,
        wavelet: core.wavelet,
        tile_kernel: core.tile_kernel,
        work,
        transpose: transpose.unwrap_or([1, 1]),
        pad_gemm,
        dl: core.dl,
        targets: b.targets.clone(),
        ck_format: s.ck_format.as_ref().map(|v| v.value.clone()),
        allow: s.allow.as_ref().map_or_else(Vec::new, |a| {
            a.value.iter().map(|c| c.0.to_string()).collect()
        }),
    })
}

/// What building from a spec guarantees, checked on an instance built without one
/// ([`super::validate_instance`]): the optional parts are those of the kind; sizes from 1,
/// indices from 0, both up to [`MAX_INT`] (k_batch up to its own bound), so that the rules
/// never divide by zero or overflow. False after reporting the first break.
pub(crate) fn form(r: &mut Report, b: &Basics, i: &Instance) -> bool {
    let parts = [
        ("wavelet", i.wavelet.is_some(), b.kind == Kind::Wavelet),
        (
            "tile kernel",
            i.tile_kernel.is_some(),
            b.dev.mma == Mma::Tile,
        ),
        ("dl", i.dl.is_some(), b.dev.mma == Mma::Dl),
    ];
    if let Some(&(part, has, _)) = parts.iter().find(|(_, has, wants)| has != wants) {
        let (code, what) = if has {
            (c::NOT_APPLICABLE, "has")
        } else {
            (c::MISSING_KEY, "lacks")
        };
        r.error(
            code,
            None,
            format!(
                "the instance {what} {part} parameters, which `{}` `{}` {}",
                b.op,
                b.kind,
                if has { "does not take" } else { "needs" }
            ),
            format!("{part} parameters"),
            format!("build `{}` instances as validation derives them", b.kind),
        );
        return false;
    }
    let mut sizes: Vec<(&str, u32)> = vec![
        ("block", i.block),
        ("tile", i.tile.m),
        ("tile", i.tile.n),
        ("tile", i.tile.k),
        ("instr", i.mma[0]),
        ("instr", i.mma[1]),
        ("pipeline.prefetch", i.pipeline.prefetch),
        ("merge_groups", i.work.merge_groups),
        ("transpose", i.transpose[0]),
        ("transpose", i.transpose[1]),
    ];
    sizes.extend(i.waves.map(|w| ("waves", w)));
    let mut orders: Vec<(&str, u32)> = vec![("instr", i.mma[2])];
    // CK-Tile kinds keep their vectors in the tile kernel; the K1, and the repeats, transfers
    // and C-shuffle of the XDL and WMMA kinds, are theirs alone.
    if b.dev.mma != Mma::Tile {
        sizes.extend([("k1", i.k1[0]), ("k1", i.k1[1])]);
    }
    if matches!(b.dev.mma, Mma::Xdl | Mma::Wmma) {
        sizes.extend([
            ("repeat", i.repeat[0]),
            ("repeat", i.repeat[1]),
            ("c.shuffle", i.c.m_per_shuffle),
            ("c.shuffle", i.c.n_per_shuffle),
            ("c.vector", i.c.vector),
        ]);
        sizes.extend(i.c.cluster.iter().map(|&x| ("c.cluster", x)));
        for (key, t) in [("a", &i.a), ("b", &i.b)] {
            sizes.extend([(key, t.src_vector), (key, t.dst_vector)]);
            sizes.extend(t.cluster.iter().map(|&x| (key, x)));
            orders.extend(t.arrange.iter().chain(&t.access).map(|&x| (key, x)));
        }
    }
    if let Some(w) = i.wavelet {
        sizes.extend([("wavelet", w.load), ("wavelet", w.math)]);
    }
    if let Some(t) = i.tile_kernel {
        sizes.extend(t.vector.map(|v| ("vector", v)));
        sizes.push(("wave_groups", t.wave_groups));
    }
    if let Some(d) = &i.dl {
        sizes.extend([
            ("dl.m1_per_thread", d.m1_per_thread),
            ("dl.n1_per_thread", d.n1_per_thread),
            ("dl.k_per_thread", d.k_per_thread),
            ("dl.c_vector", d.c_vector),
        ]);
        sizes.extend(d.cluster_m1.iter().chain(&d.cluster_n1).map(|&x| ("dl", x)));
        orders.extend(d.c_access_order.iter().map(|&x| ("dl", x)));
        for t in [&d.a, &d.b] {
            let lists = [&t.slice, &t.cluster, &t.src_vector, &t.dst_vector];
            sizes.extend(lists.into_iter().flatten().map(|&x| ("dl", x)));
            let lists = [&t.arrange, &t.access, &t.src_order];
            orders.extend(lists.into_iter().flatten().map(|&x| ("dl", x)));
        }
    }
    let split_k = match i.work.split_k {
        SplitK::Fixed(k) => !(1..=MAX_SPLIT_K).contains(&u64::from(k)),
        SplitK::Auto => false,
    };
    let bad = (sizes.into_iter().map(|(k, x)| (k, x, 1)))
        .chain(orders.into_iter().map(|(k, x)| (k, x, 0)))
        .find(|&(_, x, min)| x < min || u64::from(x) > MAX_INT);
    if let Some((key, x, min)) = bad {
        r.error(
            c::RANGE,
            None,
            format!("`{key}` holds {x}, out of range {min}..={MAX_INT}"),
            "out of range",
            format!("use values from {min} to {MAX_INT} in `{key}`"),
        );
        return false;
    }
    if split_k {
        r.error(
            c::RANGE,
            None,
            "split_k is out of range",
            "out of range",
            format!("use a k_batch from 1 to {MAX_SPLIT_K}, or `auto`"),
        );
        return false;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeat_is_square_when_possible() {
        assert_eq!(derive_repeat([128, 128], [32, 32], 4), Some([2, 2]));
        assert_eq!(derive_repeat([32, 128], [32, 32], 1), Some([1, 4]));
        assert_eq!(derive_repeat([16, 16], [32, 32], 1), None);
    }

    #[test]
    fn cluster_covers_tile() {
        assert_eq!(derive_cluster([4, 32, 8], 64, true), Some([4, 16, 1]));
        assert_eq!(derive_cluster([1, 2, 1], 64, false), Some([1, 2, 1]));
        assert_eq!(derive_cluster([1, 2, 1], 64, true), None);
    }

    #[test]
    fn c_shuffle_prefers_wide_vectors() {
        assert_eq!(derive_c(32, 32, 64, 8, None), Some(([1, 16, 1, 4], 8)));
        assert_eq!(derive_c(32, 32, 64, 8, Some(2)), Some(([1, 4, 1, 16], 2)));
    }

    #[test]
    fn pow2() {
        assert_eq!(pow2_divisor(12, 8), 4);
        assert_eq!(pow2_divisor(7, 8), 1);
        assert_eq!(pow2_divisor(32, 8), 8);
    }
}
