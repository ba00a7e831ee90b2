#pragma once
// The out-of-memory playbook, in the training toolchain's order: enable the memory
// optimizer, lower the micro-batch, activation checkpointing, ZeRO stage 1 and up,
// offload the optimizer, offload the activations. Each applicable step is applied to a copy of the project and
// re-simulated (not estimated), so its predicted peak and step time are the
// simulator's own.

#include "engine/result/memory_summary.h"
#include "engine/driver/simulate_project.h"

#include <vector>

namespace npu::engine {

std::vector<OomAdvice> oomAdvice(const Project& project, const SimulationOptions& options);

}  // namespace npu::engine
