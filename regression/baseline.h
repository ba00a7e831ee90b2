#pragma once
// The baseline a suite's tolerances compare against (docs/regression-suites.md):
// per case, each metric's concrete path and value, and the run the values came from.
// --update-baseline rewrites it atomically, keeping the cases this run did not touch
// (other shards).

#include "regression/case_result.h"

#include <filesystem>
#include <map>
#include <string>

namespace npu::regression {

inline constexpr int kBaselineFormatVersion = 1;

struct Baseline {
    std::map<std::string, BaselineCase> cases;  // by case name
};

Expected<Baseline> parseBaseline(const nlohmann::json& doc, const std::string& fileForMessages);
Expected<Baseline> loadBaseline(const std::filesystem::path& file);
nlohmann::json baselineToJson(const Baseline& baseline);
Status saveBaseline(const Baseline& baseline, const std::filesystem::path& file);

// Takes the case's current values (not for a case that could not run). The run is
// named relative to the baseline's folder when it lies inside it, else not at all: a
// baseline should not point at a temporary folder.
void updateBaseline(Baseline& baseline, const CaseResult& result, const std::filesystem::path& baselineFile);

// The baseline run's path as the report shows it (resolved against the baseline's folder).
std::string resolveBaselineDb(const BaselineCase& c, const std::filesystem::path& baselineFile);

}  // namespace npu::regression
