#pragma once
// Level 2: HF's decomposed rotary (x * cos + cat(-x2, x1) * sin) becomes one kernel per
// q/k; Rotary nodes (fused-kernel models) of q and k of one attention block run as one
// kernel (they read the same cos/sin table); forward and backward.

#include "engine/passes/fusion/fusion_pass.h"

namespace npu::engine {

class RotaryFusion : public FusionPass {
public:
    std::string name() const override { return "rotary"; }
    int level() const override { return 2; }

protected:
    void match(FusionContext& context) override;
};

}  // namespace npu::engine
