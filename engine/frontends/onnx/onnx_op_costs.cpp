#include "engine/frontends/onnx/onnx_op_costs.h"

#include "engine/ir/op_registry.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <unordered_map>

namespace npu::engine {
namespace {

enum class Kind { shape_only, elementwise, data_movement, reduce_input, special };

struct OpInfo {
    OpCategory category;
    Kind kind;
    int flopsPerElement;  // per output element (elementwise) or per input element (reduce_input)
};

// FLOPs per element follow the usual analytical-profiler convention (fvcore, ptflops):
// one per arithmetic result, transcendental functions count as one, compound
// activations count their arithmetic (HardSwish: x*relu6(x+3)/6 = 4).
const std::unordered_map<std::string, OpInfo>& opTable() {
    using C = OpCategory;
    static const std::unordered_map<std::string, OpInfo> table = {
        // matmul / conv family: costed from shapes below
        {"Conv", {C::conv, Kind::special, 0}}, {"ConvTranspose", {C::conv, Kind::special, 0}},
        {"Gemm", {C::matmul, Kind::special, 0}}, {"MatMul", {C::matmul, Kind::special, 0}},
        {"Einsum", {C::matmul, Kind::special, 0}},
        // normalisation: x-mean, *inv_std, *gamma, +beta with stats precomputed (BN) or
        // computed (LN: mean, var, then the four ops; ~8 per element)
        {"BatchNormalization", {C::norm, Kind::elementwise, 4}},
        {"LayerNormalization", {C::norm, Kind::elementwise, 8}},
        {"InstanceNormalization", {C::norm, Kind::elementwise, 8}},
        {"GroupNormalization", {C::norm, Kind::elementwise, 8}},
        {"LpNormalization", {C::norm, Kind::elementwise, 3}},
        {"LRN", {C::norm, Kind::special, 0}},
        {"MeanVarianceNormalization", {C::norm, Kind::elementwise, 6}},
        // softmax: max, sub, exp, sum, div
        {"Softmax", {C::elementwise, Kind::elementwise, 5}}, {"LogSoftmax", {C::elementwise, Kind::elementwise, 5}},
        {"Hardmax", {C::elementwise, Kind::elementwise, 1}},
        // pooling and reductions
        {"MaxPool", {C::reduce, Kind::special, 0}}, {"AveragePool", {C::reduce, Kind::special, 0}},
        {"LpPool", {C::reduce, Kind::special, 0}},
        {"GlobalAveragePool", {C::reduce, Kind::reduce_input, 1}}, {"GlobalMaxPool", {C::reduce, Kind::reduce_input, 1}},
        {"GlobalLpPool", {C::reduce, Kind::reduce_input, 2}},
        {"ReduceMean", {C::reduce, Kind::reduce_input, 1}}, {"ReduceSum", {C::reduce, Kind::reduce_input, 1}},
        {"ReduceMax", {C::reduce, Kind::reduce_input, 1}}, {"ReduceMin", {C::reduce, Kind::reduce_input, 1}},
        {"ReduceProd", {C::reduce, Kind::reduce_input, 1}}, {"ReduceL1", {C::reduce, Kind::reduce_input, 2}},
        {"ReduceL2", {C::reduce, Kind::reduce_input, 2}}, {"ReduceSumSquare", {C::reduce, Kind::reduce_input, 2}},
        {"ReduceLogSum", {C::reduce, Kind::reduce_input, 1}}, {"ReduceLogSumExp", {C::reduce, Kind::reduce_input, 2}},
        {"ArgMax", {C::reduce, Kind::reduce_input, 1}}, {"ArgMin", {C::reduce, Kind::reduce_input, 1}},
        {"CumSum", {C::reduce, Kind::elementwise, 1}}, {"TopK", {C::reduce, Kind::reduce_input, 1}},
        // losses (per input element: log-softmax 5 + gather/scale) and quantisation
        {"SoftmaxCrossEntropyLoss", {C::reduce, Kind::reduce_input, 6}},
        {"NegativeLogLikelihoodLoss", {C::reduce, Kind::reduce_input, 1}},
        {"QuantizeLinear", {C::elementwise, Kind::elementwise, 3}},
        {"DequantizeLinear", {C::elementwise, Kind::elementwise, 2}},
        {"DynamicQuantizeLinear", {C::elementwise, Kind::elementwise, 5}},
        // bilinear sampling: 4 taps, 2 multiply-adds each per output element
        {"GridSample", {C::data_movement, Kind::elementwise, 8}},
        // elementwise arithmetic and activations
        {"Add", {C::elementwise, Kind::elementwise, 1}}, {"Sub", {C::elementwise, Kind::elementwise, 1}},
        {"Mul", {C::elementwise, Kind::elementwise, 1}}, {"Div", {C::elementwise, Kind::elementwise, 1}},
        {"Pow", {C::elementwise, Kind::elementwise, 1}}, {"Sqrt", {C::elementwise, Kind::elementwise, 1}},
        {"Erf", {C::elementwise, Kind::elementwise, 1}}, {"Tanh", {C::elementwise, Kind::elementwise, 1}},
        {"Sigmoid", {C::elementwise, Kind::elementwise, 1}}, {"Relu", {C::elementwise, Kind::elementwise, 1}},
        {"LeakyRelu", {C::elementwise, Kind::elementwise, 2}}, {"Clip", {C::elementwise, Kind::elementwise, 2}},
        {"HardSwish", {C::elementwise, Kind::elementwise, 4}}, {"HardSigmoid", {C::elementwise, Kind::elementwise, 3}},
        {"Exp", {C::elementwise, Kind::elementwise, 1}}, {"Log", {C::elementwise, Kind::elementwise, 1}},
        {"Neg", {C::elementwise, Kind::elementwise, 1}}, {"Reciprocal", {C::elementwise, Kind::elementwise, 1}},
        // Gelu (erf form): x * 0.5 * (1 + erf(x / sqrt 2)) = 5 ops
        {"Gelu", {C::elementwise, Kind::elementwise, 5}},
        {"Abs", {C::elementwise, Kind::elementwise, 1}}, {"Ceil", {C::elementwise, Kind::elementwise, 1}},
        {"Floor", {C::elementwise, Kind::elementwise, 1}}, {"Round", {C::elementwise, Kind::elementwise, 1}},
        {"Sign", {C::elementwise, Kind::elementwise, 1}}, {"Min", {C::elementwise, Kind::elementwise, 1}},
        {"Max", {C::elementwise, Kind::elementwise, 1}}, {"Sum", {C::elementwise, Kind::elementwise, 1}},
        {"Mean", {C::elementwise, Kind::elementwise, 2}}, {"Mod", {C::elementwise, Kind::elementwise, 1}},
        {"Sin", {C::elementwise, Kind::elementwise, 1}}, {"Cos", {C::elementwise, Kind::elementwise, 1}},
        {"Tan", {C::elementwise, Kind::elementwise, 1}}, {"Asin", {C::elementwise, Kind::elementwise, 1}},
        {"Acos", {C::elementwise, Kind::elementwise, 1}}, {"Atan", {C::elementwise, Kind::elementwise, 1}},
        {"Sinh", {C::elementwise, Kind::elementwise, 1}}, {"Cosh", {C::elementwise, Kind::elementwise, 1}},
        {"Asinh", {C::elementwise, Kind::elementwise, 1}}, {"Acosh", {C::elementwise, Kind::elementwise, 1}},
        {"Atanh", {C::elementwise, Kind::elementwise, 1}},
        {"Elu", {C::elementwise, Kind::elementwise, 3}}, {"Selu", {C::elementwise, Kind::elementwise, 4}},
        {"Celu", {C::elementwise, Kind::elementwise, 4}}, {"PRelu", {C::elementwise, Kind::elementwise, 2}},
        {"ThresholdedRelu", {C::elementwise, Kind::elementwise, 1}}, {"Softplus", {C::elementwise, Kind::elementwise, 3}},
        {"Softsign", {C::elementwise, Kind::elementwise, 3}}, {"Mish", {C::elementwise, Kind::elementwise, 5}},
        {"Shrink", {C::elementwise, Kind::elementwise, 2}},
        {"Equal", {C::elementwise, Kind::elementwise, 1}}, {"Less", {C::elementwise, Kind::elementwise, 1}},
        {"Greater", {C::elementwise, Kind::elementwise, 1}}, {"LessOrEqual", {C::elementwise, Kind::elementwise, 1}},
        {"GreaterOrEqual", {C::elementwise, Kind::elementwise, 1}}, {"Not", {C::elementwise, Kind::elementwise, 1}},
        {"And", {C::elementwise, Kind::elementwise, 1}}, {"Or", {C::elementwise, Kind::elementwise, 1}},
        {"Xor", {C::elementwise, Kind::elementwise, 1}}, {"IsNaN", {C::elementwise, Kind::elementwise, 1}},
        {"IsInf", {C::elementwise, Kind::elementwise, 1}}, {"BitShift", {C::elementwise, Kind::elementwise, 1}},
        {"Where", {C::elementwise, Kind::elementwise, 1}},
        // data movement: bytes only
        {"Transpose", {C::data_movement, Kind::data_movement, 0}}, {"Concat", {C::data_movement, Kind::data_movement, 0}},
        {"Split", {C::data_movement, Kind::data_movement, 0}}, {"Slice", {C::data_movement, Kind::data_movement, 0}},
        {"Gather", {C::data_movement, Kind::data_movement, 0}}, {"GatherElements", {C::data_movement, Kind::data_movement, 0}},
        {"GatherND", {C::data_movement, Kind::data_movement, 0}}, {"ScatterElements", {C::data_movement, Kind::data_movement, 0}},
        {"ScatterND", {C::data_movement, Kind::data_movement, 0}}, {"Scatter", {C::data_movement, Kind::data_movement, 0}},
        {"Expand", {C::data_movement, Kind::data_movement, 0}}, {"Cast", {C::data_movement, Kind::data_movement, 0}},
        {"CastLike", {C::data_movement, Kind::data_movement, 0}},
        {"ConstantOfShape", {C::data_movement, Kind::data_movement, 0}}, {"Range", {C::data_movement, Kind::data_movement, 0}},
        {"Resize", {C::data_movement, Kind::special, 0}}, {"Upsample", {C::data_movement, Kind::special, 0}},
        {"Pad", {C::data_movement, Kind::data_movement, 0}}, {"Tile", {C::data_movement, Kind::data_movement, 0}},
        {"DepthToSpace", {C::data_movement, Kind::data_movement, 0}}, {"SpaceToDepth", {C::data_movement, Kind::data_movement, 0}},
        {"Trilu", {C::data_movement, Kind::data_movement, 0}}, {"EyeLike", {C::data_movement, Kind::data_movement, 0}},
        {"OneHot", {C::data_movement, Kind::data_movement, 0}}, {"NonZero", {C::data_movement, Kind::data_movement, 0}},
        {"ReverseSequence", {C::data_movement, Kind::data_movement, 0}},
        // metadata only: no work at run time
        {"Reshape", {C::data_movement, Kind::shape_only, 0}}, {"Flatten", {C::data_movement, Kind::shape_only, 0}},
        {"Squeeze", {C::data_movement, Kind::shape_only, 0}}, {"Unsqueeze", {C::data_movement, Kind::shape_only, 0}},
        {"Shape", {C::data_movement, Kind::shape_only, 0}}, {"Size", {C::data_movement, Kind::shape_only, 0}},
        {"Constant", {C::data_movement, Kind::shape_only, 0}}, {"Identity", {C::data_movement, Kind::shape_only, 0}},
        // inference-mode Dropout is the identity; training simulation re-derives it
        {"Dropout", {C::data_movement, Kind::shape_only, 0}},
    };
    return table;
}

std::int64_t numelOf(const Graph& g, const Node& n, size_t i, bool output = false) {
    const auto& ids = output ? n.outputs : n.inputs;
    if (i >= ids.size() || ids[i] < 0) return 0;
    return g.tensor(ids[i]).numel();
}

const std::vector<std::int64_t>* shapeOf(const Graph& g, const Node& n, size_t i, bool output = false) {
    const auto& ids = output ? n.outputs : n.inputs;
    if (i >= ids.size() || ids[i] < 0) return nullptr;
    const auto& t = g.tensor(ids[i]);
    if (t.hasUnknownDims()) return nullptr;
    return &t.shape;
}

std::int64_t product(const std::vector<std::int64_t>& v, size_t from = 0) {
    std::int64_t p = 1;
    for (size_t i = from; i < v.size(); ++i) p *= v[i];
    return p;
}

// MACs of the matmul/conv family from the bound shapes; 0 when a shape is unknown.
std::int64_t specialMacs(const Graph& g, const Node& n) {
    if (n.op == "Conv") {
        const auto* w = shapeOf(g, n, 1);
        const std::int64_t out = numelOf(g, n, 0, true);
        if (!w || w->size() < 2) return 0;
        return out * product(*w, 1);  // (Cin/groups) * prod(kernel) per output element
    }
    if (n.op == "ConvTranspose") {
        const auto* w = shapeOf(g, n, 1);  // [Cin, Cout/groups, k...]
        const std::int64_t in = numelOf(g, n, 0);
        if (!w || w->size() < 2) return 0;
        return in * product(*w, 1);
    }
    if (n.op == "Gemm") {
        const auto* a = shapeOf(g, n, 0);
        const std::int64_t out = numelOf(g, n, 0, true);
        if (!a || a->size() != 2) return 0;
        const std::int64_t k = n.attrInt("transA", 0) ? (*a)[0] : (*a)[1];
        return out * k;
    }
    if (n.op == "MatMul") {
        const auto* a = shapeOf(g, n, 0);
        const std::int64_t out = numelOf(g, n, 0, true);
        if (!a || a->empty()) return 0;
        return out * a->back();
    }
    if (n.op == "Einsum") {
        // Contraction size = product of input dims not in the output; approximated from
        // the element counts: sqrt(|A|*|B|/|out|) is exact for a plain matrix product.
        const std::int64_t a = numelOf(g, n, 0), b = numelOf(g, n, 1), out = numelOf(g, n, 0, true);
        if (a == 0 || b == 0 || out == 0) return 0;
        double k = std::sqrt(static_cast<double>(a) * static_cast<double>(b) / static_cast<double>(out));
        return static_cast<std::int64_t>(static_cast<double>(out) * std::max(1.0, k));
    }
    return 0;
}

std::int64_t specialFlops(const Graph& g, const Node& n, std::int64_t macs) {
    const std::int64_t out = numelOf(g, n, 0, true);
    if (n.op == "Conv" || n.op == "ConvTranspose") return 2 * macs + (n.inputs.size() > 2 && n.inputs[2] >= 0 ? out : 0);
    if (n.op == "Gemm") return 2 * macs + (n.inputs.size() > 2 && n.inputs[2] >= 0 ? out : 0);
    if (n.op == "MatMul" || n.op == "Einsum") return 2 * macs;
    if (n.op == "MaxPool" || n.op == "AveragePool" || n.op == "LpPool") {
        const auto k = n.attrInts("kernel_shape");
        return out * (k.empty() ? 1 : product(k));
    }
    if (n.op == "LRN") return out * (n.attrInt("size", 1) + 3);
    if (n.op == "Resize" || n.op == "Upsample") {
        // linear interpolation: 2 multiply-adds per interpolated axis (spatial axes)
        const auto* s = shapeOf(g, n, 0, true);
        const std::string mode = n.attrString("mode", "nearest");
        if (!s || mode == "nearest") return 0;
        const std::int64_t axes = std::max<std::int64_t>(1, static_cast<std::int64_t>(s->size()) - 2);
        return out * 4 * axes;
    }
    return 0;
}

}  // namespace

bool isSupportedOnnxOp(std::string_view opType) {
    return opTable().count(std::string(opType)) > 0 || OpRegistry::instance().known(opType);
}

bool isShapeOnlyOnnxOp(std::string_view opType) {
    auto it = opTable().find(std::string(opType));
    if (it != opTable().end()) return it->second.kind == Kind::shape_only;
    return OpRegistry::instance().isShapeOnly(opType);
}

OpCategory onnxOpCategory(std::string_view opType) {
    if (const auto* traits = OpRegistry::instance().find(opType)) return traits->category;
    auto it = opTable().find(std::string(opType));
    return it == opTable().end() ? OpCategory::other : it->second.category;
}

namespace {

bool allShapesKnown(const Graph& graph, const Node& node) {
    for (int t : node.inputs)
        if (t >= 0 && graph.tensor(t).hasUnknownDims()) return false;
    for (int t : node.outputs)
        if (t >= 0 && graph.tensor(t).hasUnknownDims()) return false;
    return !node.outputs.empty();
}

// The converter's own cost for ops the engine's registry does not know (and for nodes
// with shapes the registry's rules would not accept).
OnnxOpCost tableCost(const Graph& graph, const Node& node, const OpInfo* info) {
    OnnxOpCost cost;
    cost.category = info ? info->category : OpCategory::other;
    for (int t : node.inputs)
        if (t >= 0) cost.bytesRead += graph.tensor(t).bytes();
    for (int t : node.outputs)
        if (t >= 0) cost.bytesWritten += graph.tensor(t).bytes();
    if (!info) return cost;  // opaque: bytes only
    switch (info->kind) {
    case Kind::elementwise: {
        std::int64_t out = 0;
        for (size_t i = 0; i < node.outputs.size(); ++i) out = std::max(out, numelOf(graph, node, i, true));
        cost.flops = out * info->flopsPerElement;
        break;
    }
    case Kind::reduce_input: cost.flops = numelOf(graph, node, 0) * info->flopsPerElement; break;
    case Kind::special:
        cost.macs = specialMacs(graph, node);
        cost.flops = specialFlops(graph, node, cost.macs);
        break;
    case Kind::data_movement: case Kind::shape_only: break;
    }
    return cost;
}

}  // namespace

OnnxOpCost onnxNodeCost(const Graph& graph, const Node& node) {
    auto it = opTable().find(node.op);
    const OpInfo* info = it == opTable().end() ? nullptr : &it->second;
    if (node.attrInt(kShapeOnlyAttr, 0) != 0 || isShapeOnlyOnnxOp(node.op)) {
        OnnxOpCost cost;
        cost.category = onnxOpCategory(node.op);
        cost.shapeOnly = true;
        return cost;
    }
    const auto& registry = OpRegistry::instance();
    // The engine's registry is the single source of FLOPs and bytes for the simulator;
    // the report uses it whenever it knows the op and the shapes are bound. MACs stay
    // exact (the registry's macs() is FLOPs/2, which counts bias adds as half a MAC).
    if (registry.known(node.op) && !node.opaque && allShapesKnown(graph, node)) {
        const OpCost c = registry.cost(graph, node);
        OnnxOpCost cost;
        cost.category = registry.category(node.op);
        cost.flops = static_cast<std::int64_t>(c.flops);
        cost.bytesRead = static_cast<std::int64_t>(c.bytesRead);
        cost.bytesWritten = static_cast<std::int64_t>(c.bytesWritten);
        cost.macs = specialMacs(graph, node);
        return cost;
    }
    return tableCost(graph, node, info);
}

}  // namespace npu::engine
