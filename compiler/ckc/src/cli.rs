//! Command-line arguments.

use ck_compiler::emit::CkRelease;
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Parser)]
#[command(
    name = "ckc",
    version,
    about = "Compile .ck convolution instance descriptions"
)]
pub struct Cli {
    /// When to colour diagnostics.
    #[arg(long, value_enum, default_value_t = Color::Auto, global = true)]
    pub color: Color,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Check .ck files: exit 0 when every instance is valid, 1 on errors.
    Check {
        #[command(flatten)]
        input: Input,
        /// Diagnostics as text (stderr) or JSON (stdout).
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// One line per expanded instance: name, op, kind, targets. With `--problem`: every
    /// instance's verdict for the problem, best first. The library when no paths are given.
    List {
        /// `.ck` files or folders (`-` for standard input); none: the library.
        paths: Vec<PathBuf>,
        /// A problem string, e.g. "bwd_weight 2d N=4 K=64 C=64 filter=3 input=14 pad=1".
        #[arg(long)]
        problem: Option<String>,
        /// With --problem: rank as the CUDA back end on this card would (no GPU needed).
        #[arg(long, value_enum, requires = "problem", conflicts_with = "target")]
        device: Option<Card>,
        /// With --problem: rank as a device of this architecture would (e.g. gfx942, sm_90),
        /// its support rules applied (no such device needed).
        #[arg(long, requires = "problem")]
        target: Option<String>,
    },
    /// Selects an instance for a problem (or takes the named one), runs it on fresh random data
    /// and prints the instance, its instance string and the time; exit 1 when no instance
    /// supports the problem or verification fails.
    Run(RunArgs),
    /// Times every supporting instance on each shape of a shapes file on an NVIDIA GPU (cargo
    /// feature `cuda`), verified against the fp64 reference, with the best per shape and its
    /// ratio to cuDNN; exit 1 when a run fails to verify or a shape has no verified instance.
    Bench(BenchArgs),
    /// Times candidates for problems on the CUDA device (cargo feature `cuda`) and stores the
    /// fastest verified one of each in the tuning database, which `ckc run --backend cuda`
    /// consults before the cost model. Problems the database holds are not timed again.
    Tune(TuneArgs),
    /// The training table of a run-time model: for each verified record of `ckc bench
    /// --records`, its problem, instance, card, µs and features (CSV; the last record of an
    /// instance on a problem on one card replaces earlier ones; instances not in the library, or
    /// that no longer support the problem, are left out and counted).
    Features(FeaturesArgs),
    /// Prints the table of runs `ckc bench --json` saved (and writes their chart or one JSON
    /// file where asked): later runs replace earlier runs' shapes of the same name, each ratio
    /// that of its own run; one op, data type and card throughout. Exit 1 when a run failed.
    BenchReport(BenchReportArgs),
    /// Every parameter of an instance after defaults and derivation, LDS use and occupancy.
    Explain {
        #[command(flatten)]
        input: Input,
        /// Only this instance (default: all).
        #[arg(long)]
        instance: Option<String>,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Generate output from .ck files for one back end.
    Emit {
        #[command(subcommand)]
        target: EmitTarget,
    },
    /// Turn CK's own descriptions of instances into .ck source.
    Import {
        #[command(subcommand)]
        source: ImportSource,
    },
}

/// The back ends of `ckc emit`.
#[derive(Subcommand)]
pub enum EmitTarget {
    /// CK instance strings, one line per instance in declaration order (`traits.txt` under --out).
    Traits {
        #[command(flatten)]
        args: EmitArgs,
        /// Print every instance in this format variant (a `ck_format` name) instead of its own.
        #[arg(long, value_name = "NAME")]
        ck_format: Option<String>,
    },
    /// CK C++ library sources: instance-list headers, one .cpp per instantiation, CMake lists.
    /// Instances the CK release lacks a device op or type for are left out, with a warning a
    /// reason on standard error.
    Ck {
        #[command(flatten)]
        input: Input,
        /// Folder to write the files under (created if missing).
        #[arg(long, value_name = "DIR", required = true)]
        out: PathBuf,
        /// The CK tree to emit for: `2024-10` (CK of October 2024) or `current`.
        #[arg(long, value_name = "RELEASE", default_value = "current", value_parser = ck_release)]
        ck_release: CkRelease,
    },
    /// Portable HIP kernels: one `<symbol>.hip` per distinct kernel (instances that derive the
    /// same constants share one) and `kernels.txt` (`instance<TAB>symbol`); instances without a
    /// portable kernel are named on standard error and left out.
    Hip {
        #[command(flatten)]
        input: Input,
        /// Folder to write the files under (created if missing).
        #[arg(long, value_name = "DIR", required = true)]
        out: PathBuf,
        /// Only the fewest kernels that together take every code path of them all (each
        /// constant value that selects code, math path, element type and entry point): what a
        /// compile check must build so that every path meets every compiler.
        #[arg(long)]
        cover: bool,
    },
    /// CK-Tile dispatcher kernel names: `instance<TAB>name`, `-` where an instance has none
    /// (`names.txt` under --out).
    Names {
        #[command(flatten)]
        args: EmitArgs,
    },
    /// The JSON manifest of every instance (`manifest.json` under --out).
    Manifest {
        #[command(flatten)]
        args: EmitArgs,
    },
    /// The top-level CMake project over the CK C++ sources (`CMakeLists.txt` under --out).
    Cmake {
        #[command(flatten)]
        args: EmitArgs,
        /// The CK tree the sources are emitted for (as `emit ck --ck-release`).
        #[arg(long, value_name = "RELEASE", default_value = "current", value_parser = ck_release)]
        ck_release: CkRelease,
    },
}

#[derive(Args)]
pub struct EmitArgs {
    #[command(flatten)]
    pub input: Input,
    /// Write the output into this folder (created if missing) instead of standard output.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// The inputs of `ckc import`.
#[derive(Subcommand)]
pub enum ImportSource {
    /// A CK instance string, or `-` for one per line on standard input (`#` comments and blank
    /// lines skipped), printed as .ck source.
    Trait {
        #[arg(value_name = "STRING")]
        string: String,
    },
    /// A `.cpp` of CK's instance library: every row of the instance lists it instantiates
    /// (`add_device_operation_instances`), printed as .ck source.
    Cpp {
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// A folder of the included instance-list headers (CK's `library/include`); the file's
        /// own folder is searched first. Includes found in none are not read.
        #[arg(short = 'I', long = "include", value_name = "DIR")]
        include: Vec<PathBuf>,
        /// Print each row's instance string instead of .ck source.
        #[arg(long, conflicts_with = "families")]
        strings: bool,
        /// One `family` a list (axes for its instantiations, a row a tuple row) instead of an
        /// `instance` a row, where the family compiles back to the same instances.
        #[arg(long)]
        families: bool,
        /// The CK release the file is from, where an op's instance-string format differs by
        /// release (`2024-10`: forward XDL V3 without `DirectLoad`).
        #[arg(long, value_name = "RELEASE", default_value = "current", value_parser = ck_release)]
        ck_release: CkRelease,
    },
}

/// Input files: `.ck` files, folders searched for `.ck` files, or `-` for standard input.
#[derive(Args)]
pub struct Input {
    /// `.ck` files, folders searched for `.ck` files, or `-` for standard input.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Let imports lead outside the current directory and the folders given (by default they
    /// must stay inside, so that an untrusted `.ck` reads nothing else).
    #[arg(long)]
    pub allow_outside_imports: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Color {
    Auto,
    Always,
    Never,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

#[derive(Args)]
pub struct RunArgs {
    /// The problem, e.g. "bwd_weight 2d G=1 N=4 K=64 C=64 filter=3x3 input=14x14 pad=1 dtype=fp16".
    #[arg(long)]
    pub problem: String,
    /// `.ck` files or folders to choose from (default: the instance library).
    #[arg(long, num_args = 1..)]
    pub instances: Vec<PathBuf>,
    /// Run this instance instead of selecting one.
    #[arg(long, conflicts_with = "tune")]
    pub instance: Option<String>,
    #[arg(long, value_enum, default_value_t = BackendKind::Cpu)]
    pub backend: BackendKind,
    /// Select by timing: every supported instance is verified and timed on the device (as
    /// `ckc bench` times it) and the fastest runs; the five fastest are printed. Needs
    /// `--backend cuda`.
    #[arg(long)]
    pub tune: bool,
    /// The tuning database the CUDA back end selects from first and `--tune` adds to
    /// (default: $CKDSL_TUNING_DB, else tuning.json under $XDG_CACHE_HOME/ckdsl or
    /// ~/.cache/ckdsl).
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
    /// With the CPU back end: select as the CUDA back end on this card would (its learned
    /// model), then run the choice on the CPU with that card's compute units.
    #[arg(long, value_enum, conflicts_with_all = ["target", "tune"])]
    pub device: Option<Card>,
    /// With the CPU back end: select as a device of this architecture would (e.g. gfx942,
    /// sm_90; its support rules and model), then run the choice on the CPU as that device
    /// would split it.
    #[arg(long, conflicts_with = "tune")]
    pub target: Option<String>,
    /// Compare the result with the fp64 reference.
    #[arg(long)]
    pub verify: bool,
    /// When no instance supports the problem, every instance's reason (by default a summary
    /// grouped by rule).
    #[arg(long)]
    pub verbose: bool,
    /// Seed of the random data (default: a fresh one per run).
    #[arg(long)]
    pub seed: Option<u64>,
}

/// Cards `ckc list --device` ranks for.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Card {
    H100,
    H200,
}

/// Where instances run.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BackendKind {
    /// The CPU back end: the instance's exact work decomposition, on the host.
    Cpu,
    /// The CUDA back end: the portable kernels on device 0 (cargo feature `cuda`).
    Cuda,
    /// The HIP back end: the portable kernels on AMD device 0 (cargo feature `hip`).
    Hip,
}

#[derive(Args)]
pub struct BenchArgs {
    /// The shapes file (`{"shapes": [{name, ndim, G, N, K, C, filter, input, stride, dilation,
    /// left_pad, right_pad}]}`, NHWGC/GKYXC/NHWGK).
    #[arg(long, value_name = "FILE")]
    pub shapes: PathBuf,
    /// The convolution (one to time; with --precompile a list, default all).
    #[arg(long, value_enum, value_delimiter = ',')]
    pub op: Vec<BenchOp>,
    /// The data type of all three tensors (one to time; with --precompile a list, default all).
    #[arg(long, value_enum, value_delimiter = ',')]
    pub dtype: Vec<BenchType>,
    /// `.ck` files or folders to time (default: the instance library).
    #[arg(long, num_args = 1..)]
    pub instances: Vec<PathBuf>,
    /// Only these shapes (comma-separated names).
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    pub only: Vec<String>,
    /// cuDNN times: the JSON `cudnn_baseline.py --out` writes.
    #[arg(long, value_name = "FILE")]
    pub cudnn: Option<PathBuf>,
    /// Write every shape's and instance's results as JSON.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write a bar chart of the per-shape ratios cuDNN time / ours.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Append one JSON line per instance timed (problem, instance, µs, verified, card, device,
    /// date, library fingerprint): measurements as data, for `ckc features`.
    #[arg(long, value_name = "FILE")]
    pub records: Option<PathBuf>,
    /// Back-to-back launches per timed trial.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..))]
    pub reps: u32,
    /// Timed trials per instance (the median is reported).
    #[arg(long, default_value_t = 15, value_parser = clap::value_parser!(u32).range(1..))]
    pub trials: u32,
    /// Untimed launches before the trials.
    #[arg(long, default_value_t = 5)]
    pub warmup: u32,
    /// Seed of the random data (default: a fresh one per run).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Time only the N instances selection ranks first on each shape (and its default choice):
    /// a sweep over many shapes at a fraction of the cost, whose best is a lower bound on the
    /// library's. With --precompile: compile only the N an sm_90 card ranks first.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub top: Option<u32>,
    /// Compute each shape's fp64 reference on the host's cores instead of the GPU (the same
    /// definition, far slower on large layers).
    #[arg(long)]
    pub host_reference: bool,
    /// Compile the kernels of every instance that supports a shape into this cubin cache folder,
    /// print the names of the cache files they need and exit (needs NVRTC, no GPU).
    #[arg(long, value_name = "DIR")]
    pub precompile: Option<PathBuf>,
    /// NVRTC architecture for --precompile: the one the CUDA back end compiles for on the GPU
    /// (sm_90a on the H100 and H200).
    #[arg(long, default_value = "sm_90a", requires = "precompile")]
    pub arch: String,
}

#[derive(Args)]
pub struct TuneArgs {
    /// One problem, e.g. "fwd 2d N=32 K=64 C=64 filter=3 input=56 pad=1 dtype=fp16".
    #[arg(long, required_unless_present = "shapes", conflicts_with = "shapes")]
    pub problem: Option<String>,
    /// A shapes file (as `ckc bench` takes), with --op and --dtype.
    #[arg(long, value_name = "FILE", requires_all = ["op", "dtype"])]
    pub shapes: Option<PathBuf>,
    /// The convolution of the shapes file's problems.
    #[arg(long, value_enum)]
    pub op: Option<BenchOp>,
    /// The data type of the shapes file's problems.
    #[arg(long, value_enum)]
    pub dtype: Option<BenchType>,
    /// Only these shapes (comma-separated names).
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    pub only: Vec<String>,
    /// `.ck` files or folders to choose from (default: the instance library).
    #[arg(long, num_args = 1..)]
    pub instances: Vec<PathBuf>,
    /// The tuning database (default: $CKDSL_TUNING_DB, else tuning.json under
    /// $XDG_CACHE_HOME/ckdsl or ~/.cache/ckdsl).
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
    /// Time only the N supported instances the selection ranks first (default: all).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub top: Option<u32>,
    /// Time problems the database already holds again.
    #[arg(long)]
    pub retune: bool,
    /// Back-to-back launches per timed trial.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..))]
    pub reps: u32,
    /// Timed trials per instance (the median counts).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
    pub trials: u32,
    /// Untimed launches before the trials.
    #[arg(long, default_value_t = 2)]
    pub warmup: u32,
    /// Seed of the random data (default: a fresh one per run).
    #[arg(long)]
    pub seed: Option<u64>,
}

#[derive(Args)]
pub struct FeaturesArgs {
    /// JSON-lines files of `ckc bench --records`.
    #[arg(required = true, value_name = "RECORDS")]
    pub records: Vec<PathBuf>,
    /// `.ck` files or folders the records' instances come from (default: the instance library).
    #[arg(long, num_args = 1..)]
    pub instances: Vec<PathBuf>,
    /// Write the CSV here (default: standard output).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

#[derive(Args)]
pub struct BenchReportArgs {
    /// JSON files of `ckc bench --json`, in order.
    #[arg(required = true, value_name = "RUN")]
    pub runs: Vec<PathBuf>,
    /// Write the merged results as one JSON file.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write a bar chart of the per-shape ratios cuDNN time / ours.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Chart a bar per model rather than per shape: the geometric mean of the ratios of the
    /// shapes each names among its models (runs over a network corpus), lowest first.
    #[arg(long)]
    pub by_model: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BenchOp {
    Fwd,
    #[value(name = "bwd_data")]
    BwdData,
    #[value(name = "bwd_weight")]
    BwdWeight,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BenchType {
    Fp16,
    Bf16,
    /// fp32 data, exact fp32 products.
    Fp32,
    /// fp32 data whose products may be rounded to tf32 (PyTorch's `allow_tf32`).
    Tf32,
}

// The measuring commands' (cargo feature `cuda`).
#[cfg(feature = "cuda")]
impl BenchOp {
    pub fn op(self) -> ck_compiler::model::Op {
        use ck_compiler::model::Op;
        match self {
            BenchOp::Fwd => Op::Fwd,
            BenchOp::BwdData => Op::BwdData,
            BenchOp::BwdWeight => Op::BwdWeight,
        }
    }
}

#[cfg(feature = "cuda")]
impl BenchType {
    pub fn dtype(self) -> ck_compiler::model::DataType {
        use ck_compiler::model::DataType;
        match self {
            BenchType::Fp16 => DataType::Fp16,
            BenchType::Bf16 => DataType::Bf16,
            BenchType::Fp32 => DataType::Fp32,
            BenchType::Tf32 => DataType::Tf32,
        }
    }
}

/// A `--ck-release` value.
fn ck_release(s: &str) -> Result<CkRelease, String> {
    CkRelease::from_keyword(s).ok_or_else(|| {
        let all: Vec<&str> = CkRelease::ALL.iter().map(|r| r.keyword()).collect();
        format!("one of {}", all.join(", "))
    })
}
