#pragma once
// Series over time derived from a run's memory map (MEMORY_BLOCK / MEMORY_SEGMENT):
// the bytes of blocks held per category, the blocks' total (allocated, as the
// allocator rounded them), the segments' total (reserved) and the fragmentation
// (reserved - allocated) / reserved — reserved memory no block holds. One sample per
// instant where any of them changes.

#include "profiler/store/memory_block_store.h"

#include <cstdint>
#include <string>
#include <vector>

namespace npu::profiler {

struct MemoryMapSeries {
    std::vector<std::int64_t> ts_ns;
    std::vector<std::string> categories;              // sorted; "" for uncategorised blocks
    std::vector<std::vector<double>> bytesByCategory;  // [category][sample]
    std::vector<double> allocated;
    std::vector<double> reserved;
    std::vector<double> fragmentation;  // 0..1; 0 while nothing is reserved
};

MemoryMapSeries memoryMapSeries(const MemoryMapData& map);

}  // namespace npu::profiler
