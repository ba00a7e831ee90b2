#include "engine/ir/graph.h"

#include <algorithm>
#include <queue>
#include <unordered_map>

namespace npu::engine {

int Graph::addTensor(std::string tensorName, std::vector<std::int64_t> shape, DType dtype, TensorRole role) {
    Tensor t;
    t.id = static_cast<int>(m_tensors.size());
    t.name = std::move(tensorName);
    t.shape = std::move(shape);
    t.dtype = dtype;
    t.role = role;
    m_tensors.push_back(std::move(t));
    return m_tensors.back().id;
}

int Graph::addNode(std::string op, std::string nodeName, std::vector<int> ins, std::vector<int> outs,
                   Attributes attrs, Phase phase, DType dtype) {
    Node n;
    n.id = static_cast<int>(m_nodes.size());
    n.setOp(std::move(op));
    n.name = std::move(nodeName);
    n.inputs = std::move(ins);
    n.outputs = std::move(outs);
    n.attrs = std::move(attrs);
    n.phase = phase;
    n.dtype = dtype;
    for (int t : n.inputs)
        if (t >= 0) m_tensors[static_cast<size_t>(t)].consumers.push_back(n.id);
    for (int t : n.outputs)
        if (t >= 0) m_tensors[static_cast<size_t>(t)].producer = n.id;
    m_nodes.push_back(std::move(n));
    m_removed.push_back(false);
    return m_nodes.back().id;
}

int Graph::addNode(OpKind kind, std::string nodeName, std::vector<int> ins, std::vector<int> outs, Attributes attrs,
                   Phase phase, DType dtype) {
    return addNode(std::string(opKindName(kind)), std::move(nodeName), std::move(ins), std::move(outs), std::move(attrs),
                   phase, dtype);
}

std::vector<int> Graph::topologicalOrder() const {
    const size_t n = m_nodes.size();
    std::vector<int> indegree(n, 0);
    for (const auto& node : m_nodes) {
        if (isRemoved(node.id)) continue;
        for (int t : node.inputs) {
            if (t < 0) continue;
            const int p = m_tensors[static_cast<size_t>(t)].producer;
            if (p >= 0 && !isRemoved(p)) ++indegree[static_cast<size_t>(node.id)];
        }
    }
    std::priority_queue<int, std::vector<int>, std::greater<>> ready;
    for (const auto& node : m_nodes)
        if (!isRemoved(node.id) && indegree[static_cast<size_t>(node.id)] == 0) ready.push(node.id);
    std::vector<int> order;
    order.reserve(n);
    while (!ready.empty()) {
        const int id = ready.top();
        ready.pop();
        order.push_back(id);
        for (int t : m_nodes[static_cast<size_t>(id)].outputs) {
            if (t < 0) continue;
            for (int c : m_tensors[static_cast<size_t>(t)].consumers) {
                if (isRemoved(c)) continue;
                if (--indegree[static_cast<size_t>(c)] == 0) ready.push(c);
            }
        }
    }
    return order;
}

std::int64_t Graph::parameterCount() const {
    std::int64_t total = 0;
    for (const auto& t : m_tensors)
        if (t.role == TensorRole::weight) total += t.numel();
    return total;
}

void Graph::markRemoved(int nodeId) { m_removed[static_cast<size_t>(nodeId)] = true; }

bool Graph::isRemoved(int nodeId) const {
    return nodeId >= 0 && static_cast<size_t>(nodeId) < m_removed.size() && m_removed[static_cast<size_t>(nodeId)];
}

void Graph::compact() {
    std::vector<int> remap(m_nodes.size(), -1);
    std::vector<Node> kept;
    kept.reserve(m_nodes.size());
    for (auto& node : m_nodes) {
        if (isRemoved(node.id)) continue;
        remap[static_cast<size_t>(node.id)] = static_cast<int>(kept.size());
        kept.push_back(std::move(node));
    }
    for (auto& node : kept) {
        node.id = remap[static_cast<size_t>(node.id)];
        if (node.forwardNode >= 0) node.forwardNode = remap[static_cast<size_t>(node.forwardNode)];
    }
    for (auto& t : m_tensors) {
        t.producer = t.producer >= 0 ? remap[static_cast<size_t>(t.producer)] : -1;
        std::vector<int> consumers;
        for (int c : t.consumers)
            if (remap[static_cast<size_t>(c)] >= 0) consumers.push_back(remap[static_cast<size_t>(c)]);
        t.consumers = std::move(consumers);
    }
    m_nodes = std::move(kept);
    m_removed.assign(m_nodes.size(), false);
}

}  // namespace npu::engine
