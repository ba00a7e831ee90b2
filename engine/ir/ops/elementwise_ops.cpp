// Elementwise ops: unary (Relu, Gelu, Erf, ...), binary with numpy broadcasting (Add,
// Mul, Pow, Equal, ...), Where, Clip, Cast, Dropout, and the zoo's SiLU and Rotary.
// FLOPs per output element: 1 for arithmetic, a few for transcendentals (a convention:
// these ops are memory bound and their FLOPs never decide a duration).
#include "engine/ir/ops/op_families.h"
#include "engine/ir/ops/shape_util.h"

#include <utility>

namespace npu::engine::ops {
namespace {

Expected<std::vector<ShapeOutput>> sameAsFirst(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 1); !s) return s.error();
    return std::vector<ShapeOutput>{{in[0].shape, in[0].dtype}};
}

CostFn perElement(double flopsPerElement) {
    return [flopsPerElement](const Graph& g, const Node& n) {
        OpCost c = defaultCost(g, n);
        if (!n.outputs.empty()) c.flops = flopsPerElement * numel(g, outputAt(n, 0));
        return c;
    };
}

ShapeFn broadcastAll(std::optional<DType> outType) {
    return [outType](const Node& node, const std::vector<ShapeInput>& in) -> Expected<std::vector<ShapeOutput>> {
        if (auto s = needInputs(node, in, 1); !s) return s.error();
        Shape out = in[0].shape;
        for (std::size_t i = 1; i < in.size(); ++i) {
            if (in[i].dtype == DType::unknown && in[i].shape.empty()) continue;  // absent optional input
            auto b = broadcast(node, out, in[i].shape);
            if (!b) return b.error();
            out = *b;
        }
        // Where's data type is its second input's; the others follow the first input.
        const DType dt = outType ? *outType : (node.kind == OpKind::Where && in.size() > 1 ? in[1].dtype : in[0].dtype);
        return std::vector<ShapeOutput>{{out, dt}};
    };
}

Expected<std::vector<ShapeOutput>> castShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 1); !s) return s.error();
    DType to = DType::unknown;
    if (auto name = node.attrString("to"); !name.empty()) to = parseDType(name).value_or(DType::unknown);
    else to = dtypeFromOnnx(node.attrInt("to", 0));
    if (to == DType::unknown) return shapeError(node, "Cast needs a known 'to' type");
    return std::vector<ShapeOutput>{{in[0].shape, to}};
}

// CastLike(x, like): x's shape in like's element type.
Expected<std::vector<ShapeOutput>> castLikeShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 2); !s) return s.error();
    return std::vector<ShapeOutput>{{in[0].shape, in[1].dtype}};
}

ShapeFn sameShapeAs(DType dtype) {
    return [dtype](const Node& node, const std::vector<ShapeInput>& in) -> Expected<std::vector<ShapeOutput>> {
        if (auto s = needInputs(node, in, 1); !s) return s.error();
        return std::vector<ShapeOutput>{{in[0].shape, dtype}};
    };
}

// QuantizeLinear(x, scale, zero_point): the zero point's type (uint8 without one).
Expected<std::vector<ShapeOutput>> quantizeShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 1); !s) return s.error();
    const bool zeroPoint = in.size() > 2 && in[2].dtype != DType::unknown;
    return std::vector<ShapeOutput>{{in[0].shape, zeroPoint ? in[2].dtype : DType::u8}};
}

// DynamicQuantizeLinear(x) -> y (uint8), scale (float scalar), zero point (uint8 scalar).
Expected<std::vector<ShapeOutput>> dynamicQuantizeShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 1); !s) return s.error();
    return std::vector<ShapeOutput>{{in[0].shape, DType::u8}, {{}, DType::f32}, {{}, DType::u8}};
}

// GridSample(X [N,C,H,W], grid [N,Ho,Wo,2]) -> [N,C,Ho,Wo].
Expected<std::vector<ShapeOutput>> gridSampleShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 2); !s) return s.error();
    const Shape& x = in[0].shape;
    const Shape& grid = in[1].shape;
    if (x.size() < 3 || grid.size() != x.size()) return shapeError(node, "GridSample expects X[N,C,...] and grid[N,...,rank], got " + shapeText(x) + " and " + shapeText(grid));
    Shape out{x[0], x[1]};
    out.insert(out.end(), grid.begin() + 1, grid.end() - 1);
    return std::vector<ShapeOutput>{{out, in[0].dtype}};
}

Expected<std::vector<ShapeOutput>> dropoutShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 1); !s) return s.error();
    return std::vector<ShapeOutput>{{in[0].shape, in[0].dtype}, {in[0].shape, DType::boolean}};
}

}  // namespace

void registerElementwiseOps(OpRegistry& r) {
    const std::pair<OpKind, double> unary[] = {
        {OpKind::Relu, 1}, {OpKind::LeakyRelu, 2}, {OpKind::Neg, 1}, {OpKind::Abs, 1}, {OpKind::Reciprocal, 1}, {OpKind::Sqrt, 4}, {OpKind::Rsqrt, 4},
        {OpKind::Exp, 4}, {OpKind::Log, 4}, {OpKind::Erf, 8}, {OpKind::Tanh, 8}, {OpKind::Sigmoid, 4}, {OpKind::HardSigmoid, 3},
        {OpKind::HardSwish, 4}, {OpKind::Gelu, 8}, {OpKind::SiLU, 5}, {OpKind::Floor, 1}, {OpKind::Ceil, 1}, {OpKind::Sign, 1},
        {OpKind::Not, 1}, {OpKind::Softplus, 4}, {OpKind::Elu, 4}, {OpKind::Selu, 4}, {OpKind::PRelu, 2}, {OpKind::Sin, 4}, {OpKind::Cos, 4},
        // the other transcendentals count like Sin and Exp
        {OpKind::Tan, 4}, {OpKind::Asin, 4}, {OpKind::Acos, 4}, {OpKind::Atan, 4}, {OpKind::Sinh, 4}, {OpKind::Cosh, 4}, {OpKind::Asinh, 4},
        {OpKind::Acosh, 4}, {OpKind::Atanh, 4},
        // compound activations count their arithmetic: celu/softsign/shrink as written in
        // the ONNX spec, mish = x * tanh(softplus(x))
        {OpKind::Round, 1}, {OpKind::Celu, 4}, {OpKind::ThresholdedRelu, 1}, {OpKind::Softsign, 3}, {OpKind::Mish, 5}, {OpKind::Shrink, 2},
        {OpKind::Hardmax, 1},
    };
    for (const auto& [name, f] : unary) r.add(name, {OpCategory::elementwise, false, sameAsFirst, perElement(f)});
    r.add(OpKind::Clip, {OpCategory::elementwise, false, sameAsFirst, perElement(2)});
    r.add(OpKind::IsNaN, {OpCategory::elementwise, false, sameShapeAs(DType::boolean), perElement(1)});
    r.add(OpKind::IsInf, {OpCategory::elementwise, false, sameShapeAs(DType::boolean), perElement(1)});
    // quantisation: scale, round, shift, clamp per element (dynamic: + min/max to find them)
    r.add(OpKind::QuantizeLinear, {OpCategory::elementwise, false, quantizeShape, perElement(3)});
    r.add(OpKind::DequantizeLinear, {OpCategory::elementwise, false, sameShapeAs(DType::f32), perElement(2)});
    r.add(OpKind::DynamicQuantizeLinear, {OpCategory::elementwise, false, dynamicQuantizeShape, perElement(5)});
    // bilinear sampling: 4 taps, 2 multiply-adds each per output element
    r.add(OpKind::GridSample, {OpCategory::data_movement, false, gridSampleShape, perElement(8)});
    // q/k rotary position embedding: x * cos + rotate_half(x) * sin.
    r.add(OpKind::Rotary, {OpCategory::elementwise, false, sameAsFirst, perElement(3)});
    r.add(OpKind::RotaryGrad, {OpCategory::elementwise, false, sameAsFirst, perElement(3)});

    const std::pair<OpKind, double> binary[] = {
        {OpKind::Add, 1}, {OpKind::Sub, 1}, {OpKind::Mul, 1}, {OpKind::Div, 1}, {OpKind::Pow, 4}, {OpKind::Max, 1}, {OpKind::Min, 1},
        {OpKind::Mod, 1}, {OpKind::Sum, 1}, {OpKind::Mean, 1}, {OpKind::BitShift, 1},
    };
    for (const auto& [name, f] : binary) r.add(name, {OpCategory::elementwise, false, broadcastAll(std::nullopt), perElement(f)});
    for (OpKind cmp : {OpKind::Equal, OpKind::Less, OpKind::Greater, OpKind::LessOrEqual, OpKind::GreaterOrEqual, OpKind::And, OpKind::Or, OpKind::Xor})
        r.add(cmp, {OpCategory::elementwise, false, broadcastAll(DType::boolean), perElement(1)});
    r.add(OpKind::Where, {OpCategory::elementwise, false, broadcastAll(std::nullopt), perElement(1)});
    r.add(OpKind::Cast, {OpCategory::elementwise, false, castShape, perElement(0)});
    r.add(OpKind::CastLike, {OpCategory::elementwise, false, castLikeShape, perElement(0)});
    r.add(OpKind::Dropout, {OpCategory::elementwise, false, dropoutShape, perElement(2)});
    // dX = dY * mask / (1 - p): reads dY and the 1-byte mask, writes dX.
    r.add(OpKind::DropoutGrad, {OpCategory::elementwise, false, {}, perElement(2)});
}

}  // namespace npu::engine::ops
