#pragma once
// Level 2: Conv + BatchNormalization (+ Relu/Clip) as one conv kernel with a fused
// epilogue (cuDNN's conv-bias-activation fusion; in training the batch statistics are
// reduced in the epilogue). Forward and backward: the backward group holds the conv
// gradients with the BN and activation gradients as their prologue.

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
