//! CK-Tile kernel sources as the CK-Tile dispatcher's codegen
//! (`dispatcher/codegen/unified_grouped_conv_codegen.py`) writes them: a `{name}_Config` struct,
//! then, in `namespace ns_{name}`, a `{name}_Launcher` whose `launch(host_args, stream_config)`
//! builds the GEMM shape, `GroupedConvTraits`, the tile partitioner, the universal GEMM
//! pipeline, the CShuffle epilogue and the kernel type, and runs the kernel. StreamK kernels take
//! `StreamKTilePartitioner<Shape, Strategy, Persistent>` and the workspace handling of CK's
//! bwd-weight invoker (`example/ck_tile/20_grouped_convolution`).

use super::super::access::tile_kernel;
use super::super::names::tile_kernel_name;
use super::super::spelling::*;
use super::super::template::{Text, render};
use super::super::traits::instance_string;
use super::{BANNER, CkCppError, OutFile, cpp_type};
use crate::ir::{Checked, Instance, StreamK, TileKernel};
use crate::model::{DataType, Epilogue, Layout, Op, PipelineVersion};

/// The pipeline class, its base (for the hot-loop and tail queries) and whether it takes the
/// conv LDS policy as a second argument (`PipelineTypeTraits` in CK's conv_configs.hpp).
pub(super) struct PipelineClasses {
    class: &'static str,
    base: &'static str,
    conv_policy: bool,
    /// The base's `TailHandler` runs a one-argument lambda (no tail number).
    one_arg_tail: bool,
}

/// The classes of the instance's CK-Tile pipeline; an error for a pipeline the dispatcher does
/// not generate.
pub(super) fn pipeline_classes(inst: &Instance) -> Result<PipelineClasses, CkCppError> {
    let (class, base, conv_policy, one_arg_tail) = match inst.pipeline.version {
        PipelineVersion::BasicV1 => (
            "GemmPipelineAGmemBGmemCRegV1",
            "BaseGemmPipelineAGmemBGmemCRegV1",
            true,
            true,
        ),
        PipelineVersion::Mem => (
            "GemmPipelineAgBgCrMem",
            "BaseGemmPipelineAgBgCrMem",
            true,
            false,
        ),
        PipelineVersion::CompV3 => (
            "GemmPipelineAgBgCrCompV3",
            "BaseGemmPipelineAgBgCrCompV3",
            true,
            false,
        ),
        PipelineVersion::CompV4 => (
            "GemmPipelineAgBgCrCompV4",
            "BaseGemmPipelineAgBgCrCompV4",
            false,
            false,
        ),
        PipelineVersion::CompV5 => (
            "GemmPipelineAgBgCrCompV5",
            "BaseGemmPipelineAgBgCrCompV5",
            false,
            false,
        ),
        PipelineVersion::CompV6 => (
            "GemmPipelineAgBgCrCompV6",
            "BaseGemmPipelineAgBgCrCompV6",
            false,
            false,
        ),
        PipelineVersion::CompAsync => (
            "GemmPipelineAgBgCrCompAsync",
            "BaseGemmPipelineAgBgCrCompAsync",
            false,
            false,
        ),
        // The async basic pipeline derives from the V1 base; there is no async base.
        PipelineVersion::BasicAsyncV1 => (
            "GemmPipelineAGmemBGmemCRegAsyncV1",
            "BaseGemmPipelineAGmemBGmemCRegV1",
            false,
            true,
        ),
        other => {
            return Err(CkCppError::TilePipeline {
                instance: inst.name.clone(),
                pipeline: other.keyword(),
            });
        }
    };
    Ok(PipelineClasses {
        class,
        base,
        conv_policy,
        one_arg_tail,
    })
}

/// What changes with the conv direction in the launcher.
struct Direction {
    host_args: &'static str,
    kernel: &'static str,
    kernel_header: &'static str,
    gemm_traits: &'static str,
    layout_suffix: &'static str,
    /// The config types that play GEMM A, B and C.
    abc: [&'static str; 3],
    /// The host-argument factors of GemmK: the first length and the spatial list multiplied in.
    gemm_k: (&'static str, &'static str),
    prefix: &'static str,
    launcher_alias: &'static str,
}

/// The launcher struct of a kernel, and its launch body with and without a StreamK workspace.
const LAUNCHER: &str = include_str!("templates/tile_launcher.cpp");
const RUN: &str = include_str!("templates/tile_run.cpp");
const RUN_STREAMK: &str = include_str!("templates/tile_run_streamk.cpp");

fn direction(op: Op) -> Direction {
    match op {
        Op::Fwd => Direction {
            host_args: "GroupedConvFwdHostArgs<>",
            kernel: "GroupedConvolutionForwardKernel",
            kernel_header: "grouped_convolution_forward_kernel.hpp",
            gemm_traits: "GroupedConvImplicitGemmTraitsFwd",
            layout_suffix: "Fwd",
            abc: ["InDataType", "WeiDataType", "OutDataType"],
            gemm_k: ("C_", "filter_spatial_lengths_"),
            prefix: "FWD",
            launcher_alias: "SelectedConvKernelLauncher",
        },
        Op::BwdData => Direction {
            host_args: "GroupedConvBwdDataHostArgs",
            kernel: "GroupedConvolutionBackwardDataKernel",
            kernel_header: "grouped_convolution_backward_data_kernel.hpp",
            gemm_traits: "GroupedConvImplicitGemmTraitsBwdData",
            layout_suffix: "BwdData",
            abc: ["OutDataType", "WeiDataType", "InDataType"],
            gemm_k: ("K_", "filter_spatial_lengths_"),
            prefix: "BWD_DATA",
            launcher_alias: "SelectedConvBwdDataLauncher",
        },
        Op::BwdWeight => Direction {
            host_args: "GroupedConvBwdWeightHostArgs",
            kernel: "GroupedConvolutionBackwardWeightKernel",
            kernel_header: "grouped_convolution_backward_weight_kernel.hpp",
            gemm_traits: "GroupedConvImplicitGemmTraitsBwdWeight",
            layout_suffix: "BwdWeight",
            abc: ["OutDataType", "InDataType", "WeiDataType"],
            gemm_k: ("N_", "output_spatial_lengths_"),
            prefix: "BWD_WEIGHT",
            launcher_alias: "SelectedConvBwdWeightLauncher",
        },
    }
}

/// CK-Tile's name for a data type.
fn tile_type(t: DataType) -> &'static str {
    match cpp_type(t) {
        "F16" => "half_t",
        "BF16" => "bf16_t",
        "F8" => "fp8_t",
        "BF8" => "bf8_t",
        "I8" => "int8_t",
        "I32" => "int32_t",
        "F64" => "double",
        _ => "float",
    }
}

fn layout(l: Layout) -> String {
    format!("tensor_layout::convolution::{}", layout_text(l))
}

/// Python's `str.title()` of the direction prefix, as the codegen spells the kernel alias.
fn title(prefix: &str) -> String {
    prefix
        .split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next().map_or(String::new(), |f| {
                f.to_ascii_uppercase().to_string() + &c.as_str().to_ascii_lowercase()
            })
        })
        .collect::<Vec<_>>()
        .join("_")
}

/// The kernel's instantiation source, `tile/{op}/{dispatcher name}.hpp`.
pub(super) fn kernel_source(inst: &Checked) -> Result<OutFile, CkCppError> {
    let pipe = pipeline_classes(inst)?;
    let name = tile_kernel_name(inst);
    let mut scratch = Instance::clone(inst);
    let tk = *tile_kernel(&mut scratch);
    let dir = direction(inst.op);
    let mut out = Text::default();
    writeln!(
        out,
        "{BANNER}// {}\n// Variant: {}",
        instance_string(inst),
        inst.op.keyword()
    );
    for d in &inst.doc {
        super::comment_line(&mut out, "", d);
    }
    includes(&mut out, &dir, inst.work.streamk.is_some());
    config_struct(&mut out, inst, &name, &tk_fields(inst, &tk));
    out.push_str(&launcher(inst, &name, &dir, &pipe));
    Ok(OutFile {
        path: format!("tile/{}/{name}.hpp", inst.op.keyword()),
        contents: out.into(),
    })
}

fn includes(out: &mut Text, dir: &Direction, streamk: bool) {
    out.push_str(
        "#pragma once\n\n\
         #include <cstdint>\n\
         #include <functional>\n\
         #include <numeric>\n\
         #include <stdexcept>\n\
         #include \"ck_tile/core.hpp\"\n\
         #include \"ck_tile/host/kernel_launch.hpp\"\n\
         #include \"ck_tile/ops/gemm.hpp\"\n\
         #include \"ck_tile/ops/grouped_convolution.hpp\"\n\
         #include \"ck_tile/ops/epilogue.hpp\"\n",
    );
    writeln!(
        out,
        "#include \"ck_tile/ops/grouped_convolution/kernel/{}\"",
        dir.kernel_header
    );
    out.push_str("#include \"ck_tile/ops/grouped_convolution/pipeline/grouped_conv_universal_pipeline_ag_bg_cr_policy.hpp\"\n");
    if streamk {
        out.push_str(
            "#include \"ck_tile/host/device_memory.hpp\"\n\
             #include \"ck_tile/ops/gemm/kernel/streamk_gemm/streamk_gemm_tile_partitioner.hpp\"\n",
        );
    }
    out.push_str("\nusing namespace ck_tile;\n");
}

/// The `(name, value)` lines of the config struct after the types and layouts.
fn tk_fields(inst: &Instance, tk: &TileKernel) -> Vec<(&'static str, String)> {
    let b = |v: bool| v.to_string();
    let mut v = vec![
        ("index_t M_Tile", inst.tile.m.to_string()),
        ("index_t N_Tile", inst.tile.n.to_string()),
        ("index_t K_Tile", inst.tile.k.to_string()),
        ("index_t M_Warp", inst.waves[0].to_string()),
        ("index_t N_Warp", inst.waves[1].to_string()),
        ("index_t K_Warp", inst.waves[2].to_string()),
        ("index_t M_Warp_Tile", inst.mma[0].to_string()),
        ("index_t N_Warp_Tile", inst.mma[1].to_string()),
        ("index_t K_Warp_Tile", inst.mma[2].to_string()),
        ("index_t VectorSizeA", tk.vector[0].to_string()),
        ("index_t VectorSizeB", tk.vector[1].to_string()),
        ("index_t VectorSizeC", tk.vector[2].to_string()),
        ("bool kPadM", b(tk.pad[0])),
        ("bool kPadN", b(tk.pad[1])),
        ("bool kPadK", b(tk.pad[2])),
        (
            "auto Pipeline",
            format!(
                "GemmPipeline::{}",
                TILE_PIPELINE
                    .text(inst.pipeline.version)
                    .unwrap_or_default()
            ),
        ),
        (
            "auto Scheduler",
            format!(
                "GemmPipelineScheduler::{}",
                SCHEDULER
                    .text(inst.pipeline.scheduler)
                    .unwrap_or("Intrawave")
            ),
        ),
        ("bool DoubleSmemBuffer", b(inst.pipeline.double_buffer)),
        (
            "bool UseCShuffleEpilogue",
            b(tk.epilogue == Epilogue::Cshuffle),
        ),
        ("int kBlockPerCu", "1".to_string()),
        ("index_t NumWaveGroups", tk.wave_groups.to_string()),
        (
            "index_t NumGroupsToMerge",
            inst.work.merge_groups.to_string(),
        ),
        ("bool EnableSplitImage", b(tk.split_image)),
        ("bool ExplicitGemm", b(tk.explicit_gemm)),
        ("index_t NDimSpatial", inst.ndim.to_string()),
    ];
    if let Some(StreamK {
        reduction,
        persistent,
    }) = inst.work.streamk
    {
        v.push((
            "auto ReductionStrategy",
            format!(
                "StreamKReductionStrategy::{}",
                REDUCTION.cpp(reduction).unwrap_or("Atomic")
            ),
        ));
        v.push(("bool Persistent", b(persistent)));
    }
    v
}

fn config_struct(out: &mut Text, inst: &Instance, name: &str, fields: &[(&'static str, String)]) {
    let (input, weight, output) = (
        tile_type(inst.types.input),
        tile_type(inst.types.weight),
        tile_type(inst.types.output),
    );
    writeln!(out, "\n// Kernel configuration\nstruct {name}_Config {{");
    writeln!(
        out,
        "    using InDataType = {input};\n    using WeiDataType = {weight};\n    using AccDataType = {};\n    using OutDataType = {output};\n",
        tile_type(inst.types.acc)
    );
    writeln!(
        out,
        "    using InLayout = {};\n    using WeiLayout = {};\n    using OutLayout = {};",
        layout(inst.layout.input),
        layout(inst.layout.weight),
        layout(inst.layout.output)
    );
    let ds_types: Vec<&str> = inst.types.ds.iter().map(|&t| tile_type(t)).collect();
    let ds_layouts: Vec<String> = inst.layout.ds.iter().map(|&l| layout(l)).collect();
    writeln!(
        out,
        "    using DsDataType = tuple<{}>;\n    using DsLayout = tuple<{}>;\n    using CDEElementWise = element_wise::{};\n",
        ds_types.join(", "),
        ds_layouts.join(", "),
        ELEMENT_OP
            .cpp(inst.elementwise.output)
            .unwrap_or("PassThrough")
    );
    writeln!(
        out,
        "    static constexpr auto ConvSpec = ConvolutionSpecialization::{};",
        CONV_SPEC.cpp(inst.spec).unwrap_or("Default")
    );
    for (decl, value) in fields {
        writeln!(out, "    static constexpr {decl} = {value};");
    }
    let arch = inst.targets.first().map_or("gfx942", |a| a.keyword());
    writeln!(
        out,
        "\n    // Target architecture\n    static constexpr const char* TargetArch = \"{arch}\";\n}};"
    );
}

fn launcher(inst: &Instance, name: &str, dir: &Direction, pipe: &PipelineClasses) -> String {
    let [a, b, c] = dir.abc;
    let suffix = dir.layout_suffix;
    let ns = format!("ns_{}", name.replace('-', "_"));
    let streamk = inst.work.streamk.is_some();
    let partitioner = if streamk {
        "StreamKTilePartitioner<GemmShape, Config::ReductionStrategy, Config::Persistent>"
    } else {
        "GemmSpatiallyLocalTilePartitioner<\n        GemmShape,\n        GroupedConvTraitsType::FixedGemmParams::TilePartitionerGroupNum,\n        GroupedConvTraitsType::FixedGemmParams::TilePartitionerM01>"
    };
    let pipeline = if pipe.conv_policy {
        format!(
            "{}<UniversalGemmProblem, GroupedConvUniversalPipelineAgBgCrPolicy>",
            pipe.class
        )
    } else {
        format!("{}<UniversalGemmProblem>", pipe.class)
    };
    let (lambda, tail_call) = if pipe.one_arg_tail {
        (
            "[&](const auto has_hot_loop_)",
            "BaseGemmPipeline::TailHandler(Run, has_hot_loop);",
        )
    } else {
        (
            "[&](const auto has_hot_loop_, const auto tail_number_)",
            "BaseGemmPipeline::TailHandler(Run, has_hot_loop, tail_num);",
        )
    };
    // StreamK partials go through a workspace whose flags start zeroed on every launch.
    let run_body = if streamk { RUN_STREAMK } else { RUN };
    let title = title(dir.prefix);
    // The StreamK partitioner has no static loop count; it is K_split over K_Tile.
    let loop_num = if streamk {
        "(K_split + Config::K_Tile - 1) / Config::K_Tile"
    } else {
        "TilePartitioner::GetLoopNum(K_split)"
    };
    render(
        LAUNCHER,
        &[
            ("ns", &ns),
            ("name", name),
            ("prefix", dir.prefix),
            ("title", &title),
            ("partitioner", partitioner),
            ("suffix", suffix),
            ("a", a),
            ("b", b),
            ("c", c),
            ("gemm_traits", dir.gemm_traits),
            ("base", pipe.base),
            ("host_args", dir.host_args),
            ("k_len", dir.gemm_k.0),
            ("k_list", dir.gemm_k.1),
            ("loop_num", loop_num),
            ("pipeline", &pipeline),
            ("kernel", dir.kernel),
            ("lambda", lambda),
            ("run_body", run_body),
            ("tail_call", tail_call),
            ("alias", dir.launcher_alias),
        ],
    )
}
