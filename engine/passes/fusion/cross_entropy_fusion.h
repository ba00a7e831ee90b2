#pragma once
// Level 3: the loss (an fp32 upcast of the logits, LogSoftmax, NLLLoss; or Softmax, Log,
// NLLLoss) becomes one kernel that never writes the log-probabilities; the backward
// kernel recomputes them from the logits (Liger/Inductor fused cross-entropy).

#include "engine/passes/fusion/fusion_pass.h"

namespace npu::engine {

class CrossEntropyFusion : public FusionPass {
public:
    std::string name() const override { return "cross-entropy"; }
    int level() const override { return 3; }

protected:
    void match(FusionContext& context) override;
};

}  // namespace npu::engine
