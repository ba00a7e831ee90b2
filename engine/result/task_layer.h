#pragma once
// The repeated block a task's kernel belongs to, from its node's name: the model zoo names
// a transformer layer's nodes (forward, recomputed and backward) "layers.N.…"
// (engine/models), and a stage's grown layers keep that form (engine/cluster/stage_profile).

#include <string>
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

// `name` with its first "layers.N" renumbered N + shift (a pipeline stage's local layer
// as the model's: stage s of layers-per-stage Ls runs layers s * Ls ...); unchanged
// without one.
inline std::string shiftedLayerName(const std::string& name, int shift) {
    const int layer = layerOfTaskName(name);
    if (layer < 0 || shift == 0) return name;
    const auto at = name.find("layers.") + 7;
    std::size_t end = at;
    while (end < name.size() && name[end] >= '0' && name[end] <= '9') ++end;
    return name.substr(0, at) + std::to_string(layer + shift) + name.substr(end);
}

}  // namespace npu::engine
