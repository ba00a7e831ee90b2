#pragma once
// How one rank's iteration splits (the Communication view's stacked bar, after MindStudio
// Insight): computing = time any compute stream is busy; communication = time any
// communication stream is busy, of which "overlapped" runs while compute runs; what is
// neither is bubble while the pipeline fills and drains (before the last backward pass
// ends) and free after it (waiting for gradients, other stages, the optimizer).

#include "engine/result/cluster_summary.h"
#include "engine/cluster/rank_timeline.h"

namespace npu::engine {

RankTimeSplit splitRankTime(const RankTimeline& rank, std::int64_t iterationNs, bool pipelined);

// Total length of the union of intervals (sorted or not).
std::int64_t unionLength(std::vector<Interval> intervals);
// Length of (union of a) ∩ (union of b).
std::int64_t intersectionLength(std::vector<Interval> a, std::vector<Interval> b);

}  // namespace npu::engine
