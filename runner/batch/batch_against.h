#pragma once
// `npustudio --batch PROJECT.json --against TRACE|RUN.npudb [--fit OUT.json] [--report R.json]`:
// after the simulation (runner/batch/batch_simulate), the measured run is imported (a trace) or
// opened (a .npudb), both are grouped by op category (profiler/analysis/measured_comparison)
// and the table is printed; the report gains "against"; --fit writes the device-profile
// overlay that corrects each category (profiler/analysis/profile_fit).

#include "base/expected.h"
#include "runner/batch/command_line.h"
#include "engine/project/project.h"
#include "profiler/analysis/measured_comparison.h"
#include "runner/runs/simulation_run.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <iosfwd>
#include <memory>
#include <string>

namespace npu::profiler {
class ProfileDb;
}

namespace npu::runner {

// The measured run: a .npudb is opened as it is; a trace is imported next to the
// simulated run (dbDir/measured-<trace name>.npudb). Null with the error printed.
std::shared_ptr<profiler::ProfileDb> openMeasuredRun(const std::filesystem::path& traceOrDb,
                                                     const std::filesystem::path& dbDir, std::ostream& err);

// Lists a measured-<name>.npudb that openMeasuredRun imported under the project's Runs
// (runs/runs.json, source "imported"), as the simulated run is. Returns false (nothing
// recorded) when the user gave a .npudb, which is opened where it is, or when the db is
// outside the project's folder.
Expected<bool> recordMeasuredRun(engine::Project& project, const std::filesystem::path& traceOrDb,
                                 const profiler::ProfileDb& measured);

// The console table: step line, per-category rows, major groups.
void printMeasuredComparison(const profiler::MeasuredComparison& c, const std::string& measured, std::ostream& out);

// Adds report["against"], prints the table and writes --fit. Returns an exit code (0 ok).
int runAgainstMeasured(const engine::Project& project, const SimulationRunSummary& run,
                       const CommandLine& cmd, nlohmann::json& report, std::ostream& out, std::ostream& err);

}  // namespace npu::runner
