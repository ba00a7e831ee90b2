#include "engine/passes/fusion/bias_dropout_residual_fusion.h"

namespace npu::engine {

void BiasDropoutResidualFusion::match(FusionContext& ctx) {
    Graph& g = ctx.graph();
    const int count = static_cast<int>(g.nodes().size());
    for (int id = 0; id < count; ++id) {
        const Node& drop = g.node(id);
        if (drop.kind != OpKind::Dropout || !ctx.available(id) || drop.inputs.empty()) continue;
        const int residual = ctx.soleConsumer(id);
        if (residual < 0 || !ctx.available(residual) || g.node(residual).kind != OpKind::Add) continue;
        std::vector<int> nodes{id, residual};
        const int bias = ctx.producer(drop.inputs[0]);
        if (bias >= 0 && ctx.available(bias) && g.node(bias).kind == OpKind::Add && ctx.soleConsumer(bias) == id) nodes.push_back(bias);
        FusionRequest r{nodes, OpKind::FusedElementwise, "bias_dropout_residual"};
        ctx.fuse(r);
    }
}

}  // namespace npu::engine
