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
    std::vector<Placed> placed;  // kept sorted by offset
    placed.reserve(n);
    std::vector<const Placed*> overlapping;
    for (int id : order) {
        const BufferLifetime& b = trace.buffers[static_cast<std::size_t>(id)];
        const std::int64_t size = alignUp(std::max<std::int64_t>(b.bytes, 1), alignment);
        const int begin = b.alloc_seq, end = b.free_seq < 0 ? never : b.free_seq;
        overlapping.clear();
        for (const Placed& p : placed)
            if (p.begin < end && begin < p.end) overlapping.push_back(&p);
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
        const Placed entry{bestOffset, size, begin, end};
        placed.insert(std::upper_bound(placed.begin(), placed.end(), entry,
                                       [](const Placed& a, const Placed& c) { return a.offset < c.offset; }),
                      entry);
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
