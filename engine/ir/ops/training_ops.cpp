// Loss and optimizer ops the zoo and the training pass emit: CrossEntropy (softmax +
// NLL, keeping the fp32 log-probabilities for backward), MeanLoss, AdamW and SGD
// updates (per weight or multi-tensor: inputs are params, grads, states), GradUnscale
// (fp16 loss scaling's unscale + inf check).
#include "engine/ir/ops/op_families.h"
#include "engine/ir/ops/shape_util.h"

namespace npu::engine::ops {
namespace {

Expected<std::vector<ShapeOutput>> crossEntropyShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 2); !s) return s.error();
    return std::vector<ShapeOutput>{{{}, DType::f32}, {in[0].shape, DType::f32}};
}

Expected<std::vector<ShapeOutput>> scalarLoss(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 1); !s) return s.error();
    return std::vector<ShapeOutput>{{{}, DType::f32}};
}

OpCost crossEntropyCost(const Graph& g, const Node& n) {
    OpCost c = defaultCost(g, n);
    c.flops = 5 * numel(g, n.inputs[0]);  // max, exp, sum, log, subtract per logit
    return c;
}

double gradientElements(const Graph& g, const Node& n) {
    double e = 0;
    for (int t : n.inputs)
        if (t >= 0 && g.tensor(t).role == TensorRole::gradient) e += numel(g, t);
    return e;
}

// Optimizers update in place: every input is read, every non-gradient input written back.
CostFn optimizerCost(double flopsPerElement) {
    return [flopsPerElement](const Graph& g, const Node& n) {
        OpCost c;
        for (int t : n.inputs) {
            if (t < 0) continue;
            c.bytesRead += tensorBytes(g, t);
            if (g.tensor(t).role != TensorRole::gradient) c.bytesWritten += tensorBytes(g, t);
        }
        c.flops = flopsPerElement * gradientElements(g, n);
        return c;
    };
}

OpCost unscaleCost(const Graph& g, const Node& n) {
    OpCost c;
    for (int t : n.inputs) c.bytesRead += tensorBytes(g, t);
    c.bytesWritten = c.bytesRead;
    c.flops = 2 * gradientElements(g, n);
    return c;
}

}  // namespace

void registerTrainingOps(OpRegistry& r) {
    r.add("CrossEntropy", {OpCategory::norm, false, crossEntropyShape, crossEntropyCost});
    r.add("MeanLoss", {OpCategory::reduce, false, scalarLoss, {}});
    // AdamW: m, v updates, bias corrections, decoupled decay, step: ~12 FLOPs per element.
    r.add("AdamW", {OpCategory::optimizer, false, {}, optimizerCost(12)});
    r.add("SGD", {OpCategory::optimizer, false, {}, optimizerCost(3)});
    r.add("GradUnscale", {OpCategory::optimizer, false, {}, unscaleCost});
}

}  // namespace npu::engine::ops
