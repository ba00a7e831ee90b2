#include "engine/memory/memory_analysis.h"

#include "engine/memory/static_planner.h"

#include <algorithm>
#include <memory>

namespace npu::engine {

namespace {

AllocatorRun runAllocator(const std::string& kind, const AllocationTrace& trace, std::int64_t capacity,
                          const MemoryOptions& options, const StaticPlan& plan) {
    if (kind == "static") {
        AllocatorRun run = staticRun(trace, plan);
        run.oom = plan.planned_peak > capacity;
        return run;
    }
    std::unique_ptr<DeviceAllocator> allocator;
    if (kind == "buddy") {
        BuddyAllocatorOptions o = options.buddy;
        o.capacity = std::min(o.capacity, capacity);
        allocator = std::make_unique<BuddyAllocator>(o);
    } else {
        CachingAllocatorOptions o = options.caching;
        o.capacity = std::min(o.capacity, capacity);
        allocator = std::make_unique<CachingAllocator>(o);
    }
    return replay(trace, *allocator);
}

// An allocator that runs out of the capacity stops at the failing request; its figures
// are then what the step needs: the same allocator replayed on a device without the
// limit (what max_memory_reserved would show on a large enough device), keeping where
// the capped replay failed.
AllocatorRun runForFigures(const std::string& kind, const AllocationTrace& trace, std::int64_t capacity,
                           const MemoryOptions& options, const StaticPlan& plan) {
    AllocatorRun run = runAllocator(kind, trace, capacity, options, plan);
    if (!run.oom || kind == "static" || !options.figuresOfNeed) return run;
    AllocatorRun need = runAllocator(kind, trace, INT64_MAX, options, plan);
    need.oom = true;
    need.oom_seq = run.oom_seq;
    need.oom_ns = run.oom_ns;
    need.oom_request_bytes = run.oom_request_bytes;
    return need;
}

AllocatorFigures figures(const AllocatorRun& run) {
    return {run.allocator, run.allocated_peak, run.reserved_peak, run.largest_free_at_reserved_peak, run.segment_allocs, run.oom};
}

std::map<std::string, std::int64_t> liveByCategory(const AllocationTrace& trace, int uptoSeq) {
    std::int64_t live[kMemoryCategoryCount] = {};
    for (int i = 0; i <= uptoSeq && i < static_cast<int>(trace.requests.size()); ++i) {
        const AllocRequest& r = trace.requests[static_cast<std::size_t>(i)];
        const BufferLifetime& b = trace.buffers[static_cast<std::size_t>(r.buffer)];
        live[static_cast<int>(b.category)] += r.alloc ? b.bytes : -b.bytes;
    }
    std::map<std::string, std::int64_t> out;
    for (int c = 0; c < kMemoryCategoryCount; ++c)
        if (live[c] > 0) out[std::string(memoryCategoryName(static_cast<MemoryCategory>(c)))] = live[c];
    return out;
}

MemoryAnalysis analyse(const AllocationTrace& trace, std::int64_t capacity, const MemoryOptions& options) {
    MemoryAnalysis out;
    MemorySummary& s = out.summary;
    const LiveBytesPeak lower = liveBytesPeak(trace);
    // The greedy planner's search grows with buffers x overlapping buffers: past this many
    // buffers it takes minutes (LLaMA-7B widths with 1,024 layers: about two), so the plan,
    // the fragmentation it defines and the static allocator's comparison row are left out
    // (planned_peak_bytes 0, static_plan_skipped) unless the static allocator is the one run.
    constexpr std::size_t kMaxPlannedBuffers = 100'000;
    const bool planned = trace.buffers.size() <= kMaxPlannedBuffers || options.allocator == "static";
    const StaticPlan plan = planned ? planStatic(trace) : StaticPlan{};
    s.allocator = options.allocator;
    s.lower_bound_bytes = lower.bytes;
    s.planned_peak_bytes = plan.planned_peak;
    s.static_plan_skipped = !planned;
    s.fragmentation = planned && lower.bytes > 0 ? static_cast<double>(plan.planned_peak) / static_cast<double>(lower.bytes) - 1 : 0;
    s.by_category = liveByCategory(trace, lower.seq);
    out.run = runForFigures(options.allocator, trace, capacity, options, plan);
    if (out.run.oom && out.run.oom_seq < 0 && lower.seq >= 0) {  // a static plan fails at the live peak
        out.run.oom_seq = lower.seq;
        out.run.oom_ns = trace.requests[static_cast<std::size_t>(lower.seq)].t_ns;
    }
    s.reserved_peak_bytes = out.run.reserved_peak;
    s.largest_free_block_bytes = out.run.largest_free_at_reserved_peak;
    out.allocatedPeak = out.run.oom ? std::max(out.run.allocated_peak, lower.bytes) : out.run.allocated_peak;  // static: the live peak
    for (const char* kind : {"caching", "buddy", "static"}) {
        if (kind == options.allocator) s.allocators.push_back(figures(out.run));
        else if (options.compareAllocators && (planned || std::string_view(kind) != "static")) s.allocators.push_back(figures(runForFigures(kind, trace, capacity, options, plan)));
    }
    if (out.run.oom) {
        s.oom.present = true;
        s.oom.time_ns = out.run.oom_ns;
        s.oom.request_bytes = out.run.oom_request_bytes;
    }
    return out;
}

}  // namespace

MemoryAnalysis analyseTrace(const AllocationTrace& trace, std::int64_t capacity, const MemoryOptions& options) {
    return analyse(trace, capacity, options);
}

MemoryAnalysis analyseMemory(const Graph& graph, const std::vector<MemoryEvent>& events, std::int64_t capacity,
                             const MemoryOptions& options) {
    const AllocationTrace trace = allocationTrace(events, memoryCategories(graph));
    MemoryAnalysis out = analyse(trace, capacity, options);
    for (PlacedBlock& block : out.run.blocks) {  // what the memory map names each block by
        if (block.buffer < 0 || static_cast<std::size_t>(block.buffer) >= trace.buffers.size()) continue;
        const BufferLifetime& b = trace.buffers[static_cast<std::size_t>(block.buffer)];
        block.category = std::string(memoryCategoryName(b.category));
        if (b.tensor < 0) continue;
        const Tensor& t = graph.tensor(b.tensor);
        block.name = t.name;
        if (t.producer >= 0) block.producer = graph.node(t.producer).name;
    }
    OomReport& oom = out.summary.oom;
    if (!oom.present) return out;
    // The failing request (or, for a static plan, the live peak) names the op and the live set.
    const int seq = out.run.oom_seq;
    if (seq < 0) return out;
    const BufferLifetime& failed = trace.buffers[static_cast<std::size_t>(trace.requests[static_cast<std::size_t>(seq)].buffer)];
    if (failed.tensor >= 0) {
        // A tensor without producer (an optimizer state) is created by the first op reading it.
        const Tensor& t = graph.tensor(failed.tensor);
        oom.tensor = t.name;
        const int op = t.producer >= 0 ? t.producer : (t.consumers.empty() ? -1 : t.consumers.front());
        oom.op = op >= 0 ? graph.node(op).name : t.name;
    }
    std::vector<int> live;
    for (std::size_t i = 0; i < trace.buffers.size(); ++i) {
        const BufferLifetime& b = trace.buffers[i];
        if (b.alloc_seq <= seq && (b.free_seq < 0 || b.free_seq > seq)) live.push_back(static_cast<int>(i));
    }
    const std::size_t top = std::min<std::size_t>(10, live.size());
    std::partial_sort(live.begin(), live.begin() + static_cast<std::ptrdiff_t>(top), live.end(), [&](int a, int b) {
        return trace.buffers[static_cast<std::size_t>(a)].bytes > trace.buffers[static_cast<std::size_t>(b)].bytes;
    });
    for (std::size_t i = 0; i < top; ++i) {
        const BufferLifetime& b = trace.buffers[static_cast<std::size_t>(live[i])];
        LiveTensorInfo info;
        info.bytes = b.bytes;
        info.category = std::string(memoryCategoryName(b.category));
        info.alloc_ns = b.alloc_ns;
        info.free_ns = b.free_ns;
        if (b.tensor >= 0) {
            const Tensor& t = graph.tensor(b.tensor);
            info.name = t.name;
            if (t.producer >= 0) info.producer = graph.node(t.producer).name;
        }
        oom.top_tensors.push_back(std::move(info));
    }
    return out;
}

}  // namespace npu::engine
