#pragma once
// The nesting a PyTorch trace gets from its record_function ranges, for a simulated run:
// each device gets a "Model structure" track above its streams holding the step (depth
// 0), the phases the step runs on the device's compute streams — each micro-batch's
// forward and backward (its recomputation included), the optimizer step — (depth 1) and
// the layers each phase runs (depth 2, "layers.N"), so the flat Compute lane reads as
// step > forward · micro-batch 3 > layers.5 > kernels. The slices are
// gpu_user_annotation, Kineto's category for a range on the device, which every kernel
// count and operator statistic leaves out; the track is of kind "other", which no
// busy-time or overlap analysis reads.

#include "engine/result/simulation_result.h"
#include "profiler/store/trace_sink.h"

#include <cstdint>
#include <string>
#include <vector>

namespace npu::profiler {

struct StructureSlice {
    std::int64_t start_ns = 0, dur_ns = 0;
    int depth = 0;
    std::string name;
};

// In start order within each depth.
std::vector<StructureSlice> simulatedStructure(const engine::DeviceResult& device, const std::vector<engine::SimStep>& steps);

// The slices on a new track of `deviceId`; nothing when the device runs no compute task.
void emitSimulatedStructure(const engine::DeviceResult& device, const std::vector<engine::SimStep>& steps, std::int64_t deviceId,
                            TraceSink& sink);

}  // namespace npu::profiler
