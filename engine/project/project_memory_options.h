#pragma once
// The project's memory settings as the simulator's MemoryOptions:
//   optimizations.allocator            caching | buddy | static (default caching, or buddy
//                                      when optimizations.memory_optimizer is present)
//   optimizations.memory_optimizer     {strategy, max_fragmentation} for the buddy allocator
//   optimizations.expandable_segments  the caching allocator's expandable_segments
//   optimizations.max_split_size_mb    the caching allocator's max_split_size
// Values are validated by the project loader (engine/project).

#include "engine/memory/memory_analysis.h"
#include "engine/project/project.h"

namespace npu::engine {

MemoryOptions memoryOptionsFor(const Project& project);

}  // namespace npu::engine
