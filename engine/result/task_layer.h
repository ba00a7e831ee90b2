#pragma once
// The repeated block a task's kernel belongs to, from its node's name: the model zoo names
// a transformer layer's nodes (forward, recomputed and backward) "layers.N.…"
// (engine/models), and a stage's grown layers keep that form (engine/cluster/stage_profile).

#include <string_view>

namespace npu::engine {

// N of the first "layers.N" in `name`; -1 when the name has none.
inline int layerOfTaskName(std::string_view name) {
    const auto at = name.find("layers.");
    if (at == std::string_view::npos) return -1;
    int layer = -1;
    for (std::size_t i = at + 7; i < name.size() && name[i] >= '0' && name[i] <= '9'; ++i) layer = (layer < 0 ? 0 : layer * 10) + (name[i] - '0');
    return layer;
}

}  // namespace npu::engine
