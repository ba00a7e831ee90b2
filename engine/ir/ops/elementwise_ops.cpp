// Elementwise ops: unary (Relu, Gelu, Erf, ...), binary with numpy broadcasting (Add,
// Mul, Pow, Equal, ...), Where, Clip, Cast, Dropout, and the zoo's SiLU and Rotary.
// FLOPs per output element: 1 for arithmetic, a few for transcendentals (a convention:
// these ops are memory bound and their FLOPs never decide a duration).
#include "engine/ir/ops/op_families.h"
#include "engine/ir/ops/shape_util.h"

#include <algorithm>
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

// Add/Sub/Mul/Div values, integer arithmetic with a size-1 side broadcast.
std::optional<Shape> arithmeticValues(const Node& node, const std::vector<ShapeInput>& in) {
    if (in.size() < 2 || !in[0].values || !in[1].values) return std::nullopt;
    const Shape& a = *in[0].values;
    const Shape& b = *in[1].values;
    if (a.empty() || b.empty() || (a.size() != b.size() && a.size() != 1 && b.size() != 1)) return std::nullopt;
    Shape out(std::max(a.size(), b.size()));
    for (std::size_t i = 0; i < out.size(); ++i) {
        const std::int64_t x = a[a.size() == 1 ? 0 : i], y = b[b.size() == 1 ? 0 : i];
        switch (node.kind) {
        case OpKind::Add: out[i] = x + y; break;
        case OpKind::Sub: out[i] = x - y; break;
        case OpKind::Mul: out[i] = x * y; break;
        case OpKind::Div:
            if (y == 0) return std::nullopt;
            out[i] = x / y;
            break;
        default: return std::nullopt;
        }
    }
    return out;
}

// An elementwise op of the unary and binary tables.
struct Elementwise {
    OpKind kind;
    double flops;  // per output element
    BackwardRule backward = nullptr;
    ValueFn values{};
};

// Backward rules (OpTraits::backward).

// Add/Sub: the gradient flows through unchanged; a broadcast input gets a reduction and
// a lower-precision input a cast (autograd casts grads back to the input's dtype).
void addBackward(BackwardContext& c) {
    const Node f = c.fwd();
    const int dy = c.firstGrad();
    for (std::size_t i = 0; i < f.inputs.size(); ++i) {
        if (!c.need(i)) continue;
        // Copies: newGrad() grows the tensor array.
        const Tensor in = c.graph.tensor(f.inputs[i]);
        const Tensor g = c.graph.tensor(dy);
        if (in.shape != g.shape && in.numel() != g.numel()) {
            c.dIn[i] = c.newGrad(f.inputs[i]);
            c.add(OpKind::ReduceSum, ".grad_reduce" + std::to_string(i), {dy}, {c.dIn[i]});
        } else if (in.dtype != g.dtype) {
            c.dIn[i] = c.newGrad(f.inputs[i]);
            c.add(OpKind::Cast, ".grad_cast" + std::to_string(i), {dy}, {c.dIn[i]}, {{"to", std::string(dtypeName(in.dtype))}});
        } else {
            c.dIn[i] = dy;
        }
    }
}

// Mul: dA = dY * B, as autograd's MulBackward0 computes it: the product has dY's shape and
// the promoted dtype of dY and B; a broadcast input then gets sum_to_size (a ReduceSum
// kernel) and an input of another dtype the engine's cast to it (a Cast kernel).
void mulBackward(BackwardContext& c) {
    const Node f = c.fwd();
    const int dy = c.firstGrad();
    for (std::size_t i = 0; i < 2 && i < f.inputs.size(); ++i) {
        if (!c.need(i)) continue;
        // Copies: newGrad() and addTensor() grow the tensor array.
        const Tensor in = c.graph.tensor(f.inputs[i]);
        const Tensor other = c.graph.tensor(f.inputs[1 - i]);
        const Tensor g = c.graph.tensor(dy);
        const DType product = isFloating(other.dtype) && dtypeBytes(other.dtype) > dtypeBytes(g.dtype) ? other.dtype : g.dtype;
        const bool broadcast = in.numel() < g.numel();
        c.dIn[i] = c.newGrad(f.inputs[i]);
        const std::string suffix = ".grad_" + std::to_string(i);
        if (!broadcast && product == in.dtype) {
            c.add(OpKind::Mul, suffix, {dy, f.inputs[1 - i]}, {c.dIn[i]});
            continue;
        }
        const int full = c.graph.addTensor(in.name + suffix + "_product", g.shape, product, TensorRole::gradient);
        c.add(OpKind::Mul, suffix, {dy, f.inputs[1 - i]}, {full});
        if (broadcast) c.add(OpKind::ReduceSum, suffix + "_reduce", {full}, {c.dIn[i]});
        else c.add(OpKind::Cast, suffix + "_cast", {full}, {c.dIn[i]}, {{"to", std::string(dtypeName(in.dtype))}});
    }
}

// Neg: dX = -dY; it saves nothing.
void negBackward(BackwardContext& c) {
    const Node f = c.fwd();
    if (!c.need(0)) return;
    c.dIn[0] = c.newGrad(f.inputs[0]);
    c.add(OpKind::Neg, ".grad", {c.firstGrad()}, {c.dIn[0]});
}

// Rsqrt saves its output: dX = dY * -0.5 * y^3.
void rsqrtBackward(BackwardContext& c) {
    const Node f = c.fwd();
    if (!c.need(0)) return;
    c.dIn[0] = c.newGrad(f.inputs[0]);
    c.addGrad(".grad", {f.outputs[0], c.firstGrad()}, {c.dIn[0]});
}

void castBackward(BackwardContext& c) {
    const Node f = c.fwd();
    if (!c.need(0)) return;
    const int dy = c.firstGrad();
    const DType inType = c.graph.tensor(f.inputs[0]).dtype;
    if (inType == c.graph.tensor(dy).dtype) {
        c.dIn[0] = dy;
        return;
    }
    c.dIn[0] = c.newGrad(f.inputs[0]);
    c.add(OpKind::Cast, ".grad", {dy}, {c.dIn[0]}, {{"to", std::string(dtypeName(inType))}});
}

// Dropout saves its mask, not its input (native_dropout_backward: dX = dY * mask / (1-p)),
// as PyTorch and Megatron do: 1 byte per element (the mask output is bool).
void dropoutBackward(BackwardContext& c) {
    const Node f = c.fwd();
    if (!c.need(0)) return;
    c.dIn[0] = c.newGrad(f.inputs[0]);
    std::vector<int> ins{c.firstGrad()};
    if (f.outputs.size() > 1 && f.outputs[1] >= 0) ins.insert(ins.begin(), f.outputs[1]);
    c.add(OpKind::DropoutGrad, ".grad", ins, {c.dIn[0]}, f.attrs);
}

// Where(cond, a, b): dA = where(cond, dY, 0), dB = where(cond, 0, dY) (WhereBackward);
// autograd saves only the condition, never the selected values.
void whereBackward(BackwardContext& c) {
    const Node f = c.fwd();
    for (std::size_t i = 1; i < 3 && i < f.inputs.size(); ++i) {
        if (!c.need(i)) continue;
        c.dIn[i] = c.newGrad(f.inputs[i]);
        c.add(OpKind::Where, ".grad_" + std::to_string(i), {f.inputs[0], c.firstGrad()}, {c.dIn[i]});
    }
}

// Rotary: x*cos + rotate_half(x)*sin is linear in x; backward needs only dY (and the
// cos/sin tables), so it saves no activation.
void rotaryBackward(BackwardContext& c) {
    const Node f = c.fwd();
    if (!c.need(0)) return;
    c.dIn[0] = c.newGrad(f.inputs[0]);
    c.add(OpKind::RotaryGrad, ".grad", {c.firstGrad()}, {c.dIn[0]}, f.attrs);
}

}  // namespace

void registerElementwiseOps(OpRegistry& r) {
    const Elementwise unary[] = {
        {OpKind::Relu, 1}, {OpKind::LeakyRelu, 2}, {OpKind::Neg, 1, negBackward}, {OpKind::Abs, 1},
        {OpKind::Reciprocal, 1}, {OpKind::Sqrt, 4}, {OpKind::Rsqrt, 4, rsqrtBackward}, {OpKind::Exp, 4},
        {OpKind::Log, 4}, {OpKind::Erf, 8}, {OpKind::Tanh, 8}, {OpKind::Sigmoid, 4}, {OpKind::HardSigmoid, 3},
        {OpKind::HardSwish, 4}, {OpKind::Gelu, 8}, {OpKind::SiLU, 5}, {OpKind::Floor, 1}, {OpKind::Ceil, 1},
        {OpKind::Sign, 1}, {OpKind::Not, 1}, {OpKind::Softplus, 4}, {OpKind::Elu, 4}, {OpKind::Selu, 4},
        {OpKind::PRelu, 2}, {OpKind::Sin, 4}, {OpKind::Cos, 4},
        // the other transcendentals count like Sin and Exp
        {OpKind::Tan, 4}, {OpKind::Asin, 4}, {OpKind::Acos, 4}, {OpKind::Atan, 4}, {OpKind::Sinh, 4},
        {OpKind::Cosh, 4}, {OpKind::Asinh, 4}, {OpKind::Acosh, 4}, {OpKind::Atanh, 4},
        // compound activations count their arithmetic: celu/softsign/shrink as written in
        // the ONNX spec, mish = x * tanh(softplus(x))
        {OpKind::Round, 1}, {OpKind::Celu, 4}, {OpKind::ThresholdedRelu, 1}, {OpKind::Softsign, 3},
        {OpKind::Mish, 5}, {OpKind::Shrink, 2}, {OpKind::Hardmax, 1},
    };
    for (const auto& op : unary)
        r.add(op.kind, {OpCategory::elementwise, false, sameAsFirst, perElement(op.flops), op.backward});
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
    r.add(OpKind::Rotary, {OpCategory::elementwise, false, sameAsFirst, perElement(3), rotaryBackward});
    r.add(OpKind::RotaryGrad, {OpCategory::elementwise, false, sameAsFirst, perElement(3)});

    const Elementwise binary[] = {
        {OpKind::Add, 1, addBackward, arithmeticValues}, {OpKind::Sub, 1, addBackward, arithmeticValues},
        {OpKind::Mul, 1, mulBackward, arithmeticValues}, {OpKind::Div, 1, nullptr, arithmeticValues}, {OpKind::Pow, 4}, {OpKind::Max, 1}, {OpKind::Min, 1}, {OpKind::Mod, 1},
        {OpKind::Sum, 1, addBackward}, {OpKind::Mean, 1}, {OpKind::BitShift, 1},
    };
    for (const auto& op : binary)
        r.add(op.kind, {.category = OpCategory::elementwise, .inferShapes = broadcastAll(std::nullopt),
                        .cost = perElement(op.flops), .backward = op.backward, .inferValues = op.values});
    for (OpKind cmp : {OpKind::Equal, OpKind::Less, OpKind::Greater, OpKind::LessOrEqual, OpKind::GreaterOrEqual,
                       OpKind::And, OpKind::Or, OpKind::Xor})
        r.add(cmp, {OpCategory::elementwise, false, broadcastAll(DType::boolean), perElement(1)});
    r.add(OpKind::Where, {OpCategory::elementwise, false, broadcastAll(std::nullopt), perElement(1), whereBackward});
    r.add(OpKind::Cast, {.category = OpCategory::elementwise, .inferShapes = castShape, .cost = perElement(0),
                         .backward = castBackward, .inferValues = sameValues});
    r.add(OpKind::CastLike, {OpCategory::elementwise, false, castLikeShape, perElement(0), castBackward});
    r.add(OpKind::Dropout, {OpCategory::elementwise, false, dropoutShape, perElement(2), dropoutBackward});
    // dX = dY * mask / (1 - p): reads dY and the 1-byte mask, writes dX.
    r.add(OpKind::DropoutGrad, {OpCategory::elementwise, false, {}, perElement(2)});
}

}  // namespace npu::engine::ops
