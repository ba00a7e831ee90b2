#include "engine/memory/caching_allocator.h"

#include <algorithm>

namespace npu::engine {

namespace {

std::int64_t roundUp(std::int64_t v, std::int64_t to) { return (v + to - 1) / to * to; }

}  // namespace

CachingAllocator::CachingAllocator(CachingAllocatorOptions options) : m_options(options) {}

std::int64_t CachingAllocator::roundSize(std::int64_t bytes) {
    return bytes < kMinBlockSize ? kMinBlockSize : roundUp(bytes, kMinBlockSize);
}

std::int64_t CachingAllocator::segmentSize(std::int64_t rounded) {
    if (rounded <= kSmallSize) return kSmallBuffer;
    if (rounded < kMinLargeAlloc) return kLargeBuffer;
    return roundUp(rounded, kRoundLarge);
}

int CachingAllocator::newBlock(const Block& b) {
    if (!m_freeSlots.empty()) {
        const int id = m_freeSlots.back();
        m_freeSlots.pop_back();
        m_blocks[static_cast<std::size_t>(id)] = b;
        return id;
    }
    m_blocks.push_back(b);
    return static_cast<int>(m_blocks.size()) - 1;
}

void CachingAllocator::dropBlock(int id) { m_freeSlots.push_back(id); }

void CachingAllocator::poolInsert(int id) {
    const Block& b = m_blocks[static_cast<std::size_t>(id)];
    m_pools[b.small ? 1 : 0].insert({b.size, b.addr, id});
}

void CachingAllocator::poolErase(int id) {
    const Block& b = m_blocks[static_cast<std::size_t>(id)];
    m_pools[b.small ? 1 : 0].erase({b.size, b.addr, id});
}

int CachingAllocator::findFreeBlock(bool small, std::int64_t size) const {
    const auto& pool = m_pools[small ? 1 : 0];
    auto it = pool.lower_bound({size, 0, -1});
    if (it == pool.end()) return -1;
    const std::int64_t found = std::get<0>(*it);
    const std::int64_t maxSplit = m_options.max_split_size;
    // Oversize blocks are kept whole for oversize requests of about their size.
    if (size < maxSplit && found >= maxSplit) return -1;
    if (size >= maxSplit && found >= size + kLargeBuffer) return -1;
    return std::get<2>(*it);
}

bool CachingAllocator::shouldSplit(const Block& b, std::int64_t size) const {
    const std::int64_t remaining = b.size - size;
    if (b.small || m_options.expandable_segments) return remaining >= kMinBlockSize;
    return size < m_options.max_split_size && remaining > kSmallSize;
}

int CachingAllocator::reserveSegment(bool small, std::int64_t size) {
    const std::int64_t bytes = segmentSize(size);
    if (m_reserved + bytes > m_options.capacity) return -1;
    const std::int64_t addr = m_nextAddress;
    m_nextAddress += roundUp(bytes, kRoundLarge);
    m_reserved += bytes;
    segmentOpened(addr, bytes, small);
    return newBlock({addr, bytes, -1, -1, false, small});
}

int CachingAllocator::growExpandable(bool small, std::int64_t size) {
    const int p = small ? 1 : 0;
    const std::int64_t page = small ? kSmallBuffer : kLargeBuffer;
    if (m_expandableBase[p] == 0) {
        m_expandableBase[p] = m_nextAddress;
        m_nextAddress += std::int64_t(1) << 44;  // address space for the whole device
    }
    const int tail = m_expandableTail[p];
    const bool tailFree = tail >= 0 && !m_blocks[static_cast<std::size_t>(tail)].allocated;
    const std::int64_t have = tailFree ? m_blocks[static_cast<std::size_t>(tail)].size : 0;
    const std::int64_t grow = roundUp(size - have, page);
    if (m_reserved + grow > m_options.capacity) return -1;
    const std::int64_t oldEnd = m_expandableBase[p] + m_expandableMapped[p];
    m_reserved += grow;
    m_expandableMapped[p] += grow;
    segmentResized(m_expandableBase[p], m_expandableMapped[p]);
    if (tailFree) {
        poolErase(tail);
        m_blocks[static_cast<std::size_t>(tail)].size += grow;
        return tail;
    }
    const int id = newBlock({oldEnd, grow, tail, -1, false, small});
    if (tail >= 0) m_blocks[static_cast<std::size_t>(tail)].next = id;
    m_expandableTail[p] = id;
    return id;
}

bool CachingAllocator::releaseOneOversize(std::int64_t size) {
    if (m_options.max_split_size == std::numeric_limits<std::int64_t>::max() || m_options.expandable_segments) return false;
    auto& pool = m_pools[0];
    for (auto it = pool.lower_bound({std::max(size, m_options.max_split_size), 0, -1}); it != pool.end(); ++it) {
        const int id = std::get<2>(*it);
        const Block& b = m_blocks[static_cast<std::size_t>(id)];
        if (b.prev >= 0 || b.next >= 0) continue;
        m_reserved -= b.size;
        segmentClosed(b.addr);
        pool.erase(it);
        dropBlock(id);
        return true;
    }
    return false;
}

void CachingAllocator::releaseCachedSegments() {
    ++m_cacheFlushes;
    for (auto& pool : m_pools) {
        for (auto it = pool.begin(); it != pool.end();) {
            const int id = std::get<2>(*it);
            const Block& b = m_blocks[static_cast<std::size_t>(id)];
            if (b.prev >= 0 || b.next >= 0 || m_options.expandable_segments) {
                ++it;
                continue;
            }
            m_reserved -= b.size;
            segmentClosed(b.addr);
            it = pool.erase(it);
            dropBlock(id);
        }
    }
    if (!m_options.expandable_segments) return;
    for (int p = 0; p < 2; ++p) {  // unmap the whole pages of the free tail
        const int tail = m_expandableTail[p];
        if (tail < 0 || m_blocks[static_cast<std::size_t>(tail)].allocated) continue;
        const std::int64_t page = p == 1 ? kSmallBuffer : kLargeBuffer;
        Block& b = m_blocks[static_cast<std::size_t>(tail)];
        const std::int64_t end = m_expandableBase[p] + m_expandableMapped[p];
        const std::int64_t firstPage = m_expandableBase[p] + roundUp(b.addr - m_expandableBase[p], page);
        const std::int64_t unmap = end - firstPage;
        if (unmap <= 0) continue;
        poolErase(tail);
        b.size -= unmap;
        m_reserved -= unmap;
        m_expandableMapped[p] -= unmap;
        segmentResized(m_expandableBase[p], m_expandableMapped[p]);
        if (b.size > 0) {
            poolInsert(tail);
        } else {
            if (b.prev >= 0) m_blocks[static_cast<std::size_t>(b.prev)].next = -1;
            m_expandableTail[p] = b.prev;
            dropBlock(tail);
        }
    }
}

std::int64_t CachingAllocator::allocate(int buffer, std::int64_t bytes) {
    const std::int64_t size = roundSize(bytes);
    const bool small = size <= kSmallSize;
    int id = findFreeBlock(small, size);
    if (id >= 0) {
        poolErase(id);
    } else {
        auto reserve = [&] { return m_options.expandable_segments ? growExpandable(small, size) : reserveSegment(small, size); };
        id = reserve();
        if (id < 0 && releaseOneOversize(size)) id = reserve();
        if (id < 0) {
            releaseCachedSegments();
            id = findFreeBlock(small, size);
            if (id >= 0) poolErase(id);
            else id = reserve();
        }
        if (id < 0) return -1;
    }
    if (shouldSplit(m_blocks[static_cast<std::size_t>(id)], size)) {
        const Block whole = m_blocks[static_cast<std::size_t>(id)];
        const int rest = newBlock({whole.addr + size, whole.size - size, id, whole.next, false, whole.small});
        if (whole.next >= 0) m_blocks[static_cast<std::size_t>(whole.next)].prev = rest;
        Block& b = m_blocks[static_cast<std::size_t>(id)];
        b.next = rest;
        b.size = size;
        const int p = whole.small ? 1 : 0;
        if (m_expandableTail[p] == id) m_expandableTail[p] = rest;
        poolInsert(rest);
    }
    Block& b = m_blocks[static_cast<std::size_t>(id)];
    b.allocated = true;
    m_allocated += b.size;
    m_blockOfBuffer[buffer] = id;
    return b.addr;
}

void CachingAllocator::release(int buffer) {
    auto found = m_blockOfBuffer.find(buffer);
    if (found == m_blockOfBuffer.end()) return;
    int id = found->second;
    m_blockOfBuffer.erase(found);
    m_blocks[static_cast<std::size_t>(id)].allocated = false;
    m_allocated -= m_blocks[static_cast<std::size_t>(id)].size;
    const int p = m_blocks[static_cast<std::size_t>(id)].small ? 1 : 0;
    // Merge into a free predecessor, then absorb a free successor.
    const int prev = m_blocks[static_cast<std::size_t>(id)].prev;
    if (prev >= 0 && !m_blocks[static_cast<std::size_t>(prev)].allocated) {
        poolErase(prev);
        Block& a = m_blocks[static_cast<std::size_t>(prev)];
        const Block b = m_blocks[static_cast<std::size_t>(id)];
        a.size += b.size;
        a.next = b.next;
        if (b.next >= 0) m_blocks[static_cast<std::size_t>(b.next)].prev = prev;
        if (m_expandableTail[p] == id) m_expandableTail[p] = prev;
        dropBlock(id);
        id = prev;
    }
    const int next = m_blocks[static_cast<std::size_t>(id)].next;
    if (next >= 0 && !m_blocks[static_cast<std::size_t>(next)].allocated) {
        poolErase(next);
        const Block n = m_blocks[static_cast<std::size_t>(next)];
        Block& a = m_blocks[static_cast<std::size_t>(id)];
        a.size += n.size;
        a.next = n.next;
        if (n.next >= 0) m_blocks[static_cast<std::size_t>(n.next)].prev = id;
        if (m_expandableTail[p] == next) m_expandableTail[p] = id;
        dropBlock(next);
    }
    poolInsert(id);
}

void CachingAllocator::adoptSegment(std::int64_t addr, std::int64_t size, bool small, std::vector<LiveBlock> live) {
    std::sort(live.begin(), live.end(), [](const LiveBlock& a, const LiveBlock& b) { return a.addr < b.addr; });
    m_reserved += size;
    m_nextAddress = std::max(m_nextAddress, roundUp(addr + size, kRoundLarge));
    segmentOpened(addr, size, small);
    int prev = -1;
    auto append = [&](std::int64_t at, std::int64_t bytes, bool allocated) {
        const int id = newBlock({at, bytes, prev, -1, allocated, small});
        if (prev >= 0) m_blocks[static_cast<std::size_t>(prev)].next = id;
        prev = id;
        if (!allocated) poolInsert(id);
        return id;
    };
    std::int64_t cursor = addr;
    for (const LiveBlock& b : live) {
        if (b.addr < cursor || b.addr + b.size > addr + size) continue;  // overlapping or outside: not this segment's
        if (b.addr > cursor) append(cursor, b.addr - cursor, false);
        m_blockOfBuffer[b.buffer] = append(b.addr, b.size, true);
        m_allocated += b.size;
        cursor = b.addr + b.size;
    }
    if (cursor < addr + size) append(cursor, addr + size - cursor, false);
}

std::int64_t CachingAllocator::blockSize(int buffer) const {
    auto it = m_blockOfBuffer.find(buffer);
    return it == m_blockOfBuffer.end() ? 0 : m_blocks[static_cast<std::size_t>(it->second)].size;
}

std::int64_t CachingAllocator::largestFreeBlock() const {
    std::int64_t best = 0;
    for (const auto& pool : m_pools)
        if (!pool.empty()) best = std::max(best, std::get<0>(*pool.rbegin()));
    return best;
}

}  // namespace npu::engine
