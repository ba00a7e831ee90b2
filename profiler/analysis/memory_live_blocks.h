#pragma once
// The Memory tab's selection, answered from MEMORY_BLOCK (simulated runs and imported
// memory snapshots alike; Ascend captures from their operator allocations): the blocks live at an instant, or alive at any time in a
// range, optionally only those allocated or released inside the range (MindStudio
// Insight's filter), largest first; and the producer op's slice a block came from, for
// "Show in Timeline".
//
// A block is live at t when alloc_ns <= t < free_ns (free_ns = -1: never freed), the
// same convention as the memory counters: a block freed at t no longer counts at t.

#include "profiler/store/memory_block_store.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace npu::profiler {

class ProfileDb;

struct LiveBlockQuery {
    std::int64_t device = 0;
    std::int64_t from_ns = 0;  // database time; from == to selects an instant
    std::int64_t to_ns = 0;
    bool changedInRange = false;  // only blocks allocated or released in [from, to]
    std::size_t limit = 0;        // rows kept (largest first); 0 keeps all
};

struct LiveBlocks {
    std::vector<MemoryBlockRow> blocks;  // largest first, then by allocation time and address
    std::int64_t count = 0;              // blocks matching, before the limit
    std::int64_t bytes = 0;              // their total size
};

LiveBlocks liveBlocks(const ProfileDb& db, const LiveBlockQuery& query);

// True when the device has no memory map but Ascend operator allocations
// (OP_MEMORY_ALLOC, from operator_memory.csv or OP_MEMORY): liveBlocks answers from those,
// with address -1 and the op as the block's name.
bool hasOperatorAllocations(const ProfileDb& db, std::int64_t device);

struct ProducerSlice {
    std::int64_t task_id = 0;
    std::int64_t start_ns = 0;
    std::int64_t dur_ns = 0;
};

// The slice named `producer` on the block's device whose start is nearest the block's
// allocation (the simulator allocates an output when its producer starts; a name repeats
// once per step and micro-batch). None for blocks without a producer or a slice.
std::optional<ProducerSlice> producerSlice(const ProfileDb& db, std::int64_t device, const std::string& producer,
                                           std::int64_t alloc_ns);

}  // namespace npu::profiler
