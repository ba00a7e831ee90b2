#pragma once
// Level 2: a matmul's bias Add, activation (Relu, Gelu, SiLU, Sigmoid, Tanh) and output
// cast run in its epilogue (cuBLASLt epilogues, Inductor's templates); in backward, the
// cast of a gradient to the master weights' fp32 and a gradient accumulation Add too.

#include "engine/passes/fusion/fusion_pass.h"

namespace npu::engine {

class MatmulEpilogueFusion : public FusionPass {
public:
    std::string name() const override { return "matmul-epilogue"; }
    int level() const override { return 2; }

protected:
    void match(FusionContext& context) override;
};

}  // namespace npu::engine
