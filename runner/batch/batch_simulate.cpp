#include "runner/batch/batch_simulate.h"

#include "runner/batch/batch_against.h"
#include "runner/batch/batch_io.h"
#include "runner/batch/batch_runner.h"
#include "runner/reports/simulation_report.h"
#include "runner/runs/simulation_run.h"

#include <ostream>

namespace npu::runner {

int runBatchSimulate(const CommandLine& cmd, std::ostream& out, std::ostream& err) {
    auto loaded = loadBatchProject(cmd.positional.front(), err);
    if (!loaded) return kExitBadInput;
    engine::Project project = std::move(*loaded);

    SimulationRunOptions options;
    options.steps = cmd.steps;
    if (!cmd.out.empty()) options.dir = cmd.out;
    const SimulationRun run = runSimulation(project, options, stderrProgress(err));
    switch (run.outcome) {
    case SimulationRun::Outcome::ok: break;
    case SimulationRun::Outcome::badInput:
        err << "npustudio: " << run.error << "\n";
        return kExitBadInput;
    case SimulationRun::Outcome::writeFailed:
    case SimulationRun::Outcome::cancelled:
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

}  // namespace npu::runner
