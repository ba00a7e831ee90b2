#pragma once
// RLHF-PPO (training.mode "ppo") on a cluster: data parallelism, tensor parallelism and
// ZeRO, as DeepSpeed-Chat's step 3 runs it (its hybrid engine generates with the actor
// tensor-parallel, the four models train or score under ZeRO over the data-parallel
// ranks), and pipeline stages as NeMo-Aligner runs them on Megatron-LM. The ranks of a
// stage do the same work: one rank per distinct stage (1/dp of the rollout batch, its 1/tp
// shard and 1/pp of the layers of each model, ZeRO's share of the model states) is
// simulated on one device with the PPO step schedule (engine/training/ppo_graph), then
// given the collectives the cluster adds (engine/training/ppo_rank_timeline) or laid out
// over the pipeline (engine/training/ppo_pipeline). Refused with the reason: ZeRO-3 and the
// interleaved schedule under pipeline stages. The slow-rank / slow-link what-ifs pace the
// step (engine/training/ppo_what_if).

#include "base/expected.h"
#include "base/progress.h"
#include "engine/cluster/cluster_setup.h"
#include "engine/cluster/rank_simulator.h"
#include "engine/project/project.h"
#include "engine/result/simulation_result.h"

namespace npu::engine {

Expected<SimulationResult> simulatePpoCluster(const Project& project, const ResolvedCluster& resolved, const RankSimulator& simulateRank,
                                              const Progress& progress = {});

}  // namespace npu::engine
