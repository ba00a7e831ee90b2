// Reductions: ReduceMean/Sum/Max/Min/Prod/L1/L2/LogSum/LogSumExp/SumSquare with ONNX
// "axes" (attribute, or the second input from opset 13/18) and "keepdims"; ArgMax/ArgMin;
// TopK, CumSum and the ONNX losses (SoftmaxCrossEntropyLoss, NegativeLogLikelihoodLoss).
// FLOPs per input element: 1, or 2 where each element is also squared/abs'd/exp'd.
#include "engine/ir/ops/op_families.h"
#include "engine/ir/ops/shape_util.h"

#include <algorithm>

namespace npu::engine::ops {
namespace {

Expected<std::vector<ShapeOutput>> reduceShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 1); !s) return s.error();
    const Shape& x = in[0].shape;
    std::vector<std::int64_t> axes;
    if (node.kind == OpKind::ArgMax || node.kind == OpKind::ArgMin) axes = {node.attrInt("axis", 0)};
    else if (auto a = intsFromAttrOrInput(node, "axes", in, 1)) axes = *a;
    else if (in.size() > 1 && !in[1].shape.empty() && in[1].shape[0] != 0) {
        // Axes given by a non-constant input: the rank is known, the reduced axes are not.
        const bool keep = node.attrInt("keepdims", 1) != 0;
        if (keep) return std::vector<ShapeOutput>{{Shape(x.size(), kUnknownDim), in[0].dtype}};
        return shapeError(node, "reduction axes are not constant and keepdims=0: output rank unknown");
    }
    std::vector<bool> reduced(x.size(), axes.empty() && node.attrInt("noop_with_empty_axes", 0) == 0);
    for (auto a : axes) {
        auto ax = normaliseAxis(node, a, x.size());
        if (!ax) return ax.error();
        reduced[static_cast<std::size_t>(*ax)] = true;
    }
    const bool keep = node.attrInt("keepdims", 1) != 0;
    Shape out;
    for (std::size_t i = 0; i < x.size(); ++i) {
        if (!reduced[i]) out.push_back(x[i]);
        else if (keep) out.push_back(1);
    }
    const DType dt = (node.kind == OpKind::ArgMax || node.kind == OpKind::ArgMin) ? DType::i64 : in[0].dtype;
    return std::vector<ShapeOutput>{{out, dt}};
}

CostFn perInputElement(double flopsPerElement) {
    return [flopsPerElement](const Graph& g, const Node& n) {
        OpCost c = defaultCost(g, n);
        if (!n.inputs.empty()) c.flops = flopsPerElement * numel(g, inputAt(n, 0));
        return c;
    };
}

// TopK(x, k) -> values, indices with the axis dim = k (k an input since opset 10).
Expected<std::vector<ShapeOutput>> topKShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 1); !s) return s.error();
    auto axis = normaliseAxis(node, node.attrInt("axis", -1), in[0].shape.size());
    if (!axis) return axis.error();
    Shape out = in[0].shape;
    std::int64_t k = node.attrInt("k", kUnknownDim);
    if (in.size() > 1 && in[1].values && in[1].values->size() == 1) k = (*in[1].values)[0];
    out[static_cast<std::size_t>(*axis)] = k;
    return std::vector<ShapeOutput>{{out, in[0].dtype}, {out, DType::i64}};
}

// Losses over scores [N, C, d...] and labels [N, d...]: a scalar, or per element with
// reduction "none"; SoftmaxCrossEntropyLoss may also output the log-probabilities.
Expected<std::vector<ShapeOutput>> lossShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 2); !s) return s.error();
    Shape loss;
    if (node.attrString("reduction", "mean") == "none") loss = in[1].shape;
    return std::vector<ShapeOutput>{{loss, in[0].dtype}, {in[0].shape, in[0].dtype}};
}

Expected<std::vector<ShapeOutput>> cumSumShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 1); !s) return s.error();
    return std::vector<ShapeOutput>{{in[0].shape, in[0].dtype}};
}

// Backward rules (OpTraits::backward).

// ReduceMean/ReduceSum: dX is dY expanded back (divided by the count for a mean); it
// reads only dY, so the reduced input is not saved (autograd keeps only its shape).
void reduceBackward(BackwardContext& c) {
    const Node f = c.fwd();
    if (!c.need(0)) return;
    c.dIn[0] = c.newGrad(f.inputs[0]);
    c.addGrad(".grad", {c.firstGrad()}, {c.dIn[0]}, f.attrs);
}

}  // namespace

void registerReduceOps(OpRegistry& r) {
    for (OpKind op : {OpKind::ReduceMean, OpKind::ReduceSum})
        r.add(op, {OpCategory::reduce, false, reduceShape, perInputElement(1), reduceBackward});
    for (OpKind op : {OpKind::ReduceMax, OpKind::ReduceMin, OpKind::ReduceProd, OpKind::ReduceL2,
                      OpKind::ReduceSumSquare, OpKind::ReduceLogSum, OpKind::ArgMax, OpKind::ArgMin})
        r.add(op, {OpCategory::reduce, false, reduceShape, perInputElement(1)});
    for (OpKind op : {OpKind::ReduceL1, OpKind::ReduceLogSumExp})
        r.add(op, {OpCategory::reduce, false, reduceShape, perInputElement(2)});
    // a selection pass over the input (comparisons), whatever k is
    r.add(OpKind::TopK, {OpCategory::reduce, false, topKShape, perInputElement(1)});
    // a running sum: one add per element
    r.add(OpKind::CumSum, {OpCategory::reduce, false, cumSumShape, perInputElement(1)});
    // log-softmax (5) + gather/scale per score; NLL gathers and scales
    r.add(OpKind::SoftmaxCrossEntropyLoss, {OpCategory::reduce, false, lossShape, perInputElement(6)});
    r.add(OpKind::NegativeLogLikelihoodLoss, {OpCategory::reduce, false, lossShape, perInputElement(1)});
}

}  // namespace npu::engine::ops
