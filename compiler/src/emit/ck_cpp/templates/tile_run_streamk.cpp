            auto kargs = Kernel::MakeKernelArgs(args);

            if (!Kernel::IsSupportedArgument(kargs)) {
                throw std::runtime_error("Arguments not supported for grouped conv kernel");
            }

            const dim3 grids = Kernel::GridSize(kargs);
            const dim3 blocks = Kernel::BlockSize();

            const auto ws_size = Kernel::GetWorkSpaceSize(kargs);
            DeviceMem workspace(ws_size);
            Kernel::SetWorkSpacePointer(kargs, workspace.GetDeviceBuffer());
            auto preprocess = [&]() {
                if (ws_size > 0) {
                    hip_check_error(hipMemsetAsync(
                        workspace.GetDeviceBuffer(), 0, ws_size, s.stream_id_));
                }
            };

            ave_time = launch_kernel_time_mask(s, preprocess, make_kernel<Config::kBlockPerCu>(
                Kernel{}, grids, blocks, 0, kargs));
