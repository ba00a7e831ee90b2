#include "engine/passes/fusion/swiglu_fusion.h"

namespace npu::engine {

void SwigluFusion::match(FusionContext& ctx) {
    Graph& g = ctx.graph();
    const int count = static_cast<int>(g.nodes().size());
    for (int id = 0; id < count; ++id) {
        const Node& n = g.node(id);
        if (!ctx.available(id)) continue;
        std::vector<int> nodes;
        if (n.kind == OpKind::SiLU) {
            const int mul = ctx.soleConsumer(id);
            if (mul < 0 || g.node(mul).kind != OpKind::Mul) continue;
            nodes = {id, mul};
        } else if (n.kind == OpKind::Sigmoid) {
            // silu(a) = a * sigmoid(a), then * b.
            const int silu = ctx.soleConsumer(id);
            if (silu < 0 || g.node(silu).kind != OpKind::Mul) continue;
            const auto& ins = g.node(silu).inputs;
            if (std::find(ins.begin(), ins.end(), n.inputs[0]) == ins.end()) continue;
            const int mul = ctx.soleConsumer(silu);
            if (mul < 0 || g.node(mul).kind != OpKind::Mul) continue;
            nodes = {id, silu, mul};
        } else {
            continue;
        }
        FusionRequest r{nodes, OpKind::FusedElementwise, "swiglu"};
        ctx.fuse(r);
    }
}

}  // namespace npu::engine
