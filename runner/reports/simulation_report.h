#pragma once
// The batch report of a simulated run (docs/batch-mode.md lists the keys), the
// one-screen console summary and the one-line GUI status, all formatted from the typed
// summary of runSimulation (runner/runs); nothing is computed here.

#include "runner/runs/simulation_run.h"

#include <nlohmann/json.hpp>

#include <iosfwd>
#include <string>

namespace npu::runner {

nlohmann::json simulationReport(const SimulationRunSummary& run);

void printSimulationSummary(const SimulationRunSummary& run, std::ostream& out);

// "llama on h200: step 812.40 ms, 9.8 samples/s, MFU 41.2 %, peak 61.3 of 141.0 GiB [ok]"
std::string oneLineSummary(const SimulationRunSummary& run);

}  // namespace npu::runner
