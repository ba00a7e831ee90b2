#pragma once
// Stores an engine SimulationResult in the profiling database: one device per
// simulated device, one track per stream, one slice per task (with OP_INFO), a memory
// counter track per device, steps, and META_DATA (source=simulated, project, device,
// model, summary figures).

#include "base/expected.h"
#include "engine/result/simulation_result.h"
#include "profiler/store/trace_sink.h"

#include <filesystem>
#include <string>

namespace npu::profiler {

struct SimulationRunInfo {
    std::string project;   // project name
    std::string projectFile;
    std::string runName;   // "sim-20261130-0153"
    // Store ranks doing the same work once (profiler/store/rank_classes.h); false writes
    // every rank in full (tests compare the two).
    bool rankClasses = true;
};

void emitSimulation(const engine::SimulationResult& result, const SimulationRunInfo& info, TraceSink& sink);

// Writes a new .npudb atomically (temporary file + rename).
Status writeSimulation(const engine::SimulationResult& result, const SimulationRunInfo& info,
                       const std::filesystem::path& dbPath);

}  // namespace npu::profiler
