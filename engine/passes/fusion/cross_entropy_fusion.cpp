#include "engine/passes/fusion/cross_entropy_fusion.h"

namespace npu::engine {

void CrossEntropyFusion::match(FusionContext& ctx) {
    Graph& g = ctx.graph();
    const int count = static_cast<int>(g.nodes().size());
    for (int id = 0; id < count; ++id) {
        const Node& n = g.node(id);
        if (!isOp(n, {OpKind::LogSoftmax, OpKind::Softmax}) || !ctx.available(id) || n.inputs.empty()) continue;
        std::vector<int> nodes{id};
        int probs = id;
        if (n.kind == OpKind::Softmax) {  // Softmax then Log
            const int log = ctx.soleConsumer(id);
            if (log < 0 || !ctx.available(log) || g.node(log).kind != OpKind::Log) continue;
            nodes.push_back(log);
            probs = log;
        }
        const int nll = ctx.soleConsumer(probs);
        if (nll < 0 || !ctx.available(nll) || g.node(nll).kind != OpKind::NLLLoss) continue;
        nodes.push_back(nll);
        // The fp32 upcast of the logits is read inside the kernel.
        const int up = ctx.producer(n.inputs[0]);
        if (up >= 0 && ctx.available(up) && g.node(up).kind == OpKind::Cast && ctx.soleConsumer(up) == id) nodes.push_back(up);
        FusionRequest r{nodes, OpKind::FusedLoss, "cross_entropy"};
        ctx.fuse(r);
    }
}

}  // namespace npu::engine
