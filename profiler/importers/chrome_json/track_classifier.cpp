#include "profiler/importers/chrome_json/track_classifier.h"

#include <array>
#include <charconv>

namespace npu::profiler {

namespace {

// Device-side process names of the Ascend PyTorch profiler's trace_view.json
// (torch_npu / mstt documentation of the timeline layout).
constexpr std::array<std::string_view, 15> kAscendDeviceProcesses = {
    "Ascend Hardware", "HCCL", "Overlap Analysis", "AI Core Freq", "NPU MEM", "Stars Soc Info", "Acc PMU", "SIO",
    "QoS", "LLC", "HBM", "DDR", "Stars Chip Trans", "PCIe", "HCCS"};

int trailingNumber(std::string_view s, int fallback) {
    size_t end = s.size();
    while (end > 0 && s[end - 1] == ' ') --end;
    size_t begin = end;
    while (begin > 0 && s[begin - 1] >= '0' && s[begin - 1] <= '9') --begin;
    int value = fallback;
    if (begin < end) std::from_chars(s.data() + begin, s.data() + end, value);
    return value;
}

}  // namespace

TraceProcessPlacement placeProcess(std::string_view name, std::string_view labels, bool gpuEvents, const TraceEventId& pid) {
    TraceProcessPlacement p;
    const int pidIndex = pid.isString ? 0 : static_cast<int>(pid.num);
    if (labels.starts_with("GPU")) {
        p.kind = TraceDeviceKind::gpu;
        p.index = trailingNumber(labels, pidIndex);
        return p;
    }
    if (labels.starts_with("MTIA") || name.starts_with("MTIA")) {  // Kineto on MTIA: "MTIA n"
        p.kind = TraceDeviceKind::mtia;
        p.index = trailingNumber(labels.starts_with("MTIA") ? labels : name, pidIndex);
        return p;
    }
    bool ascendDevice = labels.starts_with("NPU");
    for (auto n : kAscendDeviceProcesses) ascendDevice = ascendDevice || name == n;
    if (ascendDevice) {
        p.kind = TraceDeviceKind::npu;
        p.index = trailingNumber(labels, 0);
        p.analysisLanes = name == "Overlap Analysis";
        p.commOnly = name == "HCCL";
        return p;
    }
    if (labels.starts_with("CPU")) return p;
    if (gpuEvents) {  // unlabelled Kineto GPU: the pid is the device index
        p.kind = TraceDeviceKind::gpu;
        p.index = pidIndex;
    }
    return p;
}

TrackKind threadTrackKind(const TraceProcessPlacement& placement, const ImportThread& t, std::string_view threadName) {
    if (placement.kind == TraceDeviceKind::cpu) return TrackKind::host_thread;
    if (placement.analysisLanes) return TrackKind::other;
    if (placement.commOnly) return threadName.starts_with("Plane") ? TrackKind::other : TrackKind::comm;
    // A stream is what most of its kernels are (NCCL streams also carry a few copies).
    if (t.commKernels > 0 && t.commKernels >= t.otherKernels) return TrackKind::comm;
    if (t.otherKernels > 0) return TrackKind::compute;
    if (t.memOps > 0) return TrackKind::memcpy;
    return TrackKind::other;
}

std::string_view deviceKindName(TraceDeviceKind kind) {
    switch (kind) {
    case TraceDeviceKind::cpu: return "cpu";
    case TraceDeviceKind::gpu: return "gpu";
    case TraceDeviceKind::npu: return "npu";
    case TraceDeviceKind::mtia: return "mtia";
    }
    return "cpu";
}

std::string deviceName(TraceDeviceKind kind, int index) {
    switch (kind) {
    case TraceDeviceKind::cpu: return "CPU";
    case TraceDeviceKind::gpu: return "GPU " + std::to_string(index);
    case TraceDeviceKind::npu: return "NPU " + std::to_string(index);
    case TraceDeviceKind::mtia: return "MTIA " + std::to_string(index);
    }
    return "CPU";
}

}  // namespace npu::profiler
