#include "app/run_jobs.h"

#include "engine/pipeline/simulation_pipeline.h"
#include "profiler/importers/trace_importer.h"
#include "profiler/store/simulation_writer.h"

namespace npu::app {

static QString qs(const std::string& s) { return QString::fromStdString(s); }

JobResult simulateToDatabase(const engine::Project& project, const std::filesystem::path& dbPath,
                             const std::string& runName, int steps, const Progress& progress) {
    engine::SimulationOptions options;
    options.steps = steps;
    auto result = engine::simulateProject(project, options, progress);
    if (progress.cancelled()) return {JobResult::Outcome::cancelled, QStringLiteral("simulation cancelled"), {}, {}};
    if (!result) return {JobResult::Outcome::failed, qs(result.message()), {}, QStringLiteral("error")};

    progress(0.95, "writing the profiling database");
    const profiler::SimulationRunInfo info{project.name, project.file.string(), runName};
    if (Status st = profiler::writeSimulation(*result, info, dbPath); !st)
        return {JobResult::Outcome::failed, qs(st.message()), {}, QStringLiteral("error")};

    const engine::SimSummary& s = result->summary;
    JobResult out;
    out.dbPath = QString::fromStdString(dbPath.string());
    out.status = qs(s.status);
    out.message = QStringLiteral("%1 on %2: step %3 ms, %4 samples/s, MFU %5 %, peak %6 of %7 GiB [%8]")
                      .arg(qs(s.model), qs(s.device))
                      .arg(s.step_time_ms, 0, 'f', 2)
                      .arg(s.samples_per_s, 0, 'f', 1)
                      .arg(100 * s.mfu, 0, 'f', 1)
                      .arg(double(s.peak_bytes) / (1 << 30), 0, 'f', 1)
                      .arg(double(s.capacity_bytes) / (1 << 30), 0, 'f', 1)
                      .arg(qs(s.status));
    if (!s.message.empty()) out.message += QStringLiteral(": ") + qs(s.message);
    return out;
}

JobResult importToDatabase(const std::filesystem::path& trace, const std::filesystem::path& dbPath,
                           const Progress& progress) {
    auto summary = profiler::importTrace(trace, dbPath, {}, progress);
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
