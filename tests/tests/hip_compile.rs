//! `scripts/compile-check.sh` on a small input: the portable kernels of two fixtures compile for
//! every AMD target with clang-19 HIP, and a broken kernel fails the check. CI runs the script
//! over the whole library, NVRTC included. And the kernels' `repack` entry compiled for the
//! host: clang++-19 builds the entry's own source (its constants and argument struct taken from
//! a generated kernel text) behind a shim that runs its grid one workgroup and thread at a
//! time; packing and unpacking must put every element where `RowMap` says, for the maps that
//! padded problems stage (channels, folded strides with zero taps and pixels, zero filters,
//! whole and partial 8-element chunks, 16- and 32-bit elements). Without clang-19
//! (`scripts/setup.sh` installs it) the tests report themselves skipped, unless
//! `CK_REQUIRE_TOOLCHAINS=1` makes that a failure.

use ck_compiler::emit::hip::kernel_text;
use ck_compiler::kernel::{KernelConfig, RowMap};
use ck_compiler::load::Session;
use ck_runtime::ConvProblem;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Whether clang-19 is there; panics when it is not but CI requires it.
fn have_clang() -> bool {
    let ok = Command::new("clang++-19")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        let required = std::env::var("CK_REQUIRE_TOOLCHAINS").is_ok_and(|v| v == "1");
        assert!(
            !required,
            "CK_REQUIRE_TOOLCHAINS=1 but clang++-19 is missing"
        );
        eprintln!("skipped: clang++-19 is missing (scripts/setup.sh installs it)");
    }
    ok
}

/// The distinct kernel texts of the fixtures, each as `(symbol base, text)`.
fn kernels(fixtures: &[&str]) -> Vec<(String, String)> {
    let mut session = Session::new();
    for f in fixtures {
        session.add_path(&root().join("tests/fixtures/pass").join(f));
    }
    let set = ck_compiler::compile(&session).expect("the fixtures compile");
    let mut out: Vec<(String, String)> = set
        .instances()
        .iter()
        .map(|inst| {
            let k = kernel_text(&KernelConfig::new(inst).expect("a portable kernel"));
            (k.symbol_base, k.text)
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Runs the AMD half of the compile check on `sources`; returns success and the log.
fn compile_check(tag: &str, sources: &[(String, String)]) -> (bool, String) {
    let work = std::env::temp_dir().join(format!("ck-hip-{tag}-{}", std::process::id()));
    let src = work.join("src");
    std::fs::create_dir_all(&src).expect("temp dir");
    for (symbol, text) in sources {
        std::fs::write(src.join(format!("{symbol}.hip")), text).expect("write kernel");
    }
    let out = Command::new("bash")
        .arg(root().join("scripts/compile-check.sh"))
        .env("CK_WORK", &work)
        .env("CK_SRC", &src)
        .env("CK_SKIP_NVRTC", "1")
        .output()
        .expect("bash runs");
    let _ = std::fs::remove_dir_all(&work);
    let log =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), log)
}

#[test]
fn fixture_kernels_compile_for_every_amd_target() {
    if !have_clang() {
        return;
    }
    let sources = kernels(&["fwd_tile.ck", "bwd_weight_tile_streamk.ck"]);
    assert!(sources.len() >= 2, "{} kernels", sources.len());
    let (ok, log) = compile_check("ok", &sources);
    assert!(ok, "{log}");
    assert!(
        log.contains(&format!("AMD: {} kernels x 4 targets OK", sources.len())),
        "{log}"
    );
}

#[test]
fn a_broken_kernel_fails_the_check() {
    if !have_clang() {
        return;
    }
    let mut sources = kernels(&["fwd_tile.ck"]);
    sources[0]
        .1
        .push_str("\nCK_DEV int ck_broken() { return undeclared_name; }\n");
    let (ok, log) = compile_check("broken", &sources);
    assert!(!ok, "{log}");
    assert!(log.contains("AMD compile FAILED"), "{log}");
}

/// Runs the entry of a host-compiled kernel over a 1-D grid, sequentially. Reads from standard
/// input `rows src blocks inp out shift bytes unpack grid threads`, then the source elements
/// (packing: the tensor's, unpacking: the copy's); prints the destination's.
const SHIM: &str = r#"
#include <cstdio>
#include <cstring>
#include <vector>
typedef long long ck_i64;
struct uint4 { unsigned x, y, z, w; };
struct Dim3 { unsigned x, y, z; };
static Dim3 blockIdx, threadIdx, gridDim, blockDim;
#define CK_DEV static inline
#define CK_GRID_CONST
#define CK_ENTRY_THREADS(e, n, b) static void ck_host_##e
"#;

const MAIN: &str = r#"
int main() {
    long long f[10];
    for (int i = 0; i < 10; ++i) if (scanf("%lld", &f[i]) != 1) return 2;
    CkArgs a;
    memset(&a, 0, sizeof a);
    a.rp_rows = f[0]; a.rp_src = f[1]; a.rp_blocks = f[2]; a.rp_in = f[3]; a.rp_out = f[4];
    a.rp_shift = f[5]; a.rp_bytes = f[6]; a.rp_unpack = f[7];
    const long long tensor = f[0] * f[1], copy = f[0] * f[2] * f[4];
    const long long from = f[7] ? copy : tensor, to = f[7] ? tensor : copy;
    std::vector<unsigned> src32(from), dst32(to, 0xdeadu);
    std::vector<unsigned short> src16(from), dst16(to, 0xdeadu);
    for (long long i = 0; i < from; ++i) {
        unsigned v;
        if (scanf("%u", &v) != 1) return 2;
        src32[i] = v;
        src16[i] = (unsigned short)v;
    }
    const bool wide = f[6] == 4;
    void* s = wide ? (void*)src32.data() : (void*)src16.data();
    void* d = wide ? (void*)dst32.data() : (void*)dst16.data();
    a.x = f[7] ? d : s;
    a.y = f[7] ? s : d;
    gridDim = {(unsigned)f[8], 1, 1};
    blockDim = {(unsigned)f[9], 1, 1};
    for (unsigned b = 0; b < gridDim.x; ++b)
        for (unsigned t = 0; t < blockDim.x; ++t) {
            blockIdx = {b, 0, 0};
            threadIdx = {t, 0, 0};
            ck_host_repack(a);
        }
    for (long long i = 0; i < to; ++i) printf("%u\n", wide ? dst32[i] : (unsigned)dst16[i]);
    return 0;
}
"#;

/// The lines of `text` from the one starting with `from` through the one starting with `to`.
fn lines_between<'a>(text: &'a str, from: &str, to: &str) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        inside |= line.starts_with(from);
        if inside {
            out.push(line);
            if line.starts_with(to) {
                break;
            }
        }
    }
    out
}

/// Builds the host program from a generated kernel's constants and argument struct and the
/// entry's source; returns its path.
fn build(dir: &Path) -> PathBuf {
    let mut session = Session::new();
    session.add_path(&root().join("tests/fixtures/pass/fwd_tile.ck"));
    let set = ck_compiler::compile(&session).expect("the fixture compiles");
    let text =
        kernel_text(&KernelConfig::new(&set.instances()[0]).expect("a portable kernel")).text;
    let constants: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("constexpr int REPACK_"))
        .collect();
    assert_eq!(
        constants.len(),
        2,
        "REPACK_BLOCK and REPACK_CHUNK in the kernel text"
    );
    let args = lines_between(&text, "struct CkArgs {", "};").join("\n");
    let repack = std::fs::read_to_string(root().join("compiler/src/emit/hip/repack.hip"))
        .expect("the repack entry's source");
    let program = format!("{SHIM}\n{}\n{args}\n{repack}\n{MAIN}", constants.join("\n"));
    let cpp = dir.join("repack_host.cpp");
    std::fs::write(&cpp, program).expect("write the program");
    let exe = dir.join("repack_host");
    let out = Command::new("clang++-19")
        .args(["-std=c++17", "-O1", "-fno-strict-aliasing", "-o"])
        .arg(&exe)
        .arg(&cpp)
        .output()
        .expect("clang++-19 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    exe
}

/// Runs the entry on `map` over a grid of `grid` workgroups of `threads`, from `values`.
fn run(exe: &Path, map: RowMap, bytes: u64, unpack: bool, values: &[u32]) -> Vec<u32> {
    let (grid, threads) = (3, 64);
    let mut input = format!(
        "{} {} {} {} {} {} {bytes} {} {grid} {threads}\n",
        map.rows,
        map.src,
        map.blocks,
        map.inp,
        map.out,
        map.shift,
        u8::from(unpack)
    );
    for v in values {
        input.push_str(&format!("{v}\n"));
    }
    let mut child = Command::new(exe)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the host program runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write the input");
    let out = child.wait_with_output().expect("it ends");
    assert!(out.status.success(), "{map:?}");
    String::from_utf8(out.stdout)
        .expect("UTF-8")
        .lines()
        .map(|l| l.parse().expect("a number"))
        .collect()
}

/// The staged maps of padded problems (and a few written out), each with the element size.
fn maps() -> Vec<(RowMap, u64)> {
    let mut out = vec![
        // Blocks of 12: a whole chunk and a partial one, zero taps in front.
        (
            RowMap {
                rows: 3,
                src: 20,
                blocks: 4,
                inp: 7,
                out: 12,
                shift: 2,
            },
            2,
        ),
        (
            RowMap {
                rows: 2,
                src: 9,
                blocks: 3,
                inp: 3,
                out: 4,
                shift: 0,
            },
            4,
        ),
    ];
    for (text, vc, vk) in [
        ("fwd 2d N=2 K=8 C=3 filter=7 input=10 stride=2 pad=3", 8, 8),
        (
            "fwd 2d N=1 K=8 C=3 filter=3 input=9 stride=2 pad=1 dtype=fp32",
            4,
            4,
        ),
        ("bwd_data 2d G=2 N=1 K=8 C=5 filter=3 input=6 pad=1", 8, 8),
        (
            "bwd_weight 1d N=2 K=8 C=1 filter=10 input=40 stride=5",
            8,
            8,
        ),
        (
            "fwd 2d G=2 N=1 K=3 C=8 filter=3 input=5 pad=1 layout=gnhwc",
            8,
            8,
        ),
        (
            "bwd_weight 2d N=1 K=5 C=4 filter=3 input=6 pad=1 dtype=fp32",
            4,
            4,
        ),
    ] {
        let p = ConvProblem::parse(text).expect("a problem");
        let pd = p.padded(vc, vk).expect("a padded problem");
        let bytes = p.dtype.input.bytes() as u64;
        out.extend(pd.maps.iter().flatten().map(|&m| (m, bytes)));
    }
    out
}

#[test]
fn the_repack_entry_puts_every_element_where_the_map_says() {
    if !have_clang() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("ck-repack-host-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let exe = build(&dir);
    let maps = maps();
    assert!(maps.len() >= 10, "{} maps", maps.len());
    for (map, bytes) in maps {
        assert!(map.covers(), "{map:?}");
        // Packing: element i of the tensor holds i + 1, so a zero is padding.
        let tensor: Vec<u32> = (1..=map.source_len() as u32).collect();
        let copy = run(&exe, map, bytes, false, &tensor);
        let want: Vec<u32> = (0..map.staged_len())
            .map(|i| map.source_of(i).map_or(0, |s| s as u32 + 1))
            .collect();
        assert_eq!(copy, want, "packing {map:?} ({bytes}-byte elements)");
        // Unpacking a copy whose element i holds i + 1: each tensor element from its place.
        let staged: Vec<u32> = (1..=map.staged_len() as u32).collect();
        let back = run(&exe, map, bytes, true, &staged);
        let want: Vec<u32> = (0..map.source_len())
            .map(|i| map.staged_of(i) as u32 + 1)
            .collect();
        assert_eq!(back, want, "unpacking {map:?} ({bytes}-byte elements)");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
