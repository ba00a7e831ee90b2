#pragma once
// Level 2: bias Add, Dropout and the residual Add after a projection become one kernel
// that writes the sum and the dropout mask.

#include "engine/passes/fusion/fusion_pass.h"

namespace npu::engine {

class BiasDropoutResidualFusion : public FusionPass {
public:
    std::string name() const override { return "bias-dropout-residual"; }
    int level() const override { return 2; }

protected:
    void match(FusionContext& context) override;
};

}  // namespace npu::engine
