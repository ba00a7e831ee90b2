#pragma once
// Report paths: how a suite names a figure of a JSON report. Keys joined by dots, array
// elements by index, every element by [*]: "step_time_ms", "memory.peak_bytes",
// "devices[0].comm_comp_overlap_pct", "communication.ranks[*].comm_ratio".

#include "base/expected.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace npu::regression {

struct PathStep {
    enum class Kind { key, index, every };
    Kind kind = Kind::key;
    std::string key;
    std::size_t index = 0;
};

Expected<std::vector<PathStep>> parseReportPath(const std::string& path);

struct ResolvedValue {
    std::string path;            // concrete: wildcards replaced by indexes ("ranks[1].comm_ratio")
    const nlohmann::json* value;
};

// Every value the path names in the report, in order; an error names the first step that
// does not exist ("devices[3]: the report has 2 devices").
Expected<std::vector<ResolvedValue>> resolveReportPath(const nlohmann::json& report, const std::string& path);

}  // namespace npu::regression
