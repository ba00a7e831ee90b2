#pragma once
// The one way a project is simulated into a run: simulate -> write the .npudb -> record
// the run in project.json -> summarise. The GUI (app/run_jobs), `npustudio --batch
// PROJECT.json` and regression suites all call runSimulation; the report writer and the
// console printers (runner/reports/simulation_report) format the typed summary it returns.

#include "base/progress.h"
#include "engine/project/project.h"
#include "engine/result/simulation_result.h"
#include "profiler/analysis/op_statistics.h"

#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace npu::runner {

struct SimulationRunOptions {
    int steps = 0;                          // training steps to simulate; 0: the project's training.steps
    std::filesystem::path devicesDir;       // device profiles; empty: the engine's default
    std::filesystem::path dir;              // run folder; empty: the project's runs/
    std::filesystem::path db;               // the .npudb to write; empty: dir/<runName>.npudb
    std::string runName;                    // empty: a new "sim-<UTC time>" name unique in dir
    // Add the run to project.json (only runs inside the project's folder are added). The
    // GUI records on its own thread instead, into the project it shows.
    bool record = true;
};

// Everything the report and the summaries show of a simulated run; the timeline itself
// stays in the .npudb.
struct SimulationRunSummary {
    engine::SimSummary sim;
    std::map<std::string, std::int64_t> peakByRole;  // first device
    int graphLevel = 0;
    int kernelsPerStep = 0;
    std::string graphScope;  // SimulationResult::graph_scope
    std::vector<engine::PassRecord> passes;
    std::size_t steps = 0;
    std::vector<profiler::OpStatRow> topOps;   // by op type, largest total first (at most 10)
    std::string projectName;
    std::string projectFile;
    std::string runName;
    std::filesystem::path db;
    bool recorded = false;           // added to project.json
    std::string recordWarning;       // why it could not be added, when recording failed
};

struct SimulationRun {
    enum class Outcome {
        ok,            // summary is valid (the run itself may be out of memory: sim.status)
        badInput,      // the project cannot be simulated (model config, device)
        writeFailed,   // the run folder or the .npudb could not be written
        cancelled,
    };
    Outcome outcome = Outcome::ok;
    std::string error;  // names the file, when not ok
    SimulationRunSummary summary;
};

SimulationRun runSimulation(engine::Project& project, const SimulationRunOptions& options,
                            const Progress& progress = {});

}  // namespace npu::runner
