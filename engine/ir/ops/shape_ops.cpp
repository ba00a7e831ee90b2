// Data movement and shape ops. Views (Reshape, Flatten, Squeeze, Unsqueeze, Identity)
// are shape-only and cost nothing at run time; the others move
// bytes (Transpose, Concat, Split, Slice, Expand, Pad, Tile, Resize); gathers are
// gather_ops.cpp.
// Where ONNX moved an attribute to an input across opsets, both forms are accepted; a
// non-constant shape input leaves the affected dims unknown (-1).
#include "engine/ir/ops/op_families.h"
#include "engine/ir/ops/shape_util.h"

#include <algorithm>
#include <cmath>

namespace npu::engine::ops {
namespace {

using Outs = Expected<std::vector<ShapeOutput>>;

Outs reshapeShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 1); !s) return s.error();
    const auto target = intsFromAttrOrInput(node, "shape", in, 1);
    if (!target) {
        const std::int64_t rank = in.size() > 1 && in[1].shape.size() == 1 ? in[1].shape[0] : -1;
        if (rank < 0) return shapeError(node, "Reshape target shape is not constant and its rank is unknown");
        return singleOutput(Shape(static_cast<std::size_t>(rank), kUnknownDim), in[0].dtype);
    }
    const Shape& x = in[0].shape;
    Shape out = *target;
    const bool allowZero = node.attrInt("allowzero", 0) != 0;
    int inferAt = -1;
    std::int64_t known = 1;
    for (std::size_t i = 0; i < out.size(); ++i) {
        if (out[i] == 0 && !allowZero) out[i] = i < x.size() ? x[i] : kUnknownDim;
        if (out[i] == -1) {
            if (inferAt >= 0) return shapeError(node, "Reshape target " + shapeText(*target) + " has more than one -1");
            inferAt = static_cast<int>(i);
        } else if (out[i] < 0) {
            known = -1;
        } else if (known >= 0 && __builtin_mul_overflow(known, out[i], &known)) {
            return shapeError(node, "Reshape target " + shapeText(*target) + " has more elements than fit in 64 bits");
        }
    }
    if (inferAt >= 0) {
        const std::int64_t total = product(x);
        out[static_cast<std::size_t>(inferAt)] = (total >= 0 && known > 0) ? total / known : kUnknownDim;
    } else if (product(x) >= 0 && known >= 0 && product(x) != known) {
        return shapeError(node, "cannot reshape " + shapeText(x) + " to " + shapeText(*target));
    }
    return singleOutput(out, in[0].dtype);
}

Outs flattenShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 1); !s) return s.error();
    const Shape& x = in[0].shape;
    auto axis = normaliseAxis(node, node.attrInt("axis", 1), x.size() + 1);
    if (!axis) return axis.error();
    const auto split = x.begin() + *axis;
    return singleOutput({product(Shape(x.begin(), split)), product(Shape(split, x.end()))}, in[0].dtype);
}

Outs transposeShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 1); !s) return s.error();
    const Shape& x = in[0].shape;
    Shape perm = node.attrInts("perm");
    if (perm.empty())
        for (std::size_t i = 0; i < x.size(); ++i) perm.push_back(static_cast<std::int64_t>(x.size() - 1 - i));
    if (perm.size() != x.size()) return shapeError(node, "perm " + shapeText(perm) + " does not match rank of " + shapeText(x));
    Shape out;
    for (auto p : perm) {
        auto ax = normaliseAxis(node, p, x.size());
        if (!ax) return ax.error();
        out.push_back(x[static_cast<std::size_t>(*ax)]);
    }
    return singleOutput(out, in[0].dtype);
}

Outs squeezeShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 1); !s) return s.error();
    const Shape& x = in[0].shape;
    const auto axes = intsFromAttrOrInput(node, "axes", in, 1);
    std::vector<bool> drop(x.size(), false);
    if (axes) {
        for (auto a : *axes) {
            auto ax = normaliseAxis(node, a, x.size());
            if (!ax) return ax.error();
            drop[static_cast<std::size_t>(*ax)] = true;
        }
    } else {
        for (std::size_t i = 0; i < x.size(); ++i) drop[i] = x[i] == 1;
    }
    Shape out;
    for (std::size_t i = 0; i < x.size(); ++i)
        if (!drop[i]) out.push_back(x[i]);
    return singleOutput(out, in[0].dtype);
}

Outs unsqueezeShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 1); !s) return s.error();
    const auto axes = intsFromAttrOrInput(node, "axes", in, 1);
    if (!axes) return shapeError(node, "Unsqueeze axes are not constant");
    const std::size_t rank = in[0].shape.size() + axes->size();
    std::vector<bool> inserted(rank, false);
    for (auto a : *axes) {
        auto ax = normaliseAxis(node, a, rank);
        if (!ax) return ax.error();
        inserted[static_cast<std::size_t>(*ax)] = true;
    }
    Shape out;
    std::size_t j = 0;
    for (std::size_t i = 0; i < rank; ++i) out.push_back(inserted[i] ? 1 : (j < in[0].shape.size() ? in[0].shape[j++] : 1));
    return singleOutput(out, in[0].dtype);
}

Outs concatShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 1); !s) return s.error();
    Shape out = in[0].shape;
    auto axis = normaliseAxis(node, node.attrInt("axis", 0), out.size());
    if (!axis) return axis.error();
    const auto a = static_cast<std::size_t>(*axis);
    for (std::size_t i = 1; i < in.size(); ++i) {
        if (in[i].shape.size() != out.size()) return shapeError(node, "Concat inputs differ in rank: " + shapeText(out) + " and " + shapeText(in[i].shape));
        out[a] = (out[a] < 0 || in[i].shape[a] < 0) ? kUnknownDim : out[a] + in[i].shape[a];
    }
    return singleOutput(out, in[0].dtype);
}

Outs splitShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 1); !s) return s.error();
    const Shape& x = in[0].shape;
    auto axis = normaliseAxis(node, node.attrInt("axis", 0), x.size());
    if (!axis) return axis.error();
    const auto a = static_cast<std::size_t>(*axis);
    std::vector<std::int64_t> parts;
    if (auto split = intsFromAttrOrInput(node, "split", in, 1)) {
        parts = *split;
    } else {
        const std::int64_t n = std::max<std::int64_t>(1, node.attrInt("num_outputs", static_cast<std::int64_t>(node.outputs.size())));
        const std::int64_t each = x[a] < 0 ? kUnknownDim : (x[a] + n - 1) / n;
        for (std::int64_t i = 0; i < n; ++i)
            parts.push_back(each < 0 ? kUnknownDim : std::min(each, x[a] - i * each));
    }
    std::vector<ShapeOutput> outs;
    for (auto p : parts) {
        Shape o = x;
        o[a] = p;
        outs.push_back({o, in[0].dtype});
    }
    return outs;
}

Outs sliceShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 1); !s) return s.error();
    const Shape& x = in[0].shape;
    const auto starts = intsFromAttrOrInput(node, "starts", in, 1);
    const auto ends = intsFromAttrOrInput(node, "ends", in, 2);
    Shape out = x;
    if (!starts || !ends) {
        // Sliced axes unknown: every axis that may be sliced becomes unknown.
        const auto axes = intsFromAttrOrInput(node, "axes", in, 3);
        if (!axes) return singleOutput(Shape(x.size(), kUnknownDim), in[0].dtype);
        for (auto ax : *axes) {
            auto a = normaliseAxis(node, ax, x.size());
            if (!a) return a.error();
            out[static_cast<std::size_t>(*a)] = kUnknownDim;
        }
        return singleOutput(out, in[0].dtype);
    }
    std::vector<std::int64_t> axes = intsFromAttrOrInput(node, "axes", in, 3).value_or(std::vector<std::int64_t>{});
    if (axes.empty())
        for (std::size_t i = 0; i < starts->size(); ++i) axes.push_back(static_cast<std::int64_t>(i));
    const std::vector<std::int64_t> steps = intsFromAttrOrInput(node, "steps", in, 4).value_or(std::vector<std::int64_t>(axes.size(), 1));
    if (starts->size() != axes.size() || ends->size() != axes.size() || steps.size() != axes.size())
        return shapeError(node, "Slice starts/ends/axes/steps differ in length");
    for (std::size_t i = 0; i < axes.size(); ++i) {
        auto a = normaliseAxis(node, axes[i], x.size());
        if (!a) return a.error();
        const std::int64_t dim = x[static_cast<std::size_t>(*a)];
        if (dim < 0) continue;
        const std::int64_t step = steps[i] == 0 ? 1 : steps[i];
        auto clampIndex = [&](std::int64_t v, bool isEnd) {
            if (v < 0) v += dim;
            if (step > 0) return std::clamp<std::int64_t>(v, 0, dim);
            return std::clamp<std::int64_t>(v, -1, dim - 1) + (isEnd ? 0 : 0);
        };
        const std::int64_t b = clampIndex((*starts)[i], false), e = clampIndex((*ends)[i], true);
        const std::int64_t len = step > 0 ? (e - b + step - 1) / step : (b - e + (-step) - 1) / (-step);
        out[static_cast<std::size_t>(*a)] = std::max<std::int64_t>(0, len);
    }
    return singleOutput(out, in[0].dtype);
}

// Slice/Split/Pad read what they write.
OpCost copyCost(const Graph& g, const Node& n) {
    OpCost c;
    for (int t : n.outputs) c.bytesWritten += tensorBytes(g, t);
    c.bytesRead = n.kind == OpKind::Pad || n.kind == OpKind::Expand || n.kind == OpKind::Tile ? tensorBytes(g, inputAt(n, 0)) : c.bytesWritten;
    return c;
}

Outs expandShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 2); !s) return s.error();
    if (!in[1].values) {
        const std::int64_t rank = in[1].shape.size() == 1 ? in[1].shape[0] : -1;
        if (rank < 0) return shapeError(node, "Expand target shape is not constant");
        return singleOutput(Shape(static_cast<std::size_t>(std::max<std::int64_t>(rank, static_cast<std::int64_t>(in[0].shape.size()))), kUnknownDim), in[0].dtype);
    }
    auto out = broadcast(node, in[0].shape, *in[1].values);
    if (!out) return out.error();
    return singleOutput(*out, in[0].dtype);
}

Outs identityShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 1); !s) return s.error();
    return singleOutput(in[0].shape, in[0].dtype);
}

Outs resizeShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 1); !s) return s.error();
    const Shape& x = in[0].shape;
    if (in.size() > 3 && in[3].values && in[3].values->size() == x.size()) return singleOutput(*in[3].values, in[0].dtype);
    // Float scales come as an attribute from the front end (the shape inputs carry ints).
    auto it = node.attrs.find("scales");
    if (it != node.attrs.end())
        if (auto scales = std::get_if<std::vector<double>>(&it->second); scales && scales->size() == x.size()) {
            Shape out;
            for (std::size_t i = 0; i < x.size(); ++i)
                out.push_back(x[i] < 0 ? kUnknownDim : static_cast<std::int64_t>(std::floor(static_cast<double>(x[i]) * (*scales)[i])));
            return singleOutput(out, in[0].dtype);
        }
    Shape out = x;
    for (std::size_t i = 2; i < out.size(); ++i) out[i] = kUnknownDim;
    return singleOutput(out, in[0].dtype);
}

Outs padShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 1); !s) return s.error();
    const Shape& x = in[0].shape;
    const auto pads = intsFromAttrOrInput(node, "pads", in, 1);
    if (!pads || pads->size() != 2 * x.size()) return singleOutput(Shape(x.size(), kUnknownDim), in[0].dtype);
    Shape out = x;
    for (std::size_t i = 0; i < x.size(); ++i)
        if (out[i] >= 0) out[i] += (*pads)[i] + (*pads)[i + x.size()];
    return singleOutput(out, in[0].dtype);
}

Outs tileShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 2); !s) return s.error();
    const Shape& x = in[0].shape;
    if (!in[1].values || in[1].values->size() != x.size()) return singleOutput(Shape(x.size(), kUnknownDim), in[0].dtype);
    Shape out = x;
    for (std::size_t i = 0; i < x.size(); ++i)
        if (out[i] >= 0) out[i] *= (*in[1].values)[i];
    return singleOutput(out, in[0].dtype);
}

// DepthToSpace / SpaceToDepth: [N, C, H, W] <-> [N, C/bs^2, H*bs, W*bs].
Outs depthSpaceShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 1); !s) return s.error();
    const Shape& x = in[0].shape;
    const std::int64_t bs = node.attrInt("blocksize", 1);
    if (x.size() != 4 || bs <= 0) return shapeError(node, "expects X[N,C,H,W] and a positive blocksize, got " + shapeText(x));
    auto scale = [](std::int64_t d, std::int64_t f, bool up) { return d < 0 ? kUnknownDim : up ? d * f : d / f; };
    const bool toSpace = node.kind == OpKind::DepthToSpace;
    return singleOutput({x[0], scale(x[1], bs * bs, !toSpace), scale(x[2], bs, toSpace), scale(x[3], bs, toSpace)}, in[0].dtype);
}

// EyeLike: the input's shape, in the "dtype" attribute's type (an ONNX code) or the input's.
// Concat's values: its inputs' values one after the other.
std::optional<Shape> concatValues(const Node&, const std::vector<ShapeInput>& in) {
    Shape out;
    for (const ShapeInput& i : in) {
        if (!i.values) return std::nullopt;
        out.insert(out.end(), i.values->begin(), i.values->end());
    }
    return out;
}

// Backward rules (OpTraits::backward).

// A view slice's gradient (SliceBackward): dY written into a zero-filled dX; saves nothing.
void sliceViewBackward(BackwardContext& c) {
    const Node f = c.fwd();
    if (!c.need(0)) return;
    c.dIn[0] = c.newGrad(f.inputs[0]);
    c.add(OpKind::SliceBackward, ".grad", {c.firstGrad()}, {c.dIn[0]}, f.attrs);
}

// Concat's input gradients are views (slices) of dY: no kernel, nothing saved.
void concatBackward(BackwardContext& c) {
    const Node f = c.fwd();
    const int dy = c.firstGrad();
    const std::int64_t rank = static_cast<std::int64_t>(c.graph.tensor(dy).shape.size());
    std::int64_t axis = f.attrInt("axis", 0);
    if (axis < 0) axis += rank;
    std::int64_t offset = 0;
    for (std::size_t i = 0; i < f.inputs.size(); ++i) {
        const auto& shape = c.graph.tensor(f.inputs[i]).shape;
        const std::int64_t len = axis >= 0 && axis < static_cast<std::int64_t>(shape.size()) ? shape[static_cast<std::size_t>(axis)] : 0;
        if (c.need(i) && len > 0) {
            c.dIn[i] = c.newGrad(f.inputs[i]);
            c.add(OpKind::SliceView, ".grad_" + std::to_string(i), {dy}, {c.dIn[i]},
                   {{"axes", std::vector<std::int64_t>{axis}}, {"starts", std::vector<std::int64_t>{offset}},
                    {"ends", std::vector<std::int64_t>{offset + len}}});
        }
        offset += len;
    }
}

// Transpose (a copy, ONNX's op and PyTorch's permute().contiguous()): dX is dY transposed
// back by the inverse permutation; it reads only dY, so nothing is saved.
void transposeBackward(BackwardContext& c) {
    const Node f = c.fwd();
    if (!c.need(0)) return;
    std::vector<std::int64_t> perm = f.attrInts("perm"), inverse;
    const std::size_t rank = c.graph.tensor(f.inputs[0]).shape.size();
    if (perm.empty())
        for (std::size_t i = 0; i < rank; ++i) perm.push_back(static_cast<std::int64_t>(rank - 1 - i));
    inverse.assign(perm.size(), 0);
    for (std::size_t i = 0; i < perm.size(); ++i)
        if (perm[i] >= 0 && static_cast<std::size_t>(perm[i]) < perm.size()) inverse[static_cast<std::size_t>(perm[i])] = static_cast<std::int64_t>(i);
    c.dIn[0] = c.newGrad(f.inputs[0]);
    c.add(OpKind::Transpose, ".grad", {c.firstGrad()}, {c.dIn[0]}, {{"perm", inverse}});
}

// Megatron-LM's sequence parallelism (Korthikanti et al. 2022, sec. 4.2.2): outside the
// tensor-parallel regions each rank holds 1/t of the sequence (dim 1 of [B, S, H]). The
// all-gather into a column-parallel linear and the reduce-scatter out of a row-parallel
// one are views here: the collectives are the cluster layer's (engine/cluster), and the
// linear saves its sequence shard, not the gathered input, because Megatron gathers it
// again in backward; the gathered buffer itself lives only for the GEMM.
Outs sequenceShardShape(const Node& node, const std::vector<ShapeInput>& in, bool gather) {
    if (auto s = needInputs(node, in, 1); !s) return s.error();
    const std::int64_t t = node.attrInt("tensor_parallel", 1);
    Shape out = in[0].shape;
    if (out.size() < 2 || t < 1) return shapeError(node, "expected a [batch, seq, ...] input and tensor_parallel >= 1");
    if (out[1] >= 0) {
        if (!gather && out[1] % t != 0)
            return shapeError(node, "sequence length " + std::to_string(out[1]) + " is not divisible by tensor_parallel " + std::to_string(t));
        out[1] = gather ? out[1] * t : out[1] / t;
    }
    return singleOutput(out, in[0].dtype);
}
Outs sequenceGatherShape(const Node& node, const std::vector<ShapeInput>& in) { return sequenceShardShape(node, in, true); }
Outs sequenceScatterShape(const Node& node, const std::vector<ShapeInput>& in) { return sequenceShardShape(node, in, false); }

// The gradient of a gather is the reduce-scatter of dY, and of a scatter the all-gather.
template <OpKind Opposite>
void sequenceShardBackward(BackwardContext& c) {
    const Node f = c.fwd();
    if (!c.need(0)) return;
    c.dIn[0] = c.newGrad(f.inputs[0]);
    c.add(Opposite, ".grad", {c.firstGrad()}, {c.dIn[0]}, f.attrs);
}

}  // namespace

void registerShapeOps(OpRegistry& r) {
    const auto view = OpCategory::data_movement;
    r.add(OpKind::Reshape, {.category = view, .shapeOnly = true, .inferShapes = reshapeShape, .inferValues = sameValues});
    r.add(OpKind::Flatten, {.category = view, .shapeOnly = true, .inferShapes = flattenShape, .inferValues = sameValues});
    r.add(OpKind::Squeeze, {.category = view, .shapeOnly = true, .inferShapes = squeezeShape, .inferValues = sameValues});
    r.add(OpKind::Unsqueeze, {.category = view, .shapeOnly = true, .inferShapes = unsqueezeShape, .inferValues = sameValues});
    r.add(OpKind::Identity, {.category = view, .shapeOnly = true, .inferShapes = identityShape, .inferValues = sameValues});
    r.add(OpKind::Transpose, {view, false, transposeShape, {}, transposeBackward});
    // PyTorch's transpose/permute: a strided view, no kernel (ONNX's Transpose copies; a
    // model's .contiguous() after a permute is that copy).
    r.add(OpKind::TransposeView, {view, true, transposeShape, {}});
    r.add(OpKind::Concat, {.category = view, .inferShapes = concatShape, .backward = concatBackward, .inferValues = concatValues});
    r.add(OpKind::Split, {view, false, splitShape, copyCost});
    r.add(OpKind::Slice, {view, false, sliceShape, copyCost});
    // PyTorch basic indexing (x[..., :n]): a view, no kernel (ONNX's Slice copies). Its
    // gradient (autograd's SliceBackward) zero-fills dX and copies dY into it: one write of
    // dX, one read of dY (the default cost: its input and output bytes).
    r.add(OpKind::SliceView, {view, true, sliceShape, {}, sliceViewBackward});
    r.add(OpKind::SliceBackward, {view, false, {}, {}});
    r.add(OpKind::Expand, {view, false, expandShape, copyCost});
    r.add(OpKind::Resize, {view, false, resizeShape, {}});
    r.add(OpKind::Upsample, {view, false, resizeShape, {}});  // Resize before opset 10
    for (OpKind scatter : {OpKind::ScatterElements, OpKind::ScatterND, OpKind::Scatter})
        r.add(scatter, {view, false, identityShape, {}});
    r.add(OpKind::DepthToSpace, {view, false, depthSpaceShape, {}});
    r.add(OpKind::SpaceToDepth, {view, false, depthSpaceShape, {}});
    r.add(OpKind::Trilu, {view, false, identityShape, {}});
    r.add(OpKind::ReverseSequence, {view, false, identityShape, {}});
    r.add(OpKind::Pad, {view, false, padShape, copyCost});
    r.add(OpKind::Tile, {view, false, tileShape, copyCost});
    r.add(OpKind::SequenceGather, {view, true, sequenceGatherShape, {}, sequenceShardBackward<OpKind::SequenceScatter>});
    r.add(OpKind::SequenceScatter, {view, true, sequenceScatterShape, {}, sequenceShardBackward<OpKind::SequenceGather>});
}

}  // namespace npu::engine::ops
