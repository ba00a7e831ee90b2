#pragma once
// Level 2: Conv + BatchNormalization (+ Relu/Clip). Inference (no backward): BN folds
// into the conv and the activation runs in its epilogue (onnxruntime's Conv+BN fold,
// cuDNN conv-bias-activation). Training: BN and the activation become one kernel, forward
// and backward; the conv stays separate (the batch statistics need its whole output).

#include "engine/passes/fusion/fusion_pass.h"

namespace npu::engine {

class ConvBnActivationFusion : public FusionPass {
public:
    std::string name() const override { return "conv-bn-activation"; }
    int level() const override { return 2; }

protected:
    void match(FusionContext& context) override;
};

}  // namespace npu::engine
