#include "profiler/analysis/device_metrics.h"

#include "profiler/analysis/interval_set.h"
#include "profiler/store/profile_db.h"

namespace npu::profiler {

DeviceMetrics computeDeviceMetrics(const std::vector<DeviceKernel>& kernels) {
    DeviceMetrics m;
    m.kernels = static_cast<std::int64_t>(kernels.size());
    if (kernels.empty()) return m;
    std::vector<Interval> all, compute, comm, memory;
    all.reserve(kernels.size());
    for (const auto& k : kernels) {
        all.push_back({k.start, k.end});
        if (k.cls == KernelClass::compute) compute.push_back({k.start, k.end});
        if (k.cls == KernelClass::communication) comm.push_back({k.start, k.end});
        if (k.cls == KernelClass::memory) memory.push_back({k.start, k.end});
    }
    m.compute_kernels = static_cast<std::int64_t>(compute.size());
    m.communication_kernels = static_cast<std::int64_t>(comm.size());
    m.memory_ops = static_cast<std::int64_t>(memory.size());
    const auto allMerged = mergeIntervals(std::move(all));
    const auto computeMerged = mergeIntervals(std::move(compute));
    const auto commMerged = mergeIntervals(std::move(comm));
    if (!allMerged.empty()) m.kernel_time_ns = allMerged.back().end - allMerged.front().start;
    m.idle_ns = m.kernel_time_ns - totalLength(allMerged);
    m.compute_ns = totalLength(computeMerged);
    m.non_compute_ns = m.kernel_time_ns - m.compute_ns - m.idle_ns;
    m.comm_ns = totalLength(commMerged);
    m.memory_ns = totalLength(mergeIntervals(std::move(memory)));
    m.comm_comp_overlap_ns = totalLength(intersect(commMerged, computeMerged));
    m.comm_comp_overlap_pct = m.comm_ns > 0 ? 100.0 * double(m.comm_comp_overlap_ns) / double(m.comm_ns) : 0.0;
    return m;
}

std::vector<DeviceMetrics> computeAllDeviceMetrics(const ProfileDb& db) {
    std::vector<DeviceMetrics> out;
    for (const auto& d : db.devices()) {
        const auto kernels = loadDeviceKernels(db, d.id);
        if (kernels.empty()) continue;
        auto m = computeDeviceMetrics(kernels);
        m.device = d.id;
        m.name = d.name;
        out.push_back(std::move(m));
    }
    return out;
}

}  // namespace npu::profiler
