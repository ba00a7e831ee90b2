#pragma once
// Level 1: a dtype cast next to a kernel is absorbed into it (TVM's reduction +
// injective epilogue): casts reading a norm's or fused kernel's output are written by
// that kernel directly, a cast whose only reader is an elementwise, norm or loss kernel
// is loaded by it. Casts of weights feeding matmuls stay (the library GEMM reads its own
// dtype).

#include "engine/passes/fusion/fusion_pass.h"

namespace npu::engine {

class CastFoldingFusion : public FusionPass {
public:
    std::string name() const override { return "cast-folding"; }
    int level() const override { return 1; }

protected:
    void match(FusionContext& context) override;
};

}  // namespace npu::engine
