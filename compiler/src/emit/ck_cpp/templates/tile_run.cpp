            auto kargs = Kernel::MakeKernelArgs(args);

            if (!Kernel::IsSupportedArgument(kargs)) {
                throw std::runtime_error("Arguments not supported for grouped conv kernel");
            }

            const dim3 grids = Kernel::GridSize(kargs);
            const dim3 blocks = Kernel::BlockSize();

            ave_time = launch_kernel(s, make_kernel<Config::kBlockPerCu>(
                Kernel{}, grids, blocks, 0, kargs));
