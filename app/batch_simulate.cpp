#include "app/batch_simulate.h"

#include "app/batch_against.h"
#include "app/batch_io.h"
#include "app/batch_runner.h"
#include "app/simulation_report.h"
#include "profiler/runs/simulation_run.h"

#include <ostream>

namespace npu::app {

int runBatchSimulate(const CommandLine& cmd, std::ostream& out, std::ostream& err) {
    auto loaded = engine::loadProject(cmd.positional.front());
    if (!loaded) {
        err << "npustudio: " << loaded.message() << "\n";
        return kExitBadInput;
    }
    engine::Project project = std::move(loaded).value();

    profiler::SimulationRunOptions options;
    options.steps = cmd.steps;
    if (!cmd.out.empty()) options.dir = cmd.out;
    const profiler::SimulationRun run = profiler::runSimulation(project, options, stderrProgress(err));
    switch (run.outcome) {
    case profiler::SimulationRun::Outcome::ok: break;
    case profiler::SimulationRun::Outcome::badInput:
        err << "npustudio: " << run.error << "\n";
        return kExitBadInput;
    case profiler::SimulationRun::Outcome::writeFailed:
    case profiler::SimulationRun::Outcome::cancelled:
        err << "npustudio: " << run.error << "\n";
        return kExitRunFailed;
    }
    if (!run.summary.recordWarning.empty())
        err << "npustudio: warning: run not added to the project: " << run.summary.recordWarning << "\n";

    printSimulationSummary(run.summary, out);
    nlohmann::json report = simulationReport(run.summary);
    if (!cmd.against.empty())
        if (const int rc = runAgainstMeasured(project, run.summary, cmd, report, out, err); rc != kExitOk) return rc;
    if (!writeReport(cmd.report, report, err)) return kExitBadInput;
    return run.summary.sim.status == "ok" ? kExitOk : kExitRunFailed;
}

}  // namespace npu::app
