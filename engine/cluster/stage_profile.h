#pragma once
// One pipeline stage's rank simulated on one device: the stage's share of the model
// (its layers, tensor-parallel shard, embedding on the first stage, lm_head on the last)
// runs one micro-batch through the single-device pipeline (graph, passes, simulator), and
// its tasks are split into the forward pass, the backward pass (with recomputation) and
// the optimizer step, each with offsets from its own start, plus the points where
// Megatron-LM's tensor-parallel collectives follow a block of a layer.

#include "engine/cluster/cluster_setup.h"
#include "engine/cluster/pass_memory.h"
#include "engine/cluster/rank_simulator.h"
#include "base/progress.h"
#include "engine/result/simulation_result.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace npu::engine {

struct StageSegment {
    std::vector<SimTask> tasks;      // start_ns from the segment's start; stream as in the stage run
    std::int64_t durNs = 0;          // compute time, without collectives
    // A tensor-parallel collective follows tasks[i] for each i listed (ascending).
    std::vector<std::size_t> collectiveAfter;
    // Slow-rank what-ifs (engine/cluster/rank_layout): when the TP group's slowest rank
    // reaches each of those collectives (offset as tasks'); empty: when tasks[i] ends.
    // A faster rank reaches it earlier and waits in it.
    std::vector<std::int64_t> groupArrival;
};

struct StageProfile {
    int stage = 0;
    int layers = 0;
    bool first = true, last = true;
    SimulationResult run;            // the single-device run of one micro-batch (streams, summary, memory)
    PassMemory passMemory;           // what the micro-batch's passes hold (grown to the stage's layers)
    StageSegment forward, backward, optimizer;
    double trainableParams = 0;      // this rank's shard
};

// The stage's project: the model cut to the stage and the tensor-parallel shard, one
// micro-batch, no cluster (so it runs on one device).
Project stageProject(const Project& project, const ClusterSetup& setup, int stage);

Expected<StageProfile> simulateStage(const Project& project, const ClusterSetup& setup, int stage, const RankSimulator& simulateRank,
                                     const Progress& progress = {});

// Indices of tasks after which a Megatron tensor-parallel collective runs: the end of each
// attention and MLP block of a layer (blocks recognised by the zoo's node names, recomputed
// blocks separately), and after the embedding (forward) or the lm_head (backward).
std::vector<std::size_t> tensorParallelPoints(const std::vector<SimTask>& tasks, bool afterPrologue);

}  // namespace npu::engine
