// Convolution and pooling (ONNX attributes: kernel_shape, strides, pads, dilations,
// group, auto_pad, ceil_mode, output_padding, output_shape), and the conv backward ops
// the training pass emits (ConvGradInput, ConvGradWeight: each costs the forward FLOPs).
#include "engine/ir/ops/op_families.h"
#include "engine/ir/ops/shape_util.h"

#include <cmath>

namespace npu::engine::ops {
namespace {

struct Window {
    Shape kernel, strides, dilations, padBegin, padEnd;
};

Window windowOf(const Node& node, std::size_t spatial, const Shape& kernelFromWeight) {
    Window w;
    w.kernel = node.attrInts("kernel_shape");
    if (w.kernel.empty()) w.kernel = kernelFromWeight;
    w.kernel.resize(spatial, 1);
    w.strides = node.attrInts("strides");
    w.strides.resize(spatial, 1);
    w.dilations = node.attrInts("dilations");
    w.dilations.resize(spatial, 1);
    const Shape pads = node.attrInts("pads");
    w.padBegin.assign(spatial, 0);
    w.padEnd.assign(spatial, 0);
    for (std::size_t i = 0; i < spatial && pads.size() >= 2 * spatial; ++i) {
        w.padBegin[i] = pads[i];
        w.padEnd[i] = pads[i + spatial];
    }
    return w;
}

// Strides and dilations divide the spatial sizes: zero or negative ones are refused.
Status checkWindow(const Node& node, const Window& w) {
    for (std::size_t i = 0; i < w.strides.size(); ++i)
        if (w.strides[i] <= 0 || w.dilations[i] <= 0)
            return shapeError(node, "strides and dilations must be positive, got strides " + shapeText(w.strides) +
                                        " dilations " + shapeText(w.dilations));
    return {};
}

std::int64_t outDim(const Node& node, std::int64_t in, const Window& w, std::size_t i, bool ceilMode) {
    if (in < 0) return kUnknownDim;
    const std::string autoPad = node.attrString("auto_pad", "NOTSET");
    if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") return (in + w.strides[i] - 1) / w.strides[i];
    const std::int64_t pb = autoPad == "VALID" ? 0 : w.padBegin[i];
    const std::int64_t pe = autoPad == "VALID" ? 0 : w.padEnd[i];
    const double span = static_cast<double>(in + pb + pe - w.dilations[i] * (w.kernel[i] - 1) - 1);
    const double q = span / static_cast<double>(w.strides[i]);
    return static_cast<std::int64_t>(ceilMode ? std::ceil(q) : std::floor(q)) + 1;
}

Expected<std::vector<ShapeOutput>> convShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 2); !s) return s.error();
    const Shape& x = in[0].shape;
    const Shape& wt = in[1].shape;
    if (x.size() < 3 || wt.size() != x.size())
        return shapeError(node, "Conv expects X[N,C,...] and W[M,C/group,...] of equal rank, got " + shapeText(x) + " and " + shapeText(wt));
    const auto group = node.attrInt("group", 1);
    if (x[1] >= 0 && wt[1] >= 0 && x[1] != wt[1] * group)
        return shapeError(node, "input channels " + std::to_string(x[1]) + " != weight channels " + std::to_string(wt[1]) + " x group " + std::to_string(group));
    const std::size_t spatial = x.size() - 2;
    const Window w = windowOf(node, spatial, Shape(wt.begin() + 2, wt.end()));
    if (auto s = checkWindow(node, w); !s) return s.error();
    Shape out{x[0], wt[0]};
    for (std::size_t i = 0; i < spatial; ++i) out.push_back(outDim(node, x[i + 2], w, i, false));
    return std::vector<ShapeOutput>{{out, in[0].dtype}};
}

OpCost convCost(const Graph& g, const Node& n) {
    OpCost c = defaultCost(g, n);
    const Shape* wt = boundInputShape(g, n, 1);
    if (!wt || wt->size() < 2 || n.outputs.empty()) return c;
    double perOutput = 1;  // MACs per output element = C/group * prod(kernel)
    for (std::size_t i = 1; i < wt->size(); ++i) perOutput *= static_cast<double>((*wt)[i]);
    const double out = numel(g, outputAt(n, 0));
    c.macs = out * perOutput;
    c.flops = 2.0 * c.macs + (n.inputs.size() > 2 && n.inputs[2] >= 0 ? out : 0);
    return c;
}

Expected<std::vector<ShapeOutput>> convTransposeShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 2); !s) return s.error();
    const Shape& x = in[0].shape;
    const Shape& wt = in[1].shape;
    if (x.size() < 3 || wt.size() != x.size())
        return shapeError(node, "ConvTranspose expects X[N,C,...] and W[C,M/group,...], got " + shapeText(x) + " and " + shapeText(wt));
    const std::size_t spatial = x.size() - 2;
    const Window w = windowOf(node, spatial, Shape(wt.begin() + 2, wt.end()));
    Shape outPad = node.attrInts("output_padding");
    outPad.resize(spatial, 0);
    const Shape explicitOut = node.attrInts("output_shape");
    Shape out{x[0], wt[1] * node.attrInt("group", 1)};
    for (std::size_t i = 0; i < spatial; ++i) {
        if (explicitOut.size() >= spatial) out.push_back(explicitOut[explicitOut.size() - spatial + i]);
        else if (x[i + 2] < 0) out.push_back(kUnknownDim);
        else out.push_back(w.strides[i] * (x[i + 2] - 1) + outPad[i] + (w.kernel[i] - 1) * w.dilations[i] + 1 - w.padBegin[i] - w.padEnd[i]);
    }
    return std::vector<ShapeOutput>{{out, in[0].dtype}};
}

OpCost convTransposeCost(const Graph& g, const Node& n) {
    OpCost c = defaultCost(g, n);
    const Shape* wt = boundInputShape(g, n, 1);
    if (!wt || wt->size() < 2) return c;
    double perInput = 1;  // each input element scatters into M/group * prod(kernel) outputs
    for (std::size_t i = 1; i < wt->size(); ++i) perInput *= static_cast<double>((*wt)[i]);
    c.macs = numel(g, inputAt(n, 0)) * perInput;
    c.flops = 2.0 * c.macs;
    return c;
}

Expected<std::vector<ShapeOutput>> poolShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 1); !s) return s.error();
    const Shape& x = in[0].shape;
    if (x.size() < 3) return shapeError(node, "pooling expects X[N,C,...], got " + shapeText(x));
    const std::size_t spatial = x.size() - 2;
    if (node.attrInts("kernel_shape").size() != spatial) return shapeError(node, "kernel_shape must have " + std::to_string(spatial) + " values");
    const Window w = windowOf(node, spatial, {});
    if (auto s = checkWindow(node, w); !s) return s.error();
    Shape out{x[0], x[1]};
    for (std::size_t i = 0; i < spatial; ++i) out.push_back(outDim(node, x[i + 2], w, i, node.attrInt("ceil_mode", 0) != 0));
    std::vector<ShapeOutput> outs{{out, in[0].dtype}};
    outs.push_back({out, DType::i64});  // MaxPool's optional Indices
    return outs;
}

OpCost poolCost(const Graph& g, const Node& n) {
    OpCost c = defaultCost(g, n);
    double window = 1;
    for (auto k : n.attrInts("kernel_shape")) window *= static_cast<double>(k);
    if (!n.outputs.empty()) c.flops = numel(g, outputAt(n, 0)) * window;
    return c;
}

Expected<std::vector<ShapeOutput>> globalPoolShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 1); !s) return s.error();
    Shape out = in[0].shape;
    if (out.size() < 3) return shapeError(node, "global pooling expects X[N,C,...], got " + shapeText(out));
    for (std::size_t i = 2; i < out.size(); ++i) out[i] = 1;
    return std::vector<ShapeOutput>{{out, in[0].dtype}};
}

OpCost globalPoolCost(const Graph& g, const Node& n) {
    OpCost c = defaultCost(g, n);
    if (!n.inputs.empty()) c.flops = numel(g, inputAt(n, 0));
    return c;
}

// Backward of a convolution: data gradient and weight gradient each cost the forward
// convolution's FLOPs (transposed convolutions of the same size).
OpCost convGradCost(const Graph& g, const Node& n) {
    OpCost c = defaultCost(g, n);
    if (const Node* forward = forwardNodeOf(g, n)) {
        const Node& f = *forward;
        const OpCost fwd = f.kind == OpKind::ConvTranspose ? convTransposeCost(g, f) : convCost(g, f);
        c.macs = fwd.macs;
        c.flops = 2 * fwd.macs;  // the bias add has no counterpart here (its gradient is a ReduceSum)
    }
    return c;
}

// Backward rules (OpTraits::backward).

void convBackward(BackwardContext& c) {
    const Node f = c.fwd();
    const int dy = c.firstGrad();
    if (c.need(0)) {
        c.dIn[0] = c.newGrad(f.inputs[0]);
        c.add(OpKind::ConvGradInput, ".grad_input", {dy, f.inputs[1]}, {c.dIn[0]}, f.attrs);
    }
    if (c.need(1)) {
        c.dIn[1] = c.newGrad(f.inputs[1]);
        c.add(OpKind::ConvGradWeight, ".grad_weight", {dy, f.inputs[0]}, {c.dIn[1]}, f.attrs);
    }
    if (c.need(2)) {
        c.dIn[2] = c.newGrad(f.inputs[2]);
        c.add(OpKind::ReduceSum, ".grad_bias", {dy}, {c.dIn[2]});
    }
}

}  // namespace

void registerConvOps(OpRegistry& r) {
    r.add(OpKind::Conv, {OpCategory::conv, false, convShape, convCost, convBackward});
    r.add(OpKind::ConvTranspose, {OpCategory::conv, false, convTransposeShape, convTransposeCost, convBackward});
    r.add(OpKind::ConvGradInput, {OpCategory::conv, false, {}, convGradCost});
    r.add(OpKind::ConvGradWeight, {OpCategory::conv, false, {}, convGradCost});
    r.add(OpKind::MaxPool, {OpCategory::data_movement, false, poolShape, poolCost});
    r.add(OpKind::AveragePool, {OpCategory::data_movement, false, poolShape, poolCost});
    r.add(OpKind::GlobalAveragePool, {OpCategory::reduce, false, globalPoolShape, globalPoolCost});
    r.add(OpKind::GlobalMaxPool, {OpCategory::reduce, false, globalPoolShape, globalPoolCost});
    r.add(OpKind::LpPool, {OpCategory::reduce, false, poolShape, poolCost});
    // |x|^p summed, then the root: 2 per input element
    r.add(OpKind::GlobalLpPool, {OpCategory::reduce, false, globalPoolShape, [](const Graph& g, const Node& n) {
                               OpCost c = globalPoolCost(g, n);
                               c.flops *= 2;
                               return c;
                           }});
}

}  // namespace npu::engine::ops
