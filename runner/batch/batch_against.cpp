#include "runner/batch/batch_against.h"

#include "runner/batch/batch_io.h"
#include "runner/batch/batch_runner.h"
#include "runner/runs/run_recorder.h"
#include "engine/cost/device_profile.h"
#include "engine/driver/simulate_project.h"
#include "profiler/analysis/profile_fit.h"
#include "profiler/importers/trace_importer.h"
#include "profiler/store/profile_db.h"

#include <cstdio>
#include <ostream>

namespace npu::runner {

namespace fs = std::filesystem;

std::shared_ptr<profiler::ProfileDb> openMeasuredRun(const fs::path& traceOrDb, const fs::path& dbDir, std::ostream& err) {
    std::error_code ec;
    if (!fs::exists(traceOrDb, ec)) {
        err << "npustudio: --against: " << traceOrDb.string() << ": no such trace or run\n";
        return nullptr;
    }
    if (traceOrDb.extension() == ".npudb") return openRun(traceOrDb, err);
    std::string stem = traceOrDb.filename().string();
    for (const char* ext : {".gz", ".json"})
        if (stem.size() > std::string(ext).size() && stem.ends_with(ext)) stem.resize(stem.size() - std::string(ext).size());
    const fs::path db = dbDir / ("measured-" + stem + ".npudb");
    auto imported = profiler::importTrace(traceOrDb, db);
    if (!imported) {
        err << "npustudio: --against: " << imported.message() << "\n";
        return nullptr;
    }
    return openRun(db, err);
}

Expected<bool> recordMeasuredRun(engine::Project& project, const fs::path& traceOrDb, const profiler::ProfileDb& measured) {
    if (traceOrDb.extension() == ".npudb") return false;
    return recordRun(project, measured.path(), measured.path().stem().string(), "imported");
}

void printMeasuredComparison(const profiler::MeasuredComparison& c, const std::string& measured, std::ostream& out) {
    char line[256];
    auto ms = [](std::int64_t ns) { return double(ns) / 1e6; };
    out << "Against measured run: " << measured << "\n";
    std::snprintf(line, sizeof line,
                  "  step: simulated %.2f ms (device busy %.2f ms), measured %.2f ms (device busy %.2f ms, idle %.2f ms)\n",
                  ms(c.step.simulated_ns), ms(c.step.simulated_busy_ns), ms(c.step.measured_ns),
                  ms(c.step.measured_busy_ns), ms(c.step.measured_idle_ns));
    out << line;
    auto table = [&](const char* title, const std::vector<profiler::MeasuredCategoryRow>& rows) {
        std::snprintf(line, sizeof line, "  %-14s %8s %8s %11s %11s %8s\n", title, "sim n", "meas n", "sim ms",
                      "meas ms", "error");
        out << line;
        for (const auto& r : rows) {
            char err[16] = "-";
            if (r.measured_ns > 0) std::snprintf(err, sizeof err, "%+.1f%%", 100 * r.error());
            std::snprintf(line, sizeof line, "  %-14s %8lld %8lld %11.3f %11.3f %8s\n", r.name.c_str(),
                          (long long)r.simulated_count, (long long)r.measured_count, ms(r.simulated_ns),
                          ms(r.measured_ns), err);
            out << line;
        }
    };
    table("category", c.categories);
    table("major", c.majorGroups);
}

int runAgainstMeasured(const engine::Project& project, const SimulationRunSummary& run, const CommandLine& cmd,
                       nlohmann::json& report, std::ostream& out, std::ostream& err) {
    auto simulated = openRun(run.db, err);
    if (!simulated) return kExitRunFailed;
    const fs::path against = cmd.against;
    auto measured = openMeasuredRun(against, run.db.parent_path(), err);
    if (!measured) return kExitBadInput;
    engine::Project recorded = project;  // the run list is all that changes
    if (auto listed = recordMeasuredRun(recorded, against, *measured); !listed)
        err << "npustudio: --against: " << measured->path().string() << " not added to the project's runs: "
            << listed.message() << "\n";
    const profiler::MeasuredComparison c = profiler::compareWithMeasured(*simulated, *measured);
    printMeasuredComparison(c, against.string(), out);
    report["against"] = profiler::measuredComparisonReport(c);
    report["against"]["measured"] = against.string();
    report["against"]["measured_db"] = measured->path().string();
    if (cmd.fit.empty()) return kExitOk;
    auto profile = engine::loadDeviceProfile(project.device, engine::defaultDevicesDir(),
                                             project.file.empty() ? fs::path() : project.file.parent_path());
    if (!profile) {
        err << "npustudio: --fit: " << profile.message() << "\n";
        return kExitBadInput;
    }
    const nlohmann::json overlay = profiler::fitProfileOverlay(c, *profile, against.filename().string());
    if (!writeReport(cmd.fit, overlay, err)) return kExitBadInput;
    out << "  fitted overlay: " << cmd.fit << " (device \"" << profile->name << "+"
        << cmd.fit << "\")\n";
    return kExitOk;
}

}  // namespace npu::runner
