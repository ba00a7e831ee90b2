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

}  // namespace

int propagateShapes(Graph& graph) {
    const auto& registry = OpRegistry::instance();
    int filled = 0;
    Values values;
    for (int id : graph.topologicalOrder()) {
        const Node& n = graph.node(id);
        if (n.outputs.empty() || n.outputs[0] < 0) continue;
        // What the registry's rules see of each input: its shape while known (all -1
        // otherwise, so Shape yields no values) and the values computed so far (Reshape
        // targets, Slice bounds, TopK's k, ...).
        std::vector<ShapeInput> ins;
        for (int t : n.inputs)
            ins.push_back(t < 0 ? ShapeInput{{}, DType::unknown, std::nullopt}
                                : ShapeInput{known(graph.tensor(t)) ? graph.tensor(t).shape : Shape{kUnknownDim},
                                             graph.tensor(t).dtype, valueOf(graph, values, t)});
        if (auto v = registry.inferValues(n, ins); v && v->size() <= 16) values[n.outputs[0]] = *v;
        const bool outputsKnown = std::all_of(n.outputs.begin(), n.outputs.end(),
                                              [&](int t) { return t < 0 || known(graph.tensor(t)); });
        if (outputsKnown || n.opaque || !registry.known(n.op)) continue;
        const bool inputsKnown = std::all_of(n.inputs.begin(), n.inputs.end(),
                                             [&](int t) { return t < 0 || known(graph.tensor(t)); });
        if (!inputsKnown) continue;
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
