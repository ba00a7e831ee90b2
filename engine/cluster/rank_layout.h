#pragma once
// The rank timelines of one iteration, from the simulated stage profiles: by symmetry
// (every rank of a stage does the same work: one timeline per stage) or, with the
// slow-rank / slow-link what-ifs (cluster.slow_ranks, cluster.slow_links), one per
// distinct rank group: each data-parallel replica runs its own pipeline at the pace of
// its slowest rank per stage (a faster tensor-parallel rank reaches every TP collective
// first and waits in it until the slow one arrives), and each gradient bucket moves data
// when the whole data-parallel group has it ready (earlier ranks wait in it), at the
// group's slowest link. ZeRO-3's parameter all-gathers before every pass tie the
// replicas together: their passes run in lock-step at the slowest replica's pace, and a
// rank done early waits in the next gather; ZeRO-1/2's gather of the updated weights
// waits for the group's slowest optimizer shard.

#include "engine/cluster/cluster_setup.h"
#include "engine/cluster/rank_timeline.h"
#include "engine/cluster/stage_profile.h"
#include "engine/cluster/step_result.h"
#include "base/expected.h"
#include "engine/parallel/pipeline_schedule.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace npu::engine {

struct ClusterLayout {
    std::vector<LaidOutRanks> groups;  // ascending first rank
    std::int64_t iterationNs = 0;
    double bubbleFraction = 0;         // with what-ifs: the largest of the replicas' pipelines
    std::vector<std::string> notes;    // who waits on whom (what-ifs)
};

// profiles: by representative stage (0, 1, P-1); pipe: the symmetric pipeline (per stage
// forward/backward with TP collectives, p2p). everyRank: list (and materialise) every rank.
// materialise false: no rank's tasks are laid out (the figures only).
Expected<ClusterLayout> layOutCluster(const std::map<int, StageProfile>& profiles, const ClusterSetup& setup, const CommPlan& plan,
                                      const PipelineSetup& pipe, bool everyRank, bool materialise = true);

}  // namespace npu::engine
