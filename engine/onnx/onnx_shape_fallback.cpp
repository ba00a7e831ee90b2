#include "engine/onnx/onnx_shape_fallback.h"

#include "engine/ir/op_registry.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>

namespace npu::engine::onnx_detail {
namespace {

using Shape = std::vector<std::int64_t>;

bool known(const Tensor& t) {
    return !t.hasUnknownDims() && !(t.symbolicDims.size() == 1 && t.symbolicDims[0] == "?");
}

std::int64_t normAxis(std::int64_t axis, size_t rank) { return axis < 0 ? axis + static_cast<std::int64_t>(rank) : axis; }

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
    const OpKind op = n.kind;
    if (op == OpKind::Shape) {
        if (n.inputs.empty() || n.inputs[0] < 0 || !known(g.tensor(n.inputs[0]))) return std::nullopt;
        Shape s = g.tensor(n.inputs[0]).shape;
        const auto rank = static_cast<std::int64_t>(s.size());
        std::int64_t b = normAxis(n.attrInt("start", 0), s.size()), e = normAxis(n.attrInt("end", rank), s.size());
        b = std::clamp<std::int64_t>(b, 0, rank);
        e = std::clamp<std::int64_t>(e, b, rank);
        return Shape(s.begin() + b, s.begin() + e);
    }
    if (op == OpKind::Identity || op == OpKind::Cast || op == OpKind::Unsqueeze || op == OpKind::Squeeze || op == OpKind::Reshape || op == OpKind::Flatten)
        return in(0);
    if (op == OpKind::Concat) {
        Shape out;
        for (size_t i = 0; i < n.inputs.size(); ++i) {
            auto v = in(i);
            if (!v) return std::nullopt;
            out.insert(out.end(), v->begin(), v->end());
        }
        return out;
    }
    if (op == OpKind::Gather) {
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
    if (op == OpKind::Add || op == OpKind::Sub || op == OpKind::Mul || op == OpKind::Div) {
        auto a = in(0), b = in(1);
        if (!a || !b || a->empty() || b->empty() || (a->size() != b->size() && a->size() != 1 && b->size() != 1))
            return std::nullopt;
        Shape out(std::max(a->size(), b->size()));
        for (size_t i = 0; i < out.size(); ++i) {
            const std::int64_t x = (*a)[a->size() == 1 ? 0 : i], y = (*b)[b->size() == 1 ? 0 : i];
            if (op == OpKind::Div && y == 0) return std::nullopt;
            out[i] = op == OpKind::Add ? x + y : op == OpKind::Sub ? x - y : op == OpKind::Mul ? x * y : x / y;
        }
        return out;
    }
    return std::nullopt;
}

}  // namespace

int propagateShapes(Graph& graph) {
    const auto& registry = OpRegistry::instance();
    int filled = 0;
    Values values;
    for (int id : graph.topologicalOrder()) {
        const Node& n = graph.node(id);
        if (n.outputs.empty() || n.outputs[0] < 0) continue;
        if (auto v = evaluate(graph, values, n); v && v->size() <= 16) values[n.outputs[0]] = *v;
        const bool outputsKnown = std::all_of(n.outputs.begin(), n.outputs.end(),
                                              [&](int t) { return t < 0 || known(graph.tensor(t)); });
        if (outputsKnown || n.opaque || !registry.known(n.op)) continue;
        const bool inputsKnown = std::all_of(n.inputs.begin(), n.inputs.end(),
                                             [&](int t) { return t < 0 || known(graph.tensor(t)); });
        if (!inputsKnown) continue;
        // The op registry's shape rule, fed the small integer values computed above
        // (Reshape targets, Slice bounds, TopK's k, ...).
        std::vector<ShapeInput> ins;
        for (int t : n.inputs)
            ins.push_back(t < 0 ? ShapeInput{{}, DType::unknown, std::nullopt}
                                : ShapeInput{graph.tensor(t).shape, graph.tensor(t).dtype, valueOf(graph, values, t)});
        auto outs = registry.inferShapes(n, ins);
        if (!outs) continue;
        for (std::size_t i = 0; i < n.outputs.size() && i < outs->size(); ++i) {
            if (n.outputs[i] < 0 || known(graph.tensor(n.outputs[i]))) continue;
            const Shape& shape = (*outs)[i].shape;
            if (std::any_of(shape.begin(), shape.end(), [](auto d) { return d < 0; })) continue;
            Tensor& out = graph.tensor(n.outputs[i]);
            out.shape = shape;
            out.symbolicDims.clear();
            if (out.dtype == DType::unknown) out.dtype = (*outs)[i].dtype;
            ++filled;
        }
    }
    return filled;
}

}  // namespace npu::engine::onnx_detail
