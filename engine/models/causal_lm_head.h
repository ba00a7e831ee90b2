#pragma once
// The LM head and loss shared by the decoder-only zoo models (llama, gpt), built as
// HF's ForCausalLMLoss runs it: logits in the compute dtype, .float(), then
// cross_entropy = log_softmax + nll_loss. The logits stay a graph output because the
// model returns them to the caller, which keeps them alive until the step ends (this is
// what makes simulated peak memory match the measured one).

#include "engine/models/graph_builder.h"

namespace npu::engine {

void addCausalLmHeadAndLoss(GraphBuilder& b, int finalHidden, int headWeight, int labels);

}  // namespace npu::engine
