#include "engine/passes/fusion/matmul_epilogue_fusion.h"

#include "engine/ir/op_registry.h"

namespace npu::engine {

namespace {

bool isMatmul(const Node& n) { return isOp(n, {OpKind::MatMul, OpKind::Linear, OpKind::Gemm}); }

// A bias: an Add whose other input is a weight (a 1-D vector broadcast over rows).
bool isBiasAdd(const Graph& g, const Node& n, int from) {
    if (n.kind != OpKind::Add || n.inputs.size() != 2) return false;
    const int other = n.inputs[0] == from ? n.inputs[1] : n.inputs[0];
    return other >= 0 && g.tensor(other).role == TensorRole::weight;
}

}  // namespace

void MatmulEpilogueFusion::match(FusionContext& ctx) {
    Graph& g = ctx.graph();
    const int count = static_cast<int>(g.nodes().size());
    for (int id = 0; id < count; ++id) {
        const Node& mm = g.node(id);
        if (!isMatmul(mm) || !ctx.available(id) || mm.outputs.empty()) continue;
        std::vector<int> nodes{id}, epilogue;
        int cur = id;
        // Forward: bias, activation, cast (at most one of each, in that order).
        // Backward: the fp32 cast of a gradient, or the Add accumulating it (beta = 1) into
        // the buffer an earlier gradient began (the Add's first input, training_graph_pass).
        // Not the other way round: when the GEMM's gradient is the first (a tied embedding's
        // lm_head), the Add waits for the later one (the embedding's, at the end of the
        // backward), and fused with it the GEMM would wait too, holding the logits' gradient
        // through the whole backward. Megatron's fused accumulation adds into main_grad when
        // the GEMM runs.
        for (int step = 0; step < 3; ++step) {
            const int c = ctx.soleConsumer(cur);
            if (c < 0 || !ctx.available(c) || g.node(c).phase != mm.phase) break;
            const Node& n = g.node(c);
            const int from = g.node(cur).outputs[0];
            const bool ok = mm.phase == Phase::forward
                                ? (step == 0 && isBiasAdd(g, n, from)) || isOp(n, {OpKind::Relu, OpKind::Gelu, OpKind::SiLU, OpKind::Sigmoid, OpKind::Tanh, OpKind::Cast}) ||
                                      (n.kind == OpKind::FusedElementwise && n.attrString("pattern") == "gelu")
                                : isOp(n, {OpKind::Cast}) || (n.kind == OpKind::Add && step == 0 && n.inputs.size() == 2 && n.inputs[1] == from);
            if (!ok) break;
            nodes.push_back(c);
            epilogue.push_back(c);
            cur = c;
            if (n.kind == OpKind::Cast) break;
        }
        if (epilogue.empty()) continue;
        FusionRequest r{nodes, OpKind::FusedMatMul, "matmul_epilogue", OpKind::FusedElementwise, epilogue};
        r.recompute = false;
        ctx.fuse(r);
    }
}

}  // namespace npu::engine
