#pragma once
// What a pass changes in a graph's cost: live nodes, kernels launched (nodes that are not
// views and move bytes or compute), HBM bytes and FLOPs, all from the OpRegistry.

#include "engine/ir/graph.h"

#include <cstdint>

namespace npu::engine {

struct GraphCostSummary {
    int nodes = 0;
    int kernels = 0;
    double bytes = 0;
    double flops = 0;
};

GraphCostSummary summarizeGraphCost(const Graph& graph);

}  // namespace npu::engine
