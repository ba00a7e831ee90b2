#pragma once
// Attention as eager PyTorch computes it without a fused kernel (HF GPT2Attention._attn,
// Megatron-LM without flash attention), op by op from registry ops, so the graph holds the
// [B, heads, S, S] tensors autograd saves: q.k^T (MatMul, saves q and k), the scale (Mul
// by a 0-d tensor, saves nothing), the causal mask (Where, saves only its condition, a
// buffer), Softmax (saves its output), Dropout (saves its 1-byte mask) and probs.v
// (MatMul, saves the dropped probabilities and v). The head split/merge are views.
// graph_level 3's attention fusion (engine/passes/fusion/attention_fusion) turns this
// back into one flash kernel.

#include "engine/models/graph_builder.h"

#include <string>

namespace npu::engine {

struct EagerAttentionShape {
    std::int64_t heads = 1;    // query heads (this rank's)
    std::int64_t kvHeads = 0;  // key/value heads (GQA when fewer; 0 = heads)
    std::int64_t headDim = 1;
    double dropout = 0;        // attention-probability dropout; 0 emits no Dropout (torch returns its input)
    // HF LLaMA's eager_attention_forward: softmax(w, dtype=float32).to(query.dtype), so the
    // softmax output autograd saves is fp32 (GPT2Attention keeps the scores' dtype).
    bool softmaxFp32 = false;
    // Megatron-LM's unfused core attention (megatron/model/fused_softmax.py): the 1/sqrt(d)
    // scale is the scores GEMM's alpha (torch.baddbmm) and the causal mask is applied inside
    // one fused scale-mask-softmax kernel (and its backward in one), so no Mul and no Where
    // pass over the [B, heads, S, S] scores; the softmax output is what it saves.
    bool fusedScaleMaskSoftmax = false;
};

// q as [B, S, heads * headDim], k and v as [B, S, kvHeads * headDim] (HF's repeat_kv
// copies them to `heads` heads first: expand + reshape, one copy each, saving nothing);
// returns the [B, S, heads * headDim] context.
// `causalMask` is a bool [S, S] buffer (true = attend), shared by the layers.
int addEagerAttention(GraphBuilder& b, int q, int k, int v, int causalMask, const EagerAttentionShape& shape,
                      const std::string& name);

// The bool [S, S] lower-triangular mask buffer addEagerAttention reads (HF GPT2's
// registered "bias" buffer, sliced to the step's length).
int addCausalMaskBuffer(GraphBuilder& b, std::int64_t seq, const std::string& name);

}  // namespace npu::engine
