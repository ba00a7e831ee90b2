#pragma once
// The slow-rank and slow-link what-ifs (cluster.slow_ranks, cluster.slow_links) on a step
// program (engine/cluster/phased_step). Such a step synchronises its ranks often: a
// tensor-parallel group at every block and every decode step, a pipeline at every decode
// step, the data-parallel replicas at every gradient bucket of each trained model (and
// ZeRO-3 at every pass). So the step runs at its slowest replica's pace: a slow rank makes
// its whole stage (its TP group, and the replicas waiting at the next bucket) take its
// time, a slow link makes the collectives of the groups it is in take their time.
// Modelled that way: each stage's simulated run stretched by the largest compute factor
// among the stage's ranks, every collective at the slowest link's bandwidth. Not
// separated: the faster ranks' own timelines (the waits inside their collectives), which
// the what-ifs of a training step show (engine/cluster/rank_layout).

#include "engine/cluster/cluster_setup.h"
#include "engine/result/simulation_result.h"

#include <string>
#include <vector>

namespace npu::engine {

struct StepPacing {
    std::vector<double> stagePace;   // per pipeline stage: its slowest rank's compute factor
    double linkFactor = 1;           // the slowest link's bandwidth factor
    std::vector<std::string> notes;  // what each what-if does to the step
};

StepPacing stepPacing(const ClusterSetup& setup);

// The setup with every link at the pacing's bandwidth factor (latencies kept).
ClusterSetup pacedSetup(const ClusterSetup& setup, const StepPacing& pacing);

// The run with every time (tasks, memory, host) stretched by factor.
SimulationResult pacedRun(const SimulationResult& run, double factor);

}  // namespace npu::engine
