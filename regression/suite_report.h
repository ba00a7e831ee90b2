#pragma once
// The suite report (--report): every case's metrics and verdicts, a summary and the exit
// code, written by a suite run or by --merge from shard reports. Also the plain-text
// table printed on stdout. Keys in docs/regression-suites.md.

#include "regression/case_result.h"

#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

namespace npu::regression {

inline constexpr int kSuiteReportVersion = 1;

struct SuiteReport {
    std::string suite;                 // the suite file as given
    std::string baseline;              // the baseline file, "" when none
    std::vector<std::string> shards;   // "K/N" of each shard it holds; empty: the whole suite
    std::vector<CaseResult> cases;     // by index
};

nlohmann::json suiteReportToJson(const SuiteReport& report);
Expected<SuiteReport> parseSuiteReport(const nlohmann::json& doc, const std::string& fileForMessages);
Expected<SuiteReport> loadSuiteReport(const std::filesystem::path& file);

// Joins shard reports of one suite; refuses reports of different suites and a case that
// appears twice.
Expected<SuiteReport> mergeSuiteReports(const std::vector<SuiteReport>& parts, const std::vector<std::string>& files);

// case, metric, baseline, now, delta, verdict: one line per metric value, failures named
// first in a closing summary line.
void printSuiteTable(const std::vector<CaseResult>& cases, std::ostream& out);

}  // namespace npu::regression
