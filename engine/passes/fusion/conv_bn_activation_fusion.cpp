#include "engine/passes/fusion/conv_bn_activation_fusion.h"

namespace npu::engine {

namespace {
bool isActivation(const Node& n) { return isOp(n, {OpKind::Relu, OpKind::Clip, OpKind::LeakyRelu, OpKind::HardSwish, OpKind::SiLU}); }
}  // namespace

void ConvBnActivationFusion::match(FusionContext& ctx) {
    Graph& g = ctx.graph();
    const int count = static_cast<int>(g.nodes().size());
    for (int id = 0; id < count; ++id) {
        if (!isOp(g.node(id), {OpKind::Conv}) || !ctx.available(id)) continue;
        int bn = ctx.soleConsumer(id);
        if (bn >= 0 && (!ctx.available(bn) || !isOp(g.node(bn), {OpKind::BatchNormalization}))) bn = -1;
        int act = ctx.soleConsumer(bn >= 0 ? bn : id);
        if (act >= 0 && (!ctx.available(act) || !isActivation(g.node(act)))) act = -1;
        if (bn < 0 && act < 0) continue;
        FusionRequest r;
        r.recompute = false;
        if (ctx.hasBackward(id)) {
            // Training: the batch statistics need the whole conv output before any
            // element can be normalised, so the conv stays a library kernel; BN and the
            // activation run as one kernel forward and one backward (cuDNN's BN + ReLU).
            if (bn < 0 || act < 0) continue;
            r.nodes = {bn, act};
            r.op = OpKind::FusedNorm;
            r.pattern = "bn_activation";
        } else {
            // Inference: BN folds into the conv's weights, the activation runs in its epilogue.
            r.nodes = {id};
            if (bn >= 0) r.nodes.push_back(bn);
            if (act >= 0) r.nodes.push_back(act);
            r.op = OpKind::FusedConv;
            r.pattern = bn >= 0 ? (act >= 0 ? "conv_bn_activation" : "conv_bn") : "conv_activation";
        }
        ctx.fuse(r);
    }
}

}  // namespace npu::engine
