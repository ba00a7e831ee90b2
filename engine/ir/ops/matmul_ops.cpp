// MatMul (numpy semantics, batched/broadcast), Gemm, Linear (the zoo's PyTorch-style
// x @ W^T + b). Backward matmuls reuse MatMul with transA/transB and an explicit
// contraction size "k" (an engine extension to the ONNX attributes).
#include "engine/ir/ops/op_families.h"
#include "engine/ir/ops/shape_util.h"

namespace npu::engine::ops {
namespace {

Expected<std::vector<ShapeOutput>> matmulShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 2); !s) return s.error();
    Shape a = in[0].shape, b = in[1].shape;
    if (a.empty() || b.empty()) return shapeError(node, "MatMul inputs must have rank >= 1");
    const bool aVec = a.size() == 1, bVec = b.size() == 1;
    if (aVec) a.insert(a.begin(), 1);
    if (bVec) b.push_back(1);
    if (node.attrInt("transA", 0)) std::swap(a[a.size() - 1], a[a.size() - 2]);
    if (node.attrInt("transB", 0)) std::swap(b[b.size() - 1], b[b.size() - 2]);
    const auto ka = a.back(), kb = b[b.size() - 2];
    if (ka >= 0 && kb >= 0 && ka != kb)
        return shapeError(node, "inner dimensions differ: " + shapeText(in[0].shape) + " x " + shapeText(in[1].shape));
    auto batch = broadcast(node, Shape(a.begin(), a.end() - 2), Shape(b.begin(), b.end() - 2));
    if (!batch) return batch.error();
    Shape out = *batch;
    if (!aVec) out.push_back(a[a.size() - 2]);
    if (!bVec) out.push_back(b.back());
    return std::vector<ShapeOutput>{{out, in[0].dtype}};
}

OpCost matmulCost(const Graph& g, const Node& n) {
    OpCost c = defaultCost(g, n);
    double k = static_cast<double>(n.attrInt("k", 0));
    if (k <= 0 && !n.inputs.empty() && n.inputs[0] >= 0) {
        const auto& a = g.tensor(n.inputs[0]).shape;
        if (!a.empty()) k = static_cast<double>(n.attrInt("transA", 0) && a.size() >= 2 ? a[a.size() - 2] : a.back());
    }
    if (!n.outputs.empty()) c.flops = 2.0 * numel(g, n.outputs[0]) * std::max(k, 0.0);
    return c;
}

Expected<std::vector<ShapeOutput>> gemmShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 2); !s) return s.error();
    const Shape& a = in[0].shape;
    const Shape& b = in[1].shape;
    if (a.size() != 2 || b.size() != 2) return shapeError(node, "Gemm expects 2-D inputs, got " + shapeText(a) + " and " + shapeText(b));
    const bool ta = node.attrInt("transA", 0), tb = node.attrInt("transB", 0);
    const auto m = ta ? a[1] : a[0], ka = ta ? a[0] : a[1];
    const auto kb = tb ? b[1] : b[0], n = tb ? b[0] : b[1];
    if (ka >= 0 && kb >= 0 && ka != kb) return shapeError(node, "inner dimensions differ: " + shapeText(a) + " x " + shapeText(b));
    return std::vector<ShapeOutput>{{{m, n}, in[0].dtype}};
}

OpCost gemmCost(const Graph& g, const Node& n) {
    OpCost c = defaultCost(g, n);
    const auto& a = g.tensor(n.inputs[0]).shape;
    const double k = a.size() == 2 ? static_cast<double>(n.attrInt("transA", 0) ? a[0] : a[1]) : 0;
    const double out = numel(g, n.outputs[0]);
    c.flops = 2.0 * out * k + (n.inputs.size() > 2 && n.inputs[2] >= 0 ? out : 0);
    return c;
}

Expected<std::vector<ShapeOutput>> linearShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 2); !s) return s.error();
    const Shape& x = in[0].shape;
    const Shape& w = in[1].shape;
    if (x.empty() || w.size() != 2) return shapeError(node, "Linear expects x[..., in] and W[out, in], got " + shapeText(x) + " and " + shapeText(w));
    if (x.back() >= 0 && w[1] >= 0 && x.back() != w[1])
        return shapeError(node, "input features " + std::to_string(x.back()) + " differ from weight " + shapeText(w));
    Shape out = x;
    out.back() = w[0];
    return std::vector<ShapeOutput>{{out, in[0].dtype}};
}

OpCost linearCost(const Graph& g, const Node& n) {
    OpCost c = defaultCost(g, n);
    const auto& w = g.tensor(n.inputs[1]).shape;
    const double out = numel(g, n.outputs[0]);
    c.flops = 2.0 * out * static_cast<double>(w.size() == 2 ? w[1] : 0);
    if (n.inputs.size() > 2 && n.inputs[2] >= 0) c.flops += out;
    return c;
}

}  // namespace

void registerMatmulOps(OpRegistry& r) {
    r.add("MatMul", {OpCategory::matmul, false, matmulShape, matmulCost});
    r.add("Gemm", {OpCategory::matmul, false, gemmShape, gemmCost});
    r.add("Linear", {OpCategory::matmul, false, linearShape, linearCost});
}

}  // namespace npu::engine::ops
