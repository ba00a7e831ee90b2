#pragma once
// Which simulated ranks form a rank class (profiler/store/rank_classes.h): a rank whose
// device result writes exactly the rows an earlier rank's does (streams, tasks with
// their op info, host and data-loader slices, memory and reserved-memory series) is
// stored as an alias of it. In a synchronous step every rank starts together, so the
// ranks of one class are the tensor-parallel ranks of a stage and its data-parallel
// replicas, at no time shift; a slowed rank (cluster.slow_ranks) or a rank behind a slow
// link differs in its tasks and makes its own class.

#include "engine/result/simulation_result.h"

#include <cstdint>
#include <vector>

namespace npu::profiler {

// Whether b's stored rows equal a's (ids and device names aside).
bool sameStoredWork(const engine::DeviceResult& a, const engine::DeviceResult& b);

// For each device of `devices`, the index of the earlier device it is stored as (the
// class's first rank), or -1 when it is stored in full.
std::vector<int> rankClassesOf(const std::vector<engine::DeviceResult>& devices);

}  // namespace npu::profiler
