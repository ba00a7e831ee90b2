#include "engine/passes/graph_edit.h"

#include <algorithm>

namespace npu::engine {

void reorderNodes(Graph& graph, const std::vector<int>& order) {
    Graph out;
    out.name = graph.name;
    out.inputs = graph.inputs;
    out.outputs = graph.outputs;
    for (const Tensor& t : graph.tensors()) {
        const int id = out.addTensor(t.name, t.shape, t.dtype, t.role);
        out.tensor(id).symbolicDims = t.symbolicDims;
        out.tensor(id).frozen = t.frozen;
        out.tensor(id).persistent = t.persistent;
    }
    std::vector<int> remap(graph.nodes().size(), -1);
    for (std::size_t i = 0; i < order.size(); ++i) remap[static_cast<std::size_t>(order[i])] = static_cast<int>(i);
    for (int oldId : order) {
        const Node& n = graph.node(oldId);
        const int id = out.addNode(n.op, n.name, n.inputs, n.outputs, n.attrs, n.phase, n.dtype);
        Node& m = out.node(id);
        m.block = n.block;
        m.opaque = n.opaque;
        m.forwardNode = n.forwardNode >= 0 ? remap[static_cast<std::size_t>(n.forwardNode)] : -1;
    }
    graph = std::move(out);
}

void replaceInput(Graph& graph, int nodeId, int from, int to) {
    Node& n = graph.node(nodeId);
    bool changed = false;
    for (int& t : n.inputs)
        if (t == from) {
            t = to;
            changed = true;
        }
    if (!changed) return;
    auto& oldConsumers = graph.tensor(from).consumers;
    oldConsumers.erase(std::remove(oldConsumers.begin(), oldConsumers.end(), nodeId), oldConsumers.end());
    graph.tensor(to).consumers.push_back(nodeId);
}

void bypassNode(Graph& graph, int nodeId) {
    const Node& n = graph.node(nodeId);
    if (n.inputs.empty() || n.outputs.empty()) return;
    const int in = n.inputs[0], out = n.outputs[0];
    for (int c : std::vector<int>(graph.tensor(out).consumers)) replaceInput(graph, c, out, in);
    for (int& t : graph.outputs)
        if (t == out) t = in;
    graph.markRemoved(nodeId);
}

int cloneTensor(Graph& graph, int tensorId, const std::string& name, std::optional<TensorRole> role, std::optional<DType> dtype) {
    const Tensor src = graph.tensor(tensorId);
    const int id = graph.addTensor(name, src.shape, dtype.value_or(src.dtype), role.value_or(src.role));
    graph.tensor(id).symbolicDims = src.symbolicDims;
    return id;
}

}  // namespace npu::engine
