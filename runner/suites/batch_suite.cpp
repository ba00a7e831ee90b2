#include "runner/suites/batch_suite.h"

#include "runner/batch/batch_io.h"
#include "runner/batch/batch_runner.h"
#include "runner/suites/junit_writer.h"
#include "runner/suites/suite_case_runner.h"
#include "base/atomic_file.h"
#include "regression/baseline.h"
#include "regression/suite_report.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <ostream>
#include <sstream>
#include <thread>

namespace npu::runner {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace npu::regression;

bool isSuiteFile(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return false;
    std::stringstream text;
    text << in.rdbuf();
    const json doc = json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
    return !doc.is_discarded() && looksLikeSuite(doc);
}

namespace {

bool writeJunit(const std::string& path, const std::string& suiteName, const std::vector<CaseResult>& cases,
                std::ostream& err) {
    if (path.empty()) return true;
    if (Status st = writeFileAtomically(path, junitXml(suiteName, cases)); !st) {
        err << "npustudio: cannot write " << path << ": " << st.message() << "\n";
        return false;
    }
    return true;
}

// Runs the cases on `jobs` threads; each worker takes the next case index, so results
// land in their own slots and nothing else is shared.
std::vector<CaseResult> runCases(const std::vector<SuiteCase>& cases, const fs::path& outDir, const Baseline& baseline,
                                 const fs::path& baselineFile, bool updating, int jobs, std::ostream& err) {
    std::vector<CaseResult> results(cases.size());
    std::atomic<size_t> next{0};
    std::atomic<size_t> done{0};
    std::mutex progressMutex;
    auto worker = [&] {
        for (size_t i = next++; i < cases.size(); i = next++) {
            const SuiteCase& c = cases[i];
            const auto start = std::chrono::steady_clock::now();
            const SuiteCaseRun run = runSuiteCase(c, outDir);
            const BaselineCase* base = nullptr;
            if (auto it = baseline.cases.find(c.name); it != baseline.cases.end()) base = &it->second;
            CaseResult r;
            if (run.ran) {
                r = evaluateCase(c, run.report, base, updating);
            } else {
                r.index = c.index;
                r.name = c.name;
                r.kind = caseKindName(c.kind);
                r.status = CaseStatus::error;
                r.error = run.error;
            }
            // Absolute, so the report opens from anywhere (the Regression panel).
            std::error_code ec;
            if (!run.db.empty()) r.db = fs::absolute(run.db, ec).lexically_normal().string();
            if (base && !base->db.empty())
                r.baselineDb = fs::absolute(resolveBaselineDb(*base, baselineFile), ec).lexically_normal().string();
            r.wallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
            results[i] = std::move(r);
            // Progress on stderr: a long suite in CI shows it is alive and where it is.
            std::lock_guard lock(progressMutex);
            char line[64];
            std::snprintf(line, sizeof line, "[%zu/%zu] ", ++done, cases.size());
            err << line << c.name << ": " << caseStatusName(results[i].status) << " ("
                << int(results[i].wallMs) << " ms)\n";
            err.flush();
        }
    };
    const int threads = std::max(1, std::min<int>(jobs, int(cases.size())));
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
    worker();
    for (auto& t : pool) t.join();
    return results;
}

fs::path defaultOutDir(const fs::path& suiteFile) { return fs::path(suiteFile.stem().string() + "-runs"); }

}  // namespace

int runBatchSuite(const CommandLine& cmd, std::ostream& out, std::ostream& err) {
    const fs::path suiteFile = cmd.positional.front();
    auto suite = loadSuite(suiteFile);
    if (!suite) {
        err << "npustudio: " << suite.message() << "\n";
        return kExitBadInput;
    }
    const fs::path baselineFile = cmd.baseline;
    if (cmd.updateBaseline && baselineFile.empty()) {
        err << "npustudio: --update-baseline needs --baseline FILE (the file to write)\n";
        return kExitBadInput;
    }
    Baseline baseline;
    std::error_code ec;
    if (!baselineFile.empty() && (fs::exists(baselineFile, ec) || !cmd.updateBaseline)) {
        auto loaded = loadBaseline(baselineFile);
        if (!loaded) {
            err << "npustudio: " << loaded.message() << "\n";
            return kExitBadInput;
        }
        baseline = std::move(*loaded);
    }
    const std::vector<SuiteCase> cases = shardCases(suite->cases, cmd.shardIndex, cmd.shardCount);
    const fs::path outDir = cmd.out.empty() ? defaultOutDir(suiteFile) : fs::path(cmd.out);

    SuiteReport report;
    report.suite = suiteFile.string();
    report.baseline = baselineFile.string();
    if (cmd.shardCount > 1) report.shards.push_back(std::to_string(cmd.shardIndex) + "/" + std::to_string(cmd.shardCount));
    report.cases = runCases(cases, outDir, baseline, baselineFile, cmd.updateBaseline, cmd.jobs, err);

    printSuiteTable(report.cases, out);
    int code = exitCodeOf(report.cases);
    if (cmd.updateBaseline) {
        for (const auto& c : report.cases) updateBaseline(baseline, c, baselineFile);
        if (Status st = saveBaseline(baseline, baselineFile); !st) {
            err << "npustudio: cannot write the baseline " << baselineFile.string() << ": " << st.message() << "\n";
            code = kExitBadInput;
        } else {
            out << "baseline updated: " << baselineFile.string() << "\n";
        }
    }
    if (!writeReport(cmd.report, suiteReportToJson(report), err)) return kExitBadInput;
    if (!writeJunit(cmd.junit, suiteFile.stem().string(), report.cases, err)) return kExitBadInput;
    return code;
}

int runBatchMerge(const CommandLine& cmd, std::ostream& out, std::ostream& err) {
    if (cmd.positional.empty()) {
        err << "npustudio: --merge needs suite reports: --merge R1.json R2.json ... --report ALL.json\n";
        return kExitBadInput;
    }
    std::vector<SuiteReport> parts;
    std::vector<std::string> files;
    for (const std::string& file : cmd.positional) {
        auto part = loadSuiteReport(file);
        if (!part) {
            err << "npustudio: " << part.message() << "\n";
            return kExitBadInput;
        }
        parts.push_back(std::move(*part));
        files.push_back(file);
    }
    auto merged = mergeSuiteReports(parts, files);
    if (!merged) {
        err << "npustudio: " << merged.message() << "\n";
        return kExitBadInput;
    }
    printSuiteTable(merged->cases, out);
    if (!writeReport(cmd.report, suiteReportToJson(*merged), err)) return kExitBadInput;
    if (!writeJunit(cmd.junit, fs::path(merged->suite).stem().string(), merged->cases, err)) return kExitBadInput;
    return exitCodeOf(merged->cases);
}

}  // namespace npu::runner
