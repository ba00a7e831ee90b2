#pragma once
// One device's run of a project: project → graph of its training mode (engine/training/
// mode_graph) → passes (mixed precision, the training graph, recomputation, fusion,
// offload) → the device simulator (engine/sim), with the summaries the report shows. The
// cluster scheduler gets it as its RankSimulator (engine/driver/simulate_project).

#include "base/expected.h"
#include "base/progress.h"
#include "engine/driver/simulate_project.h"
#include "engine/project/project.h"
#include "engine/result/simulation_result.h"

namespace npu::engine {

// `project` must not be a cluster project (a rank's stage project, or a single device).
Expected<SimulationResult> simulateOnDevice(const Project& project, const SimulationOptions& options, const Progress& progress = {});

}  // namespace npu::engine
