#pragma once
// Level 2: SwiGLU, silu(gate) * up (SiLU then Mul, or Sigmoid, Mul, Mul), becomes one kernel;
// its backward recomputes silu(gate) instead of reading it saved.

#include "engine/passes/fusion/fusion_pass.h"

namespace npu::engine {

class SwigluFusion : public FusionPass {
public:
    std::string name() const override { return "swiglu"; }
    int level() const override { return 2; }

protected:
    void match(FusionContext& context) override;
};

}  // namespace npu::engine
