
// Unique namespace for this kernel to avoid conflicts when including multiple kernels
namespace ${ns} {

using Config = ${name}_Config;

constexpr const char* CONV_${prefix}_KERNEL_NAME = "${name}";

using SelectedConv${title}Kernel = Config;

struct ${name}_Launcher {
    using KernelConfig = Config;
    using InDataType = typename Config::InDataType;
    using WeiDataType = typename Config::WeiDataType;
    using OutDataType = typename Config::OutDataType;
    using AccDataType = typename Config::AccDataType;
    using InLayout = typename Config::InLayout;
    using WeiLayout = typename Config::WeiLayout;
    using OutLayout = typename Config::OutLayout;
    using DsDataType = typename Config::DsDataType;
    using DsLayout = typename Config::DsLayout;

    static constexpr index_t NDimSpatial = Config::NDimSpatial;

    using GemmShape = TileGemmShape<
        sequence<Config::M_Tile, Config::N_Tile, Config::K_Tile>,
        sequence<Config::M_Warp, Config::N_Warp, Config::K_Warp>,
        sequence<Config::M_Warp_Tile, Config::N_Warp_Tile, Config::K_Warp_Tile>>;

    using GroupedConvTraitsType = GroupedConvTraits<
        NDimSpatial, Config::ConvSpec, InLayout, WeiLayout, DsLayout, OutLayout,
        Config::VectorSizeA, Config::VectorSizeB, Config::VectorSizeC,
        Config::NumGroupsToMerge, Config::EnableSplitImage, Config::ExplicitGemm>;

    using TilePartitioner = ${partitioner};

    using GemmUniversalTraits = TileGemmUniversalTraits<
        GroupedConvTraitsType::FixedGemmParams::kPadM,
        GroupedConvTraitsType::FixedGemmParams::kPadN,
        GroupedConvTraitsType::FixedGemmParams::kPadK,
        Config::DoubleSmemBuffer,
        typename GroupedConvTraitsType::AsLayout${suffix},
        typename GroupedConvTraitsType::BsLayout${suffix},
        typename GroupedConvTraitsType::CLayout${suffix},
        GroupedConvTraitsType::FixedGemmParams::TransposeC,
        GroupedConvTraitsType::FixedGemmParams::UseStructuredSparsity,
        GroupedConvTraitsType::FixedGemmParams::Persistent,
        Config::NumWaveGroups>;

    using GemmPipelineProblem = GemmPipelineProblem<
        ${a}, ${b}, AccDataType, GemmShape,
        typename GroupedConvTraitsType::template ${gemm_traits}<Config::NumWaveGroups>,
        element_wise::PassThrough, element_wise::PassThrough, ${c},
        GroupedConvTraitsType::FixedGemmParams::FixedVectorSize,
        GroupedConvTraitsType::VectorSizeA, GroupedConvTraitsType::VectorSizeB>;

    using BaseGemmPipeline = ${base}<GemmPipelineProblem>;

    static float launch(const ${host_args}& args, const stream_config& s) {
        const index_t gemm_k = args.${k_len} * std::accumulate(args.${k_list}.begin(), args.${k_list}.end(), 1, std::multiplies<index_t>());

        const index_t k_grain = args.k_batch * Config::K_Tile;
        const index_t K_split = (gemm_k + k_grain - 1) / k_grain * Config::K_Tile;
        const index_t num_loop = ${loop_num};
        const bool has_hot_loop = BaseGemmPipeline::BlockHasHotloop(num_loop);
        const TailNumber tail_num = BaseGemmPipeline::GetBlockLoopTailNum(num_loop);

        float ave_time{0};

        constexpr auto scheduler = Config::Scheduler;

        using UniversalGemmProblem = UniversalGemmPipelineProblem<
            ${a}, ${b}, AccDataType, GemmShape, GemmUniversalTraits,
            scheduler,
            element_wise::PassThrough, element_wise::PassThrough, ${c},
            GroupedConvTraitsType::FixedGemmParams::FixedVectorSize,
            GroupedConvTraitsType::VectorSizeA, GroupedConvTraitsType::VectorSizeB>;

        using GemmPipeline = ${pipeline};

        using ConvEpilogue = CShuffleEpilogue<CShuffleEpilogueProblem<
            ${a}, ${b}, DsDataType, AccDataType, ${c},
            typename GroupedConvTraitsType::ImplicitGemmDsLayout,
            typename GroupedConvTraitsType::FixedGemmParams::ELayout,
            typename Config::CDEElementWise,
            TilePartitioner::MPerBlock, TilePartitioner::NPerBlock,
            Config::M_Warp, Config::N_Warp, Config::M_Warp_Tile,
            Config::N_Warp_Tile, Config::K_Warp_Tile,
            GroupedConvTraitsType::FixedGemmParams::TransposeC,
            Config::NumWaveGroups,
            GroupedConvTraitsType::FixedGemmParams::FixedVectorSize,
            Config::VectorSizeC, 1, Config::DoubleSmemBuffer>>;

        using Kernel = ${kernel}<
            GroupedConvTraitsType, TilePartitioner, GemmPipeline, ConvEpilogue>;

        const auto Run = ${lambda} {
${run_body}
            return ave_time;
        };

        ${tail_call}
        return ave_time;
    }
};

// Launcher alias for tile_engine compatibility
using ${alias} = ${name}_Launcher;

} // namespace ${ns}

// Export specific launcher to global namespace
using ${name}_Launcher = ${ns}::${name}_Launcher;

// When used with -include compiler flag, export aliases to global namespace
#ifdef CK_TILE_SINGLE_KERNEL_INCLUDE
using ${alias} = ${ns}::${alias};
constexpr const char* CONV_${prefix}_KERNEL_NAME = ${ns}::CONV_${prefix}_KERNEL_NAME;
#endif
