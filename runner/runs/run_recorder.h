#pragma once
// Where a project's runs go and how they are listed: runs/<name>.npudb in the project
// folder, one RunEntry per run in runs/runs.json (engine/project/run_sidecar; saved
// atomically; project.json is not rewritten). Shared by the batch
// runner, the suites and the GUI (runner/runs/simulation_run) so all record runs the same
// way.

#include "base/expected.h"
#include "engine/project/project.h"

#include <filesystem>
#include <string>

namespace npu::runner {

// "sim-20261130-015301" (UTC, to the second; a suffix keeps names unique in dir).
std::string newRunName(const std::string& prefix, const std::filesystem::path& dir);
std::string isoTimestampUtc();

// The default folder for a project's runs.
std::filesystem::path runsFolder(const engine::Project& project);

// Adds the run to project.runs and to the project's runs/runs.json. Runs written outside the
// project's folder are not recorded (returns false), so CI runs with --out elsewhere do
// not modify a checked-in project. A db already listed keeps one entry (the new one).
Expected<bool> recordRun(engine::Project& project, const std::filesystem::path& dbPath, const std::string& runName,
                         const std::string& source);

}  // namespace npu::runner
