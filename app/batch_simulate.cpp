#include "app/batch_simulate.h"

#include "app/batch_io.h"
#include "app/batch_runner.h"
#include "app/run_recorder.h"
#include "app/simulation_report.h"
#include "engine/pipeline/simulation_pipeline.h"
#include "profiler/store/simulation_writer.h"

#include <ostream>

namespace npu::app {

namespace fs = std::filesystem;

int runBatchSimulate(const CommandLine& cmd, std::ostream& out, std::ostream& err) {
    const fs::path projectFile = cmd.positional.front().toStdString();
    auto loaded = engine::loadProject(projectFile);
    if (!loaded) {
        err << "npustudio: " << loaded.message() << "\n";
        return kExitBadInput;
    }
    engine::Project project = std::move(loaded).value();

    engine::SimulationOptions options;
    options.steps = cmd.steps;
    auto simulated = engine::simulateProject(project, options);
    if (!simulated) {
        // The engine only returns an Error for input it cannot simulate (bad model
        // config, unknown device); an out-of-memory run comes back as a result.
        err << "npustudio: " << simulated.message() << "\n";
        return kExitBadInput;
    }
    const engine::SimulationResult& result = simulated.value();

    const fs::path dir = cmd.out.isEmpty() ? runsFolder(project) : fs::path(cmd.out.toStdString());
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) {
        err << "npustudio: cannot create " << dir.string() << ": " << ec.message() << "\n";
        return kExitBadInput;
    }
    const std::string runName = newRunName("sim", dir);
    const fs::path db = dir / (runName + ".npudb");
    profiler::SimulationRunInfo info{project.name, project.file.string(), runName};
    if (Status st = profiler::writeSimulation(result, info, db); !st) {
        err << "npustudio: cannot write " << db.string() << ": " << st.message() << "\n";
        return kExitRunFailed;
    }

    profiler::OpStatistics byType;
    if (auto opened = openRun(db, err)) {
        profiler::OpStatOptions so;
        so.grouping = profiler::OpGrouping::byType;
        byType = profiler::computeOpStatistics(*opened, so);
    }
    auto recorded = recordRun(project, db, runName, "simulated");
    if (!recorded) err << "npustudio: warning: run not added to the project: " << recorded.message() << "\n";

    nlohmann::json report = simulationReport(result, byType, db.string(), project.file.string());
    report["project_name"] = project.name;
    printSimulationSummary(report, out);
    if (!writeReport(cmd.report.toStdString(), report, err)) return kExitBadInput;
    return result.summary.status == "ok" ? kExitOk : kExitRunFailed;
}

}  // namespace npu::app
