#pragma once
// RLHF-PPO (training.mode "ppo") on a cluster: data parallelism, tensor parallelism and
// ZeRO, as DeepSpeed-Chat's step 3 runs it (its hybrid engine generates with the actor
// tensor-parallel, the four models train or score under ZeRO over the data-parallel
// ranks), and pipeline stages as NeMo-Aligner runs them on Megatron-LM. The step is a
// step program (engine/training/ppo_program) run by the cluster scheduler (engine/cluster/
// step_scheduler); what is PPO's own here: the configurations it refuses, with the reason
// (ZeRO-3 and the interleaved schedule under pipeline stages), the whole models'
// parameters and the notes that say what the step's figures mean.

#include "base/expected.h"
#include "engine/cluster/cluster_setup.h"
#include "engine/cluster/step_program.h"
#include "engine/cluster/step_scheduler.h"
#include "engine/project/project.h"
#include "engine/result/simulation_result.h"

namespace npu::engine {

// The step program of one data-parallel replica, or the reason the cluster cannot run it.
Expected<StepProgram> ppoStepOnCluster(const Project& project, const ClusterSetup& setup);

// The scheduled step with PPO's whole-model parameters and notes.
Expected<SimulationResult> finishPpoStep(const Project& project, const ClusterSetup& setup, StepRun&& run);

}  // namespace npu::engine
