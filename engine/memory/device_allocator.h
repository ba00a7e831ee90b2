#pragma once
// The interface every simulated dynamic allocator implements (caching, buddy), and
// replay(): drives one over an AllocationTrace request by request and records what a
// memory profiler would show — allocated, reserved, active and the largest free cached
// block after every request, every block's address and lifetime (the memory map), every
// segment the allocator reserved from the device, and the first request it could not
// satisfy (out of memory) with what was live then.

#include "engine/memory/allocation_trace.h"
#include "engine/result/memory_summary.h"

#include <cstdint>
#include <string>
#include <vector>

namespace npu::engine {

struct AllocatorRun {
    std::string allocator;          // caching | buddy | static
    std::vector<AllocatorSample> samples;   // one per request (fewer after downsampling)
    std::vector<PlacedBlock> blocks;
    std::vector<SegmentSpan> segments;
    std::int64_t allocated_peak = 0;
    std::int64_t reserved_peak = 0;
    std::int64_t active_peak = 0;
    std::int64_t largest_free_at_reserved_peak = 0;
    std::int64_t reserved_peak_ns = 0;
    int segment_allocs = 0;
    int segment_frees = 0;
    int cache_flushes = 0;          // free-cached-blocks-and-retry events
    std::int64_t moved_bytes = 0;   // bytes copied by compaction (buddy, aggressive)
    bool oom = false;
    int oom_seq = -1;               // request that failed
    std::int64_t oom_ns = 0;
    std::int64_t oom_request_bytes = 0;
};

class DeviceAllocator {
public:
    virtual ~DeviceAllocator() = default;
    virtual std::string name() const = 0;
    // Returns the block's address, or -1 when even after releasing cached memory the
    // request does not fit in the capacity.
    virtual std::int64_t allocate(int buffer, std::int64_t bytes) = 0;
    virtual void release(int buffer) = 0;
    virtual std::int64_t blockSize(int buffer) const = 0;
    virtual std::int64_t allocatedBytes() const = 0;
    virtual std::int64_t reservedBytes() const = 0;
    virtual std::int64_t largestFreeBlock() const = 0;

    void setTime(std::int64_t t_ns) { m_now = t_ns; }
    const std::vector<SegmentSpan>& segments() const { return m_segments; }
    int cacheFlushes() const { return m_cacheFlushes; }
    std::int64_t movedBytes() const { return m_movedBytes; }

protected:
    void segmentOpened(std::int64_t addr, std::int64_t size, bool small);
    void segmentClosed(std::int64_t addr);
    void segmentResized(std::int64_t addr, std::int64_t size);

    std::int64_t m_now = 0;
    int m_cacheFlushes = 0;
    std::int64_t m_movedBytes = 0;

private:
    std::vector<SegmentSpan> m_segments;
};

// Drives `allocator` through `trace`; stops at the first request that does not fit.
AllocatorRun replay(const AllocationTrace& trace, DeviceAllocator& allocator);

}  // namespace npu::engine
