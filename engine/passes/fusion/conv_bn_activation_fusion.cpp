#include "engine/passes/fusion/conv_bn_activation_fusion.h"

namespace npu::engine {

void ConvBnActivationFusion::match(FusionContext& ctx) {
    Graph& g = ctx.graph();
    const int count = static_cast<int>(g.nodes().size());
    for (int id = 0; id < count; ++id) {
        if (!isOp(g.node(id), {"Conv"}) || !ctx.available(id)) continue;
        std::vector<int> nodes{id};
        int last = id;
        int bn = ctx.soleConsumer(id);
        if (bn >= 0 && (!ctx.available(bn) || !isOp(g.node(bn), {"BatchNormalization"}))) bn = -1;
        if (bn >= 0) {
            nodes.push_back(bn);
            last = bn;
        }
        const int act = ctx.soleConsumer(last);
        if (act >= 0 && ctx.available(act) && isOp(g.node(act), {"Relu", "Clip", "LeakyRelu", "HardSwish", "SiLU"}))
            nodes.push_back(act);
        if (nodes.size() < 2) continue;
        const bool hasBn = bn >= 0;
        FusionRequest r{nodes, "FusedConv", hasBn ? (nodes.size() == 3 ? "conv_bn_activation" : "conv_bn") : "conv_activation"};
        r.recompute = false;
        ctx.fuse(r);
    }
}

}  // namespace npu::engine
