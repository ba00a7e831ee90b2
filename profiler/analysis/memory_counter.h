#pragma once
// Which counter tracks hold memory, of what kind and in what unit. The one place that
// reads counter track names: the memory peaks, the Memory tab and the report all ask it.
//
// Names as the importers write them: Kineto's [memory] events and the snapshot replay
// ("Total Allocated", "Total Reserved"), Ascend's MEMORY_RECORD / memory_record.csv
// ("PTA+GE Total Allocated", byte values), the simulator ("Memory (live bytes)",
// "Total Reserved (caching allocator)"), and the counters of Ascend's trace_view.json,
// named "<counter> <argument>": "APP/HBM KB" is memory in KiB (2160232 KB there equals
// memory_record.csv's 2109.6015625 MB, so 1 KB = 1024 B and 1 MB = 1024 KB), while
// "HBM 0/Read Read(MB/s)", "AI Core Freq MHz" or "LLC 0 Read/Hit Rate Hit Rate(%)" are
// bandwidths, frequencies and ratios: timeline counters, not memory.

#include <string>
#include <string_view>

namespace npu::profiler {

enum class MemoryCounterKind { none, allocated, reserved, active, other };

struct MemoryCounter {
    MemoryCounterKind kind = MemoryCounterKind::none;  // none: not a memory counter
    double bytesPerUnit = 1;                           // multiply a sample by it to get bytes
    std::string displayName;                           // the name without its unit suffix
};

MemoryCounter classifyMemoryCounter(std::string_view trackName);

}  // namespace npu::profiler
