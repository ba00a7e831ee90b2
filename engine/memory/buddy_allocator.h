#pragma once
// The toolchain's "Dynamic Buddy" allocator (optimizations.memory_optimizer): memory is
// reserved from the device in power-of-two chunks, every request takes a power-of-two
// buddy block (>= 512 B) split off a chunk, and a freed block coalesces with its buddy
// as far up as it can. The strategy decides how eagerly fully free chunks go back to
// the device:
//   conservative  keeps every chunk cached (as the caching allocator does);
//   balanced      returns a free chunk once fragmentation, 1 - allocated / reserved,
//                 exceeds max_fragmentation;
//   aggressive    returns free chunks at once and sizes chunks to the request, not to
//                 the 32 MiB minimum.
// Before reporting out of memory every free chunk is returned and the request retried.
// Simplification: no compaction (live blocks are never moved), so max_fragmentation acts
// through chunk release only.

#include "engine/memory/device_allocator.h"

#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace npu::engine {

struct BuddyAllocatorOptions {
    std::string strategy = "balanced";  // conservative | balanced | aggressive
    double max_fragmentation = 0.15;
    std::int64_t capacity = std::numeric_limits<std::int64_t>::max();
};

class BuddyAllocator final : public DeviceAllocator {
public:
    static constexpr int kMinOrder = 9;     // 512 B
    static constexpr int kChunkOrder = 25;  // 32 MiB minimum chunk (conservative, balanced)

    explicit BuddyAllocator(BuddyAllocatorOptions options = {});

    std::string name() const override { return "buddy"; }
    std::int64_t allocate(int buffer, std::int64_t bytes) override;
    void release(int buffer) override;
    std::int64_t blockSize(int buffer) const override;
    std::int64_t allocatedBytes() const override { return m_allocated; }
    std::int64_t reservedBytes() const override { return m_reserved; }
    std::int64_t largestFreeBlock() const override;

    static int orderFor(std::int64_t bytes);

private:
    struct Chunk {
        std::int64_t base = 0;
        int order = 0;
    };
    int takeBlock(int order, std::int64_t& addr);
    bool addChunk(int order);
    void releaseChunk(std::int64_t base);
    void releaseFreeChunks();
    const Chunk& chunkOf(std::int64_t addr) const;

    BuddyAllocatorOptions m_options;
    std::map<std::int64_t, Chunk> m_chunks;                  // by base address
    std::map<int, std::set<std::int64_t>> m_free;            // order -> free block addresses
    std::unordered_map<int, std::pair<std::int64_t, int>> m_live;  // buffer -> (addr, order)
    std::int64_t m_allocated = 0;
    std::int64_t m_reserved = 0;
    std::int64_t m_nextAddress = std::int64_t(1) << 40;
};

}  // namespace npu::engine
