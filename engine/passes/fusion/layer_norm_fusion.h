#pragma once
// Level 2: LayerNorm from its decomposed ONNX form (ReduceMean, Sub, Pow, ReduceMean,
// Add eps, Sqrt, Div, then the optional Mul gamma, Add beta) becomes one norm kernel.

#include "engine/passes/fusion/fusion_pass.h"

namespace npu::engine {

class LayerNormFusion : public FusionPass {
public:
    std::string name() const override { return "layer-norm"; }
    int level() const override { return 2; }

protected:
    void match(FusionContext& context) override;
};

}  // namespace npu::engine
