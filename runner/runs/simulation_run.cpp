#include "runner/runs/simulation_run.h"

#include "engine/driver/simulate_project.h"
#include "runner/runs/run_recorder.h"
#include "profiler/store/profile_db.h"
#include "profiler/store/simulation_writer.h"

namespace npu::runner {

namespace fs = std::filesystem;

namespace {

SimulationRun failed(SimulationRun::Outcome outcome, std::string message) {
    SimulationRun run;
    run.outcome = outcome;
    run.error = std::move(message);
    return run;
}

std::vector<profiler::OpStatRow> topOpsByType(const fs::path& db) {
    auto opened = profiler::ProfileDb::open(db);
    if (!opened) return {};
    profiler::OpStatOptions options;
    options.grouping = profiler::OpGrouping::byType;
    std::vector<profiler::OpStatRow> rows = profiler::computeOpStatistics(**opened, options).rows;
    if (rows.size() > 10) rows.resize(10);
    return rows;
}

}  // namespace

SimulationRun runSimulation(engine::Project& project, const SimulationRunOptions& options, const Progress& progress) {
    engine::SimulationOptions simOptions;
    simOptions.steps = options.steps;
    simOptions.devicesDir = options.devicesDir;
    auto simulated = engine::simulateProject(project, simOptions, progress);
    if (progress.cancelled() || simulated.cancelled()) return failed(SimulationRun::Outcome::cancelled, "simulation cancelled");
    // The engine only returns an Error for input it cannot simulate (bad model config,
    // unknown device); an out-of-memory run comes back as a result.
    if (!simulated) return failed(SimulationRun::Outcome::badInput, simulated.message());
    const engine::SimulationResult& result = simulated.value();

    fs::path db = options.db;
    std::string runName = options.runName;
    if (db.empty()) {
        const fs::path dir = options.dir.empty() ? runsFolder(project) : options.dir;
        std::error_code ec;
        fs::create_directories(dir, ec);
        if (ec) return failed(SimulationRun::Outcome::writeFailed, "cannot create " + dir.string() + ": " + ec.message());
        if (runName.empty()) runName = newRunName("sim", dir);
        db = dir / (runName + ".npudb");
    } else if (runName.empty()) {
        runName = db.stem().string();
    }

    progress(0.95, "writing the profiling database");
    const profiler::SimulationRunInfo info{project.name, project.file.string(), runName};
    if (Status st = profiler::writeSimulation(result, info, db); !st)
        return failed(SimulationRun::Outcome::writeFailed, "cannot write " + db.string() + ": " + st.message());

    SimulationRun run;
    SimulationRunSummary& s = run.summary;
    s.sim = result.summary;
    if (!result.devices.empty()) s.peakByRole = result.devices.front().peak_by_role;
    s.graphLevel = result.graph_level;
    s.kernelsPerStep = result.kernels_per_step;
    s.graphScope = result.graph_scope;
    s.passes = result.passes;
    s.steps = result.steps.size();
    s.topOps = topOpsByType(db);
    s.projectName = project.name;
    s.projectFile = project.file.string();
    s.runName = runName;
    s.db = db;
    if (options.record) {
        auto recorded = recordRun(project, db, runName, "simulated");
        if (recorded) s.recorded = *recorded;
        else s.recordWarning = recorded.message();
    }
    return run;
}

}  // namespace npu::runner
