#pragma once
// Activation checkpointing (recomputation), by training.activation_checkpointing:
// - `full`: each repeated block (a transformer layer, a residual block: Node::block)
//   keeps only its input after forward; just before the block's backward its forward is
//   re-run (Phase::recompute nodes) and the block's backward reads the recomputed
//   tensors. What torch.utils.checkpoint per decoder layer (HF gradient checkpointing) and
//   Megatron-LM's --recompute-granularity full do.
// - `selective`: Megatron-LM's --recompute-granularity selective (Korthikanti et al. 2022,
//   sec. 5): only the attention core is recomputed (Q.K^T, scale, mask, softmax, dropout,
//   .V: the nodes the zoo's eager attention marks "attention_core", and a fused attention
//   kernel), so the 5as^2b bytes of its softmax output, mask and dropped probabilities are
//   not kept; everything else is. A flash kernel keeps none of those, so under flash
//   attention `selective` saves almost nothing (its statistics) and costs one attention
//   forward per layer: engine/driver says so in the run's notes.
// - `memory_bound`: keeps the outputs of matmuls, convolutions and attention and
//   recomputes the memory-bound ops between them (norms, activations, rotary, casts,
//   adds): most of a transformer layer's saved bytes per FLOP, whatever the attention
//   kernel. NPU Studio's own mode (before 2026-12 it was called `selective`).

#include "engine/passes/pass.h"

namespace npu::engine {

class ActivationCheckpointingPass : public Pass {
public:
    explicit ActivationCheckpointingPass(std::string mode) : m_mode(std::move(mode)) {}
    std::string name() const override { return "activation-checkpointing"; }

protected:
    Status apply(Graph& graph, PassStats& stats) override;

private:
    std::string m_mode;
};

}  // namespace npu::engine
