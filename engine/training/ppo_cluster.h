#pragma once
// RLHF-PPO (training.mode "ppo") on a cluster: data parallelism, tensor parallelism and
// ZeRO, as DeepSpeed-Chat's step 3 runs it (its hybrid engine generates with the actor
// tensor-parallel, the four models train or score under ZeRO over the data-parallel
// ranks), and pipeline stages as NeMo-Aligner runs them on Megatron-LM. The step is a
// step program (engine/training/ppo_program) run by the cluster scheduler (engine/cluster/
// program_cluster); what is PPO's own here: the configurations it refuses, with the reason
// (ZeRO-3 and the interleaved schedule under pipeline stages), the whole models'
// parameters and the notes that say what the step's figures mean.

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
