// Fused attention (PyTorch scaled_dot_product_attention / FlashAttention): q, k, v as
// [B, S, H*D] (heads from the "heads"/"kv_heads" attributes) or [B, H, S, D]; GQA when
// kv heads < q heads; "causal" halves the score FLOPs (only the lower triangle is
// computed by flash kernels). Optional second output: the logsumexp [B, H, S] kept for
// backward. Backward = 2.5x forward FLOPs: flash recomputes Q.K^T, then dV, dP, dQ, dK
// (five S x S matmuls against the forward's two).
#include "engine/ir/ops/op_families.h"
#include "engine/ir/ops/shape_util.h"

#include <utility>

namespace npu::engine::ops {
namespace {

struct AttnDims {
    double batch = 0, heads = 0, sq = 0, sk = 0, headDim = 0;
};

AttnDims dimsOf(const Graph& g, const Node& n) {
    AttnDims d;
    const Shape* qs = boundInputShape(g, n, 0);
    const Shape* ks = boundInputShape(g, n, 1);
    if (!qs) return d;
    const Shape& q = *qs;
    const Shape& k = ks ? *ks : q;
    if (q.size() == 4) {
        d = {double(q[0]), double(q[1]), double(q[2]), double(k.size() == 4 ? k[2] : q[2]), double(q[3])};
    } else if (q.size() == 3) {
        const double heads = double(n.attrInt("heads", 1));
        d = {double(q[0]), heads, double(q[1]), double(k.size() == 3 ? k[1] : q[1]), double(q[2]) / heads};
    }
    return d;
}

double forwardFlops(const Graph& g, const Node& n) {
    const AttnDims d = dimsOf(g, n);
    const double full = 4.0 * d.batch * d.heads * d.sq * d.sk * d.headDim;  // Q.K^T and P.V
    return n.attrInt("causal", 0) ? full / 2 : full;
}

Expected<std::vector<ShapeOutput>> attentionShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 3); !s) return s.error();
    const Shape& q = in[0].shape;
    if (q.size() != 3 && q.size() != 4) return shapeError(node, "attention expects q as [B,S,H*D] or [B,H,S,D], got " + shapeText(q));
    Shape out = q;
    const Shape& v = in[2].shape;
    if (q.size() == 4 && v.size() == 4) out[3] = v[3];
    const std::int64_t heads = q.size() == 4 ? q[1] : node.attrInt("heads", 1);
    const std::int64_t seq = q.size() == 4 ? q[2] : q[1];
    return std::vector<ShapeOutput>{{out, in[0].dtype}, {{q[0], heads, seq}, DType::f32}};
}

OpCost attentionCost(const Graph& g, const Node& n) {
    OpCost c = defaultCost(g, n);
    c.flops = forwardFlops(g, n);
    c.macs = c.flops / 2;
    return c;
}

OpCost attentionGradCost(const Graph& g, const Node& n) {
    OpCost c = defaultCost(g, n);
    if (const Node* f = forwardNodeOf(g, n)) c.flops = 2.5 * forwardFlops(g, *f);
    c.macs = c.flops / 2;
    return c;
}

// Backward rules (OpTraits::backward).

// Flash attention backward reads q, k, v, the output, its logsumexp and dO.
void attentionBackward(BackwardContext& c) {
    const Node f = c.fwd();
    std::vector<int> ins(f.inputs.begin(), f.inputs.end());
    for (int o : f.outputs) ins.push_back(o);
    ins.push_back(c.firstGrad());
    std::vector<int> outs;
    for (std::size_t i = 0; i < f.inputs.size(); ++i) {
        c.dIn[i] = c.need(i) ? c.newGrad(f.inputs[i]) : -1;
        outs.push_back(c.dIn[i]);
    }
    c.addGrad(".grad", ins, outs, f.attrs);
}

}  // namespace

void registerAttentionOps(OpRegistry& r) {
    const std::pair<OpKind, OpKind> forwardAndGrad[] = {
        {OpKind::ScaledDotProductAttention, OpKind::ScaledDotProductAttentionGrad},
        {OpKind::FlashAttention, OpKind::FlashAttentionGrad},
    };
    for (const auto& [forward, grad] : forwardAndGrad) {
        r.add(forward, {OpCategory::attention, false, attentionShape, attentionCost, attentionBackward});
        r.add(grad, {OpCategory::attention, false, {}, attentionGradCost});
    }
}

}  // namespace npu::engine::ops
