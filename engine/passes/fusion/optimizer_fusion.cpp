#include "engine/passes/fusion/optimizer_fusion.h"

namespace npu::engine {

void OptimizerFusion::match(FusionContext& ctx) {
    Graph& g = ctx.graph();
    std::vector<int> updates;
    for (const Node& n : g.nodes())
        if (n.phase == Phase::optimizer && isOp(n, {"AdamW", "SGD", "Adam"}) && ctx.available(n.id) && n.attrString("stream").empty())
            updates.push_back(n.id);
    if (updates.size() < 2) return;
    FusionRequest r{updates, "FusedOptimizer", "multi_tensor_optimizer"};
    r.withBackward = false;
    ctx.fuse(r);
}

}  // namespace npu::engine
