//! GPU correctness check of the portable kernels on the CUDA back end: every reference
//! instance on several problems (padding, stride, dilation, groups incl. depthwise, 1/2/3-D),
//! fresh random data, compared with an fp64 reference convolution.
//!
//! `gpu_check [--quick] [--filter SUBSTR]`; `--quick` runs one problem per instance (for the
//! sanitizers). Exit status 1 on any mismatch or error.

use ck_compiler::emit::hip::{DeviceInfo, emit_hip, samples};
use ck_compiler::ir::Instance;
use ck_compiler::model::{ConvSpec, DataType, ElementOp, Layout, Op};
use ck_runtime::cuda::{CudaBackend, DeviceTensors, LoadedKernel, conv_dims};
use ck_runtime::problem::{ConvProblem, ProblemLayout, ProblemTypes};
use std::process::ExitCode;

/// xorshift64*: fresh data every run, reproducible from the printed seed.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f32 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let v = self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 40;
        (v as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
    }
}

/// Encodes values in `dt`, returning the bytes and the values as actually stored.
fn encode(vals: &[f32], dt: DataType) -> (Vec<u8>, Vec<f64>) {
    let mut bytes = Vec::new();
    let mut stored = Vec::new();
    for &v in vals {
        match dt {
            DataType::Fp16 => {
                let h = half::f16::from_f32(v);
                bytes.extend_from_slice(&h.to_bits().to_le_bytes());
                stored.push(f64::from(h.to_f32()));
            }
            DataType::Bf16 => {
                let h = half::bf16::from_f32(v);
                bytes.extend_from_slice(&h.to_bits().to_le_bytes());
                stored.push(f64::from(h.to_f32()));
            }
            _ => {
                bytes.extend_from_slice(&v.to_le_bytes());
                stored.push(f64::from(v));
            }
        }
    }
    (bytes, stored)
}

fn decode(bytes: &[u8], dt: DataType) -> Vec<f64> {
    match dt {
        DataType::Fp16 => bytes
            .chunks_exact(2)
            .map(|c| f64::from(half::f16::from_le_bytes([c[0], c[1]]).to_f32()))
            .collect(),
        DataType::Bf16 => bytes
            .chunks_exact(2)
            .map(|c| f64::from(half::bf16::from_le_bytes([c[0], c[1]]).to_f32()))
            .collect(),
        _ => bytes
            .chunks_exact(4)
            .map(|c| f64::from(f32::from_le_bytes([c[0], c[1], c[2], c[3]])))
            .collect(),
    }
}

/// Logical tensor shapes, always 3-D spatial: x[N][G][C][D][H][W], w[G][K][C][Z][Y][X],
/// y[N][G][K][Do][Ho][Wo]; `pos` maps a logical index to the layout's storage position.
struct Shape {
    g: usize,
    n: usize,
    k: usize,
    c: usize,
    i: [usize; 3],
    f: [usize; 3],
    o: [usize; 3],
    s: [usize; 3],
    d: [usize; 3],
    p: [usize; 3],
    g_first: bool,
}

impl Shape {
    fn new(p: &ConvProblem) -> Self {
        let nd = p.ndim as usize;
        let to3 = |v: &[u64]| {
            let mut o = [1usize; 3];
            for (i, x) in v.iter().enumerate() {
                o[3 - nd + i] = *x as usize;
            }
            o
        };
        let mut pad = to3(&p.left_pad);
        pad[..3 - nd].fill(0);
        Shape {
            g: p.g as usize,
            n: p.n as usize,
            k: p.k as usize,
            c: p.c as usize,
            i: to3(&p.input),
            f: to3(&p.filter),
            o: to3(&p.output()),
            s: to3(&p.stride),
            d: to3(&p.dilation),
            p: pad,
            g_first: matches!(
                p.layout.input,
                Layout::Gnwc | Layout::Gnhwc | Layout::Gndhwc
            ),
        }
    }
    /// Channels-last activation position: (N, spatial, G, C) or (G, N, spatial, C).
    fn act(
        &self,
        n: usize,
        g: usize,
        c: usize,
        sp: [usize; 3],
        dims: [usize; 3],
        cs: usize,
    ) -> usize {
        let spi = (sp[0] * dims[1] + sp[1]) * dims[2] + sp[2];
        let px = dims[0] * dims[1] * dims[2];
        if self.g_first {
            ((g * self.n + n) * px + spi) * cs + c
        } else {
            ((n * px + spi) * self.g + g) * cs + c
        }
    }
    fn x(&self, n: usize, g: usize, c: usize, sp: [usize; 3]) -> usize {
        self.act(n, g, c, sp, self.i, self.c)
    }
    fn y(&self, n: usize, g: usize, k: usize, sp: [usize; 3]) -> usize {
        self.act(n, g, k, sp, self.o, self.k)
    }
    fn w(&self, g: usize, k: usize, c: usize, t: [usize; 3]) -> usize {
        (((g * self.k + k) * self.f[0] + t[0]) * self.f[1] + t[1]) * self.f[2] * self.c
            + t[2] * self.c
            + c
    }
}

/// fp64 reference: the op's result tensor from the other two.
fn reference(op: Op, sh: &Shape, x: &[f64], w: &[f64], y: &[f64]) -> Vec<f64> {
    let mut out = vec![
        0.0;
        match op {
            Op::Fwd => y.len(),
            Op::BwdData => x.len(),
            Op::BwdWeight => w.len(),
        }
    ];
    for g in 0..sh.g {
        for n in 0..sh.n {
            for od in 0..sh.o[0] {
                for oh in 0..sh.o[1] {
                    for ow in 0..sh.o[2] {
                        let o = [od, oh, ow];
                        for t0 in 0..sh.f[0] {
                            for t1 in 0..sh.f[1] {
                                for t2 in 0..sh.f[2] {
                                    let t = [t0, t1, t2];
                                    let mut ip = [0usize; 3];
                                    let mut inside = true;
                                    for a in 0..3 {
                                        let v = (o[a] * sh.s[a] + t[a] * sh.d[a]) as i64
                                            - sh.p[a] as i64;
                                        inside &= v >= 0 && v < sh.i[a] as i64;
                                        ip[a] = v.max(0) as usize;
                                    }
                                    if !inside {
                                        continue;
                                    }
                                    for k in 0..sh.k {
                                        for c in 0..sh.c {
                                            let (xi, wi, yi) = (
                                                sh.x(n, g, c, ip),
                                                sh.w(g, k, c, t),
                                                sh.y(n, g, k, o),
                                            );
                                            match op {
                                                Op::Fwd => out[yi] += x[xi] * w[wi],
                                                Op::BwdData => out[xi] += y[yi] * w[wi],
                                                Op::BwdWeight => out[wi] += y[yi] * x[xi],
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

#[allow(clippy::too_many_arguments)]
fn problem(
    inst: &Instance,
    g: u64,
    n: u64,
    k: u64,
    c: u64,
    input: &[u64],
    filter: &[u64],
    stride: &[u64],
    dil: &[u64],
    lp: &[u64],
    rp: &[u64],
) -> ConvProblem {
    ConvProblem {
        op: inst.op,
        ndim: inst.ndim,
        g,
        n,
        k,
        c,
        filter: filter.to_vec(),
        input: input.to_vec(),
        stride: stride.to_vec(),
        dilation: dil.to_vec(),
        left_pad: lp.to_vec(),
        right_pad: rp.to_vec(),
        layout: ProblemLayout {
            input: inst.layout.input,
            weight: inst.layout.weight,
            output: inst.layout.output,
        },
        dtype: ProblemTypes {
            input: inst.types.input,
            weight: inst.types.weight,
            output: inst.types.output,
        },
    }
}

/// Problems for one instance: its dimensionality, and 1x1/stride-1/pad-0 only where the ConvSpec
/// requires it.
fn problems(inst: &Instance, quick: bool) -> Vec<ConvProblem> {
    let p = |g, n, k, c, i: &[u64], f: &[u64], s: &[u64], d: &[u64], lp: &[u64], rp: &[u64]| {
        problem(inst, g, n, k, c, i, f, s, d, lp, rp)
    };
    let groups = if inst.work.merge_groups > 1 { 8 } else { 2 };
    let mut v = match (inst.spec, inst.ndim) {
        (ConvSpec::Filter1x1Stride1Pad0, 1) => {
            vec![p(groups, 3, 40, 24, &[19], &[1], &[1], &[1], &[0], &[0])]
        }
        (ConvSpec::Filter1x1Stride1Pad0, 3) => vec![p(
            groups,
            2,
            24,
            16,
            &[3, 5, 6],
            &[1, 1, 1],
            &[1, 1, 1],
            &[1, 1, 1],
            &[0; 3],
            &[0; 3],
        )],
        (ConvSpec::Filter1x1Stride1Pad0, _) => vec![
            p(
                groups,
                2,
                48,
                32,
                &[8, 9],
                &[1, 1],
                &[1, 1],
                &[1, 1],
                &[0, 0],
                &[0, 0],
            ),
            p(
                3,
                5,
                20,
                12,
                &[7, 5],
                &[1, 1],
                &[1, 1],
                &[1, 1],
                &[0, 0],
                &[0, 0],
            ),
        ],
        (_, 1) => vec![
            p(groups, 3, 20, 12, &[17], &[3], &[2], &[2], &[2], &[1]),
            p(groups, 2, 36, 40, &[40], &[5], &[1], &[1], &[2], &[2]),
        ],
        (_, 3) => vec![
            p(
                groups,
                2,
                16,
                8,
                &[5, 6, 7],
                &[3, 3, 3],
                &[1, 1, 1],
                &[1, 1, 1],
                &[1, 1, 1],
                &[1, 1, 1],
            ),
            p(
                groups,
                1,
                12,
                8,
                &[6, 7, 9],
                &[2, 3, 3],
                &[2, 2, 1],
                &[1, 1, 2],
                &[0, 1, 2],
                &[1, 0, 1],
            ),
        ],
        _ => vec![
            p(
                groups,
                2,
                24,
                16,
                &[9, 11],
                &[3, 3],
                &[1, 1],
                &[1, 1],
                &[1, 1],
                &[1, 1],
            ),
            p(
                groups.max(3),
                3,
                12,
                8,
                &[10, 7],
                &[3, 2],
                &[2, 1],
                &[1, 2],
                &[1, 0],
                &[2, 1],
            ),
            // Depthwise: one channel per group.
            p(
                8,
                2,
                1,
                1,
                &[12, 12],
                &[3, 3],
                &[1, 1],
                &[1, 1],
                &[1, 1],
                &[1, 1],
            ),
            // Several tiles in every GEMM dimension and a long K loop.
            p(
                groups,
                4,
                136,
                72,
                &[14, 14],
                &[3, 3],
                &[1, 1],
                &[1, 1],
                &[1, 1],
                &[1, 1],
            ),
            // Odd channel counts: vector loads must fall back.
            p(
                groups,
                3,
                13,
                7,
                &[9, 8],
                &[3, 3],
                &[2, 2],
                &[1, 1],
                &[1, 1],
                &[1, 1],
            ),
        ],
    };
    if quick {
        v.truncate(1);
    }
    v
}

fn tolerance(dt: DataType) -> f64 {
    match dt {
        DataType::Fp16 => 3e-3,
        DataType::Bf16 => 2e-2,
        _ => 1e-5,
    }
}

struct Outcome {
    err: f64,
    unwritten: usize,
}

fn run_one(
    be: &CudaBackend,
    k: &LoadedKernel,
    p: &ConvProblem,
    dev: DeviceInfo,
    rng: &mut Rng,
) -> Result<Outcome, String> {
    let plan = k
        .kernel
        .plan(&conv_dims(p).map_err(|e| e.to_string())?, &dev)
        .map_err(|e| e.to_string())?;
    let sh = Shape::new(p);
    let inst_types = [p.dtype.input, p.dtype.weight, p.dtype.output];
    let elems: Vec<usize> = (0..3)
        .map(|i| (plan.tensor_bytes[i] / elem_bytes(inst_types[i])) as usize)
        .collect();
    let out_idx = match p.op {
        Op::Fwd => 2,
        Op::BwdData => 0,
        Op::BwdWeight => 1,
    };
    let mut host = Vec::new();
    let mut dev_bufs = Vec::new();
    for i in 0..3 {
        let vals: Vec<f32> = (0..elems[i]).map(|_| rng.next()).collect();
        let (mut bytes, stored) = encode(&vals, inst_types[i]);
        if i == out_idx {
            // Poison: NaN in every format, so unwritten outputs are caught.
            bytes.iter_mut().for_each(|b| *b = 0xff);
        }
        host.push(stored);
        dev_bufs.push(be.upload(&bytes).map_err(|e| e.to_string())?);
    }
    let output = dev_bufs.pop().ok_or("missing buffer")?;
    let weight = dev_bufs.pop().ok_or("missing buffer")?;
    let input = dev_bufs.pop().ok_or("missing buffer")?;
    let mut t = DeviceTensors {
        input,
        weight,
        output,
        d: None,
    };
    // Poisoned too: the plan's zero-fills must cover whatever the kernel reads.
    let mut ws = match plan.workspace_bytes {
        0 => None,
        n => Some(
            be.upload(&vec![0xffu8; n as usize])
                .map_err(|e| e.to_string())?,
        ),
    };
    let alpha = if k.kernel.config.out_op == ElementOp::Scale {
        0.5
    } else {
        1.0
    };
    be.launch(k, &plan, &mut t, ws.as_mut(), alpha, 0.0)
        .map_err(|e| e.to_string())?;
    be.synchronize().map_err(|e| e.to_string())?;
    let out_buf = match out_idx {
        0 => &t.input,
        1 => &t.weight,
        _ => &t.output,
    };
    let got = decode(
        &be.download(out_buf).map_err(|e| e.to_string())?,
        inst_types[out_idx],
    );
    let mut want = reference(p.op, &sh, &host[0], &host[1], &host[2]);
    want.iter_mut().for_each(|v| *v *= alpha);
    let unwritten = got.iter().filter(|v| !v.is_finite()).count();
    let (num, den) = got.iter().zip(&want).fold((0.0, 0.0), |(n, d), (g, w)| {
        (n + (g - w) * (g - w), d + w * w)
    });
    Ok(Outcome {
        err: (num / den.max(1e-30)).sqrt(),
        unwritten,
    })
}

fn elem_bytes(dt: DataType) -> u64 {
    u64::from(dt.bytes())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--quick");
    let filter = args
        .iter()
        .position(|a| a == "--filter")
        .and_then(|i| args.get(i + 1))
        .cloned();
    let be = match CudaBackend::new(0) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let insts: Vec<Instance> = samples::instances()
        .into_iter()
        .filter(|i| filter.as_ref().is_none_or(|f| i.name.contains(f.as_str())))
        .collect();
    let kernels: Vec<_> = match insts.iter().map(emit_hip).collect::<Result<Vec<_>, _>>() {
        Ok(k) => k,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let t0 = std::time::Instant::now();
    let built = be.build(kernels);
    println!(
        "built {} kernels for {} in {:.1} s",
        built.len(),
        be.arch(),
        t0.elapsed().as_secs_f64()
    );
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64)
        | 1;
    println!("seed {seed}");
    let mut rng = Rng(seed);
    let real = be.device_info();
    // StreamK instances also run with a small SM count so that the grid mixes DP and SK tiles.
    let small = DeviceInfo {
        compute_units: 7,
        ..real
    };
    let (mut pass, mut fail) = (0, 0);
    for (inst, k) in insts.iter().zip(built) {
        let k = match k {
            Ok(k) => k,
            Err(e) => {
                println!("FAIL {:<40} build: {e}", inst.name);
                fail += 1;
                continue;
            }
        };
        let mut devs = vec![("", real)];
        if inst.work.streamk.is_some() && !quick {
            devs.push((" cu=7", small));
        }
        for p in problems(inst, quick) {
            for (tag, dev) in &devs {
                let desc = format!(
                    "g{} n{} k{} c{} in{:?} f{:?} s{:?}{tag}",
                    p.g, p.n, p.k, p.c, p.input, p.filter, p.stride
                );
                match run_one(&be, &k, &p, *dev, &mut rng) {
                    Ok(o)
                        if o.unwritten == 0
                            && o.err <= tolerance(inst.types.output)
                            && o.err.is_finite() =>
                    {
                        pass += 1;
                        println!("ok   {:<40} {desc} rel_err {:.2e}", inst.name, o.err);
                    }
                    Ok(o) => {
                        fail += 1;
                        println!(
                            "FAIL {:<40} {desc} rel_err {:.2e} unwritten {}",
                            inst.name, o.err, o.unwritten
                        );
                    }
                    Err(e) => {
                        fail += 1;
                        println!("FAIL {:<40} {desc} error: {e}", inst.name);
                    }
                }
            }
        }
    }
    println!("{pass} passed, {fail} failed ({} instances)", insts.len());
    if fail == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
