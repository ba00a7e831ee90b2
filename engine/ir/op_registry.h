#pragma once
// Per op kind: category, shape inference, cost traits and backward rule: the single
// definition of every op, used by the simulator, the conversion report, the graph view
// and the training passes (the ONNX front end has no op tables of its own). One registry serves the model
// zoo, the ONNX front end (ONNX op names and attribute names: "group", "strides",
// "pads", "dilations", "kernel_shape", "perm", "axis", "transA"/"transB", ...) and the
// training passes.
//
// Conventions (apply to every op):
// - FLOPs count floating-point operations, with a multiply-add = 2 FLOPs. So for matmul
//   and convolution FLOPs = 2 x MACs (+ one FLOP per output for a bias add, which is not
//   a MAC). OpCost::macs holds the exact multiply-accumulates of matmul, conv and
//   attention ops (0 for the others); macs() below returns it.
// - Elementwise ops count one FLOP per output element times a small per-op factor
//   (transcendentals such as Erf/Gelu/Tanh count a few); these never decide a duration,
//   which is memory bound for them.
// - Bytes are the minimal HBM traffic of an unfused kernel: every input read once and
//   every output written once, in the tensors' own dtypes. Shape-only ops (Reshape,
//   Squeeze, Shape, ...) are views and cost zero bytes and zero time.
// - Every OpKind (engine/ir/op_kind.h) has traits here. An op type that is not a kind
//   (an ONNX op kept opaque, reported by the conversion) has category other and costs its
//   bytes only (inputs + outputs); where an op type enters the engine (ONNX import,
//   .npuom and run graphs, the zoo) it must be a kind, opaque or a generic backward.
// - A node carrying kShapeOnlyAttr (a converter folded it: it computes on constants or
//   shapes only) costs nothing, whatever its op type.
// - Dimensions that are not bound (-1) make a tensor's numel 0: such nodes cost 0 FLOPs.
// - Backward ops named "<Op>Grad" without a specific rule cost 2x their forward node.

#include "base/expected.h"
#include "engine/ir/backward_context.h"
#include "engine/ir/graph.h"
#include "engine/ir/op_kind.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace npu::engine {

// Node attribute (value 1) marking a node folded at conversion time: it only computes on
// constants or shapes, as an offline compiler would evaluate it once. ONNX attribute
// names never contain a '.', so the namespaced key cannot collide.
inline constexpr const char* kShapeOnlyAttr = "npu.shape_only";

struct OpCost {
    double flops = 0;
    double macs = 0;   // multiply-accumulates (matmul/conv/attention only)
    double bytesRead = 0;
    double bytesWritten = 0;
    double bytes() const { return bytesRead + bytesWritten; }
};

// What shape inference knows about one input: its shape, dtype and, for small integer
// tensors coming from constants (Reshape's shape, Slice's starts), their values.
struct ShapeInput {
    std::vector<std::int64_t> shape;
    DType dtype = DType::f32;
    std::optional<std::vector<std::int64_t>> values;
};

struct ShapeOutput {
    std::vector<std::int64_t> shape;
    DType dtype = DType::f32;
};

using ShapeFn = std::function<Expected<std::vector<ShapeOutput>>(const Node&, const std::vector<ShapeInput>&)>;
// The values of the first output of an op on the shape path exporters emit for dynamic
// reshapes (Shape -> Gather -> Concat -> Reshape): ONNX shape inference's data
// propagation, for small integer tensors. Empty when an input value (or, for Shape, a
// dim of its input, given as -1 when unknown) is missing.
using ValueFn = std::function<std::optional<std::vector<std::int64_t>>(const Node&, const std::vector<ShapeInput>&)>;
using CostFn = std::function<OpCost(const Graph&, const Node&)>;

struct OpTraits {
    OpCategory category = OpCategory::other;
    bool shapeOnly = false;     // a view: zero runtime cost
    ShapeFn inferShapes{};      // may be empty: outputs keep the shapes they were given
    CostFn cost{};              // empty: default (bytes of inputs and outputs, no FLOPs)
    BackwardRule backward = nullptr;  // null: viewBackward for a view, else genericBackward
    bool seedsBackward = false;  // a loss: its rule runs with no output gradient, seeding backward
    ValueFn inferValues{};      // may be empty: the op computes no shape values
};

class OpRegistry {
public:
    static const OpRegistry& instance();

    void add(OpKind kind, OpTraits traits);
    const OpTraits* find(OpKind kind) const;
    const OpTraits* find(std::string_view op) const { return find(opKindFromName(op)); }
    bool known(std::string_view op) const { return find(op) != nullptr; }
    // A node's op is one of ours, or the generic backward ("<Op>Grad") of one of ours.
    bool known(const Node& node) const;

    // By op type string (files, reports); "<Op>Grad" answers for its forward op.
    OpCategory category(std::string_view op) const;
    OpCategory category(const Node& node) const;
    bool isShapeOnly(std::string_view op) const;
    // The op type is shape-only, or the node was folded (kShapeOnlyAttr).
    bool isShapeOnly(const Node& node) const;
    // Cost of a node of the graph (backward/recompute nodes included).
    OpCost cost(const Graph& graph, const Node& node) const;
    // Output shapes for a node given its inputs; errors name the node and the problem.
    Expected<std::vector<ShapeOutput>> inferShapes(const Node& node, const std::vector<ShapeInput>& inputs) const;
    // Runs inference on the graph's node and writes shapes/dtypes into its outputs.
    Status inferNode(Graph& graph, int nodeId) const;
    // The values of the node's first output from its inputs' (ValueFn); empty when its op
    // has no value rule or the rule cannot tell.
    std::optional<std::vector<std::int64_t>> inferValues(const Node& node, const std::vector<ShapeInput>& inputs) const;
    // Appends the backward of ctx's forward node with its kind's rule (a loss always; any
    // other op only when a gradient reaches one of its outputs) and sets ctx.dIn.
    void emitBackward(BackwardContext& ctx) const;

    std::vector<std::string> opTypes() const;

private:
    OpRegistry();
    // The traits of the node's kind or, for a generic "<Op>Grad", of its forward op.
    const OpTraits* traitsOrForward(const Node& node) const;

    std::vector<OpTraits> m_traits;   // indexed by OpKind
    std::vector<bool> m_registered;   // indexed by OpKind
};

// The error for a node of a graph read from a file whose op type is not one of ours,
// naming the op type, the node and where it came from ("model.npuom: graph.nodes[12]").
// Fine: an op of ours or its generic backward, an opaque node (the ONNX conversion kept
// and reported it) and the backward or recompute nodes of an opaque node.
Status checkKnownOp(const Graph& graph, const Node& node, const std::string& where);

// MACs of a node: OpCost::macs (exact multiply-accumulates of matmul, conv and
// attention ops; bias adds excluded), 0 for the other categories.
double macs(const Graph& graph, const Node& node);

// Shared helpers for the op family files.
double tensorBytes(const Graph& graph, int tensorId);
double numel(const Graph& graph, int tensorId);
// Tensor id of a node's input/output `index`; -1 when absent (optional or beyond the
// list: graphs loaded from files may have fewer inputs than the op expects).
int inputAt(const Node& node, std::size_t index);
int outputAt(const Node& node, std::size_t index);
// The forward node of a backward/recompute node; nullptr when none or out of range.
const Node* forwardNodeOf(const Graph& graph, const Node& node);
// Shape of input `index` when present with every dim bound; nullptr otherwise.
const std::vector<std::int64_t>* boundInputShape(const Graph& graph, const Node& node, std::size_t index);
OpCost defaultCost(const Graph& graph, const Node& node);

// The autoregressive decoding ops (engine/ir/ops/decode_ops.cpp: DecodePrefill,
// DecodeStep): they read the weights as stored, so mixed precision gives them no casts.
bool isDecodeOp(OpKind kind);
// The fused kinds the fusion passes create (engine/ir/ops/fused_ops.cpp): their members
// are already fused.
bool isFusedOp(OpKind kind);

}  // namespace npu::engine
