// Gathers: Gather, GatherElements, GatherND and the zoo's Embedding (a gather of token
// embedding rows). They read only the selected rows, not the whole table; Embedding's
// and Gather's backward scatters dY back into a dense table gradient (EmbeddingGrad).
#include "engine/ir/ops/op_families.h"
#include "engine/ir/ops/shape_util.h"

namespace npu::engine::ops {
namespace {

using Outs = Expected<std::vector<ShapeOutput>>;

Outs gatherShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 2); !s) return s.error();
    const Shape& data = in[0].shape;
    auto axis = normaliseAxis(node, node.attrInt("axis", 0), data.size());
    if (!axis) return axis.error();
    Shape out(data.begin(), data.begin() + *axis);
    out.insert(out.end(), in[1].shape.begin(), in[1].shape.end());
    out.insert(out.end(), data.begin() + *axis + 1, data.end());
    return singleOutput(out, in[0].dtype);
}

// Embedding(ids[...], W[V, h]) -> [..., h] (the zoo's gather of token embeddings).
Outs embeddingShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 2); !s) return s.error();
    if (in[1].shape.size() != 2) return shapeError(node, "Embedding weight must be [vocab, hidden], got " + shapeText(in[1].shape));
    Shape out = in[0].shape;
    out.push_back(in[1].shape[1]);
    return singleOutput(out, in[1].dtype);
}

// Gathers read only the selected rows, not the whole table.
OpCost gatherCost(const Graph& g, const Node& n) {
    OpCost c;
    c.bytesWritten = tensorBytes(g, outputAt(n, 0));
    c.bytesRead = c.bytesWritten + tensorBytes(g, inputAt(n, n.kind == OpKind::Embedding ? 0 : 1));
    return c;
}

// Dense embedding backward: zero-fill the [vocab, hidden] gradient, then accumulate dY's
// rows into it (read dY, read-modify-write the touched rows), plus the indices.
OpCost embeddingGradCost(const Graph& g, const Node& n) {
    OpCost c;
    const double dy = n.inputs.size() > 1 ? tensorBytes(g, inputAt(n, 1)) : 0;
    c.bytesRead = tensorBytes(g, inputAt(n, 0)) + 2 * dy;
    c.bytesWritten = (n.outputs.empty() ? 0 : tensorBytes(g, outputAt(n, 0))) + dy;
    c.flops = dy > 0 && n.inputs.size() > 1 ? numel(g, inputAt(n, 1)) : 0;
    return c;
}

// GatherElements: the indices' shape.
Outs gatherElementsShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 2); !s) return s.error();
    return singleOutput(in[1].shape, in[0].dtype);
}

// GatherND(data, indices[..., k], batch_dims b) -> indices[:-1] + data[b + k:].
Outs gatherNDShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 2); !s) return s.error();
    const Shape& data = in[0].shape;
    const Shape& idx = in[1].shape;
    const std::int64_t b = node.attrInt("batch_dims", 0);
    if (idx.empty() || idx.back() < 0) return singleOutput(Shape(1, kUnknownDim), in[0].dtype);
    const std::int64_t from = b + idx.back();
    if (b < 0 || from > static_cast<std::int64_t>(data.size())) return shapeError(node, "GatherND indices " + shapeText(idx) + " do not fit data " + shapeText(data));
    Shape out(idx.begin(), idx.end() - 1);
    out.insert(out.end(), data.begin() + from, data.end());
    return singleOutput(out, in[0].dtype);
}

// Gather's values along axis 0: the selected entries of its data's values.
std::optional<Shape> gatherValues(const Node& node, const std::vector<ShapeInput>& in) {
    if (in.size() < 2 || !in[0].values || !in[1].values || node.attrInt("axis", 0) != 0) return std::nullopt;
    const Shape& data = *in[0].values;
    const auto size = static_cast<std::int64_t>(data.size());
    Shape out;
    for (std::int64_t i : *in[1].values) {
        const std::int64_t k = i < 0 ? i + size : i;
        if (k < 0 || k >= size) return std::nullopt;
        out.push_back(data[static_cast<std::size_t>(k)]);
    }
    return out;
}

// Backward rules (OpTraits::backward).

void embeddingBackward(BackwardContext& c) {
    const Node f = c.fwd();
    const std::size_t table = f.kind == OpKind::Embedding ? 1 : 0;
    const std::size_t index = f.kind == OpKind::Embedding ? 0 : 1;
    if (!c.need(table)) return;
    c.dIn[table] = c.newGrad(f.inputs[table]);
    c.addGrad(".grad", {f.inputs[index], c.firstGrad()}, {c.dIn[table]}, f.attrs);
}

}  // namespace

void registerGatherOps(OpRegistry& r) {
    const auto view = OpCategory::data_movement;
    r.add(OpKind::Gather, {.category = view, .inferShapes = gatherShape, .cost = gatherCost, .backward = embeddingBackward,
                           .inferValues = gatherValues});
    r.add(OpKind::Embedding, {view, false, embeddingShape, gatherCost, embeddingBackward});
    r.add(OpKind::EmbeddingGrad, {view, false, {}, embeddingGradCost});
    r.add(OpKind::GatherElements, {view, false, gatherElementsShape, gatherCost});
    r.add(OpKind::GatherND, {view, false, gatherNDShape, gatherCost});
}

}  // namespace npu::engine::ops
