// Normalisations and softmax: RMSNorm (zoo), LayerNormalization, BatchNormalization,
// InstanceNormalization, GroupNormalization, LpNormalization, LRN, Softmax, LogSoftmax. All memory bound; FLOPs ~5 per element by convention.
#include "engine/ir/ops/op_families.h"
#include "engine/ir/ops/shape_util.h"

namespace npu::engine::ops {
namespace {

Expected<std::vector<ShapeOutput>> normShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 1); !s) return s.error();
    std::vector<ShapeOutput> outs{{in[0].shape, in[0].dtype}};
    if (node.kind == OpKind::LayerNormalization) {
        // Optional Mean and InvStdDev: the input shape with the normalised axes set to 1.
        auto axis = normaliseAxis(node, node.attrInt("axis", -1), in[0].shape.size());
        if (!axis) return axis.error();
        Shape stat = in[0].shape;
        for (std::size_t i = static_cast<std::size_t>(*axis); i < stat.size(); ++i) stat[i] = 1;
        outs.push_back({stat, DType::f32});
        outs.push_back({stat, DType::f32});
    } else if (node.kind == OpKind::BatchNormalization && in[0].shape.size() >= 2) {
        outs.push_back({{in[0].shape[1]}, DType::f32});  // running mean / var (training mode)
        outs.push_back({{in[0].shape[1]}, DType::f32});
    }
    return outs;
}

Expected<std::vector<ShapeOutput>> softmaxShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 1); !s) return s.error();
    if (auto axis = normaliseAxis(node, node.attrInt("axis", -1), in[0].shape.size()); !axis) return axis.error();
    return std::vector<ShapeOutput>{{in[0].shape, in[0].dtype}};
}

CostFn normCost(double flopsPerElement, double extraInputPasses) {
    return [=](const Graph& g, const Node& n) {
        OpCost c = defaultCost(g, n);
        // Batch statistics need a pass over the input before normalising it.
        c.bytesRead += extraInputPasses * tensorBytes(g, inputAt(n, 0));
        c.flops = flopsPerElement * numel(g, inputAt(n, 0));
        return c;
    };
}

// Megatron-LM's causal fused softmax (scaled_upper_triang_masked_softmax, attr
// upper_triang_masked = 1) reads and computes only the rows' elements up to the diagonal,
// about half of the [.., S, S] scores, and writes them all (zeros above); its backward
// (SoftmaxGrad, with the same attrs) reads half of the output and of dY the same way.
double causalReadShare(const Node& n) { return n.attrInt("upper_triang_masked", 0) != 0 ? 0.5 : 1.0; }

CostFn softmaxCost() {
    return [](const Graph& g, const Node& n) {
        OpCost c = normCost(5, 0)(g, n);
        c.bytesRead *= causalReadShare(n);
        c.flops *= causalReadShare(n);
        return c;
    };
}

// Local response normalisation: a sum of squares over `size` channels, then scale,
// power and divide per element.
OpCost lrnCost(const Graph& g, const Node& n) {
    OpCost c = defaultCost(g, n);
    c.flops = static_cast<double>(n.attrInt("size", 1) + 3) * numel(g, inputAt(n, 0));
    return c;
}

// Backward rules (OpTraits::backward).

// Softmax and LogSoftmax save their output, not their input.
void softmaxBackward(BackwardContext& c) {
    const Node f = c.fwd();
    if (!c.need(0)) return;
    c.dIn[0] = c.newGrad(f.inputs[0]);
    c.addGrad(".grad", {f.outputs[0], c.firstGrad()}, {c.dIn[0]}, f.attrs);
}

}  // namespace

void registerNormOps(OpRegistry& r) {
    r.add(OpKind::RMSNorm, {OpCategory::norm, false, normShape, normCost(4, 0)});
    r.add(OpKind::LayerNormalization, {OpCategory::norm, false, normShape, normCost(5, 0)});
    r.add(OpKind::BatchNormalization, {OpCategory::norm, false, normShape, normCost(5, 1)});
    r.add(OpKind::Softmax, {OpCategory::norm, false, softmaxShape, softmaxCost(), softmaxBackward});
    r.add(OpKind::LogSoftmax, {OpCategory::norm, false, softmaxShape, normCost(5, 0), softmaxBackward});
    // statistics computed per instance/group (mean, var, then the four ops: ~8 per element)
    r.add(OpKind::InstanceNormalization, {OpCategory::norm, false, normShape, normCost(8, 0)});
    r.add(OpKind::GroupNormalization, {OpCategory::norm, false, normShape, normCost(8, 0)});
    r.add(OpKind::MeanVarianceNormalization, {OpCategory::norm, false, normShape, normCost(6, 0)});
    r.add(OpKind::LpNormalization, {OpCategory::norm, false, normShape, normCost(3, 0)});
    r.add(OpKind::LRN, {OpCategory::norm, false, normShape, lrnCost});
}

}  // namespace npu::engine::ops
