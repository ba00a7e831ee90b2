#include "engine/memory/device_allocator.h"

#include <algorithm>

namespace npu::engine {

void DeviceAllocator::segmentOpened(std::int64_t addr, std::int64_t size, bool small) {
    m_segments.push_back({addr, size, m_now, -1, small});
}

void DeviceAllocator::segmentClosed(std::int64_t addr) {
    for (auto it = m_segments.rbegin(); it != m_segments.rend(); ++it)
        if (it->addr == addr && it->free_ns < 0) {
            it->free_ns = m_now;
            return;
        }
}

void DeviceAllocator::segmentResized(std::int64_t addr, std::int64_t size) {
    // A grown or shrunk expandable segment shows as the old span closing and a new one opening.
    for (auto it = m_segments.rbegin(); it != m_segments.rend(); ++it)
        if (it->addr == addr && it->free_ns < 0) {
            const bool small = it->small;
            it->free_ns = m_now;
            if (size > 0) m_segments.push_back({addr, size, m_now, -1, small});
            return;
        }
    if (size > 0) m_segments.push_back({addr, size, m_now, -1, false});
}

AllocatorRun replay(const AllocationTrace& trace, DeviceAllocator& allocator) {
    AllocatorRun run;
    run.allocator = allocator.name();
    run.samples.reserve(trace.requests.size());
    std::vector<int> blockOf(trace.buffers.size(), -1);
    for (std::size_t i = 0; i < trace.requests.size(); ++i) {
        const AllocRequest& r = trace.requests[i];
        const BufferLifetime& b = trace.buffers[static_cast<std::size_t>(r.buffer)];
        allocator.setTime(r.t_ns);
        if (r.alloc) {
            const std::int64_t addr = allocator.allocate(r.buffer, b.bytes);
            if (addr < 0) {
                run.oom = true;
                run.oom_seq = static_cast<int>(i);
                run.oom_ns = r.t_ns;
                run.oom_request_bytes = b.bytes;
                break;
            }
            blockOf[static_cast<std::size_t>(r.buffer)] = static_cast<int>(run.blocks.size());
            run.blocks.push_back({r.buffer, addr, allocator.blockSize(r.buffer), r.t_ns, -1, {}, {}, {}});
        } else {
            const int blk = blockOf[static_cast<std::size_t>(r.buffer)];
            allocator.release(r.buffer);  // also frees blocks the allocator held before the trace
            if (blk >= 0) run.blocks[static_cast<std::size_t>(blk)].free_ns = r.t_ns;
        }
        AllocatorSample s{r.t_ns, allocator.allocatedBytes(), allocator.reservedBytes(), allocator.allocatedBytes(),
                          allocator.largestFreeBlock()};
        run.allocated_peak = std::max(run.allocated_peak, s.allocated);
        run.active_peak = std::max(run.active_peak, s.active);
        if (s.reserved > run.reserved_peak) {
            run.reserved_peak = s.reserved;
            run.reserved_peak_ns = s.t_ns;
            run.largest_free_at_reserved_peak = s.largest_free;
        }
        run.samples.push_back(s);
    }
    run.segments = allocator.segments();
    for (const SegmentSpan& s : run.segments) {
        ++run.segment_allocs;
        if (s.free_ns >= 0) ++run.segment_frees;
    }
    run.cache_flushes = allocator.cacheFlushes();
    run.moved_bytes = allocator.movedBytes();
    return run;
}

}  // namespace npu::engine
