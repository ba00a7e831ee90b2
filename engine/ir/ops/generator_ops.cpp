// Ops that make a tensor from shapes and values rather than moving one: Shape, Size and
// Constant (views: no run-time cost), ConstantOfShape, Range, EyeLike, OneHot, NonZero.
// Their outputs are small or data dependent; they cost their bytes only.
#include "engine/ir/ops/op_families.h"
#include "engine/ir/ops/shape_util.h"

#include <algorithm>
#include <cmath>

namespace npu::engine::ops {
namespace {

using Outs = Expected<std::vector<ShapeOutput>>;

Outs shapeOfShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 1); !s) return s.error();
    const auto rank = static_cast<std::int64_t>(in[0].shape.size());
    std::int64_t start = node.attrInt("start", 0), end = node.attrInt("end", rank);
    if (start < 0) start += rank;
    if (end < 0) end += rank;
    start = std::clamp<std::int64_t>(start, 0, rank);
    end = std::clamp<std::int64_t>(end, 0, rank);
    return singleOutput({std::max<std::int64_t>(0, end - start)}, DType::i64);
}

// Shape's values: its input's dims [start, end), once every dim is known.
std::optional<Shape> shapeValues(const Node& node, const std::vector<ShapeInput>& in) {
    if (in.empty() || (in[0].dtype == DType::unknown && in[0].shape.empty())) return std::nullopt;  // absent
    const Shape& s = in[0].shape;
    if (std::any_of(s.begin(), s.end(), [](std::int64_t d) { return d < 0; })) return std::nullopt;
    const auto rank = static_cast<std::int64_t>(s.size());
    std::int64_t start = node.attrInt("start", 0), end = node.attrInt("end", rank);
    if (start < 0) start += rank;
    if (end < 0) end += rank;
    start = std::clamp<std::int64_t>(start, 0, rank);
    end = std::clamp<std::int64_t>(end, start, rank);
    return Shape(s.begin() + start, s.begin() + end);
}

DType attrDType(const Node& node, DType fallback) {
    const auto name = node.attrString("dtype");
    return name.empty() ? fallback : parseDType(name).value_or(fallback);
}

Outs constantOfShapeShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 1); !s) return s.error();
    if (in[0].values) return singleOutput(*in[0].values, attrDType(node, DType::f32));
    const std::int64_t rank = in[0].shape.size() == 1 ? in[0].shape[0] : -1;
    if (rank < 0) return shapeError(node, "ConstantOfShape input shape is not constant");
    return singleOutput(Shape(static_cast<std::size_t>(rank), kUnknownDim), attrDType(node, DType::f32));
}

Outs constantShape(const Node& node, const std::vector<ShapeInput>&) {
    return singleOutput(node.attrInts("shape"), attrDType(node, DType::f32));
}

Outs rangeShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 3); !s) return s.error();
    const DType dt = in[0].dtype;
    if (!in[0].values || !in[1].values || !in[2].values || in[0].values->empty() || in[1].values->empty() || in[2].values->empty())
        return singleOutput({kUnknownDim}, dt);
    const double start = static_cast<double>((*in[0].values)[0]), limit = static_cast<double>((*in[1].values)[0]);
    const double delta = static_cast<double>((*in[2].values)[0]);
    if (delta == 0) return shapeError(node, "Range delta is zero");
    return singleOutput({std::max<std::int64_t>(0, static_cast<std::int64_t>(std::ceil((limit - start) / delta)))}, dt);
}

Outs sizeShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 1); !s) return s.error();
    return singleOutput({}, DType::i64);
}

Outs eyeLikeShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 1); !s) return s.error();
    const DType dt = node.attrs.count("dtype") ? dtypeFromOnnx(node.attrInt("dtype", 1)) : in[0].dtype;
    return singleOutput(in[0].shape, dt == DType::unknown ? in[0].dtype : dt);
}

// OneHot(indices, depth, values): depth inserted at `axis` (default last).
Outs oneHotShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 3); !s) return s.error();
    Shape out = in[0].shape;
    auto axis = normaliseAxis(node, node.attrInt("axis", -1), out.size() + 1);
    if (!axis) return axis.error();
    const std::int64_t depth = in[1].values && in[1].values->size() == 1 ? (*in[1].values)[0] : kUnknownDim;
    out.insert(out.begin() + *axis, depth);
    return singleOutput(out, in[2].dtype);
}

// NonZero: [rank, count], the count known only at run time.
Outs nonZeroShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 1); !s) return s.error();
    return singleOutput({static_cast<std::int64_t>(in[0].shape.size()), kUnknownDim}, DType::i64);
}

}  // namespace

void registerGeneratorOps(OpRegistry& r) {
    const auto view = OpCategory::data_movement;
    r.add(OpKind::Shape, {.category = view, .shapeOnly = true, .inferShapes = shapeOfShape, .inferValues = shapeValues});
    r.add(OpKind::Size, {view, true, sizeShape, {}});
    r.add(OpKind::Constant, {view, true, constantShape, {}});
    r.add(OpKind::ConstantOfShape, {view, false, constantOfShapeShape, {}});
    r.add(OpKind::Range, {view, false, rangeShape, {}});
    r.add(OpKind::EyeLike, {view, false, eyeLikeShape, {}});
    r.add(OpKind::OneHot, {view, false, oneHotShape, {}});
    r.add(OpKind::NonZero, {view, false, nonZeroShape, {}});
}

}  // namespace npu::engine::ops
