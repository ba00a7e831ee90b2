#pragma once
// Host (CPU) operator statistics of an imported PyTorch trace, as the PyTorch profiler's
// key_averages() table reports them: per op name (the `cpu_op` slices of host threads),
// calls, total (inclusive) time and self time, the total minus the time of the cpu_ops
// nested directly inside. Runtime calls (cudaLaunchKernel, ...) are not ops and stay in
// their op's self time, as in PyTorch's "Self CPU".

#include <cstdint>
#include <string>
#include <vector>

namespace npu::profiler {

class ProfileDb;

struct CpuOpRow {
    std::string name;
    std::int64_t count = 0;
    std::int64_t total_ns = 0;  // inclusive
    std::int64_t self_ns = 0;   // minus directly nested cpu_ops
    std::int64_t max_ns = 0;
};

// Sorted by self time, descending. `category`: the host op category ("cpu_op").
std::vector<CpuOpRow> computeCpuOpStatistics(const ProfileDb& db, const std::string& category = "cpu_op");

}  // namespace npu::profiler
