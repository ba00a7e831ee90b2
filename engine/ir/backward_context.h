#pragma once
// What an op's backward rule (OpTraits::backward, registered with the op in its
// engine/ir/ops/ family file) sees and appends to: the forward node, the gradients of its
// outputs and which inputs need a gradient. A rule appends the backward nodes that
// produce those input gradients (or aliases an existing gradient where backward is free,
// e.g. through a view or an Add). The training pass (engine/passes/training_graph_pass)
// walks the forward nodes in reverse program order and runs OpRegistry::emitBackward.

#include "engine/ir/graph.h"

#include <cstddef>
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
    // The first output gradient; -1 when no gradient reaches the node.
    int firstGrad() const;
    bool need(std::size_t input) const { return input < needGrad.size() && needGrad[input]; }
    // A new gradient tensor shaped like forward tensor `like`.
    int newGrad(int like, const std::string& suffix = ".grad");
    // Appends a backward node stamped with the forward node's block and dtype. (Not
    // "emit": the registry header reaches views/, where Qt defines emit as a macro.)
    int add(OpKind op, const std::string& suffix, std::vector<int> inputs, std::vector<int> outputs,
            Attributes attrs = {});
    // Appends the forward op's "<Op>Grad" node: a kind of its own where the registry has
    // one (SoftmaxGrad, EmbeddingGrad, ...), else a generic backward costed at 2x the forward.
    int addGrad(const std::string& suffix, std::vector<int> inputs, std::vector<int> outputs, Attributes attrs = {});

private:
    int append(std::string op, const std::string& suffix, std::vector<int> inputs, std::vector<int> outputs,
               Attributes attrs);
};

using BackwardRule = void (*)(BackwardContext&);

// The rules of ops that register none: a view's input gradients are views of dY; any
// other op gets one "<Op>Grad" node reading the forward inputs and dY, writing the
// needed input gradients.
void viewBackward(BackwardContext& c);
void genericBackward(BackwardContext& c);

}  // namespace npu::engine
