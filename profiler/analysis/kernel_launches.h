#pragma once
// Host-to-device analysis of an imported PyTorch trace through its launch flows (Kineto's
// `ac2g`: CUDA runtime call → the kernel, copy or set it launched; torch_npu's
// `HostToDevice`: CANN node launch → the NPU task), as Holistic Trace Analysis reports
// it: per launch the runtime call's duration, the kernel's duration and the launch delay
// (kernel start − runtime call end, HTA's get_cuda_kernel_launch_stats); per stream the
// queue length over time (launched but not finished: +1 at the runtime call's start, −1
// at the kernel's end, HTA's queue-length counter) and its launch-delay figures; and per
// host op (the cpu_op around the runtime call) the kernels it launched.

#include "profiler/store/profile_db.h"

#include <cstdint>
#include <string>
#include <vector>

namespace npu::profiler {

struct KernelLaunch {
    std::int64_t launchSlice = 0, kernelSlice = 0;
    std::int64_t launchStart = 0, launchEnd = 0;
    std::int64_t kernelStart = 0, kernelEnd = 0;
    std::int64_t kernelTrack = 0;
    std::int32_t launchName = 0, kernelName = 0;
    std::int32_t opName = -1;  // the innermost cpu_op enclosing the runtime call, -1 if none
    std::int64_t delay_ns() const { return kernelStart - launchEnd; }
};

// Every launch flow (ac2g, HostToDevice) whose ends are a host slice and a device slice, by kernel start.
std::vector<KernelLaunch> loadKernelLaunches(const ProfileDb& db);

struct StreamLaunchStats {
    std::int64_t track = 0;
    std::string name;          // "device · stream"
    std::int64_t launches = 0;
    double mean_delay_ns = 0;
    std::int64_t p50_delay_ns = 0, p95_delay_ns = 0, max_delay_ns = 0;
    std::int64_t short_kernels = 0;  // kernel shorter than its runtime call (HTA's "short GPU kernels")
    std::int64_t max_queue = 0;
    double mean_queue = 0;            // time-weighted over the stream's first launch to last kernel end
    CounterSeries queue;              // queue length over time
};
std::vector<StreamLaunchStats> streamLaunchStats(const ProfileDb& db, const std::vector<KernelLaunch>& launches);

struct OpKernelsRow {
    std::string op;                 // host op name ("(no op)" for runtime calls outside any)
    std::int64_t launches = 0;
    std::int64_t kernel_time_ns = 0;
    std::int64_t distinct_kernels = 0;
    std::string top_kernel;         // the kernel with the most time under this op
    double mean_delay_ns = 0;
};
// Sorted by kernel time, descending.
std::vector<OpKernelsRow> opKernelTable(const ProfileDb& db, const std::vector<KernelLaunch>& launches);

}  // namespace npu::profiler
