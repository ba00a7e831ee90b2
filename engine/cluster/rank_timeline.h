#pragma once
// Lays out one pipeline stage's rank over an iteration: its forward and backward passes
// where the pipeline schedule put them (engine/parallel/pipeline_schedule), the
// tensor-parallel collectives inside each pass (blocking: the next block waits for them,
// as in Megatron-LM), the activation/gradient sends to the neighbour stages, then the
// data-parallel gradient buckets on their own stream (overlapped with the last backward
// pass when communication.overlap), the optimizer step, and ZeRO's parameter all-gathers.

#include "engine/cluster/cluster_setup.h"
#include "engine/result/cluster_summary.h"
#include "engine/cluster/stage_profile.h"
#include "engine/parallel/pipeline_schedule.h"

#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace npu::engine {

// The cost of each communication a rank runs, computed once per run.
struct CommPlan {
    std::vector<std::pair<CollectiveKind, CollectiveCost>> tpPoint;  // collectives at one TP point, in order
    CollectiveCost p2p;              // one activation (or gradient) send to a neighbour stage
    double p2pBytes = 0;
    double tpBytes = 0;
    CollectiveAlgorithm dpAlgorithm = CollectiveAlgorithm::ring;
    double hbmBandwidth = 0;         // for the gradient compression kernels
    double tpPointNs() const;
};

// The collectives at one tensor-parallel point of a pass over `bytes` of activations
// (Megatron-LM's all-reduce; with sequence parallelism a reduce-scatter and an all-gather,
// Korthikanti et al.), in order. Empty without tensor parallelism.
std::vector<std::pair<CollectiveKind, CollectiveCost>> tensorParallelPointCollectives(const ClusterSetup& setup, double bytes);

// A time computed in double, as the timelines' integer nanoseconds.
inline std::int64_t roundNs(double v) { return static_cast<std::int64_t>(std::llround(v)); }

struct Interval {
    std::int64_t start = 0, end = 0;
};

// Adds [start, end) to a list of busy intervals whose union is what counts
// (engine/cluster/rank_time_split): one starting inside the last one extends it, so the
// tasks of a pass, laid out back to back, make one interval, not thousands.
inline void addBusy(std::vector<Interval>& busy, std::int64_t start, std::int64_t end) {
    if (!busy.empty() && start >= busy.back().start && start <= busy.back().end && end > start) {
        if (end > busy.back().end) busy.back().end = end;
        return;
    }
    busy.push_back({start, end});
}

struct RankTimeline {
    DeviceResult device;             // tasks only when materialised
    std::vector<Interval> compute;   // busy intervals of compute streams
    std::vector<Interval> comm;      // busy intervals of communication streams
    std::int64_t pipelineEndNs = 0;  // end of the last backward pass
    std::int64_t endNs = 0;          // end of the rank's iteration (after the optimizer)
    // The optimizer step's tasks span [start, end); -1 without any (materialised or not).
    std::int64_t optimizerStartNs = -1, optimizerEndNs = -1;
    std::map<std::string, CollectiveSummary> collectives;  // by "group kind"
};

// What a rank's data-parallel group imposes on it when its ranks differ (slow-rank and
// slow-link what-ifs): bucket k starts when every rank of the group has it ready (the
// collective waits for the slowest), at the group's slowest link. Empty: the rank's own.
// ZeRO's parameter all-gathers wait the same way: ZeRO-3's before every pass (lockStep:
// the passes are the group's, run at its slowest rank's pace; this rank, done early with
// a pass, reaches the next pass's gather then and waits in it), ZeRO-1/2's after the
// optimizer (each rank updates its shard at its own pace; the slowest shard decides).
struct DpSync {
    std::vector<std::int64_t> bucketReady;  // per bucket, the latest over the group
    double linkFactor = 1;                  // bandwidth factor of the group's slowest link
    bool lockStep = false;                  // ZeRO-3 under what-ifs (see above)
    double optimizerSlowdown = 1;           // the group's slowest optimizer step / this rank's
};

// When each data-parallel gradient bucket of this rank is ready: during its last backward
// pass with communication.overlap, else at its end (DDP bucketing). Empty without DP.
// ownEndNs >= 0: the rank's own work of that pass ends then, before the pass's slot
// (lock-step), and its buckets are ready in proportion.
std::vector<std::int64_t> dpBucketReady(const StageProfile& stage, const std::vector<PipelinePass>& passes, const ClusterSetup& setup,
                                        std::int64_t ownEndNs = -1);

// The summary's time by category and phase: rank 0's iteration (the first device's
// tasks), without its pipeline receives: their time is the bubble they wait in (the
// report's bubble_ms), not work.
void addRankTaskTimes(SimSummary& sum, const std::vector<DeviceResult>& devices);

// A collective's task on a rank's communication stream (its wait included in dur), as
// the rank timelines and PPO's stage lanes record them.
SimTask collectiveTask(std::int64_t start, std::int64_t dur, int stream, const std::string& name, CollectiveKind kind, double bytes);

// A collective's rates over `seconds` of its transfers: achieved bytes/s and bus
// bandwidth (nccl-tests' definition), bus_GBps holding the summed bus bytes until then.
void setCollectiveRates(CollectiveSummary& c, double seconds);

// stageIndex: the pipeline stage laid out, whose layers the tasks are named by (the
// profile may be another stage's, a middle stage standing for all: representativeStage);
// -1: the profile's own.
RankTimeline layOutRank(const StageProfile& stage, const std::vector<PipelinePass>& passes, const ClusterSetup& setup,
                        const CommPlan& plan, bool materialise, const DpSync& sync = {}, int stageIndex = -1);

}  // namespace npu::engine
