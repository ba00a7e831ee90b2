#include "engine/cluster/zero_pass_comm.h"

#include <algorithm>
#include <cmath>

namespace npu::engine {

namespace {

int countMatmuls(const std::vector<SimTask>& tasks, bool recomputedOnly) {
    int n = 0;
    for (const SimTask& t : tasks)
        if (t.category == OpCategory::matmul && (!recomputedOnly || t.phase == Phase::recompute)) ++n;
    return n;
}

// `fetches` all-gathers of `bytes` in all, as one cost: their times and volumes added.
CollectiveCost repeated(const CollectiveCost& one, int fetches) {
    CollectiveCost c = one;
    const double k = fetches;
    c.timeNs *= k;
    c.latencyNs *= k;
    c.transferNs *= k;
    c.wireBytes *= k;
    c.busBytes *= k;
    return c;
}

void add(CollectiveCost& into, const CollectiveCost& c) {
    into.timeNs += c.timeNs;
    into.latencyNs += c.latencyNs;
    into.transferNs += c.transferNs;
    into.wireBytes += c.wireBytes;
    into.busBytes += c.busBytes;
    if (into.link.empty()) into.link = c.link;
}

}  // namespace

ZeroPassComm zeroPassComm(const StageProfile& stage, const ClusterSetup& setup, const CommPlan& plan, int chunks) {
    ZeroPassComm z;
    const ParallelConfig& par = setup.parallel;
    if (par.dataParallel <= 1 || par.zeroStage < 2) return z;
    chunks = std::max(chunks, 1);
    const GroupPlacement dp = setup.dpGroup();
    if (par.zeroStage >= 3) {
        z.gatherBytes = stage.trainableParams * setup.weightBytes / chunks;
        const int forward = std::max(1, countMatmuls(stage.forward.tasks, false) / chunks);
        z.forwardFetches = forward;
        z.backwardFetches = forward + countMatmuls(stage.backward.tasks, true) / chunks;
        const CollectiveCost fetch = collectiveCost(CollectiveKind::all_gather, plan.dpAlgorithm, z.gatherBytes / forward, dp, setup.cluster);
        z.firstFetchNs = fetch.timeNs;
        z.forwardGather = repeated(fetch, z.forwardFetches);
        z.backwardGather = repeated(fetch, z.backwardFetches);  // recomputed modules are gathered again
    }
    z.reduceBytes = stage.trainableParams * setup.gradientBytes / chunks;
    const double bucket = std::max(par.comm.bucketMb * 1e6, 1.0);
    const int buckets = std::max(1, static_cast<int>(std::ceil(z.reduceBytes / bucket)));
    for (int k = 0; k < buckets; ++k) {
        const double bytes = std::min(bucket, z.reduceBytes - bucket * k) / par.comm.compression;
        z.reduceBuckets.push_back({bytes, collectiveCost(CollectiveKind::reduce_scatter, plan.dpAlgorithm, bytes, dp, setup.cluster)});
        add(z.reduce, z.reduceBuckets.back().cost);
    }
    return z;
}

PassDurations stagePassNs(const StageProfile& stage, const ClusterSetup& setup, const CommPlan& plan) {
    const double tpNs = plan.tpPointNs();
    PassDurations d;
    d.forwardNs = static_cast<double>(stage.forward.durNs) + tpNs * static_cast<double>(stage.forward.collectiveAfter.size());
    d.backwardNs = static_cast<double>(stage.backward.durNs) + tpNs * static_cast<double>(stage.backward.collectiveAfter.size());
    const ParallelConfig& par = setup.parallel;
    // A pass of an interleaved stage runs one chunk: 1/v of the stage's layers and weights.
    const int v = par.schedule == PipelineSchedule::interleaved ? par.virtualStages : 1;
    const ZeroPassComm z = zeroPassComm(stage, setup, plan, v);
    if (z.forwardFetches > 0) d.forwardNs = std::max(d.forwardNs, z.forwardGather.timeNs) + z.firstFetchNs;
    if (z.backwardFetches > 0) d.backwardNs = std::max(d.backwardNs, z.backwardGather.timeNs + z.reduce.timeNs) + z.firstFetchNs;
    return d;
}

}  // namespace npu::engine
