#pragma once
// How the cluster layer gets a rank simulated without calling up into the driver.

#include "base/expected.h"
#include "base/progress.h"
#include "engine/project/project.h"
#include "engine/result/simulation_result.h"

#include <functional>

namespace npu::engine {

// What the scheduler asks of one rank's run.
struct RankRun {
    // This run's graphs are the ones the result shows.
    bool keepGraphs = false;
    // The rank is the whole job (a cluster of one): run the project as the user asked
    // (its steps, the out-of-memory playbook, ZeRO's optimizer share) and return that run.
    bool wholeJob = false;
};

// Simulates one rank's share of a step on one device. Unless the rank is the whole job,
// `rank` is its stage's project (the stage's layers, the tensor-parallel shard, the rank's
// batch; no cluster), run for one step with no out-of-memory playbook and the optimizer
// update unsharded (the rank layouts scale it by 1/dp). The driver (engine/driver/
// simulate_project) provides it, so the cluster layer never calls back up into the driver.
using RankSimulator = std::function<Expected<SimulationResult>(const Project& rank, const RankRun& how, const Progress&)>;

}  // namespace npu::engine
