#pragma once
// The work behind Run > Simulate and File > Open trace, as plain functions a JobRunner
// runs off the GUI thread: they call the engine and profiler and describe the outcome.

#include "app/job_runner.h"
#include "engine/project/project.h"
#include "profiler/importers/trace_importer.h"

#include <filesystem>

namespace npu::app {

// Simulates the project and writes the run to dbPath, or (dbPath empty) to a new
// "sim-<time>" run in the project's runs/ folder named by the run function.
JobResult simulateToDatabase(const engine::Project& project, const std::filesystem::path& dbPath,
                             const std::string& runName, int steps, const Progress& progress);

// Imports a trace file or folder of per-rank traces into dbPath.
JobResult importToDatabase(const std::filesystem::path& trace, const std::filesystem::path& dbPath,
                           const Progress& progress, const profiler::ImportOptions& options = {});

}  // namespace npu::app
