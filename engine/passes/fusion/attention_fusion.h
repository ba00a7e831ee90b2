#pragma once
// Level 3: attention in its decomposed form (MatMul q.k^T, scale, mask Add or Where,
// casts, Softmax, casts, Dropout, MatMul .v: ONNX exports and the zoo's eager attention)
// becomes one flash-attention kernel: the S x S scores and probabilities are never
// written; the backward kernel recomputes them from q, k, v (and its dropout mask from
// the RNG seed).

#include "engine/passes/fusion/fusion_pass.h"

namespace npu::engine {

class AttentionFusion : public FusionPass {
public:
    std::string name() const override { return "attention"; }
    int level() const override { return 3; }

protected:
    void match(FusionContext& context) override;
};

}  // namespace npu::engine
