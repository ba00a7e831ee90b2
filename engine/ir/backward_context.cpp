#include "engine/ir/backward_context.h"

#include <utility>

namespace npu::engine {

int BackwardContext::firstGrad() const {
    for (int g : dOut)
        if (g >= 0) return g;
    return -1;
}

int BackwardContext::newGrad(int like, const std::string& suffix) {
    const Tensor& t = graph.tensor(like);
    return graph.addTensor(t.name + suffix, t.shape, t.dtype, TensorRole::gradient);
}

int BackwardContext::append(std::string op, const std::string& suffix, std::vector<int> inputs, std::vector<int> outputs,
                            Attributes attrs) {
    const Node f = fwd();
    const int id = graph.addNode(std::move(op), f.name + suffix, std::move(inputs), std::move(outputs), std::move(attrs),
                                 Phase::backward, f.dtype);
    Node& n = graph.node(id);
    n.block = f.block;
    n.forwardNode = forward;
    emitted.push_back(id);
    return id;
}

int BackwardContext::add(OpKind op, const std::string& suffix, std::vector<int> inputs, std::vector<int> outputs,
                         Attributes attrs) {
    return append(std::string(opKindName(op)), suffix, std::move(inputs), std::move(outputs), std::move(attrs));
}

int BackwardContext::addGrad(const std::string& suffix, std::vector<int> inputs, std::vector<int> outputs,
                             Attributes attrs) {
    return append(fwd().op + "Grad", suffix, std::move(inputs), std::move(outputs), std::move(attrs));
}

void viewBackward(BackwardContext& c) {
    for (std::size_t i = 0; i < c.dIn.size(); ++i)
        if (c.need(i)) c.dIn[i] = c.firstGrad();
}

void genericBackward(BackwardContext& c) {
    const Node f = c.fwd();
    std::vector<int> ins;
    for (int t : f.inputs)
        if (t >= 0) ins.push_back(t);
    for (int g : c.dOut)
        if (g >= 0) ins.push_back(g);
    std::vector<int> outs;
    for (std::size_t i = 0; i < f.inputs.size(); ++i)
        if (c.need(i)) {
            c.dIn[i] = c.newGrad(f.inputs[i]);
            outs.push_back(c.dIn[i]);
        }
    if (!outs.empty()) c.addGrad(".grad", ins, outs, f.attrs);
}

}  // namespace npu::engine
