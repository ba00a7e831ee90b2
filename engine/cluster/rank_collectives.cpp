// The collectives of a rank's timeline (rank_timeline.h): the tensor-parallel point's
// collectives and their time, a collective as a task, and a collective's achieved and bus
// rates over its transfers.
#include "engine/cluster/rank_timeline.h"

namespace npu::engine {

double CommPlan::tpPointNs() const {
    double ns = 0;
    for (const auto& [kind, cost] : tpPoint) ns += cost.timeNs;
    return ns;
}

std::vector<std::pair<CollectiveKind, CollectiveCost>> tensorParallelPointCollectives(const ClusterSetup& s, double bytes) {
    if (s.parallel.tensorParallel <= 1) return {};
    const GroupPlacement tp = s.tpGroup();
    if (!s.parallel.sequenceParallel) return {{CollectiveKind::all_reduce, collectiveCost(CollectiveKind::all_reduce, CollectiveAlgorithm::ring, bytes, tp, s.cluster)}};
    return {{CollectiveKind::reduce_scatter, collectiveCost(CollectiveKind::reduce_scatter, CollectiveAlgorithm::ring, bytes, tp, s.cluster)},
            {CollectiveKind::all_gather, collectiveCost(CollectiveKind::all_gather, CollectiveAlgorithm::ring, bytes, tp, s.cluster)}};
}

SimTask collectiveTask(std::int64_t start, std::int64_t dur, int stream, const std::string& name, CollectiveKind kind, double bytes) {
    SimTask t;
    t.start_ns = start;
    t.dur_ns = dur;
    t.stream = stream;
    t.name = name;
    t.op_type = std::string(collectiveKindName(kind));
    t.category = OpCategory::comm;
    t.phase = Phase::communication;
    t.bytes = bytes;
    return t;
}

void setCollectiveRates(CollectiveSummary& c, double seconds) {
    c.achieved_GBps = seconds > 0 ? c.bytes / seconds / 1e9 : 0;
    c.bus_GBps = seconds > 0 ? c.bus_GBps / seconds / 1e9 : 0;
}

}  // namespace npu::engine
