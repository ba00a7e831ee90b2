#pragma once
// Small helpers the batch sub-commands share: writing the JSON report atomically and
// opening a run database with a message that names the file.

#include "profiler/store/profile_db.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <iosfwd>
#include <memory>

namespace npu::app {

// Writes the report (pretty-printed) if path is not empty; prints the error and
// returns false on failure.
bool writeReport(const std::filesystem::path& path, const nlohmann::json& report, std::ostream& err);

// Null (and the error printed) when the file is missing or not a profiling database.
std::shared_ptr<profiler::ProfileDb> openRun(const std::filesystem::path& path, std::ostream& err);

}  // namespace npu::app
