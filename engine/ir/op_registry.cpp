#include "engine/ir/op_registry.h"

#include "engine/ir/ops/op_families.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace npu::engine {

int inputAt(const Node& node, std::size_t index) { return index < node.inputs.size() ? node.inputs[index] : -1; }
int outputAt(const Node& node, std::size_t index) { return index < node.outputs.size() ? node.outputs[index] : -1; }

const Node* forwardNodeOf(const Graph& graph, const Node& node) {
    if (node.forwardNode < 0 || node.forwardNode == node.id || static_cast<std::size_t>(node.forwardNode) >= graph.nodes().size())
        return nullptr;
    return &graph.node(node.forwardNode);
}

double tensorBytes(const Graph& graph, int tensorId) {
    if (tensorId < 0 || static_cast<std::size_t>(tensorId) >= graph.tensors().size()) return 0;
    return static_cast<double>(graph.tensor(tensorId).bytes());
}

double numel(const Graph& graph, int tensorId) {
    if (tensorId < 0 || static_cast<std::size_t>(tensorId) >= graph.tensors().size()) return 0;
    return static_cast<double>(graph.tensor(tensorId).numel());
}

const std::vector<std::int64_t>* boundInputShape(const Graph& graph, const Node& node, std::size_t index) {
    if (index >= node.inputs.size() || node.inputs[index] < 0 ||
        static_cast<std::size_t>(node.inputs[index]) >= graph.tensors().size())
        return nullptr;
    const Tensor& t = graph.tensor(node.inputs[index]);
    return t.hasUnknownDims() ? nullptr : &t.shape;
}

OpCost defaultCost(const Graph& graph, const Node& node) {
    OpCost c;
    for (int t : node.inputs) c.bytesRead += tensorBytes(graph, t);
    for (int t : node.outputs) c.bytesWritten += tensorBytes(graph, t);
    return c;
}

OpRegistry::OpRegistry() : m_traits(kOpKindCount), m_registered(kOpKindCount, false) {
    ops::registerMatmulOps(*this);
    ops::registerConvOps(*this);
    ops::registerElementwiseOps(*this);
    ops::registerNormOps(*this);
    ops::registerReduceOps(*this);
    ops::registerShapeOps(*this);
    ops::registerGatherOps(*this);
    ops::registerGeneratorOps(*this);
    ops::registerAttentionOps(*this);
    ops::registerTrainingOps(*this);
    ops::registerFusedOps(*this);
    ops::registerDecodeOps(*this);
    // A kind without traits would cost and categorise as an unknown op without a word.
    for (std::size_t i = 0; i < kOpKindCount; ++i)
        if (!m_registered[i])
            throw std::logic_error("op kind '" + std::string(opKindName(static_cast<OpKind>(i))) +
                                   "' has no traits: register it in its engine/ir/ops/ family file");
}

const OpRegistry& OpRegistry::instance() {
    static const OpRegistry registry;
    return registry;
}

void OpRegistry::add(OpKind kind, OpTraits traits) {
    const auto index = static_cast<std::size_t>(kind);
    if (index >= kOpKindCount) throw std::logic_error("OpRegistry::add: not an op kind");
    m_traits[index] = std::move(traits);
    m_registered[index] = true;
}

const OpTraits* OpRegistry::find(OpKind kind) const {
    const auto index = static_cast<std::size_t>(kind);
    return index < kOpKindCount && m_registered[index] ? &m_traits[index] : nullptr;
}

namespace {
// "LayerNormalizationGrad" -> "LayerNormalization": generic backward of a known op.
std::string_view gradBase(std::string_view op) {
    constexpr std::string_view suffix = "Grad";
    if (op.size() > suffix.size() && op.substr(op.size() - suffix.size()) == suffix)
        return op.substr(0, op.size() - suffix.size());
    return {};
}

const OpTraits* traitsByName(const OpRegistry& reg, std::string_view op) {
    if (auto t = reg.find(op)) return t;
    if (auto base = gradBase(op); !base.empty()) return reg.find(base);
    return nullptr;
}
}  // namespace

const OpTraits* OpRegistry::traitsOrForward(const Node& node) const {
    if (auto t = find(node.kind)) return t;
    return node.kind == OpKind::unknown ? traitsByName(*this, node.op) : nullptr;
}

bool OpRegistry::known(const Node& node) const { return traitsOrForward(node) != nullptr; }

OpCategory OpRegistry::category(std::string_view op) const {
    const OpTraits* t = traitsByName(*this, op);
    return t ? t->category : OpCategory::other;
}

OpCategory OpRegistry::category(const Node& node) const {
    const OpTraits* t = traitsOrForward(node);
    return t ? t->category : OpCategory::other;
}

bool OpRegistry::isShapeOnly(std::string_view op) const {
    const OpTraits* t = traitsByName(*this, op);
    return t && t->shapeOnly;
}

bool OpRegistry::isShapeOnly(const Node& node) const {
    if (node.attrInt(kShapeOnlyAttr, 0) != 0) return true;
    const OpTraits* t = traitsOrForward(node);
    return t && t->shapeOnly;
}

OpCost OpRegistry::cost(const Graph& graph, const Node& node) const {
    if (node.attrInt(kShapeOnlyAttr, 0) != 0) return {};
    if (const OpTraits* t = find(node.kind)) {
        if (t->shapeOnly) return {};
        return t->cost ? t->cost(graph, node) : defaultCost(graph, node);
    }
    // Generic backward: twice the forward node's cost (FLOPs and bytes), the usual rule
    // of thumb for an op whose gradient reads what its forward read plus dY and writes dX.
    // A forward node that is itself a generic backward node is not followed: a chain (or a
    // cycle, in a graph read from a file) would recurse without end.
    const Node* forward = forwardNodeOf(graph, node);
    if (forward && forward->kind == OpKind::unknown && !gradBase(forward->op).empty()) forward = nullptr;
    if (auto base = gradBase(node.op); !base.empty() && forward) {
        if (const OpTraits* t = find(base); t && t->shapeOnly) return {};
        const OpCost f = cost(graph, *forward);
        return {2 * f.flops, 2 * f.macs, 2 * f.bytesRead, 2 * f.bytesWritten};
    }
    return defaultCost(graph, node);
}

Expected<std::vector<ShapeOutput>> OpRegistry::inferShapes(const Node& node, const std::vector<ShapeInput>& inputs) const {
    const OpTraits* t = find(node.kind);
    if (!t) return makeError("node '" + node.name + "': no shape rule for unknown op type '" + node.op + "'");
    if (!t->inferShapes) return makeError("node '" + node.name + "': op type '" + node.op + "' has no shape rule");
    return t->inferShapes(node, inputs);
}

std::optional<std::vector<std::int64_t>> OpRegistry::inferValues(const Node& node, const std::vector<ShapeInput>& inputs) const {
    const OpTraits* t = find(node.kind);
    if (!t || !t->inferValues) return std::nullopt;
    return t->inferValues(node, inputs);
}

Status OpRegistry::inferNode(Graph& graph, int nodeId) const {
    Node& node = graph.node(nodeId);
    std::vector<ShapeInput> ins;
    ins.reserve(node.inputs.size());
    for (int t : node.inputs) {
        if (t < 0) {
            ins.push_back({{}, DType::unknown, std::nullopt});
            continue;
        }
        const Tensor& tensor = graph.tensor(t);
        ins.push_back({tensor.shape, tensor.dtype, std::nullopt});
    }
    auto outs = inferShapes(node, ins);
    if (!outs) return outs.error();
    for (std::size_t i = 0; i < node.outputs.size() && i < outs->size(); ++i) {
        if (node.outputs[i] < 0) continue;
        Tensor& tensor = graph.tensor(node.outputs[i]);
        tensor.shape = (*outs)[i].shape;
        tensor.dtype = (*outs)[i].dtype;
    }
    return {};
}

void OpRegistry::emitBackward(BackwardContext& ctx) const {
    ctx.dIn.assign(ctx.fwd().inputs.size(), -1);
    const OpTraits* t = find(ctx.fwd().kind);
    if (t && t->seedsBackward) return t->backward(ctx);
    if (ctx.firstGrad() < 0) return;
    if (t && t->backward) return t->backward(ctx);
    if (t && t->shapeOnly) return viewBackward(ctx);
    genericBackward(ctx);
}

std::vector<std::string> OpRegistry::opTypes() const {
    std::vector<std::string> names;
    for (std::size_t i = 0; i < kOpKindCount; ++i)
        if (m_registered[i]) names.emplace_back(opKindName(static_cast<OpKind>(i)));
    std::sort(names.begin(), names.end());
    return names;
}

Status checkKnownOp(const Graph& graph, const Node& node, const std::string& where) {
    if (node.opaque || OpRegistry::instance().known(node)) return {};
    if (const Node* forward = forwardNodeOf(graph, node); forward && forward->opaque) return {};
    return makeError(where + ": node '" + node.name + "' has op type '" + node.op +
                     "', which the op registry does not know (engine/ir/op_kind.h lists the ops it models)");
}

double macs(const Graph& graph, const Node& node) {
    const auto& reg = OpRegistry::instance();
    switch (reg.category(node)) {
    case OpCategory::matmul: case OpCategory::conv: case OpCategory::attention:
        return reg.cost(graph, node).macs;
    default: return 0;
    }
}

}  // namespace npu::engine
