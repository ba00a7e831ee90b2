#pragma once
// Level 2: the rotary embeddings of q and k of one attention block run as one kernel
// (they read the same cos/sin table), forward and backward.

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
