#pragma once
// Older PyTorch Kineto traces carry a collective's NCCL args ("Collective name",
// "In msg nelems", "Out msg nelems", "dtype", "Group size", "Process Group Name",
// "Process Group Ranks", ...) only on the CPU op record_param_comms, not on the
// ncclKernel_* / ncclDevKernel_* kernel it launched; newer ones copy them onto the kernel.
// Everything downstream (sizes and bandwidths, profiler/analysis/nccl_comm_args; process
// groups, profiler/store/collective_flows) reads the kernel's args, so this pass gives a
// communication kernel without them the args of the record_param_comms that launched it:
//   kernel args "correlation" = the cuda_runtime (or cuda_driver) launch's "correlation" (the id ac2g
//   flows also carry), and the launch lies inside record_param_comms on its thread (the
//   innermost one when they nest).
// The kernel keeps its own args; the NCCL ones are added with "NCCL args from":
// "record_param_comms" so the details panel says where they came from, and the
// nccl_args_from_launch diagnostic counts the kernels so filled.

namespace npu::profiler {

class TraceBuilder;

class NcclLaunchArgs {
public:
    // After the whole file is read, before it is written; returns the kernels filled.
    static long run(TraceBuilder& builder);
};

}  // namespace npu::profiler
