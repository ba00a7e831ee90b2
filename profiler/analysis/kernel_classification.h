#pragma once
// Which slices are device kernels and what kind: communication, memory copy/set,
// compute or other, by the name rules HTA and the Ascend tools use (nccl*/hccl*/hcom_*,
// c10d, collective names and HCCL's task-level names such as "Notify Wait"; Memcpy*/
// Memset*, dma* and Chrome's gpu_memcpy/gpu_memset categories; "other" for
// synchronisation that is neither: Kineto's cuda_sync category, which HTA classes as
// other, and the Ascend runtime's EVENT_RECORD/EVENT_WAIT/PROFILING_* tasks, which
// Ascend's step analysis leaves out of Computing and of the step's extent).

#include "profiler/store/trace_sink.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace npu::profiler {

class ProfileDb;

enum class KernelClass : std::uint8_t { compute, communication, memory, other };
std::string_view kernelClassName(KernelClass c);  // "compute" | "communication" | "memory" | "other"

KernelClass classifyKernel(std::string_view name, std::string_view category = {});
// Pipeline-parallel receives: what Ascend counts as Bubble.
bool isReceiveKernel(std::string_view name);

// GPU/NPU stream tracks (importers: compute/comm/memcpy; simulator: its streams).
bool isDeviceTrack(TrackKind k);

// One device kernel with its class, as the device analyses consume them.
struct DeviceKernel {
    std::int64_t start = 0;
    std::int64_t end = 0;
    std::int32_t nameId = 0;
    KernelClass cls = KernelClass::compute;
};

// All kernels on the device tracks of `device` (every device when device < 0), sorted by
// start. Names are classified once per distinct string.
std::vector<DeviceKernel> loadDeviceKernels(const ProfileDb& db, std::int64_t device);

}  // namespace npu::profiler
