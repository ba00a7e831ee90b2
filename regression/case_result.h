#pragma once
// What one suite case came to: each metric's baseline, current value, delta and verdict,
// and the case's own status. evaluateCase computes it from the case's report; the suite
// report, the table, JUnit and the Regression panel read it.

#include "regression/suite.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace npu::regression {

enum class Verdict {
    pass,        // within tolerance and budgets
    newMetric,   // no baseline value yet (budgets still hold)
    updated,     // moved past the tolerance, and --update-baseline took the new value
    regression,  // moved past the tolerance
    budget,      // outside min/max
    error,       // the report has no such figure, or it is not a number
};
const char* verdictName(Verdict v);
std::optional<Verdict> verdictFromName(const std::string& name);
bool isFailure(Verdict v);  // regression or budget

struct MetricResult {
    std::string metric;              // as the suite names it ("ranks[*].comm_ratio")
    std::string path;                // concrete ("ranks[1].comm_ratio")
    std::optional<double> baseline;
    std::optional<double> now;
    Verdict verdict = Verdict::pass;
    std::string reason;              // why it failed: "+4.1 % > 2 %", "above max 6e+10"
    std::optional<double> delta() const;     // now - baseline
    std::optional<double> relDelta() const;  // (now - baseline) / |baseline|
};

enum class CaseStatus { pass, fail, error };
const char* caseStatusName(CaseStatus s);

struct CaseResult {
    int index = 0;
    std::string name;
    std::string kind;
    CaseStatus status = CaseStatus::pass;
    std::string error;         // the reason a case could not run (names file and key)
    std::string db;            // the run's .npudb (or .npuom for a convert case)
    std::string baselineDb;    // the baseline's run, when the baseline names one
    double wallMs = 0;
    std::vector<MetricResult> metrics;
};

struct BaselineCase {
    std::string db;                          // as written in the baseline (relative to it)
    std::map<std::string, double> metrics;   // concrete path -> value
};

// Holds the case's metrics against its report and baseline (null: none yet). A report
// whose "status" is not "ok" fails the case; a path that resolves to nothing makes the
// case an error.
CaseResult evaluateCase(const SuiteCase& c, const nlohmann::json& report, const BaselineCase* baseline, bool updating);

// 2 when a case could not run, 1 when a metric regressed or broke a budget, else 0.
int exitCodeOf(const std::vector<CaseResult>& cases);

nlohmann::json caseToJson(const CaseResult& c);
Expected<CaseResult> caseFromJson(const nlohmann::json& j, const std::string& where);

}  // namespace npu::regression
