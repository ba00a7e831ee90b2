#include "engine/passes/fusion/layer_norm_fusion.h"

namespace npu::engine {

namespace {

// The consumer of tensor t with op `op` (and, if given, reading `other` too).
int consumerOp(const FusionContext& ctx, int t, OpKind op, int other = -1) {
    const Graph& g = const_cast<FusionContext&>(ctx).graph();
    for (int c : ctx.consumers(t)) {
        const Node& n = g.node(c);
        if (n.kind != op || !ctx.available(c)) continue;
        if (other >= 0 && std::find(n.inputs.begin(), n.inputs.end(), other) == n.inputs.end()) continue;
        return c;
    }
    return -1;
}

int soleOp(const FusionContext& ctx, int node, OpKind op) {
    const int c = ctx.soleConsumer(node);
    return c >= 0 && ctx.available(c) && const_cast<FusionContext&>(ctx).graph().node(c).kind == op ? c : -1;
}

}  // namespace

void LayerNormFusion::match(FusionContext& ctx) {
    Graph& g = ctx.graph();
    const int count = static_cast<int>(g.nodes().size());
    for (int id = 0; id < count; ++id) {
        const Node& r1 = g.node(id);
        if (r1.kind != OpKind::ReduceMean || !ctx.available(id) || r1.inputs.empty()) continue;
        const int x = r1.inputs[0];
        const int sub = consumerOp(ctx, x, OpKind::Sub, r1.outputs[0]);
        if (sub < 0) continue;
        const int pow = consumerOp(ctx, g.node(sub).outputs[0], OpKind::Pow);
        const int r2 = pow < 0 ? -1 : soleOp(ctx, pow, OpKind::ReduceMean);
        const int add = r2 < 0 ? -1 : soleOp(ctx, r2, OpKind::Add);
        const int sq = add < 0 ? -1 : soleOp(ctx, add, OpKind::Sqrt);
        const int div = sq < 0 ? -1 : soleOp(ctx, sq, OpKind::Div);
        if (div < 0) continue;
        std::vector<int> nodes{id, sub, pow, r2, add, sq, div};
        if (const int mul = soleOp(ctx, div, OpKind::Mul); mul >= 0) {
            nodes.push_back(mul);
            if (const int beta = soleOp(ctx, mul, OpKind::Add); beta >= 0) nodes.push_back(beta);
        }
        FusionRequest r{nodes, OpKind::FusedNorm, "layer_norm"};
        ctx.fuse(r);
    }
}

}  // namespace npu::engine
