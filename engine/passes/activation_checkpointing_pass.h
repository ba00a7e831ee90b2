#pragma once
// Activation checkpointing (recomputation). `full`: each repeated block (a transformer
// layer, a residual block: Node::block) keeps only its input after forward; just before
// the block's backward its forward is re-run (Phase::recompute nodes) and the block's
// backward reads the recomputed tensors. This is what torch.utils.checkpoint per decoder
// layer (HF gradient checkpointing) does. `selective` keeps the outputs of matmuls,
// convolutions and attention and recomputes only the cheap ops between them (norms,
// activations, rotary, casts, adds): less memory saved than `full`, far less recompute.

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
