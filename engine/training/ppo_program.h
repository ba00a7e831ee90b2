#pragma once
// RLHF-PPO's step (engine/training/ppo_graph) as the cluster scheduler runs it (engine/
// cluster/step_program): the actor decodes the rollout; the reference and reward models
// and the critic (its old values, with its own weights) score it forward-only; the actor
// then the critic train.

#include "engine/cluster/step_program.h"
#include "engine/project/training_mode.h"

#include <cstdint>

namespace npu::engine {

// batch: the rollout sequences of one data-parallel replica; hidden, layers: the actor's.
StepProgram ppoStepProgram(std::int64_t batch, const PpoOptions& options, std::int64_t hidden, std::int64_t layers);

}  // namespace npu::engine
