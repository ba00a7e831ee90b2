// Reductions: ReduceMean/Sum/Max/Min/Prod/L2 with ONNX "axes" (attribute, or the second
// input from opset 13/18) and "keepdims"; ArgMax/ArgMin.
#include "engine/ir/ops/op_families.h"
#include "engine/ir/ops/shape_util.h"

#include <algorithm>

namespace npu::engine::ops {
namespace {

Expected<std::vector<ShapeOutput>> reduceShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 1); !s) return s.error();
    const Shape& x = in[0].shape;
    std::vector<std::int64_t> axes;
    if (node.op == "ArgMax" || node.op == "ArgMin") axes = {node.attrInt("axis", 0)};
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
    const DType dt = (node.op == "ArgMax" || node.op == "ArgMin") ? DType::i64 : in[0].dtype;
    return std::vector<ShapeOutput>{{out, dt}};
}

OpCost reduceCost(const Graph& g, const Node& n) {
    OpCost c = defaultCost(g, n);
    c.flops = numel(g, n.inputs[0]);
    return c;
}

}  // namespace

void registerReduceOps(OpRegistry& r) {
    for (const char* op : {"ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL2",
                           "ReduceSumSquare", "ArgMax", "ArgMin"})
        r.add(op, {OpCategory::reduce, false, reduceShape, reduceCost});
}

}  // namespace npu::engine::ops
