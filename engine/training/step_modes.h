#pragma once
// Each training mode's step as the cluster scheduler runs it (engine/cluster/
// step_scheduler): the step program built from project.json, and what the mode adds to
// the scheduled step. Pretrain, SFT, the PEFT modes and DPO: engine/training/train_step;
// RLHF-PPO: engine/training/ppo_program and ppo_step.

#include "base/expected.h"
#include "engine/cluster/cluster_setup.h"
#include "engine/cluster/step_program.h"
#include "engine/cluster/step_scheduler.h"
#include "engine/project/project.h"
#include "engine/result/simulation_result.h"

namespace npu::engine {

// cluster: nullptr for a cluster of one (a project without a cluster). Errors name the
// project file and the key of a configuration the mode cannot run on the cluster.
Expected<StepProgram> modeStepProgram(const Project& project, const ResolvedCluster* cluster);

// The scheduled step as the mode reports it (a cluster of one: the rank's run as it is).
Expected<SimulationResult> finishModeStep(const Project& project, const ResolvedCluster* cluster, StepRun&& run);

}  // namespace npu::engine
