#pragma once
// Gradient rules of the training pass, one per op family. Each rule sees the forward
// node, the gradients of its outputs and which inputs need a gradient, and appends the
// backward nodes that produce those input gradients (or aliases an existing gradient
// where backward is free, e.g. through a view or an Add).

#include "engine/ir/graph.h"

#include <string>
#include <vector>

namespace npu::engine {

struct BackwardContext {
    Graph& graph;
    int forward = -1;             // forward node id
    std::vector<int> dOut;        // gradient tensor per forward output (-1: none)
    std::vector<bool> needGrad;   // per forward input
    std::vector<int> dIn;         // result: gradient tensor per forward input (-1: none)
    std::vector<int> emitted;     // backward node ids, in program order

    const Node& fwd() const { return graph.node(forward); }
    // A new gradient tensor shaped like forward tensor `like`.
    int newGrad(int like, const std::string& suffix = ".grad");
    // Appends a backward node stamped with the forward node's block and dtype.
    int emit(const std::string& op, const std::string& suffix, std::vector<int> inputs, std::vector<int> outputs,
             Attributes attrs = {});
};

void emitBackward(BackwardContext& ctx);

}  // namespace npu::engine
