#include "engine/passes/fusion/fusion_pass.h"

namespace npu::engine {

Status FusionPass::apply(Graph& graph, PassStats& stats) {
    FusionContext context(graph);
    match(context);
    stats.nodesRemoved = context.removedCount();
    stats.nodesChanged = context.fusedCount();
    context.finish();
    return {};
}

}  // namespace npu::engine
