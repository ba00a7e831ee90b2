#include "engine/models/causal_lm_head.h"

#include <cstdint>
#include <string>

namespace npu::engine {

void addCausalLmHeadAndLoss(GraphBuilder& b, int finalHidden, int headWeight, int labels) {
    const int logits = b.op(OpKind::Linear, "lm_head", {finalHidden, headWeight});
    const int logits32 = b.op(OpKind::Cast, "loss.upcast", {logits}, {{"to", std::string("fp32")}});
    const int logProbs = b.op(OpKind::LogSoftmax, "loss.log_softmax", {logits32}, {{"axis", std::int64_t{-1}}});
    b.markOutput(b.op(OpKind::NLLLoss, "loss.nll", {logProbs, labels}));
    b.markOutput(logits);
}

}  // namespace npu::engine
