#pragma once
// The training step of pretrain, SFT, the PEFT modes and DPO as a step program: the
// trained model's forward, backward and optimizer step on each micro-batch (DPO: the
// frozen reference's forward first, on the same micro-batch, as TRL's DPOTrainer runs it
// under no_grad), run per micro-batch through one pipeline (engine/cluster/
// micro_batched_step). What is the mode's own: the whole model's parameters and FLOPs,
// and the step rates over the whole cluster.

#include "base/expected.h"
#include "engine/cluster/cluster_setup.h"
#include "engine/cluster/step_program.h"
#include "engine/cluster/step_scheduler.h"
#include "engine/project/project.h"
#include "engine/result/simulation_result.h"

namespace npu::engine {

StepProgram trainStepProgram(const Project& project);

// The scheduled step with the unpartitioned model's parameters and FLOPs, its rates and
// the layout's notes.
Expected<SimulationResult> finishTrainStep(const Project& project, const ResolvedCluster& resolved, StepRun&& run);

}  // namespace npu::engine
