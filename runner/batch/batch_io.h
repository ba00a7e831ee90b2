#pragma once
// Small helpers the batch sub-commands share: writing the JSON report atomically,
// opening a run database with a message that names the file, and progress on stderr.

#include "base/progress.h"
#include "engine/project/project.h"
#include "profiler/store/profile_db.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <iosfwd>
#include <memory>
#include <optional>

namespace npu::runner {

// Writes the report (pretty-printed) if path is not empty; prints the error and
// returns false on failure.
bool writeReport(const std::filesystem::path& path, const nlohmann::json& report, std::ostream& err);

// The project, its load notices printed as notes; nothing (and the error printed) when
// it does not load.
std::optional<engine::Project> loadBatchProject(const std::filesystem::path& path, std::ostream& err);

// Null (and the error printed) when the file is missing or not a profiling database.
std::shared_ptr<profiler::ProfileDb> openRun(const std::filesystem::path& path, std::ostream& err);

// Progress for a long batch run, on stderr so stdout stays the summary: the first stage,
// then a stage that starts at least half a second after the last line printed, each as
// "npustudio: 42 % building model graph (1.3 s)". Not thread-safe: one run per callback.
Progress stderrProgress(std::ostream& err);

}  // namespace npu::runner
