#pragma once
// How the cluster layer gets a rank simulated without calling up into the driver.

#include "base/expected.h"
#include "base/progress.h"
#include "engine/project/project.h"
#include "engine/result/simulation_result.h"

#include <functional>

namespace npu::engine {

// Simulates one rank's share of a step on one device: `rank` is its stage's project (the
// stage's layers, the tensor-parallel shard, the rank's batch; no cluster), run for one
// step with no out-of-memory playbook and the optimizer update unsharded (the rank
// layouts scale it by 1/dp). keepGraphs: this run's graphs are the ones the result shows.
// The driver (engine/driver/simulate_project) provides it, so the cluster layer never
// calls back up into the driver.
using RankSimulator = std::function<Expected<SimulationResult>(const Project& rank, bool keepGraphs, const Progress&)>;

}  // namespace npu::engine
