#include "engine/passes/fusion/rotary_fusion.h"

#include <map>

namespace npu::engine {

void RotaryFusion::match(FusionContext& ctx) {
    Graph& g = ctx.graph();
    // Forward rotaries of one block, in program order.
    std::map<std::string, std::vector<int>> byBlock;
    for (const Node& n : g.nodes())
        if (n.op == "Rotary" && n.phase == Phase::forward && ctx.available(n.id)) byBlock[n.block].push_back(n.id);
    for (const auto& [block, nodes] : byBlock) {
        if (nodes.size() < 2) continue;
        FusionRequest r{nodes, "FusedElementwise", "rotary"};
        ctx.fuse(r);
    }
}

}  // namespace npu::engine
