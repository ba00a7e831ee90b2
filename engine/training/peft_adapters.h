#pragma once
// The parameter-efficient methods of Hugging Face PEFT applied to a built forward graph
// (any zoo or imported model): every weight of the model is frozen and the method's new
// parameters are the only ones that train.
//   lora           A [r, in] and B [out, r] beside each targeted linear layer:
//                  y = W·x + (B·(A·dropout(x)))·alpha/r, as LoraLayer.forward runs it.
//   prompt_tuning  an Embedding(num_virtual_tokens, hidden) prepended to the input
//                  embeddings: the model runs num_virtual_tokens more positions.
//   p_tuning       the same prompt produced by PEFT's PromptEncoder (MLP or 2-layer
//                  bidirectional LSTM + MLP head of encoder_hidden_size).
//   prefix_tuning  trainable key/value prefixes of num_virtual_tokens in every attention
//                  (PEFT's PrefixEncoder without projection): queries stay S long, keys and
//                  values grow to num_virtual_tokens + S.
// The adapters' ops are ordinary graph nodes, so their cost comes from the op registry and
// their backward from the training pass like every other op.

#include "base/expected.h"
#include "engine/ir/graph.h"
#include "engine/project/training_mode.h"

#include <cstdint>

namespace npu::engine {

// The sequence the model is built for: prompt and P-tuning put their virtual tokens in
// front of the input; prefix tuning puts them in the keys/values only.
std::int64_t modelSequenceLength(const TrainingMode& mode, std::int64_t seq);

// computeDType: the precision's half type (bf16/f16) or f32; LoRA's half_base stores the
// frozen weights in it, and the LoRA scaling constant has it (a Python float multiplying
// an activation does not promote it). Errors name the key (training.lora.target_modules).
Status applyParameterEfficientMethod(Graph& graph, const TrainingMode& mode, DType computeDType);

// Freezes every weight of the graph (a reference or reward model).
void freezeAllWeights(Graph& graph);

struct ParameterSplit {
    std::int64_t trainable = 0;
    std::int64_t frozen = 0;
};
// Sums over the weight tensors of a forward graph (after the training pass the graph has
// optimizer states but the same weights).
ParameterSplit parameterSplit(const Graph& graph);

}  // namespace npu::engine
