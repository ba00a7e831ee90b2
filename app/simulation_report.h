#pragma once
// The batch report of a simulated run (docs/batch-mode.md lists the keys) and the
// one-screen summary printed from it. The figures come from the engine's SimSummary and
// the profiler's operator statistics; nothing is computed here.

#include "engine/sim/simulation_result.h"
#include "profiler/analysis/op_statistics.h"

#include <nlohmann/json.hpp>

#include <iosfwd>
#include <string>

namespace npu::app {

nlohmann::json simulationReport(const engine::SimulationResult& result, const profiler::OpStatistics& byType,
                                const std::string& dbPath, const std::string& projectFile);

void printSimulationSummary(const nlohmann::json& report, std::ostream& out);

// "6.74 G", "812.4 M": plain-text counterparts of views/common/units for the console.
std::string humanCount(double v);
std::string humanBytes(double bytes);

}  // namespace npu::app
