#pragma once
// What a block of device memory holds, as the memory views and the report group it.
// Finer than TensorRole where memory planning needs it: an activation a backward op
// reads is "saved for backward" (lives across the step); one only forward ops read is a
// temporary (freed within the forward pass).

#include "engine/ir/graph.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace npu::engine {

enum class MemoryCategory : std::uint8_t {
    weights,
    master_weights,
    gradients,
    optimizer_state,
    activations,   // saved for backward
    temporaries,   // workspace and short-lived intermediates
    comm_buffers,
    inputs,
    kv_cache,      // decoding's key/value cache (PPO generation): lives while tokens are generated
    gathered_weights,  // ZeRO-3's all-gathered parameters beyond the rank's shard
};
inline constexpr int kMemoryCategoryCount = 10;

std::string_view memoryCategoryName(MemoryCategory c);

// The category a tensor of `role` is accounted in; an activation is taken as saved for
// backward (memoryCategories tells the graph's temporaries apart).
MemoryCategory memoryCategoryOfRole(TensorRole role);

// One category per tensor id of the graph.
std::vector<MemoryCategory> memoryCategories(const Graph& graph);

}  // namespace npu::engine
