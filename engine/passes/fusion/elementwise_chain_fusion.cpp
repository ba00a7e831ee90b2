#include "engine/passes/fusion/elementwise_chain_fusion.h"

#include <algorithm>

namespace npu::engine {

namespace {
// Register-pressure cap: past ~8 ops or 6 load streams a fused elementwise kernel spills
// (TVM caps fused groups at a similar depth, max_fuse_depth).
constexpr int kMaxOps = 8;
constexpr std::size_t kMaxInputs = 6;
}  // namespace

void ElementwiseChainFusion::match(FusionContext& ctx) {
    Graph& g = ctx.graph();
    const int count = static_cast<int>(g.nodes().size());
    for (int id = 0; id < count; ++id) {
        if (!ctx.available(id) || !isElementwise(g.node(id))) continue;
        // Start at a chain head: its producer does not continue into it.
        const auto back = walkProducers(ctx, id, 1);
        if (!back.empty()) continue;
        std::vector<int> chain{id};
        std::vector<int> inputs(g.node(id).inputs);
        for (int c : walkConsumers(ctx, id, kMaxOps - 1)) {
            std::vector<int> more = inputs;
            for (int t : g.node(c).inputs)
                if (t >= 0 && ctx.producer(t) != chain.back() && std::find(more.begin(), more.end(), t) == more.end()) more.push_back(t);
            if (more.size() > kMaxInputs) break;
            inputs = std::move(more);
            chain.push_back(c);
        }
        if (chain.size() < 2) continue;
        FusionRequest r;
        r.nodes = chain;
        r.op = OpKind::FusedElementwise;
        r.pattern = "elementwise";
        ctx.fuse(r);
    }
}

}  // namespace npu::engine
