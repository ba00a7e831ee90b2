#include "regression/suite_report.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <ostream>
#include <sstream>

namespace npu::regression {

using nlohmann::json;

json suiteReportToJson(const SuiteReport& report) {
    json cases = json::array();
    int passed = 0, failed = 0, errors = 0;
    for (const auto& c : report.cases) {
        cases.push_back(caseToJson(c));
        (c.status == CaseStatus::pass ? passed : c.status == CaseStatus::fail ? failed : errors)++;
    }
    json j = {{"format", "npustudio-suite-report"},
              {"version", kSuiteReportVersion},
              {"suite", report.suite},
              {"cases", std::move(cases)},
              {"summary", {{"cases", report.cases.size()}, {"passed", passed}, {"failed", failed}, {"errors", errors}}},
              {"exit_code", exitCodeOf(report.cases)}};
    if (!report.baseline.empty()) j["baseline"] = report.baseline;
    if (!report.shards.empty()) j["shards"] = report.shards;
    return j;
}

Expected<SuiteReport> parseSuiteReport(const json& doc, const std::string& file) {
    auto bad = [&](const std::string& what) { return makeError(file + ": " + what); };
    if (!doc.is_object()) return bad("expected a suite report object");
    if (auto f = doc.find("format"); f == doc.end() || *f != "npustudio-suite-report")
        return bad("format: expected \"npustudio-suite-report\" (is this a suite report written with --report?)");
    auto v = doc.find("version");
    if (v == doc.end() || !v->is_number_integer() || v->get<std::int64_t>() < 1) return bad("version: expected a positive integer");
    if (v->get<std::int64_t>() > kSuiteReportVersion)
        return bad("suite report version " + std::to_string(v->get<std::int64_t>()) +
                   " is newer than this npustudio reads (version " + std::to_string(kSuiteReportVersion) + ")");
    SuiteReport r;
    if (auto s = doc.find("suite"); s != doc.end() && s->is_string()) r.suite = s->get<std::string>();
    if (auto b = doc.find("baseline"); b != doc.end() && b->is_string()) r.baseline = b->get<std::string>();
    if (auto sh = doc.find("shards"); sh != doc.end() && sh->is_array())
        for (const json& s : *sh)
            if (s.is_string()) r.shards.push_back(s.get<std::string>());
    auto cases = doc.find("cases");
    if (cases == doc.end() || !cases->is_array()) return bad("cases: expected an array");
    for (size_t i = 0; i < cases->size(); ++i) {
        auto c = caseFromJson((*cases)[i], file + ": cases[" + std::to_string(i) + "]");
        if (!c) return c.error();
        r.cases.push_back(std::move(*c));
    }
    return r;
}

Expected<SuiteReport> loadSuiteReport(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return makeError(file.string() + ": cannot open the suite report");
    std::stringstream text;
    text << in.rdbuf();
    try {
        return parseSuiteReport(json::parse(text.str()), file.string());
    } catch (const json::exception& e) {
        return makeError(file.string() + ": not valid JSON: " + e.what());
    }
}

Expected<SuiteReport> mergeSuiteReports(const std::vector<SuiteReport>& parts, const std::vector<std::string>& files) {
    SuiteReport all;
    if (parts.empty()) return makeError("--merge: no reports to merge");
    all.suite = parts.front().suite;
    all.baseline = parts.front().baseline;
    std::map<std::string, std::string> seen;  // case name -> file
    for (size_t i = 0; i < parts.size(); ++i) {
        const SuiteReport& p = parts[i];
        const std::string& file = i < files.size() ? files[i] : std::string("report ") + std::to_string(i + 1);
        if (p.suite != all.suite)
            return makeError(file + ": a report of suite " + p.suite + ", not of " + all.suite + " like " + files.front());
        for (const auto& c : p.cases) {
            auto [it, fresh] = seen.emplace(c.name, file);
            if (!fresh) return makeError(file + ": case \"" + c.name + "\" is also in " + it->second + " (overlapping shards?)");
            all.cases.push_back(c);
        }
        all.shards.insert(all.shards.end(), p.shards.begin(), p.shards.end());
    }
    std::stable_sort(all.cases.begin(), all.cases.end(), [](const CaseResult& a, const CaseResult& b) { return a.index < b.index; });
    std::sort(all.shards.begin(), all.shards.end());
    return all;
}

namespace {

std::string fmt(const std::optional<double>& v) {
    if (!v) return "-";
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.6g", *v);
    return buf;
}

std::string fmtDelta(const MetricResult& m) {
    auto d = m.delta();
    if (!d) return "-";
    char buf[64];
    if (auto rel = m.relDelta())
        std::snprintf(buf, sizeof buf, "%+.4g (%+.2f%%)", *d, 100 * *rel);
    else
        std::snprintf(buf, sizeof buf, "%+.4g", *d);
    return buf;
}

}  // namespace

void printSuiteTable(const std::vector<CaseResult>& cases, std::ostream& out) {
    size_t wCase = 4, wMetric = 6;
    for (const auto& c : cases) {
        wCase = std::max(wCase, c.name.size());
        for (const auto& m : c.metrics) wMetric = std::max(wMetric, m.path.size());
    }
    wCase = std::min<size_t>(wCase, 40);
    wMetric = std::min<size_t>(wMetric, 48);
    char line[512];
    auto row = [&](const std::string& a, const std::string& b, const std::string& c, const std::string& d,
                   const std::string& e, const std::string& f) {
        std::snprintf(line, sizeof line, "%-*s  %-*s  %14s  %14s  %22s  %s\n", int(wCase), a.c_str(), int(wMetric), b.c_str(),
                      c.c_str(), d.c_str(), e.c_str(), f.c_str());
        out << line;
    };
    row("case", "metric", "baseline", "now", "delta", "verdict");
    int passed = 0, failed = 0, errors = 0;
    for (const auto& c : cases) {
        if (c.status == CaseStatus::error && c.metrics.empty()) row(c.name, "-", "-", "-", "-", "error: " + c.error);
        for (const auto& m : c.metrics) {
            std::string verdict = verdictName(m.verdict);
            if (!m.reason.empty()) verdict += ": " + m.reason;
            row(c.name, m.path, fmt(m.baseline), fmt(m.now), fmtDelta(m), verdict);
        }
        if (c.status == CaseStatus::pass && c.metrics.empty()) row(c.name, "-", "-", "-", "-", "pass (ran)");
        (c.status == CaseStatus::pass ? passed : c.status == CaseStatus::fail ? failed : errors)++;
    }
    out << cases.size() << " case(s): " << passed << " passed, " << failed << " failed, " << errors << " could not run\n";
    for (const auto& c : cases)
        if (c.status != CaseStatus::pass)
            out << "  " << caseStatusName(c.status) << ": " << c.name << (c.error.empty() ? "" : " (" + c.error + ")") << "\n";
}

}  // namespace npu::regression
