#pragma once
// Saving a project without rewriting what its author did not change: the file as loaded
// (Project::source) is patched with the differences between the project as loaded and as
// it is now, key by key, so the keys keep their order and place, untouched sections their
// spelling (parallel_strategy stays parallel_strategy), and the text its indentation. The
// run list is not part of it: runs are recorded in runs/runs.json (engine/project/
// run_sidecar), so a sample in the repository stays as it is.

#include "engine/project/project.h"

#include <string>

namespace npu::engine {

// The text saveProject writes for `project` (the whole document for a project not loaded
// from a JSON file).
std::string projectFileText(const Project& project);
// The whole document as projectToJson gives it (a new file, or a save to another file).
std::string wholeProjectText(const Project& project);

}  // namespace npu::engine
