#pragma once
// Builds a forward graph op by op for the model zoo: creates output tensors with shapes
// and dtypes from the OpRegistry's shape inference, stamps nodes with the current block,
// and keeps the first error so builder code reads like the model's forward().

#include "engine/ir/graph.h"
#include "engine/ir/op_registry.h"

#include <optional>
#include <string>
#include <vector>

namespace npu::engine {

class GraphBuilder {
public:
    explicit GraphBuilder(std::string graphName);
    // Continues an existing forward graph: engine/training adds fine-tuning adapters
    // (LoRA, virtual tokens, prefixes) to any built model this way, so the model
    // builders stay unaware of the training mode.
    explicit GraphBuilder(Graph graph) : m_graph(std::move(graph)) {}
    Graph& graph() { return m_graph; }

    int input(const std::string& name, std::vector<std::int64_t> shape, DType dtype);
    int weight(const std::string& name, std::vector<std::int64_t> shape);
    // Non-trainable persistent state (BatchNorm running statistics).
    int buffer(const std::string& name, std::vector<std::int64_t> shape);
    // Adds a node and returns its output tensor ids (nOutputs of them).
    // Ops are named by kind: the zoo cannot build an op the registry does not model.
    std::vector<int> ops(OpKind op, const std::string& name, std::vector<int> inputs,
                         Attributes attrs = {}, int nOutputs = 1);
    int op(OpKind op, const std::string& name, std::vector<int> inputs, Attributes attrs = {}) {
        return ops(op, name, std::move(inputs), std::move(attrs), 1)[0];
    }

    void setBlock(std::string block) { m_block = std::move(block); }
    void markOutput(int tensor) { m_graph.outputs.push_back(tensor); }
    const Tensor& tensor(int id) const { return m_graph.tensor(id); }

    Expected<Graph> finish();

private:
    Graph m_graph;
    std::string m_block;
    std::optional<Error> m_error;
};

}  // namespace npu::engine
