// Autoregressive generation with a KV cache (PPO's rollout: engine/training/ppo_graph), as
// Hugging Face generate() runs it, one node per model pass rather than per kernel:
//   DecodePrefill(prompt_ids, weights...) -> (kv_cache, next_token)
//       the prompt's forward: every weight read once, the prompt's keys and values written
//       into the cache; compute bound for long prompts.
//   DecodeStep(token, kv_cache, weights..., [position]) -> token (the last step: sequences)
//       one new token per sequence: every weight read once and the cache's `position`
//       past tokens read, one token's keys/values written. At any realistic batch its
//       FLOPs (2 per weight per sequence) are far below the device's rate per byte, so
//       the step is memory bound: t ~ (weight bytes + KV bytes) / HBM bandwidth.
// Attributes (per token, over all layers, set by the builder from the model's attention
// nodes): "q_width" (query features), "kv_width" (key + value features), "prompt_tokens",
// "position" (tokens already in the cache); "eager_ops": the ops one pass of the model
// issues by OpCategory, views last (the simulator's host cost of the node in eager mode:
// generate() dispatches the whole forward per token). Weights come as inputs so their stored dtype
// decides the bytes; the embedding table is not an input (a decode step gathers B rows).
// Category matmul: the cost model uses the matmul rate of the compute dtype for the FLOPs.
#include "engine/ir/ops/op_families.h"
#include "engine/ir/ops/shape_util.h"

namespace npu::engine::ops {
namespace {

struct DecodeShape {
    double batch = 0;
    double kvBytesPerToken = 0;  // per sequence, all layers, K and V
    double weightBytes = 0;
    double weightParams = 0;
};

// cache: the KV cache tensor; weightsFrom: index of the first weight input.
DecodeShape decodeShape(const Graph& g, const Node& n, int cache, std::size_t weightsFrom) {
    DecodeShape d;
    if (const auto* first = boundInputShape(g, n, 0); first && !first->empty()) d.batch = double((*first)[0]);
    const double cacheWidth = double(n.attrInt("kv_width", 0));
    if (cache >= 0) d.kvBytesPerToken = cacheWidth * double(dtypeBytes(g.tensor(cache).dtype));
    for (std::size_t i = weightsFrom; i < n.inputs.size(); ++i) {
        d.weightBytes += tensorBytes(g, n.inputs[i]);
        d.weightParams += numel(g, n.inputs[i]);
    }
    return d;
}

// Prefill: the prompt's forward pass, causal attention over the prompt.
OpCost prefillCost(const Graph& g, const Node& n) {
    const DecodeShape d = decodeShape(g, n, outputAt(n, 0), 1);
    const double p = double(n.attrInt("prompt_tokens", 0));
    OpCost c;
    c.flops = 2 * d.weightParams * d.batch * p + 2 * d.batch * p * p * double(n.attrInt("q_width", 0));
    c.macs = c.flops / 2;
    c.bytesRead = d.weightBytes + tensorBytes(g, inputAt(n, 0));
    c.bytesWritten = d.batch * p * d.kvBytesPerToken + tensorBytes(g, outputAt(n, 1));
    return c;
}

// One decode step at `position` cached tokens: Q·K^T and P·V over them (4 FLOPs per query
// feature per cached token) plus 2 FLOPs per weight per sequence.
OpCost stepCost(const Graph& g, const Node& n) {
    const DecodeShape d = decodeShape(g, n, inputAt(n, 1), 2);
    const double pos = double(n.attrInt("position", 0));
    OpCost c;
    c.flops = 2 * d.weightParams * d.batch + 4 * d.batch * pos * double(n.attrInt("q_width", 0));
    c.macs = c.flops / 2;
    c.bytesRead = d.weightBytes + d.batch * pos * d.kvBytesPerToken + tensorBytes(g, inputAt(n, 0));
    c.bytesWritten = d.batch * d.kvBytesPerToken + tensorBytes(g, outputAt(n, 0));
    return c;
}

}  // namespace

void registerDecodeOps(OpRegistry& r) {
    // Shapes are given by the builder (the cache is allocated for prompt + generated
    // tokens up front, as a static cache is).
    r.add(OpKind::DecodePrefill, {OpCategory::matmul, false, {}, prefillCost});
    r.add(OpKind::DecodeStep, {OpCategory::matmul, false, {}, stepCost});
}

}  // namespace npu::engine::ops

namespace npu::engine {
bool isDecodeOp(OpKind kind) { return kind == OpKind::DecodePrefill || kind == OpKind::DecodeStep; }
}  // namespace npu::engine
