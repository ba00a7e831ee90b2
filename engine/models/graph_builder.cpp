#include "engine/models/graph_builder.h"

namespace npu::engine {

GraphBuilder::GraphBuilder(std::string graphName) { m_graph.name = std::move(graphName); }

int GraphBuilder::input(const std::string& name, std::vector<std::int64_t> shape, DType dtype) {
    const int id = m_graph.addTensor(name, std::move(shape), dtype, TensorRole::input);
    m_graph.inputs.push_back(id);
    return id;
}

int GraphBuilder::weight(const std::string& name, std::vector<std::int64_t> shape) {
    return m_graph.addTensor(name, std::move(shape), DType::f32, TensorRole::weight);
}

int GraphBuilder::buffer(const std::string& name, std::vector<std::int64_t> shape) {
    return m_graph.addTensor(name, std::move(shape), DType::f32, TensorRole::input);
}

std::vector<int> GraphBuilder::ops(OpKind opType, const std::string& name, std::vector<int> inputs,
                                   Attributes attrs, int nOutputs) {
    std::vector<int> outs;
    for (int i = 0; i < nOutputs; ++i)
        outs.push_back(m_graph.addTensor(i == 0 ? name : name + ".out" + std::to_string(i), {}, DType::f32,
                                         TensorRole::activation));
    const int id = m_graph.addNode(opType, name, std::move(inputs), outs, std::move(attrs));
    m_graph.node(id).block = m_block;
    if (auto s = OpRegistry::instance().inferNode(m_graph, id); !s && !m_error) m_error = s.error();
    return outs;
}

Expected<Graph> GraphBuilder::finish() {
    if (m_error) return *m_error;
    return std::move(m_graph);
}

}  // namespace npu::engine
