#include "engine/memory/static_planner.h"

#include <algorithm>
#include <numeric>

namespace npu::engine {

namespace {

std::int64_t alignUp(std::int64_t v, std::int64_t a) { return (v + a - 1) / a * a; }

struct Placed {
    std::int64_t offset;
    std::int64_t size;
    int begin;
    int end;
};

}  // namespace

// Greedy by size, best fit (the TFLite arena / XLA heap-simulator family): buffers from
// the largest down, each at the smallest gap between the already placed buffers whose
// lifetimes overlap its own. Finding those buffers in offset order is what costs: a scan
// of every placed buffer per buffer is quadratic, and a step with gradient accumulation or
// hundreds of layers has 10^5 buffers. So placed buffers are filed two ways. Long-lived
// ones (weights, gradients, optimizer state: lifetimes over an eighth of the step) are
// few and kept sorted by offset. Short-lived ones are filed by time into buckets of the
// request sequence, and a buffer collects them from the buckets its lifetime spans and
// sorts those few. The overlapping set, and so every offset, is the full scan's.
StaticPlan planStatic(const AllocationTrace& trace, std::int64_t alignment) {
    StaticPlan plan;
    plan.alignment = alignment;
    const std::size_t n = trace.buffers.size();
    plan.offsets.assign(n, 0);
    const int never = static_cast<int>(trace.requests.size());
    std::vector<int> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return trace.buffers[static_cast<std::size_t>(a)].bytes > trace.buffers[static_cast<std::size_t>(b)].bytes;
    });
    constexpr int kBuckets = 1024;
    const int span = std::max(1, (never + kBuckets) / kBuckets);
    const int bucketCount = never / span + 1;
    std::vector<std::vector<int>> buckets(static_cast<std::size_t>(bucketCount));
    std::vector<Placed> placed;  // in placement order
    placed.reserve(n);
    std::vector<int> longByOffset, allShort;
    std::vector<int> seenBy;  // per placed buffer: the last buffer that looked at it
    seenBy.reserve(n);
    std::vector<const Placed*> shortHits, longHits, overlapping;
    const auto byOffset = [](const Placed* a, const Placed* c) { return a->offset < c->offset; };
    for (int query = 0; query < static_cast<int>(n); ++query) {
        const int id = order[static_cast<std::size_t>(query)];
        const BufferLifetime& b = trace.buffers[static_cast<std::size_t>(id)];
        const std::int64_t size = alignUp(std::max<std::int64_t>(b.bytes, 1), alignment);
        const int begin = b.alloc_seq, end = b.free_seq < 0 ? never : b.free_seq;
        const int firstBucket = std::clamp(begin / span, 0, bucketCount - 1);
        const int lastBucket = std::clamp(std::max(begin, end - 1) / span, firstBucket, bucketCount - 1);
        const bool isLong = (lastBucket - firstBucket + 1) * 8 > bucketCount;
        const auto overlaps = [&](const Placed& p) { return p.begin < end && begin < p.end; };
        longHits.clear();
        for (int i : longByOffset)
            if (overlaps(placed[static_cast<std::size_t>(i)])) longHits.push_back(&placed[static_cast<std::size_t>(i)]);
        shortHits.clear();
        const auto considerShort = [&](int i) {
            if (seenBy[static_cast<std::size_t>(i)] == query) return;
            seenBy[static_cast<std::size_t>(i)] = query;
            if (overlaps(placed[static_cast<std::size_t>(i)])) shortHits.push_back(&placed[static_cast<std::size_t>(i)]);
        };
        if (isLong) {
            for (int i : allShort) considerShort(i);
        } else {
            for (int k = firstBucket; k <= lastBucket; ++k)
                for (int i : buckets[static_cast<std::size_t>(k)]) considerShort(i);
        }
        // Offset order; among equal offsets the order does not change the gaps.
        std::sort(shortHits.begin(), shortHits.end(), byOffset);
        overlapping.resize(longHits.size() + shortHits.size());
        std::merge(longHits.begin(), longHits.end(), shortHits.begin(), shortHits.end(), overlapping.begin(), byOffset);
        // Best fit: the smallest gap between overlapping buffers that holds `size`.
        std::int64_t bestOffset = -1, bestGap = 0, cursor = 0;
        for (const Placed* p : overlapping) {
            const std::int64_t gap = p->offset - cursor;
            if (gap >= size && (bestOffset < 0 || gap < bestGap)) {
                bestOffset = cursor;
                bestGap = gap;
            }
            cursor = std::max(cursor, p->offset + p->size);
        }
        if (bestOffset < 0) bestOffset = cursor;
        plan.offsets[static_cast<std::size_t>(id)] = bestOffset;
        plan.planned_peak = std::max(plan.planned_peak, bestOffset + size);
        const int index = static_cast<int>(placed.size());
        placed.push_back({bestOffset, size, begin, end});
        seenBy.push_back(-1);
        if (isLong) {
            longByOffset.insert(std::upper_bound(longByOffset.begin(), longByOffset.end(), bestOffset,
                                                 [&](std::int64_t o, int i) { return o < placed[static_cast<std::size_t>(i)].offset; }),
                                index);
        } else {
            allShort.push_back(index);
            for (int k = firstBucket; k <= lastBucket; ++k) buckets[static_cast<std::size_t>(k)].push_back(index);
        }
    }
    return plan;
}

AllocatorRun staticRun(const AllocationTrace& trace, const StaticPlan& plan) {
    AllocatorRun run;
    run.allocator = "static";
    run.segments.push_back({0, plan.planned_peak, 0, -1, false});
    run.segment_allocs = 1;
    run.reserved_peak = plan.planned_peak;
    std::int64_t live = 0;
    for (const AllocRequest& r : trace.requests) {
        const BufferLifetime& b = trace.buffers[static_cast<std::size_t>(r.buffer)];
        const std::int64_t size = alignUp(std::max<std::int64_t>(b.bytes, 1), plan.alignment);
        live += r.alloc ? size : -size;
        run.allocated_peak = std::max(run.allocated_peak, live);
        run.samples.push_back({r.t_ns, live, plan.planned_peak, live, 0});
    }
    run.active_peak = run.allocated_peak;
    for (std::size_t i = 0; i < trace.buffers.size(); ++i) {
        const BufferLifetime& b = trace.buffers[i];
        run.blocks.push_back({static_cast<int>(i), plan.offsets[i], alignUp(std::max<std::int64_t>(b.bytes, 1), plan.alignment),
                              b.alloc_ns, b.free_ns, {}, {}, {}});
    }
    return run;
}

}  // namespace npu::engine
