#pragma once
// Level 2: the residual Add feeding a LayerNorm/RMSNorm is computed by the norm kernel,
// which writes the sum for the residual stream and the normalised output together.

#include "engine/passes/fusion/fusion_pass.h"

namespace npu::engine {

class ResidualAddNormFusion : public FusionPass {
public:
    std::string name() const override { return "residual-add-norm"; }
    int level() const override { return 2; }

protected:
    void match(FusionContext& context) override;
};

}  // namespace npu::engine
