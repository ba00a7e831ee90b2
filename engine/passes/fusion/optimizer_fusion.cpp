#include "engine/passes/fusion/optimizer_fusion.h"

namespace npu::engine {

void OptimizerFusion::match(FusionContext& ctx) {
    Graph& g = ctx.graph();
    std::vector<int> updates;
    for (const Node& n : g.nodes())
        if (n.phase == Phase::optimizer && isOp(n, {OpKind::AdamW, OpKind::SGD}) && ctx.available(n.id) && n.attrString("stream").empty())
            updates.push_back(n.id);
    if (updates.size() < 2) return;
    FusionRequest r{updates, OpKind::FusedOptimizer, "multi_tensor_optimizer"};
    r.withBackward = false;
    ctx.fuse(r);
}

}  // namespace npu::engine
