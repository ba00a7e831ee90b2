#include "engine/passes/fusion/attention_fusion.h"

namespace npu::engine {

void AttentionFusion::match(FusionContext& ctx) {
    Graph& g = ctx.graph();
    const int count = static_cast<int>(g.nodes().size());
    for (int id = 0; id < count; ++id) {
        const Node& sm = g.node(id);
        if (sm.kind != OpKind::Softmax || !ctx.available(id) || sm.inputs.empty()) continue;
        // Back from the softmax: scale / mask ops, then the q.k^T MatMul.
        std::vector<int> nodes{id};
        int cur = id, scores = -1;
        for (int step = 0; step < 4; ++step) {
            int next = -1;
            for (int t : g.node(cur).inputs) {
                const int p = ctx.producer(t);
                if (p >= 0 && ctx.available(p) && ctx.soleConsumer(p) == cur) {
                    next = p;
                    break;
                }
            }
            if (next < 0) break;
            if (g.node(next).kind == OpKind::MatMul) {
                scores = next;
                break;
            }
            if (!isOp(g.node(next), {OpKind::Div, OpKind::Mul, OpKind::Add, OpKind::Where, OpKind::Cast})) break;
            nodes.push_back(next);
            cur = next;
        }
        if (scores < 0) continue;
        nodes.push_back(scores);
        // Forward: optional Dropout / casts (HF LLaMA's softmax(dtype=float32).to(q.dtype),
        // autocast's cast before the matmul), then the probabilities . v MatMul.
        cur = id;
        int out = -1;
        for (int step = 0; step < 4; ++step) {
            const int c = ctx.soleConsumer(cur);
            if (c < 0 || !ctx.available(c)) break;
            if (g.node(c).kind == OpKind::MatMul && g.node(c).inputs[0] == g.node(cur).outputs[0]) {
                out = c;
                break;
            }
            if (!isOp(g.node(c), {OpKind::Dropout, OpKind::Cast, OpKind::CastLike})) break;
            nodes.push_back(c);
            cur = c;
        }
        if (out < 0) continue;
        nodes.push_back(out);
        FusionRequest r{nodes, OpKind::FusedAttention, "flash_attention"};
        r.regeneratesDropoutMask = true;  // flash kernels keep the Philox seed/offset, not the mask
        ctx.fuse(r);
    }
}

}  // namespace npu::engine
