#include "engine/memory/buddy_allocator.h"

#include <algorithm>

namespace npu::engine {

BuddyAllocator::BuddyAllocator(BuddyAllocatorOptions options) : m_options(std::move(options)) {}

int BuddyAllocator::orderFor(std::int64_t bytes) {
    int order = kMinOrder;
    while ((std::int64_t(1) << order) < bytes) ++order;
    return order;
}

const BuddyAllocator::Chunk& BuddyAllocator::chunkOf(std::int64_t addr) const {
    auto it = m_chunks.upper_bound(addr);
    return std::prev(it)->second;
}

bool BuddyAllocator::addChunk(int order) {
    const int chunkOrder = m_options.strategy == "aggressive" ? order : std::max(order, kChunkOrder);
    const std::int64_t size = std::int64_t(1) << chunkOrder;
    if (m_reserved + size > m_options.capacity) return false;
    // Chunks are aligned to their size so buddies are found by flipping one address bit.
    const std::int64_t base = (m_nextAddress + size - 1) / size * size;
    m_nextAddress = base + size;
    m_chunks[base] = {base, chunkOrder};
    m_free[chunkOrder].insert(base);
    m_reserved += size;
    segmentOpened(base, size, false);
    return true;
}

int BuddyAllocator::takeBlock(int order, std::int64_t& addr) {
    auto it = m_free.lower_bound(order);
    while (it != m_free.end() && it->second.empty()) ++it;
    if (it == m_free.end()) return -1;
    int have = it->first;
    addr = *it->second.begin();
    it->second.erase(it->second.begin());
    while (have > order) {  // split, keeping the lower half
        --have;
        m_free[have].insert(addr + (std::int64_t(1) << have));
    }
    return order;
}

void BuddyAllocator::releaseChunk(std::int64_t base) {
    auto it = m_chunks.find(base);
    if (it == m_chunks.end()) return;
    m_free[it->second.order].erase(base);
    m_reserved -= std::int64_t(1) << it->second.order;
    segmentClosed(base);
    m_chunks.erase(it);
}

void BuddyAllocator::releaseFreeChunks() {
    std::vector<std::int64_t> free;
    for (const auto& [base, chunk] : m_chunks)
        if (m_free[chunk.order].count(base)) free.push_back(base);
    if (!free.empty()) ++m_cacheFlushes;
    for (std::int64_t base : free) releaseChunk(base);
}

std::int64_t BuddyAllocator::allocate(int buffer, std::int64_t bytes) {
    const int order = orderFor(bytes);
    std::int64_t addr = 0;
    if (takeBlock(order, addr) < 0) {
        if (!addChunk(order)) {
            releaseFreeChunks();
            if (!addChunk(order)) return -1;
        }
        takeBlock(order, addr);
    }
    m_live[buffer] = {addr, order};
    m_allocated += std::int64_t(1) << order;
    return addr;
}

void BuddyAllocator::release(int buffer) {
    auto found = m_live.find(buffer);
    if (found == m_live.end()) return;
    auto [addr, order] = found->second;
    m_live.erase(found);
    m_allocated -= std::int64_t(1) << order;
    const Chunk chunk = chunkOf(addr);
    while (order < chunk.order) {
        const std::int64_t buddy = chunk.base + ((addr - chunk.base) ^ (std::int64_t(1) << order));
        auto& list = m_free[order];
        auto it = list.find(buddy);
        if (it == list.end()) break;
        list.erase(it);
        addr = std::min(addr, buddy);
        ++order;
    }
    m_free[order].insert(addr);
    if (order < chunk.order) return;
    const double fragmentation = m_reserved > 0 ? 1.0 - static_cast<double>(m_allocated) / static_cast<double>(m_reserved) : 0;
    if (m_options.strategy == "aggressive" ||
        (m_options.strategy == "balanced" && fragmentation > m_options.max_fragmentation))
        releaseChunk(chunk.base);
}

std::int64_t BuddyAllocator::blockSize(int buffer) const {
    auto it = m_live.find(buffer);
    return it == m_live.end() ? 0 : std::int64_t(1) << it->second.second;
}

std::int64_t BuddyAllocator::largestFreeBlock() const {
    for (auto it = m_free.rbegin(); it != m_free.rend(); ++it)
        if (!it->second.empty()) return std::int64_t(1) << it->first;
    return 0;
}

}  // namespace npu::engine
