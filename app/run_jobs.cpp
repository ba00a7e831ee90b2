#include "app/run_jobs.h"

#include "runner/reports/simulation_report.h"
#include "profiler/importers/trace_importer.h"
#include "runner/runs/simulation_run.h"

namespace npu::app {

static QString qs(const std::string& s) { return QString::fromStdString(s); }

JobResult simulateToDatabase(const engine::Project& project, const std::filesystem::path& dbPath,
                             const std::string& runName, int steps, const Progress& progress) {
    // The GUI records the run itself, on its own thread, into the project it shows.
    engine::Project copy = project;
    runner::SimulationRunOptions options;
    options.steps = steps;
    options.db = dbPath;
    options.runName = runName;
    options.record = false;
    const runner::SimulationRun run = runner::runSimulation(copy, options, progress);
    if (run.outcome == runner::SimulationRun::Outcome::cancelled)
        return {JobResult::Outcome::cancelled, QStringLiteral("simulation cancelled"), {}, {}};
    if (run.outcome != runner::SimulationRun::Outcome::ok)
        return {JobResult::Outcome::failed, qs(run.error), {}, QStringLiteral("error")};
    JobResult out;
    out.dbPath = QString::fromStdString(run.summary.db.string());
    out.status = qs(run.summary.sim.status);
    out.message = qs(runner::oneLineSummary(run.summary));
    return out;
}

JobResult importToDatabase(const std::filesystem::path& trace, const std::filesystem::path& dbPath,
                           const Progress& progress, const profiler::ImportOptions& options) {
    auto summary = profiler::importTrace(trace, dbPath, options, progress);
    if (progress.cancelled()) return {JobResult::Outcome::cancelled, QStringLiteral("import cancelled"), {}, {}};
    if (!summary) return {JobResult::Outcome::failed, qs(summary.message()), {}, {}};
    JobResult out;
    out.dbPath = QString::fromStdString(dbPath.string());
    // Slices as the database counts them (instants are zero-length slices), so this line
    // and "Opened …: N slices" agree.
    out.message = QStringLiteral("imported %1 events (%2 slices of which %8 instants, %3 counters, %4 flows, %5 devices) in %6 s; %7 diagnostics")
                      .arg(summary->events)
                      .arg(summary->slices + summary->instants)
                      .arg(summary->counters)
                      .arg(summary->flows)
                      .arg(summary->devices)
                      .arg(summary->seconds, 0, 'f', 2)
                      .arg(summary->diagnostics)
                      .arg(summary->instants);
    return out;
}

}  // namespace npu::app
