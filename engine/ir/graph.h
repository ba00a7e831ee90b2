#pragma once
// The engine's graph IR: tensors and nodes in arrays indexed by id, with producer and
// consumer links kept up to date by the builders. Nodes are appended in a valid
// topological order by the builders; topologicalOrder() recomputes it after passes.

#include "engine/ir/node.h"
#include "engine/ir/tensor.h"

#include <cstdint>
#include <string>
#include <vector>

namespace npu::engine {

class Graph {
public:
    std::string name;

    int addTensor(std::string name, std::vector<std::int64_t> shape, DType dtype, TensorRole role);
    // Appends a node, links producers/consumers. Returns the node id.
    int addNode(std::string op, std::string name, std::vector<int> inputs, std::vector<int> outputs,
                Attributes attrs = {}, Phase phase = Phase::forward, DType dtype = DType::f32);
    // The same for an op of ours: engine code names its ops by kind, never by a string.
    int addNode(OpKind kind, std::string name, std::vector<int> inputs, std::vector<int> outputs,
                Attributes attrs = {}, Phase phase = Phase::forward, DType dtype = DType::f32);

    Tensor& tensor(int id) { return m_tensors[static_cast<size_t>(id)]; }
    const Tensor& tensor(int id) const { return m_tensors[static_cast<size_t>(id)]; }
    Node& node(int id) { return m_nodes[static_cast<size_t>(id)]; }
    const Node& node(int id) const { return m_nodes[static_cast<size_t>(id)]; }
    const std::vector<Tensor>& tensors() const { return m_tensors; }
    const std::vector<Node>& nodes() const { return m_nodes; }
    std::vector<Tensor>& tensors() { return m_tensors; }
    std::vector<Node>& nodes() { return m_nodes; }

    std::vector<int> inputs;   // graph input tensor ids (data, labels)
    std::vector<int> outputs;  // graph output tensor ids (loss, logits)

    // Kahn's algorithm over tensor dependencies; stable with respect to node id.
    std::vector<int> topologicalOrder() const;

    // Sum of elements of tensors with role weight (the model's parameters).
    std::int64_t parameterCount() const;

    // Drops nodes whose `removed` flag is set by passes and re-links tensors.
    void markRemoved(int nodeId);
    bool isRemoved(int nodeId) const;
    void compact();

private:
    std::vector<Tensor> m_tensors;
    std::vector<Node> m_nodes;
    std::vector<bool> m_removed;
};

}  // namespace npu::engine
