#pragma once
// RLHF-PPO (training.mode "ppo") on a cluster: data parallelism, tensor parallelism and
// ZeRO, as DeepSpeed-Chat's step 3 runs it (its hybrid engine generates with the actor
// tensor-parallel, the four models train or score under ZeRO over the data-parallel
// ranks). Every rank does the same work: one rank's share (1/dp of the rollout batch, its
// 1/tp shard of each model, ZeRO's share of the model states) is simulated on one device
// with the PPO step schedule (engine/training/ppo_graph), then given the collectives the
// cluster adds (engine/training/ppo_rank_timeline). Pipeline parallelism is refused:
// neither DeepSpeed-Chat nor TRL runs PPO's rollout through a pipeline.

#include "engine/core/expected.h"
#include "engine/core/progress.h"
#include "engine/project/project.h"
#include "engine/sim/simulation_result.h"

namespace npu::engine {

struct SimulationOptions;

Expected<SimulationResult> simulatePpoCluster(const Project& project, const SimulationOptions& options, const Progress& progress = {});

}  // namespace npu::engine
