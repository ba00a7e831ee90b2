#include "engine/passes/fusion/rms_norm_fusion.h"

#include <algorithm>

namespace npu::engine {

namespace {

int soleOp(const FusionContext& ctx, int node, std::initializer_list<OpKind> ops) {
    const int c = ctx.soleConsumer(node);
    return c >= 0 && ctx.available(c) && isOp(const_cast<FusionContext&>(ctx).graph().node(c), ops) ? c : -1;
}

}  // namespace

void RmsNormFusion::match(FusionContext& ctx) {
    Graph& g = ctx.graph();
    const int count = static_cast<int>(g.nodes().size());
    for (int id = 0; id < count; ++id) {
        if (g.node(id).kind != OpKind::Pow || !ctx.available(id)) continue;
        const int mean = soleOp(ctx, id, {OpKind::ReduceMean});
        const int add = mean < 0 ? -1 : soleOp(ctx, mean, {OpKind::Add});
        if (add < 0) continue;
        std::vector<int> nodes{id, mean, add};
        int last = -1;
        if (const int rsqrt = soleOp(ctx, add, {OpKind::Rsqrt}); rsqrt >= 0) {
            // HF LlamaRMSNorm: x * rsqrt(mean(x^2) + eps).
            last = soleOp(ctx, rsqrt, {OpKind::Mul});
            nodes.push_back(rsqrt);
        } else if (const int sq = soleOp(ctx, add, {OpKind::Sqrt}); sq >= 0) {
            // ONNX exports: x / sqrt(...) or x * reciprocal(sqrt(...)).
            nodes.push_back(sq);
            last = soleOp(ctx, sq, {OpKind::Div});
            if (last < 0) {
                const int rec = soleOp(ctx, sq, {OpKind::Reciprocal});
                last = rec < 0 ? -1 : soleOp(ctx, rec, {OpKind::Mul});
                if (rec >= 0) nodes.push_back(rec);
            }
        }
        if (last < 0) continue;
        nodes.push_back(last);
        // x / rms reads the Pow's input x: the pattern only holds if it does.
        const int x = g.node(id).inputs[0];
        const auto& ins = g.node(last).inputs;
        if (std::find(ins.begin(), ins.end(), x) == ins.end()) continue;
        // HF casts back to the input dtype before the weight (a kernel only under pure
        // low precision; autocast's fp32 residual makes it a no-op the mixed-precision
        // pass removed).
        int tail = last;
        if (const int back = soleOp(ctx, last, {OpKind::Cast, OpKind::CastLike}); back >= 0) {
            nodes.push_back(back);
            tail = back;
        }
        if (const int gamma = soleOp(ctx, tail, {OpKind::Mul}); gamma >= 0) nodes.push_back(gamma);
        // The upcast to fp32 in front (pure low precision) reads x once: part of the kernel.
        if (const int up = ctx.producer(x); up >= 0 && ctx.available(up) && isOp(g.node(up), {OpKind::Cast}) &&
                                             g.node(up).phase == g.node(id).phase) {
            bool inside = true;
            for (int c : ctx.consumers(x))
                inside = inside && (g.node(c).phase != g.node(id).phase || std::find(nodes.begin(), nodes.end(), c) != nodes.end());
            if (inside) nodes.push_back(up);
        }
        FusionRequest r{nodes, OpKind::FusedNorm, "rms_norm"};
        ctx.fuse(r);
    }
}

}  // namespace npu::engine
