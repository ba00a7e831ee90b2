#pragma once
// Per-device temporal breakdown and communication/computation overlap, following
// Holistic Trace Analysis (hta/analyzers/breakdown_analysis.py get_temporal_breakdown,
// communication_analysis.py get_comm_comp_overlap) so users can cross-check:
//   kernel_time  = last kernel end - first kernel start (all device kernels)
//   idle         = kernel_time - |union of all device kernels|
//   compute      = |union of compute kernels|
//   non_compute  = kernel_time - compute - idle
//   overlap_pct  = |union(comm) ∩ union(compute)| / |union(comm)| x 100

#include "profiler/analysis/kernel_classification.h"

#include <cstdint>
#include <string>
#include <vector>

namespace npu::profiler {

struct DeviceMetrics {
    std::int64_t device = 0;
    std::string name;
    std::int64_t kernels = 0;          // every device op, as HTA counts its kernels: the three below and others
    std::int64_t compute_kernels = 0;
    std::int64_t communication_kernels = 0;
    std::int64_t memory_ops = 0;       // memcpy/memset: an Nsight export's "kernels" leave them out
    std::int64_t kernel_time_ns = 0;
    std::int64_t idle_ns = 0;
    std::int64_t compute_ns = 0;
    std::int64_t non_compute_ns = 0;
    std::int64_t comm_ns = 0;          // union of communication kernels
    std::int64_t memory_ns = 0;        // union of memcpy/memset kernels
    std::int64_t comm_comp_overlap_ns = 0;
    double comm_comp_overlap_pct = 0;  // 0 when there is no communication
};

DeviceMetrics computeDeviceMetrics(const std::vector<DeviceKernel>& kernels);

// One row per device that has device kernels, in device order.
std::vector<DeviceMetrics> computeAllDeviceMetrics(const ProfileDb& db);

}  // namespace npu::profiler
