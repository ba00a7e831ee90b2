#pragma once
// Level 2: RMSNorm from its decomposed form (Pow 2, ReduceMean, Add eps, then Rsqrt and Mul
// (HF eager), or Sqrt then Div or Reciprocal and Mul (ONNX exports), then the optional
// cast back and Mul gamma; an fp32 upcast in front) becomes one norm kernel.

#include "engine/passes/fusion/fusion_pass.h"

namespace npu::engine {

class RmsNormFusion : public FusionPass {
public:
    std::string name() const override { return "rms-norm"; }
    int level() const override { return 2; }

protected:
    void match(FusionContext& context) override;
};

}  // namespace npu::engine
