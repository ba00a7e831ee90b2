#include "engine/passes/fusion/fusion_pass.h"

namespace npu::engine {

bool isFused(const Node& node) { return node.op.rfind("Fused", 0) == 0; }

Status FusionPass::apply(Graph& graph, PassStats& stats) {
    FusionContext context(graph);
    match(context);
    stats.nodesRemoved = context.removedCount();
    stats.nodesChanged = context.fusedCount();
    context.finish();
    return {};
}

}  // namespace npu::engine
