#pragma once
// Level 1: chains of elementwise (injective) ops become one kernel, TVM's injective rule: a
// node joins its producer's kernel when it is that producer's only reader. A register-
// pressure cap bounds a kernel: at most kMaxOps ops and kMaxInputs distinct inputs
// (each input is a live load stream per thread). Forward and backward chains alike.

#include "engine/passes/fusion/fusion_pass.h"

namespace npu::engine {

class ElementwiseChainFusion : public FusionPass {
public:
    std::string name() const override { return "elementwise-chain"; }
    int level() const override { return 1; }

protected:
    void match(FusionContext& context) override;
};

}  // namespace npu::engine
