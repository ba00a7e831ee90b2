#pragma once
// Hugging Face's LLaMA building blocks as its eager PyTorch code runs them, op by op, so
// the graph has the kernels eager pays for (and a compiler fuses away, engine/passes/
// fusion): LlamaRMSNorm and apply_rotary_pos_emb of transformers' modeling_llama.py.

#include "engine/models/graph_builder.h"

#include <string>

namespace npu::engine {

// LlamaRMSNorm.forward: h = x.to(float32); v = h.pow(2).mean(-1, keepdim=True);
// h = h * torch.rsqrt(v + eps); return weight * h.to(x.dtype). Casts to the dtype a tensor
// already has are dropped by the mixed-precision pass (views). Returns the output tensor.
int addHfRmsNorm(GraphBuilder& b, int x, int weight, const std::string& name);

// apply_rotary_pos_emb for one of q/k ([B, S, heads * headDim]): x * cos + rotate_half(x)
// * sin on the [B, S, heads, headDim] view, rotate_half(x) = cat(-x[..., d/2:], x[..., :d/2]);
// cos/sin are the step's [S, 1, headDim] tables (fp32: LlamaRotaryEmbedding computes
// them in the dtype of the fp32 embeddings). Returns the [B, S, heads * headDim] output.
int addHfRotary(GraphBuilder& b, int x, int cos, int sin, std::int64_t heads, std::int64_t headDim, const std::string& name);

}  // namespace npu::engine
