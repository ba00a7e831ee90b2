#pragma once
// Where a trace process lives and what its threads are: Kineto writes GPUs as pids
// labelled "GPU n" whose threads are CUDA streams; the Ascend profiler writes NPU
// processes ("Ascend Hardware", "HCCL", "Overlap Analysis", ...) next to host ones
// ("Python", "CANN"); everything else is a host thread.

#include "profiler/importers/chrome_json/trace_builder.h"

#include <string>
#include <string_view>

namespace npu::profiler {

struct TraceProcessPlacement {
    TraceDeviceKind kind = TraceDeviceKind::cpu;
    int index = 0;
    bool analysisLanes = false;  // Ascend "Overlap Analysis": derived lanes, not device work
    bool commOnly = false;       // Ascend "HCCL": communication lanes
};

TraceProcessPlacement placeProcess(std::string_view name, std::string_view labels, bool gpuEvents, const TraceEventId& pid);
// `threadName` tells HCCL's op lanes ("Group 0 Communication") from its "Plane N" lanes,
// which repeat the HCCL tasks already on the NPU hardware streams (same stream and task
// ids): the planes are shown but not counted as device work a second time.
TrackKind threadTrackKind(const TraceProcessPlacement& placement, const ImportThread& thread,
                          std::string_view threadName = {});
std::string_view deviceKindName(TraceDeviceKind kind);
std::string deviceName(TraceDeviceKind kind, int index);

}  // namespace npu::profiler
