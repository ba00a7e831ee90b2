#pragma once
// A per_step step program (RLHF-PPO's) laid out on a cluster: the ranks of a pipeline
// stage do the same work, so one rank per distinct stage (first, a middle one, last: its
// 1/dp of the batch, its 1/tp shard and 1/pp of the layers of each model, ZeRO's share of
// the model states) is simulated on one device, then given the collectives the cluster
// adds phase by phase (engine/cluster/program_rank) or laid out over the pipeline phase by
// phase (engine/cluster/program_pipeline). The slow-rank / slow-link what-ifs pace the
// step (engine/cluster/step_pacing).

#include "base/expected.h"
#include "base/progress.h"
#include "engine/cluster/cluster_setup.h"
#include "engine/cluster/rank_simulator.h"
#include "engine/cluster/step_program.h"
#include "engine/cluster/step_scheduler.h"
#include "engine/project/project.h"
#include "engine/result/simulation_result.h"

namespace npu::engine {

// Reports progress up to 0.9; the caller reports the end.
Expected<StepRun> layOutPhasedStep(const Project& project, const ResolvedCluster& resolved, const StepProgram& program,
                                   const RankSimulator& simulateRank, const Progress& progress = {});

}  // namespace npu::engine
