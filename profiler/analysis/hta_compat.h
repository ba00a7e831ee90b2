#pragma once
// "As HTA runs by default": Holistic Trace Analysis's parser
// (hta/common/trace.py, _filter_irrelevant_gpu_kernels) keeps only the device kernels
// launched by a CPU event that starts before the last ProfilerStep, so the last profiled
// iteration and kernels without a launch correlation drop out of every figure; with
// fewer than two ProfilerSteps it keeps everything (and warns). Our device metrics follow
// HTA's definitions on every kernel; this filter lets a user reproduce HTA's printed
// output instead (`--batch --import ... --hta-compat`). The launch correlation is the
// "correlation" arg Kineto writes on a launch and its kernel (as HTA joins them), or for
// sources without it a FLOW from the launching host event.

#include "profiler/analysis/kernel_classification.h"

#include <cstdint>
#include <vector>

namespace npu::profiler {

class ProfileDb;

struct HtaKernelFilter {
    bool active = false;                 // at least two steps: HTA filters
    std::int64_t lastStepStart = 0;      // kernels launched at or after it are dropped
    std::int64_t dropped = 0;            // filled by applyHtaKernelFilter, over all calls
};

HtaKernelFilter htaKernelFilter(const ProfileDb& db);

// Removes from `kernels` (loadDeviceKernels of `device`) those HTA's parser drops.
void applyHtaKernelFilter(const ProfileDb& db, std::int64_t device, HtaKernelFilter& filter,
                          std::vector<DeviceKernel>& kernels);

}  // namespace npu::profiler
