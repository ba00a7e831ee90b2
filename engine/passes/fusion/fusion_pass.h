#pragma once
// Base of every fusion pattern: a FLOP-preserving pass at a graph_level that finds its
// pattern on the graph and fuses each match through a FusionContext.

#include "engine/passes/fusion/fusion_context.h"
#include "engine/passes/pass.h"

namespace npu::engine {

class FusionPass : public Pass {
public:
    bool preservesFlops() const final { return true; }

protected:
    Status apply(Graph& graph, PassStats& stats) final;
    // Fuses every match it finds; called once per run.
    virtual void match(FusionContext& context) = 0;
};

}  // namespace npu::engine
