#pragma once
// Runs one regression-suite case through the same functions `--batch` uses (the one
// simulation run, the ONNX converter, the trace importer) and returns its JSON report,
// which regression::evaluateCase then holds to the baseline. No Qt, no shared mutable
// state: cases run on worker threads side by side.

#include "regression/suite.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

namespace npu::runner {

struct SuiteCaseRun {
    bool ran = false;      // false: the case could not run (error says why)
    std::string error;
    nlohmann::json report;
    std::string db;        // the run's .npudb (.npuom for a convert case)
};

// Outputs go to outDir/<case name>/ under fixed names, so a suite run twice writes the
// same files.
SuiteCaseRun runSuiteCase(const regression::SuiteCase& c, const std::filesystem::path& outDir);

// The project's JSON with each "a.b.c": value of set written in; intermediate objects are
// created, a non-object on the way is an error naming the key.
Status applyProjectOverrides(nlohmann::json& project, const nlohmann::json& set);

}  // namespace npu::runner
