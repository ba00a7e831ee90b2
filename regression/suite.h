#pragma once
// A regression suite (docs/regression-suites.md): cases to run headless, each with the
// report metrics it holds to a baseline (rel/abs tolerance) and/or budgets (min/max).
// Loading checks everything up front: unknown keys, bad values and missing files are
// errors naming the suite file, the case and the key, all listed at once.

#include "base/expected.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace npu::regression {

inline constexpr int kSuiteFormatVersion = 1;

struct MetricSpec {
    std::string path;             // report path: "memory.peak_bytes", "ranks[*].comm_ratio", "devices[0].x"
    std::optional<double> rel;    // |now - baseline| <= abs + rel * |baseline|
    std::optional<double> abs;
    std::optional<double> min;    // budgets, independent of the baseline
    std::optional<double> max;
    bool hasTolerance() const { return rel.has_value() || abs.has_value(); }
};

enum class CaseKind { project, convert, import };
const char* caseKindName(CaseKind kind);

struct SuiteCase {
    int index = 0;                         // position in the suite (shards and merges keep the order)
    std::string name;                      // unique in the suite
    CaseKind kind = CaseKind::project;
    std::filesystem::path input;           // project.json, model.onnx, or trace / .npudb (resolved)
    nlohmann::json set = nlohmann::json::object();  // project overrides: "training.batch" -> 16
    int steps = 1;                         // project: training steps to simulate
    std::vector<std::string> inputShapes;  // convert: "NAME:D1,D2"
    std::vector<MetricSpec> metrics;       // in the order written (sorted by path)
};

struct Suite {
    std::filesystem::path file;
    int version = kSuiteFormatVersion;
    std::vector<SuiteCase> cases;
};

// True when a JSON document looks like a suite rather than a project: it has "cases" or
// "format": "npustudio-suite". Lets `--batch FILE.json` pick the mode.
bool looksLikeSuite(const nlohmann::json& doc);

// Paths are resolved against folder (the suite file's folder); files are checked to exist
// when checkFiles is set (the fuzz target does not touch the disk).
Expected<Suite> parseSuite(const nlohmann::json& doc, const std::string& fileForMessages,
                           const std::filesystem::path& folder, bool checkFiles = true);
Expected<Suite> loadSuite(const std::filesystem::path& file);

// Every shard-th case from index k (1-based k of n, as "--shard K/N" reads).
std::vector<SuiteCase> shardCases(const std::vector<SuiteCase>& cases, int k, int n);

}  // namespace npu::regression
