#include "engine/passes/mixed_precision_pass.h"

#include "engine/ir/op_registry.h"
#include "engine/passes/graph_edit.h"

#include <map>

namespace npu::engine {

namespace {

bool runsLow(const Node& n) {
    const OpCategory c = OpRegistry::instance().category(n.op);
    return c == OpCategory::matmul || c == OpCategory::conv || c == OpCategory::attention;
}

bool runsFp32(const Node& n) {
    return isOp(n, {OpKind::LayerNormalization, OpKind::Softmax, OpKind::LogSoftmax, OpKind::CrossEntropy, OpKind::NLLLoss,
                    OpKind::MeanLoss, OpKind::ReduceSum, OpKind::ReduceMean, OpKind::Pow, OpKind::Exp, OpKind::Log});
}

bool keepsInputDType(const Node& n) { return n.kind == OpKind::RMSNorm || n.kind == OpKind::BatchNormalization; }

// Outputs that are fp32 whatever the compute dtype: losses, log-probabilities, attention
// logsumexp, normalisation statistics.
bool alwaysFp32Output(const Node& n, std::size_t index) {
    if (n.kind == OpKind::CrossEntropy || n.kind == OpKind::NLLLoss || n.kind == OpKind::MeanLoss) return true;
    return index > 0 && (OpRegistry::instance().category(n.op) == OpCategory::attention || n.kind == OpKind::LayerNormalization);
}

DType promote(const Graph& g, const Node& n) {
    DType best = DType::unknown;
    for (int t : n.inputs) {
        if (t < 0 || !isFloating(g.tensor(t).dtype)) continue;
        const DType d = g.tensor(t).dtype;
        if (best == DType::unknown || dtypeBytes(d) > dtypeBytes(best)) best = d;
    }
    return best;
}

void setOutputs(Graph& g, Node& n, DType dt) {
    for (std::size_t i = 0; i < n.outputs.size(); ++i) {
        const int t = n.outputs[i];
        if (t < 0 || !isFloating(g.tensor(t).dtype)) continue;
        g.tensor(t).dtype = alwaysFp32Output(n, i) ? DType::f32 : dt;
    }
    n.dtype = dt;
}

}  // namespace

Status MixedPrecisionPass::apply(Graph& graph, PassStats& stats) {
    const DType low = lowDType(m_precision);
    const std::vector<int> order = graph.topologicalOrder();
    std::vector<int> newOrder;
    std::map<int, int> weightCasts;  // weight tensor -> its low-precision copy

    if (castsModel(m_precision)) {
        for (Tensor& t : graph.tensors())
            if (isFloating(t.dtype) && (t.role == TensorRole::weight || t.role == TensorRole::input)) t.dtype = low;
    }
    auto addCast = [&](int nodeId, int tensor, DType to, const std::string& name) {
        const int out = cloneTensor(graph, tensor, name, graph.tensor(tensor).role == TensorRole::weight ? TensorRole::activation : std::optional<TensorRole>{}, to);
        graph.tensor(out).role = TensorRole::activation;
        // "autocast": the cast runs inside its consumer's autocast dispatch (aten::linear
        // casts its input and weight before the matmul), not as a framework op of its own.
        const int cast = graph.addNode(OpKind::Cast, name, {tensor}, {out}, {{"to", std::string(dtypeName(to))}, {"autocast", std::int64_t{1}}},
                                       Phase::forward, to);
        graph.node(cast).block = graph.node(nodeId).block;
        newOrder.push_back(cast);
        ++stats.nodesChanged;
        return out;
    };

    for (int id : order) {
        Node& n = graph.node(id);
        if (m_precision == Precision::fp32 || m_precision == Precision::tf32) {
            setOutputs(graph, n, n.kind == OpKind::Cast ? graph.tensor(n.outputs[0]).dtype : (promote(graph, n) == DType::unknown ? DType::f32 : promote(graph, n)));
            if (m_precision == Precision::tf32 && runsLow(n) && OpRegistry::instance().category(n.op) != OpCategory::attention)
                n.dtype = DType::tf32;
        } else if (n.kind == OpKind::Cast) {
            n.dtype = graph.tensor(n.outputs[0]).dtype;
        } else if (n.kind == OpKind::CastLike && n.inputs.size() > 1) {
            setOutputs(graph, n, graph.tensor(n.inputs[1]).dtype);
        } else if (isDecodeOp(n.kind)) {
            // Generation computes in the half type on the weights as stored: autocast's
            // cache of weight casts belongs to the training forward's context, and a cast
            // shared with it would keep a half copy of every weight alive in between.
            setOutputs(graph, n, low);
        } else if (isAutocast(m_precision) && runsLow(n)) {
            const std::vector<int> inputs = n.inputs;
            for (std::size_t i = 0; i < inputs.size(); ++i) {
                const int t = inputs[i];
                if (t < 0 || !isFloating(graph.tensor(t).dtype) || graph.tensor(t).dtype == low) continue;
                int cast;
                if (graph.tensor(t).role == TensorRole::weight) {
                    auto it = weightCasts.find(t);
                    cast = it != weightCasts.end() ? it->second : addCast(id, t, low, graph.tensor(t).name + ".cast");
                    weightCasts[t] = cast;
                } else {
                    cast = addCast(id, t, low, graph.node(id).name + ".cast_in" + std::to_string(i));
                }
                replaceInput(graph, id, t, cast);
            }
            setOutputs(graph, graph.node(id), low);
        } else if (isAutocast(m_precision) && runsFp32(n)) {
            const std::vector<int> inputs = n.inputs;
            for (std::size_t i = 0; i < inputs.size(); ++i) {
                const int t = inputs[i];
                if (t < 0 || graph.tensor(t).dtype != low) continue;
                replaceInput(graph, id, t, addCast(id, t, DType::f32, graph.node(id).name + ".cast_in" + std::to_string(i)));
            }
            setOutputs(graph, graph.node(id), DType::f32);
        } else if (keepsInputDType(n) && !n.inputs.empty()) {
            setOutputs(graph, n, graph.tensor(n.inputs[0]).dtype);
        } else if (n.kind == OpKind::Embedding) {
            setOutputs(graph, n, graph.tensor(n.inputs[1]).dtype);
        } else {
            const DType p = promote(graph, n);
            setOutputs(graph, n, p == DType::unknown ? low : p);
        }
        newOrder.push_back(id);
    }
    // Casts to the dtype a tensor already has (the zoo's loss upcast in fp32, HF RMSNorm's
    // .to(float32) of the fp32 residual stream under autocast) are views.
    for (int id : newOrder) {
        const Node& n = graph.node(id);
        if ((n.kind == OpKind::Cast || n.kind == OpKind::CastLike) && graph.tensor(n.inputs[0]).dtype == graph.tensor(n.outputs[0]).dtype) {
            bypassNode(graph, id);
            ++stats.nodesRemoved;
        }
    }
    std::vector<int> live;
    for (int id : newOrder)
        if (!graph.isRemoved(id)) live.push_back(id);
    reorderNodes(graph, live);
    return {};
}

}  // namespace npu::engine
