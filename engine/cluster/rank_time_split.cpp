#include "engine/cluster/rank_time_split.h"

#include <algorithm>

namespace npu::engine {

namespace {

std::vector<Interval> merged(std::vector<Interval> v) {
    std::sort(v.begin(), v.end(), [](const Interval& a, const Interval& b) { return a.start < b.start; });
    std::vector<Interval> out;
    for (const auto& i : v) {
        if (i.end <= i.start) continue;
        if (!out.empty() && i.start <= out.back().end) out.back().end = std::max(out.back().end, i.end);
        else out.push_back(i);
    }
    return out;
}

// Length of the union inside [lo, hi).
std::int64_t lengthWithin(const std::vector<Interval>& u, std::int64_t lo, std::int64_t hi) {
    std::int64_t total = 0;
    for (const auto& i : u) total += std::max<std::int64_t>(0, std::min(i.end, hi) - std::max(i.start, lo));
    return total;
}

}  // namespace

std::int64_t unionLength(std::vector<Interval> intervals) {
    std::int64_t total = 0;
    for (const auto& i : merged(std::move(intervals))) total += i.end - i.start;
    return total;
}

std::int64_t intersectionLength(std::vector<Interval> a, std::vector<Interval> b) {
    const auto ua = merged(std::move(a)), ub = merged(std::move(b));
    std::int64_t total = 0;
    std::size_t j = 0;
    for (const auto& i : ua) {
        while (j < ub.size() && ub[j].end <= i.start) ++j;
        for (std::size_t k = j; k < ub.size() && ub[k].start < i.end; ++k)
            total += std::min(i.end, ub[k].end) - std::max(i.start, ub[k].start);
    }
    return total;
}

RankTimeSplit splitRankTime(const RankTimeline& rank, std::int64_t iterationNs, bool pipelined) {
    RankTimeSplit s;
    const std::int64_t compute = unionLength(rank.compute);
    const std::int64_t comm = unionLength(rank.comm);
    const std::int64_t overlapped = intersectionLength(rank.compute, rank.comm);
    std::vector<Interval> all = rank.compute;
    all.insert(all.end(), rank.comm.begin(), rank.comm.end());
    const auto busy = merged(std::move(all));
    const std::int64_t pipeEnd = pipelined ? std::min(rank.pipelineEndNs, iterationNs) : 0;
    const std::int64_t idleInPipeline = pipeEnd - lengthWithin(busy, 0, pipeEnd);
    const std::int64_t idleAfter = (iterationNs - pipeEnd) - lengthWithin(busy, pipeEnd, iterationNs);
    s.computing_ms = compute / 1e6;
    s.communication_ms = comm / 1e6;
    s.overlapped_ms = overlapped / 1e6;
    s.communication_not_overlapped_ms = (comm - overlapped) / 1e6;
    s.bubble_ms = std::max<std::int64_t>(0, idleInPipeline) / 1e6;
    s.free_ms = std::max<std::int64_t>(0, idleAfter) / 1e6;
    s.comm_ratio = compute > 0 ? static_cast<double>(comm) / static_cast<double>(compute) : 0;
    return s;
}

}  // namespace npu::engine
