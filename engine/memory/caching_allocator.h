#pragma once
// PyTorch's CUDA caching allocator (c10/cuda/CUDACachingAllocator.cpp,
// DeviceCachingAllocator), simulated on one stream:
// - sizes round up to 512 B (kMinBlockSize); requests <= 1 MiB (kSmallSize) go to the
//   small pool, larger ones to the large pool;
// - a request takes the best-fitting cached block of its pool (smallest size, then
//   lowest address), except that blocks >= max_split_size only serve requests that are
//   themselves >= max_split_size and at most kLargeBuffer (20 MiB) smaller;
// - without a fitting block a new segment is reserved: 2 MiB (kSmallBuffer) for small
//   requests, 20 MiB (kLargeBuffer) for requests under 10 MiB (kMinLargeAlloc), the size
//   rounded up to 2 MiB (kRoundLarge) above;
// - a block is split when the rest is worth keeping: >= 512 B in the small pool, > 1 MiB
//   in the large pool and only for requests under max_split_size;
// - freed blocks merge with free neighbours of their segment and stay cached; segments
//   go back to the device only when a new segment would exceed the capacity: first the
//   smallest oversize cached segment that is large enough, then every fully free segment
//   (empty_cache), and the reservation is retried before reporting out of memory;
// - expandable_segments: one segment per pool that grows by mapping pages (2 MiB for
//   the small pool, 20 MiB for the large) at its end, so freed space coalesces across
//   the whole pool. Simplification: on out of memory only the free tail is unmapped.
// Not modelled: multiple streams and record_stream (active == allocated here),
// garbage_collection_threshold, roundup_power2_divisions, CUDA graph pools.

#include "engine/memory/device_allocator.h"

#include <cstdint>
#include <limits>
#include <set>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace npu::engine {

struct CachingAllocatorOptions {
    std::int64_t capacity = std::numeric_limits<std::int64_t>::max();
    std::int64_t max_split_size = std::numeric_limits<std::int64_t>::max();  // PYTORCH_CUDA_ALLOC_CONF
    bool expandable_segments = false;
};

class CachingAllocator final : public DeviceAllocator {
public:
    static constexpr std::int64_t kMinBlockSize = 512;
    static constexpr std::int64_t kSmallSize = 1 << 20;
    static constexpr std::int64_t kSmallBuffer = 2 << 20;
    static constexpr std::int64_t kLargeBuffer = 20 << 20;
    static constexpr std::int64_t kMinLargeAlloc = 10 << 20;
    static constexpr std::int64_t kRoundLarge = 2 << 20;

    explicit CachingAllocator(CachingAllocatorOptions options = {});

    std::string name() const override { return "caching"; }
    std::int64_t allocate(int buffer, std::int64_t bytes) override;
    void release(int buffer) override;
    std::int64_t blockSize(int buffer) const override;
    std::int64_t allocatedBytes() const override { return m_allocated; }
    std::int64_t reservedBytes() const override { return m_reserved; }
    std::int64_t largestFreeBlock() const override;

    // Takes over a segment that existed before the simulated requests (an imported
    // snapshot's state when its trace began): `live` holds (buffer, address, size) of the
    // blocks allocated in it; the gaps between them become cached free blocks.
    struct LiveBlock {
        int buffer = -1;
        std::int64_t addr = 0;
        std::int64_t size = 0;
    };
    void adoptSegment(std::int64_t addr, std::int64_t size, bool small, std::vector<LiveBlock> live);

    static std::int64_t roundSize(std::int64_t bytes);
    static std::int64_t segmentSize(std::int64_t roundedBytes);

private:
    struct Block {
        std::int64_t addr = 0;
        std::int64_t size = 0;
        int prev = -1;
        int next = -1;
        bool allocated = false;
        bool small = false;
    };
    using PoolKey = std::tuple<std::int64_t, std::int64_t, int>;  // size, addr, block

    int newBlock(const Block& b);
    void dropBlock(int id);
    void poolInsert(int id);
    void poolErase(int id);
    int findFreeBlock(bool small, std::int64_t size) const;
    int reserveSegment(bool small, std::int64_t size);
    int growExpandable(bool small, std::int64_t size);
    bool releaseOneOversize(std::int64_t size);
    void releaseCachedSegments();
    bool shouldSplit(const Block& b, std::int64_t size) const;

    CachingAllocatorOptions m_options;
    std::vector<Block> m_blocks;
    std::vector<int> m_freeSlots;
    std::set<PoolKey> m_pools[2];  // [0] large, [1] small
    std::unordered_map<int, int> m_blockOfBuffer;
    std::int64_t m_allocated = 0;
    std::int64_t m_reserved = 0;
    std::int64_t m_nextAddress = std::int64_t(1) << 40;  // virtual addresses handed out by the "device"
    int m_expandableTail[2] = {-1, -1};                   // last block of each pool's expandable segment
    std::int64_t m_expandableBase[2] = {0, 0};
    std::int64_t m_expandableMapped[2] = {0, 0};
};

}  // namespace npu::engine
