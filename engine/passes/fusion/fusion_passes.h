#pragma once
// The fusion passes in the order they run (deterministic): named patterns first so they
// claim their nodes before the generic elementwise chains, casts folded last into
// whatever kernels remain, then the optimizer. Each pass has its graph_level.

#include "engine/passes/pass.h"

namespace npu::engine {

void addFusionPasses(PassManager& passes);

}  // namespace npu::engine
