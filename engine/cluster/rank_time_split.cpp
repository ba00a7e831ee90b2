#include "engine/cluster/rank_time_split.h"

#include <algorithm>
#include <iterator>

namespace npu::engine {

namespace {

bool startsBefore(const Interval& a, const Interval& b) { return a.start < b.start; }

std::vector<Interval> merged(std::vector<Interval> v) {
    if (!std::is_sorted(v.begin(), v.end(), startsBefore)) std::sort(v.begin(), v.end(), startsBefore);
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

// Of two unions (merged lists).
std::int64_t unionsIntersection(const std::vector<Interval>& ua, const std::vector<Interval>& ub) {
    std::int64_t total = 0;
    std::size_t j = 0;
    for (const auto& i : ua) {
        while (j < ub.size() && ub[j].end <= i.start) ++j;
        for (std::size_t k = j; k < ub.size() && ub[k].start < i.end; ++k)
            total += std::min(i.end, ub[k].end) - std::max(i.start, ub[k].start);
    }
    return total;
}

// Length of a union (a merged list).
std::int64_t lengthOf(const std::vector<Interval>& u) {
    std::int64_t total = 0;
    for (const auto& i : u) total += i.end - i.start;
    return total;
}

}  // namespace

std::int64_t intersectionLength(std::vector<Interval> a, std::vector<Interval> b) {
    return unionsIntersection(merged(std::move(a)), merged(std::move(b)));
}

std::int64_t unionLength(std::vector<Interval> intervals) { return lengthOf(merged(std::move(intervals))); }

RankTimeSplit splitRankTime(const RankTimeline& rank, std::int64_t iterationNs, bool pipelined) {
    RankTimeSplit s;
    // Each list merged once; their union from the two merged lists.
    const std::vector<Interval> computeUnion = merged(rank.compute), commUnion = merged(rank.comm);
    const std::int64_t compute = lengthOf(computeUnion);
    const std::int64_t comm = lengthOf(commUnion);
    const std::int64_t overlapped = unionsIntersection(computeUnion, commUnion);
    std::vector<Interval> all;
    all.reserve(computeUnion.size() + commUnion.size());
    std::merge(computeUnion.begin(), computeUnion.end(), commUnion.begin(), commUnion.end(), std::back_inserter(all), startsBefore);
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
