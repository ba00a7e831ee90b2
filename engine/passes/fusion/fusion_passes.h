#pragma once
// The fusion passes in the order they run (deterministic): named patterns first so they
// claim their nodes before the generic elementwise chains, casts folded last into
// whatever kernels remain, then the optimizer. Each pass has its graph_level.

#include "engine/passes/pass.h"

namespace npu::engine {

void addFusionPasses(PassManager& passes);

// `graph` after the fusion passes at `graphLevel` (3: all of them): what the Graph tab
// shows as "after passes" for a converted model, whose graph is forward only.
Expected<Graph> fusedGraph(Graph graph, int graphLevel = 3);

}  // namespace npu::engine
