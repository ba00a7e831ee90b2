#pragma once
// A per_micro_batch step program (pretrain, SFT, the PEFT modes, DPO) laid out on a
// cluster (DP x TP x PP, sequence parallelism, ZeRO), by symmetry: every rank of a pipeline stage does the same work, and
// the stages between the first and the last are identical, so at most three stage ranks
// are simulated on one device each (engine/cluster/stage_profile) and composed with the
// pipeline schedule and the collectives' costs (engine/parallel) into rank timelines.
// Small clusters store every rank's timeline; large ones one rank per pipeline stage,
// each standing for the ranks it represents.

#include "base/expected.h"
#include "base/progress.h"
#include "engine/cluster/cluster_setup.h"
#include "engine/cluster/rank_simulator.h"
#include "engine/cluster/step_scheduler.h"
#include "engine/project/project.h"
#include "engine/result/simulation_result.h"

namespace npu::engine {

// The step's result has no whole-model figures yet (parameters, model FLOPs, MFU: the
// training mode's, engine/training/train_step). Reports progress up to 0.85.
Expected<StepRun> layOutMicroBatchedStep(const Project& project, const ResolvedCluster& resolved, const RankSimulator& simulateRank,
                                         const Progress& progress = {}, const StepLayoutOptions& options = {});

}  // namespace npu::engine
