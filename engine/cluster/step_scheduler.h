#pragma once
// The cluster scheduler: runs a step program (engine/cluster/step_program) on a cluster.
// The ranks of a pipeline stage do the same work, so one rank per distinct stage (first,
// a middle one, last) is simulated on one device through the RankSimulator, then laid out
// over the ranks in the program's order:
//   per_micro_batch  one pipeline of micro-batches under the pipeline schedule, with the
//                    data-parallel buckets, ZeRO's gathers and the slow-rank / slow-link
//                    what-ifs per replica (engine/cluster/micro_batched_step);
//   per_step         phase by phase, each over the whole batch (engine/cluster/phased_step).
// A project without a cluster is a cluster of one: its one rank is the whole job, and its
// run is the step.
// A training mode builds the program and says what the scheduled step means (engine/
// training/step_modes): none of them simulates anything itself.

#include "base/expected.h"
#include "base/progress.h"
#include "engine/cluster/cluster_setup.h"
#include "engine/cluster/rank_simulator.h"
#include "engine/cluster/step_program.h"
#include "engine/project/project.h"
#include "engine/result/simulation_result.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace npu::engine {

struct StepRun {
    SimulationResult result;                     // its cluster notes: none yet (the mode's come first)
    std::int64_t iterationNs = 0;                // the step laid out over the cluster
    std::map<std::string, double> phaseWallMs;   // per_step: by step phase, bubbles included
    double decodeStepNs = 0;                     // per_step with pipeline stages: one decode step through them
    std::vector<std::string> layoutNotes;        // what the layout's figures mean
    std::vector<std::string> pacingNotes;        // the what-ifs' (per_step; per_micro_batch's are layout notes)
};

// cluster: nullptr for a cluster of one. Reports progress up to 0.9 on a cluster; the
// caller reports the end.
// What the layout builds beside the step's figures.
struct StepLayoutOptions {
    // Each listed rank's tasks and memory curves (what a run shows). false: the figures
    // only (the strategy search ranks them; the time, memory and collectives are the same).
    bool rankTimelines = true;
};

Expected<StepRun> scheduleStep(const Project& project, const ResolvedCluster* cluster, const StepProgram& program,
                               const RankSimulator& simulateRank, const Progress& progress = {}, const StepLayoutOptions& layout = {});

}  // namespace npu::engine
