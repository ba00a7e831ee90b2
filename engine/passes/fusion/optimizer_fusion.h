#pragma once
// Level 3: per-parameter optimizer updates (AdamW, SGD) become one multi-tensor kernel,
// as torch's fused/foreach optimizers run them.

#include "engine/passes/fusion/fusion_pass.h"

namespace npu::engine {

class OptimizerFusion : public FusionPass {
public:
    std::string name() const override { return "multi-tensor-optimizer"; }
    int level() const override { return 3; }

protected:
    void match(FusionContext& context) override;
};

}  // namespace npu::engine
