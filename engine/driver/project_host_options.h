#pragma once
// The project's host-side settings as simulator options: optimizations.graph_mode
// (eager | graph; graph_level >= 1 implies graph unless graph_mode says eager),
// optimizations.prefetch_depth (default 2) and the data section (one worker's time per
// batch: loader_ms_per_batch, or loader_samples_per_s over the micro-batch; workers,
// default 1). See docs/project-format.md.

#include "engine/project/project.h"
#include "engine/sim/simulator.h"

namespace npu::engine {

void applyHostOptions(const Project& project, int graphLevel, SimulatorOptions& options);

}  // namespace npu::engine
