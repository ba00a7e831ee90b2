#pragma once
// ZeRO's data-parallel traffic inside each pipeline pass, as DeepSpeed runs stages 2 and 3:
//  - stage 3 all-gathers a pass's weights module by module before it computes them
//    (partitioned_param_coordinator: a fetch per module, the next ones prefetched while
//    one computes, up to stage3_prefetch_bucket_size elements ahead), in forward and
//    again in backward (and again for recomputed modules); the pass cannot finish before
//    its gathers do, so it takes the longer of its compute and its gathers, plus the
//    first fetch, which nothing hides;
//  - stages 2 and 3 reduce-scatter every micro-batch's gradients during its backward
//    pass (the rank keeps only its partition, so gradients cannot wait for the last
//    micro-batch, as DDP's no_sync lets them), in the framework's buckets. In stage 3 they
//    share the data-parallel link with the backward gathers.
// A fetch per weight GEMM of the pass stands for a module (estimate: DeepSpeed fetches each
// nn.Module's parameters together; the zoo's modules are one linear each, norms stay
// gathered under stage3_param_persistence_threshold).

#include "engine/cluster/cluster_setup.h"
#include "engine/cluster/rank_timeline.h"
#include "engine/cluster/stage_profile.h"

#include <vector>

namespace npu::engine {

struct ZeroPassComm {
    int forwardFetches = 0, backwardFetches = 0;  // all-gathers per pass of one model chunk
    CollectiveCost forwardGather, backwardGather;  // a pass's gathers together (time, bytes, bus bytes)
    double firstFetchNs = 0;                       // one fetch: the exposed start of a pass
    struct Bucket {
        double bytes = 0;                          // sent (after gradient compression)
        CollectiveCost cost;
    };
    std::vector<Bucket> reduceBuckets;             // a backward pass's reduce-scatters, in order
    CollectiveCost reduce;                         // all of them together
    double gatherBytes = 0, reduceBytes = 0;       // per pass of one chunk
};

// For one rank of `stage` whose passes each run one of `chunks` model chunks (interleaved
// virtual stages); empty without data parallelism or below ZeRO stage 2.
ZeroPassComm zeroPassComm(const StageProfile& stage, const ClusterSetup& setup, const CommPlan& plan, int chunks);

// A stage's forward and backward pass durations, as the pipeline schedule takes them: its
// compute, the tensor-parallel collectives that block it (plan: the TP point's cost) and
// ZeRO-3's gathers (with the backward pass's reduce-scatters sharing their link) that
// the pass must wait for.
struct PassDurations {
    double forwardNs = 0, backwardNs = 0;
};
PassDurations stagePassNs(const StageProfile& stage, const ClusterSetup& setup, const CommPlan& plan);

}  // namespace npu::engine
