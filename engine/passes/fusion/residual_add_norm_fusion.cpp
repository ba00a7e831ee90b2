#include "engine/passes/fusion/residual_add_norm_fusion.h"

namespace npu::engine {

namespace {
bool isNorm(const Node& n) {
    return isOp(n, {OpKind::RMSNorm, OpKind::LayerNormalization}) ||
           (n.kind == OpKind::FusedNorm && (n.attrString("pattern") == "layer_norm" || n.attrString("pattern") == "rms_norm"));
}
}  // namespace

void ResidualAddNormFusion::match(FusionContext& ctx) {
    Graph& g = ctx.graph();
    const int count = static_cast<int>(g.nodes().size());
    for (int id = 0; id < count; ++id) {
        const Node& add = g.node(id);
        if (add.kind != OpKind::Add || !ctx.available(id) || add.outputs.empty()) continue;
        for (int c : ctx.consumers(add.outputs[0])) {
            const Node& norm = g.node(c);
            if (!ctx.available(c) || !isNorm(norm) || norm.phase != add.phase || norm.inputs.empty() || norm.inputs[0] != add.outputs[0])
                continue;
            FusionRequest r{{id, c}, OpKind::FusedNorm, "residual_add_norm"};
            ctx.fuse(r);
            break;
        }
    }
}

}  // namespace npu::engine
