#include "runner/batch/batch_import.h"

#include "base/units.h"
#include "runner/batch/batch_io.h"
#include "runner/batch/batch_runner.h"
#include "runner/reports/simulation_report.h"
#include "profiler/analysis/run_report.h"
#include "profiler/importers/cluster/rank_merge.h"
#include "profiler/importers/trace_importer.h"

#include <cstdio>
#include <ostream>

namespace npu::runner {

namespace fs = std::filesystem;
using nlohmann::json;

fs::path importDbFileName(const fs::path& trace) {
    // absolute + normal: "folder/", "." and "run/.." name the folder itself.
    fs::path p = fs::absolute(trace).lexically_normal();
    while (!p.empty() && p.filename().empty() && p != p.root_path()) p = p.parent_path();
    if (p.filename().empty()) return "import.npudb";  // the root folder
    std::error_code ec;
    if (fs::is_directory(p, ec)) return p.filename().string() + ".npudb";
    fs::path name = p.filename();
    if (name.extension() == ".gz") name.replace_extension();
    return name.replace_extension(".npudb");
}

fs::path besideImportDb(const fs::path& trace) {
    fs::path p = fs::absolute(trace).lexically_normal();
    while (!p.empty() && p.filename().empty() && p != p.root_path()) p = p.parent_path();
    return p.parent_path() / importDbFileName(trace);
}

// Without --out the .npudb goes to the current folder, never beside the input: profiler
// output is often read-only or someone else's (a shared capture, a vendor's sample set),
// and a batch run should write where it runs, as `nsys profile` writes report1.nsys-rep
// and compilers a.out. The summary's "db:" line says where it went.
fs::path defaultImportDb(const fs::path& trace) { return fs::current_path() / importDbFileName(trace); }

static void printImportSummary(const json& r, std::ostream& out) {
    char line[256];
    out << "NPU Studio import: " << r.value("trace", std::string()) << "  [" << r.value("status", std::string()) << "]\n";
    std::snprintf(line, sizeof line, "  events %lld, slices %lld, counters %lld, flows %lld, in %.2f s\n",
                  (long long)r.value("events", 0LL), (long long)r.value("slices", 0LL),
                  (long long)r.value("counters", 0LL), (long long)r.value("flows", 0LL), r.value("seconds", 0.0));
    out << line;
    for (const json& d : r.value("devices", json::array())) {
        std::snprintf(line, sizeof line,
                      "  %-12s %6lld kernels  kernel time %9.3f ms  idle %8.3f ms  compute %9.3f ms  overlap %5.1f %%  "
                      "peak %s\n",
                      d.value("name", std::string()).c_str(), (long long)d.value("kernels", 0LL),
                      d.value("kernel_time_us", 0.0) / 1e3, d.value("idle_us", 0.0) / 1e3,
                      d.value("compute_us", 0.0) / 1e3, d.value("comm_comp_overlap_pct", 0.0),
                      d.contains("peak_allocated_bytes") && d["peak_allocated_bytes"].is_number()
                          ? units::bytes(d["peak_allocated_bytes"].get<double>()).c_str()
                          : "—");  // no memory events: not measured
        out << line;
    }
    // A run without a timeline (msprof-analyze's cluster analysis): what it holds instead.
    const json steps = r.value("step_breakdown", json::array()), comm = r.value("communication", json::object());
    if (r.value("devices", json::array()).empty() && (!steps.empty() || !comm.empty())) {
        std::snprintf(line, sizeof line, "  no timeline; step breakdown %zu row(s), communication ops of %zu rank(s), %zu link(s)\n",
                      steps.size(), comm.value("ranks", json::array()).size(), comm.value("matrix", json::array()).size());
        out << line;
    }
    const json top = r.value("top_kernels", json::array());
    if (!top.empty()) out << "  top kernels by time:\n";
    for (size_t i = 0; i < top.size() && i < 5; ++i) {
        std::string name = top[i].value("name", std::string());
        if (name.size() > 60) name = name.substr(0, 57) + "...";
        std::snprintf(line, sizeof line, "    %-60s %6lld x %10.3f ms %5.1f %%\n", name.c_str(),
                      (long long)top[i].value("count", 0LL), top[i].value("total_us", 0.0) / 1e3,
                      100.0 * top[i].value("share", 0.0));
        out << line;
    }
    long long problems = 0;
    for (const json& d : r.value("diagnostics", json::array())) problems += d.value("count", 0LL);
    if (problems > 0) out << "  diagnostics: " << problems << " odd event(s), see the report or the Diagnostics tab\n";
    for (const json& d : r.value("diagnostics", json::array()))
        if (d.value("kind", std::string()) == "truncated")
            out << "  warning: the trace is cut: " << d.value("example", std::string())
                << " (--strict refuses a cut trace)\n";
    out << "  db: " << r.value("db", std::string()) << "\n";
}

static int reportImport(const fs::path& db, const std::string& what, double seconds, const CommandLine& cmd, std::ostream& out,
                        std::ostream& err) {
    auto opened = openRun(db, err);
    if (!opened) return kExitRunFailed;
    json report = profiler::runReport(*opened, 20, cmd.htaCompat);
    report["status"] = "ok";
    report["trace"] = what;
    report["db"] = db.string();
    report["seconds"] = seconds;
    printImportSummary(report, out);
    return writeReport(cmd.report, report, err) ? kExitOk : kExitBadInput;
}

int runBatchImport(const CommandLine& cmd, std::ostream& out, std::ostream& err) {
    const fs::path trace = cmd.importPath;
    std::error_code ec;
    if (!fs::exists(trace, ec)) {
        err << "npustudio: " << trace.string() << ": no such trace file or folder\n";
        return kExitBadInput;
    }
    const fs::path db = cmd.out.empty() ? defaultImportDb(trace) : fs::path(cmd.out);
    profiler::ImportOptions options;
    options.alignRanksAtStepStart = cmd.alignRanks;
    options.refuseTruncated = cmd.strict;
    auto summary = profiler::importTrace(trace, db, options);
    if (!summary) {
        err << "npustudio: " << summary.message() << "\n";
        if (cmd.out.empty()) err << "npustudio: (no --out: the run was to be " << db.string() << "; pass --out RUN.npudb)\n";
        return kExitBadInput;
    }
    return reportImport(db, trace.string(), summary->seconds, cmd, out, err);
}

int runBatchRankMerge(const CommandLine& cmd, std::ostream& out, std::ostream& err) {
    if (cmd.out.empty()) {
        err << "npustudio: --merge of one-rank imports needs --out CLUSTER.npudb\n";
        return kExitBadInput;
    }
    std::vector<fs::path> shards(cmd.positional.begin(), cmd.positional.end());
    profiler::ImportOptions options;
    options.alignRanksAtStepStart = cmd.alignRanks;
    auto summary = profiler::mergeRankDatabases(shards, fs::path(cmd.out), options);
    if (!summary) {
        err << "npustudio: " << summary.message() << "\n";
        return kExitBadInput;
    }
    return reportImport(cmd.out, "merge of " + std::to_string(shards.size()) + " rank imports", summary->seconds, cmd, out, err);
}

}  // namespace npu::runner
