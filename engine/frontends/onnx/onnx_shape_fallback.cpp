#include "engine/frontends/onnx/onnx_shape_fallback.h"

#include "engine/frontends/onnx/onnx_op_costs.h"
#include "engine/ir/op_registry.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>

namespace npu::engine::onnx_detail {
namespace {

using Shape = std::vector<std::int64_t>;

bool known(const Tensor& t) {
    return !t.hasUnknownDims() && !(t.symbolicDims.size() == 1 && t.symbolicDims[0] == "?");
}

std::optional<Shape> input(const Graph& g, const Node& n, size_t i) {
    if (i >= n.inputs.size() || n.inputs[i] < 0) return std::nullopt;
    const Tensor& t = g.tensor(n.inputs[i]);
    if (!known(t)) return std::nullopt;
    return t.shape;
}

std::optional<Shape> broadcast(const std::vector<Shape>& shapes) {
    size_t rank = 0;
    for (const auto& s : shapes) rank = std::max(rank, s.size());
    Shape out(rank, 1);
    for (const auto& s : shapes)
        for (size_t i = 0; i < s.size(); ++i) {
            auto& o = out[rank - s.size() + i];
            if (s[i] == 1) continue;
            if (o != 1 && o != s[i]) return std::nullopt;
            o = s[i];
        }
    return out;
}

std::int64_t normAxis(std::int64_t axis, size_t rank) { return axis < 0 ? axis + static_cast<std::int64_t>(rank) : axis; }

std::optional<Shape> spatial(const Node& n, const Shape& x, const Shape& kernel, std::int64_t outChannels) {
    if (x.size() < 3) return std::nullopt;
    const size_t k = x.size() - 2;
    if (kernel.size() != k) return std::nullopt;
    auto strides = n.attrInts("strides"), dil = n.attrInts("dilations"), pads = n.attrInts("pads");
    const std::string autoPad = n.attrString("auto_pad", "NOTSET");
    const bool ceilMode = n.attrInt("ceil_mode", 0) != 0;
    Shape out{x[0], outChannels};
    for (size_t i = 0; i < k; ++i) {
        const std::int64_t s = i < strides.size() ? strides[i] : 1, d = i < dil.size() ? dil[i] : 1;
        const std::int64_t eff = (kernel[i] - 1) * d + 1;
        if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
            out.push_back((x[i + 2] + s - 1) / s);
            continue;
        }
        const std::int64_t p = pads.size() == 2 * k ? pads[i] + pads[i + k] : 0;
        const std::int64_t span = x[i + 2] + p - eff;
        if (span < 0) return std::nullopt;
        out.push_back((ceilMode ? (span + s - 1) / s : span / s) + 1);
    }
    return out;
}

// Small integer values computed on the shape path (Shape -> Gather -> Mul -> Concat),
// keyed by tensor id: what Reshape targets and Slice bounds are made of.
using Values = std::map<int, Shape>;

std::optional<Shape> valueOf(const Graph& g, const Values& values, int tensorId) {
    if (tensorId < 0) return std::nullopt;
    if (auto it = values.find(tensorId); it != values.end()) return it->second;
    const int producer = g.tensor(tensorId).producer;
    if (producer < 0) return std::nullopt;
    auto v = g.node(producer).attrInts(kConstantValueAttr);
    if (v.empty() || g.node(producer).outputs.empty() || g.node(producer).outputs[0] != tensorId) return std::nullopt;
    return v;
}

// Evaluates the integer shape arithmetic exporters emit for dynamic reshapes.
std::optional<Shape> evaluate(const Graph& g, const Values& values, const Node& n) {
    auto in = [&](size_t i) { return i < n.inputs.size() ? valueOf(g, values, n.inputs[i]) : std::nullopt; };
    const std::string& op = n.op;
    if (op == "Shape") {
        if (n.inputs.empty() || n.inputs[0] < 0 || !known(g.tensor(n.inputs[0]))) return std::nullopt;
        Shape s = g.tensor(n.inputs[0]).shape;
        const auto rank = static_cast<std::int64_t>(s.size());
        std::int64_t b = normAxis(n.attrInt("start", 0), s.size()), e = normAxis(n.attrInt("end", rank), s.size());
        b = std::clamp<std::int64_t>(b, 0, rank);
        e = std::clamp<std::int64_t>(e, b, rank);
        return Shape(s.begin() + b, s.begin() + e);
    }
    if (op == "Identity" || op == "Cast" || op == "Unsqueeze" || op == "Squeeze" || op == "Reshape" || op == "Flatten")
        return in(0);
    if (op == "Concat") {
        Shape out;
        for (size_t i = 0; i < n.inputs.size(); ++i) {
            auto v = in(i);
            if (!v) return std::nullopt;
            out.insert(out.end(), v->begin(), v->end());
        }
        return out;
    }
    if (op == "Gather") {
        auto data = in(0), idx = in(1);
        if (!data || !idx || n.attrInt("axis", 0) != 0) return std::nullopt;
        Shape out;
        for (auto i : *idx) {
            const std::int64_t k = i < 0 ? i + static_cast<std::int64_t>(data->size()) : i;
            if (k < 0 || static_cast<size_t>(k) >= data->size()) return std::nullopt;
            out.push_back((*data)[static_cast<size_t>(k)]);
        }
        return out;
    }
    if (op == "Add" || op == "Sub" || op == "Mul" || op == "Div") {
        auto a = in(0), b = in(1);
        if (!a || !b || a->empty() || b->empty() || (a->size() != b->size() && a->size() != 1 && b->size() != 1))
            return std::nullopt;
        Shape out(std::max(a->size(), b->size()));
        for (size_t i = 0; i < out.size(); ++i) {
            const std::int64_t x = (*a)[a->size() == 1 ? 0 : i], y = (*b)[b->size() == 1 ? 0 : i];
            if (op == "Div" && y == 0) return std::nullopt;
            out[i] = op == "Add" ? x + y : op == "Sub" ? x - y : op == "Mul" ? x * y : x / y;
        }
        return out;
    }
    return std::nullopt;
}

std::optional<Shape> inferOne(const Graph& g, const Values& constValues, const Node& n) {
    const std::string& op = n.op;
    auto x = input(g, n, 0);
    static const std::set<std::string> sameAsInput = {
        "Relu", "Sigmoid", "Tanh", "Erf", "Sqrt", "Exp", "Log", "Neg", "Reciprocal", "LeakyRelu", "Clip", "HardSwish",
        "HardSigmoid", "Gelu", "Softmax", "LogSoftmax", "LayerNormalization", "BatchNormalization", "Identity",
        "Dropout", "Cast", "Abs", "Ceil", "Floor", "Round", "Sign", "Elu", "Selu", "Celu", "Softplus", "Softsign",
        "InstanceNormalization", "LpNormalization", "Not", "IsNaN", "IsInf", "CumSum", "Hardmax", "Mish", "Shrink",
        "ThresholdedRelu", "Sin", "Cos", "LRN", "CastLike", "Trilu", "EyeLike", "PRelu"};
    static const std::set<std::string> broadcasting = {
        "Add", "Sub", "Mul", "Div", "Pow", "Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual", "And", "Or",
        "Xor", "Where", "Min", "Max", "Sum", "Mean", "Mod", "BitShift"};
    if (sameAsInput.count(op)) return x;
    if (broadcasting.count(op)) {
        std::vector<Shape> shapes;
        for (size_t i = 0; i < n.inputs.size(); ++i) {
            auto s = input(g, n, i);
            if (!s) return std::nullopt;
            shapes.push_back(*s);
        }
        return broadcast(shapes);
    }
    if (!x) return std::nullopt;
    if (op == "MatMul") {
        auto b = input(g, n, 1);
        if (!b || x->empty() || b->empty()) return std::nullopt;
        Shape a = *x, bb = *b;
        const bool aVec = a.size() == 1, bVec = bb.size() == 1;
        if (aVec) a.insert(a.begin(), 1);
        if (bVec) bb.push_back(1);
        auto batch = broadcast({Shape(a.begin(), a.end() - 2), Shape(bb.begin(), bb.end() - 2)});
        if (!batch) return std::nullopt;
        Shape out = *batch;
        if (!aVec) out.push_back(a[a.size() - 2]);
        if (!bVec) out.push_back(bb.back());
        return out;
    }
    if (op == "Gemm") {
        auto b = input(g, n, 1);
        if (!b || x->size() != 2 || b->size() != 2) return std::nullopt;
        return Shape{n.attrInt("transA", 0) ? (*x)[1] : (*x)[0], n.attrInt("transB", 0) ? (*b)[0] : (*b)[1]};
    }
    if (op == "Conv") {
        auto w = input(g, n, 1);
        if (!w || w->size() < 3) return std::nullopt;
        auto ks = n.attrInts("kernel_shape");
        return spatial(n, *x, ks.empty() ? Shape(w->begin() + 2, w->end()) : ks, (*w)[0]);
    }
    if (op == "MaxPool" || op == "AveragePool" || op == "LpPool")
        return spatial(n, *x, n.attrInts("kernel_shape"), x->size() > 1 ? (*x)[1] : 1);
    if (op == "GlobalAveragePool" || op == "GlobalMaxPool" || op == "GlobalLpPool") {
        Shape out = *x;
        for (size_t i = 2; i < out.size(); ++i) out[i] = 1;
        return out;
    }
    if (op == "Transpose") {
        auto perm = n.attrInts("perm");
        Shape out;
        if (perm.empty()) out.assign(x->rbegin(), x->rend());
        for (auto p : perm) {
            if (p < 0 || static_cast<size_t>(p) >= x->size()) return std::nullopt;
            out.push_back((*x)[static_cast<size_t>(p)]);
        }
        return out;
    }
    if (op == "Flatten") {
        const std::int64_t axis = normAxis(n.attrInt("axis", 1), x->size());
        std::int64_t a = 1, b = 1;
        for (size_t i = 0; i < x->size(); ++i) (static_cast<std::int64_t>(i) < axis ? a : b) *= (*x)[i];
        return Shape{a, b};
    }
    if (op == "Concat") {
        Shape out = *x;
        const std::int64_t axis = normAxis(n.attrInt("axis", 0), x->size());
        if (axis < 0 || static_cast<size_t>(axis) >= out.size()) return std::nullopt;
        for (size_t i = 1; i < n.inputs.size(); ++i) {
            auto s = input(g, n, i);
            if (!s || s->size() != out.size()) return std::nullopt;
            out[static_cast<size_t>(axis)] += (*s)[static_cast<size_t>(axis)];
        }
        return out;
    }
    if (op.rfind("Reduce", 0) == 0 || op == "ArgMax" || op == "ArgMin") {
        auto axes = n.attrInts("axes");
        if (op == "ArgMax" || op == "ArgMin") axes = {n.attrInt("axis", 0)};
        const bool keep = n.attrInt("keepdims", 1) != 0;
        if (axes.empty() && n.inputs.size() > 1) return std::nullopt;  // axes as an input
        Shape out;
        for (size_t i = 0; i < x->size(); ++i) {
            const bool reduced = axes.empty() || std::any_of(axes.begin(), axes.end(), [&](auto a) {
                return normAxis(a, x->size()) == static_cast<std::int64_t>(i);
            });
            if (!reduced) out.push_back((*x)[i]);
            else if (keep) out.push_back(1);
        }
        return out;
    }
    if (op == "Slice") {
        // starts/ends/axes/steps: attributes before opset 10, constant inputs since.
        auto values = [&](size_t i, const char* attr) -> std::optional<Shape> {
            if (n.inputs.size() <= 1) {
                auto v = n.attrInts(attr);
                return v.empty() ? std::nullopt : std::optional<Shape>(v);
            }
            if (i >= n.inputs.size()) return std::nullopt;
            return valueOf(g, constValues, n.inputs[i]);
        };
        auto starts = values(1, "starts"), ends = values(2, "ends");
        if (!starts || !ends || starts->size() != ends->size()) return std::nullopt;
        Shape axes, steps(starts->size(), 1);
        if (auto a = values(3, "axes")) axes = *a;
        else
            for (size_t i = 0; i < starts->size(); ++i) axes.push_back(static_cast<std::int64_t>(i));
        if (n.inputs.size() > 4) {
            auto st = values(4, "steps");
            if (!st) return std::nullopt;
            steps = *st;
        }
        if (axes.size() != starts->size() || steps.size() != starts->size()) return std::nullopt;
        Shape out = *x;
        for (size_t i = 0; i < axes.size(); ++i) {
            const std::int64_t axis = normAxis(axes[i], x->size());
            if (axis < 0 || static_cast<size_t>(axis) >= x->size() || steps[i] == 0) return std::nullopt;
            const std::int64_t dim = (*x)[static_cast<size_t>(axis)];
            auto clampIndex = [&](std::int64_t v, bool forEnd) {
                if (v < 0) v += dim;
                const std::int64_t lo = steps[i] > 0 ? 0 : -1, hi = steps[i] > 0 ? dim : dim - 1;
                (void)forEnd;
                return std::clamp(v, lo, hi);
            };
            const std::int64_t b = clampIndex((*starts)[i], false), e = clampIndex((*ends)[i], true);
            const std::int64_t len = steps[i] > 0 ? (e - b + steps[i] - 1) / steps[i] : (b - e - steps[i] - 1) / -steps[i];
            out[static_cast<size_t>(axis)] = std::max<std::int64_t>(0, len);
        }
        return out;
    }
    if (op == "Reshape" && n.inputs.size() > 1 && n.inputs[1] >= 0) {
        auto targetValues = valueOf(g, constValues, n.inputs[1]);
        if (!targetValues || targetValues->empty()) return std::nullopt;
        Shape target = *targetValues;
        std::int64_t total = 1, knownPart = 1;
        for (auto d : *x) total *= d;
        int inferred = -1;
        for (size_t i = 0; i < target.size(); ++i) {
            if (target[i] == 0 && i < x->size()) target[i] = (*x)[i];
            if (target[i] == -1) inferred = static_cast<int>(i);
            else knownPart *= target[i];
        }
        if (inferred >= 0 && knownPart > 0) target[static_cast<size_t>(inferred)] = total / knownPart;
        return target;
    }
    return std::nullopt;
}

}  // namespace

int propagateShapes(Graph& graph) {
    int filled = 0;
    Values values;
    for (int id : graph.topologicalOrder()) {
        const Node& n = graph.node(id);
        if (n.outputs.empty() || n.outputs[0] < 0) continue;
        if (auto v = evaluate(graph, values, n); v && v->size() <= 16) values[n.outputs[0]] = *v;
        if (known(graph.tensor(n.outputs[0]))) continue;
        auto shape = inferOne(graph, values, n);
        if (!shape) {
            // Second opinion from the engine's registry, for ops the rules above skip.
            const auto& registry = OpRegistry::instance();
            const bool inputsKnown = std::all_of(n.inputs.begin(), n.inputs.end(),
                                                 [&](int t) { return t < 0 || known(graph.tensor(t)); });
            if (!inputsKnown || !registry.known(n.op) || n.opaque) continue;
            std::vector<ShapeInput> ins;
            for (int t : n.inputs)
                ins.push_back(t < 0 ? ShapeInput{{}, DType::unknown, std::nullopt}
                                    : ShapeInput{graph.tensor(t).shape, graph.tensor(t).dtype, std::nullopt});
            auto outs = registry.inferShapes(n, ins);
            if (!outs || outs->empty()) continue;
            shape = (*outs)[0].shape;
        }
        if (std::any_of(shape->begin(), shape->end(), [](auto d) { return d < 0; })) continue;
        Tensor& out = graph.tensor(n.outputs[0]);
        out.shape = *shape;
        out.symbolicDims.clear();
        if (out.dtype == DType::unknown && !n.inputs.empty() && n.inputs[0] >= 0 && n.op != "Cast")
            out.dtype = graph.tensor(n.inputs[0]).dtype;
        ++filled;
    }
    return filled;
}

}  // namespace npu::engine::onnx_detail
