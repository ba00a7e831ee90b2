#pragma once
// Level 2: GELU from its erf form (x/sqrt2, Erf, +1, *x, *0.5) or tanh form (x^3,
// *0.044715, +x, *sqrt(2/pi), Tanh, +1, *x, *0.5) becomes one elementwise kernel.

#include "engine/passes/fusion/fusion_pass.h"

namespace npu::engine {

class GeluFusion : public FusionPass {
public:
    std::string name() const override { return "gelu"; }
    int level() const override { return 2; }

protected:
    void match(FusionContext& context) override;
};

}  // namespace npu::engine
