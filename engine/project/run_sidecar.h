#pragma once
// The runs of a project as the app and --batch record them: runs/runs.json in the
// project's folder ({"format": "npustudio-runs", "version": 1, "runs": [RunEntry...]}),
// beside the runs' .npudb files, so recording a run never rewrites project.json (runs/ is
// not tracked: a sample in the repository stays pristine). Written atomically.

#include "base/expected.h"
#include "engine/project/project.h"

#include <filesystem>
#include <string>
#include <vector>

namespace npu::engine {

// A run list (project.json's "runs", the sidecar's) read into `runs`; errors name file and key.
Status parseRunList(const nlohmann::json& list, const std::string& file, const std::string& key, std::vector<RunEntry>& runs);
nlohmann::json runListToJson(const std::vector<RunEntry>& runs);

std::filesystem::path runSidecarPath(const std::filesystem::path& projectFolder);

// Appends the sidecar's runs (none when there is no sidecar) to `runs`, skipping any whose
// db is already listed. Errors name the sidecar, the key and what was expected.
Status readRunSidecar(const std::filesystem::path& projectFolder, std::vector<RunEntry>& runs);

// Adds one run to the sidecar, creating it (and runs/) when missing.
Status appendRunToSidecar(const std::filesystem::path& projectFolder, const RunEntry& run);

}  // namespace npu::engine
