#pragma once
// The one call the app, batch runner and tests use to simulate a project: project.json →
// the training mode's step program (engine/training/step_modes) → the cluster scheduler
// (engine/cluster/step_scheduler; a project without a cluster is a cluster of one), whose
// ranks run on one device each (engine/driver/device_run) → the mode's result.

#include "base/expected.h"
#include "base/progress.h"
#include "engine/driver/rank_run_cache.h"
#include "engine/project/project.h"
#include "engine/result/simulation_result.h"

#include <filesystem>

namespace npu::engine {

struct SimulationOptions {
    // Where device profiles named in the project are looked up; empty means
    // defaultDevicesDir().
    std::filesystem::path devicesDir;
    int steps = 0;  // training steps to simulate; 0: the project's training.steps
    // Keep the graph before and after fusion in the result (as npuom graph JSON) so a
    // saved run can show its Graph tab.
    bool keepGraphs = true;
    bool adviseOnOom = true;  // re-simulate the out-of-memory playbook (engine/driver/oom_advice)
    // Cluster runs: re-simulate the communication playbook (engine/driver/communication_advice).
    bool adviseOnCommunication = true;
    // ZeRO >= 1 with data_parallel N: the optimizer update covers 1/N of the parameters.
    // false for the cluster's per-stage runs, whose rank timelines scale the optimizer's
    // tasks by 1/N themselves (engine/cluster/rank_timeline, engine/cluster/program_rank).
    bool zeroShardsOptimizer = true;
    // Cluster runs: lay out the listed ranks' tasks and memory curves. false: the step's
    // figures only, the same as with them (the strategy search, which ranks figures).
    bool rankTimelines = true;
    // Cluster runs: where the ranks' single-device runs are kept and looked up
    // (engine/driver/rank_run_cache); none: each simulation runs its own.
    RankRunCache* rankRuns = nullptr;
};

// resources/devices of the source tree (compiled in), or next to the executable.
std::filesystem::path defaultDevicesDir();

// An out-of-memory run is not an error: it returns a result
// with summary.status == "oom" and the timeline up to the step. Errors (bad model
// config, unknown device) come back as Error with a message naming the project file.
Expected<SimulationResult> simulateProject(const Project& project, const SimulationOptions& options,
                                           const Progress& progress = {});

}  // namespace npu::engine
