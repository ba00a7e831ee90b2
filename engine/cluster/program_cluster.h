#pragma once
// The cluster scheduler for step programs (engine/cluster/step_program): the ranks of a
// pipeline stage do the same work, so one rank per distinct stage (first, a middle one,
// last: its 1/dp of the batch, its 1/tp shard and 1/pp of the layers of each model, ZeRO's
// share of the model states) is simulated on one device, then given the collectives the
// cluster adds (engine/cluster/program_rank) or laid out over the pipeline (engine/
// cluster/program_pipeline). The slow-rank / slow-link what-ifs pace the step (engine/
// cluster/step_pacing). A training mode builds the program and states what its own step
// means (engine/training/ppo_cluster).

#include "base/expected.h"
#include "base/progress.h"
#include "engine/cluster/cluster_setup.h"
#include "engine/cluster/rank_simulator.h"
#include "engine/cluster/step_program.h"
#include "engine/project/project.h"
#include "engine/result/simulation_result.h"

#include <map>
#include <string>
#include <vector>

namespace npu::engine {

struct ProgramClusterRun {
    SimulationResult result;                     // its notes: none yet (the mode's come first)
    std::map<std::string, double> phaseWallMs;   // by step phase, bubbles included
    double decodeStepNs = 0;                     // with pipeline stages: one decode step through them
    std::vector<std::string> layoutNotes;        // the pipeline layout's
    std::vector<std::string> pacingNotes;        // the what-ifs'
};

// Reports progress up to 0.9; the caller reports the end.
Expected<ProgramClusterRun> simulateProgramCluster(const Project& project, const ResolvedCluster& resolved, const StepProgram& program,
                                                   const RankSimulator& simulateRank, const Progress& progress = {});

}  // namespace npu::engine
