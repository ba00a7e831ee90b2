#include "engine/passes/fusion/gelu_fusion.h"

namespace npu::engine {

void GeluFusion::match(FusionContext& ctx) {
    Graph& g = ctx.graph();
    const int count = static_cast<int>(g.nodes().size());
    for (int id = 0; id < count; ++id) {
        const Node& n = g.node(id);
        if (!isOp(n, {OpKind::Erf, OpKind::Tanh}) || !ctx.available(id)) continue;
        // Erf form: one op before (x/sqrt2), three after (+1, *x, *0.5). Tanh form: four
        // before (x^3, *c, +x, *sqrt(2/pi)), three after.
        const auto before = walkProducers(ctx, id, n.kind == OpKind::Erf ? 1 : 4);
        const auto after = walkConsumers(ctx, id, 3);
        if (before.empty() || after.size() < 2) continue;
        // The chain must read x again after the transcendental (the *x of x * Phi(x)).
        const int x = g.node(before.back()).inputs[0];
        bool readsX = false;
        for (int a : after)
            for (int t : g.node(a).inputs) readsX = readsX || t == x;
        if (!readsX) continue;
        std::vector<int> nodes(before.begin(), before.end());
        nodes.push_back(id);
        nodes.insert(nodes.end(), after.begin(), after.end());
        FusionRequest r{nodes, OpKind::FusedElementwise, "gelu"};
        ctx.fuse(r);
    }
}

}  // namespace npu::engine
