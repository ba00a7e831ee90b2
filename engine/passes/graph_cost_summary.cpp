#include "engine/passes/graph_cost_summary.h"

#include "engine/ir/op_registry.h"

namespace npu::engine {

GraphCostSummary summarizeGraphCost(const Graph& graph) {
    const auto& reg = OpRegistry::instance();
    GraphCostSummary s;
    for (const Node& n : graph.nodes()) {
        if (graph.isRemoved(n.id)) continue;
        ++s.nodes;
        if (reg.isShapeOnly(n.op)) continue;
        const OpCost c = reg.cost(graph, n);
        if (c.flops <= 0 && c.bytes() <= 0) continue;
        ++s.kernels;
        s.bytes += c.bytes();
        s.flops += c.flops;
    }
    return s;
}

}  // namespace npu::engine
