// Loss and optimizer ops the zoo and the training pass emit: CrossEntropy (softmax +
// NLL in one op, keeping the fp32 log-probabilities for backward), NLLLoss (the zoo
// builds cross-entropy as PyTorch runs it: LogSoftmax then NLLLoss), MeanLoss, AdamW and SGD
// updates (per weight or multi-tensor: inputs are params, grads, states), GradUnscale
// (fp16 loss scaling's unscale + inf check), GradToFp32 (DeepSpeed ZeRO's fp32 copy of a
// rank's gradient partition at the step).
#include "engine/ir/ops/op_families.h"
#include "engine/ir/ops/shape_util.h"

#include <algorithm>

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

// NLLLoss(log_probs[..., C], labels[...]): gathers one log-probability per label.
OpCost nllCost(const Graph& g, const Node& n) {
    OpCost c;
    c.bytesRead = tensorBytes(g, inputAt(n, 1)) * (1.0 + 4.0 / 8.0);  // labels + one fp32 per label
    c.bytesWritten = tensorBytes(g, outputAt(n, 0));
    c.flops = numel(g, inputAt(n, 1));
    return c;
}

// d(log_probs): a zero-filled tensor of the log-probabilities' shape with -1/N scattered
// at the labels; PyTorch materialises it before the log-softmax backward.
OpCost nllGradCost(const Graph& g, const Node& n) {
    OpCost c;
    for (int t : n.inputs) c.bytesRead += tensorBytes(g, t);
    for (int t : n.outputs) c.bytesWritten += tensorBytes(g, t);
    return c;
}

// Softmax/LogSoftmax backward reads the forward output and dY, writes dX; Megatron's
// causal fused kernel (upper_triang_masked, engine/ir/ops/norm_ops.cpp) reads and
// computes the lower triangle only.
OpCost softmaxGradCost(const Graph& g, const Node& n) {
    OpCost c = defaultCost(g, n);
    if (!n.outputs.empty()) c.flops = 3 * numel(g, outputAt(n, 0));
    if (n.attrInt("upper_triang_masked", 0) != 0) {
        c.bytesRead *= 0.5;
        c.flops *= 0.5;
    }
    return c;
}

OpCost crossEntropyCost(const Graph& g, const Node& n) {
    OpCost c = defaultCost(g, n);
    c.flops = 5 * numel(g, inputAt(n, 0));  // max, exp, sum, log, subtract per logit
    return c;
}

// ZeRO's partition (attr "shards" N): a rank's op covers 1/N of what it reads and writes.
double shardShare(const Node& n) { return 1.0 / static_cast<double>(std::max<std::int64_t>(1, n.attrInt("shards", 1))); }

double gradientElements(const Graph& g, const Node& n) {
    double e = 0;
    for (int t : n.inputs)
        if (t >= 0 && g.tensor(t).role == TensorRole::gradient) e += numel(g, t);
    return e;
}

// Optimizers update in place: every input is read, every non-gradient input written back.
// A host-side update (offload) has no device tensors and carries its traffic in "bytes".
// "shards" N: ZeRO's rank updates its 1/N partition of the tensors it reads.
CostFn optimizerCost(double flopsPerElement) {
    return [flopsPerElement](const Graph& g, const Node& n) {
        OpCost c;
        if (n.attrs.count("bytes")) {
            c.bytesRead = n.attrFloat("bytes", 0);
            return c;
        }
        for (int t : n.inputs) {
            if (t < 0) continue;
            c.bytesRead += tensorBytes(g, t);
            if (g.tensor(t).role != TensorRole::gradient) c.bytesWritten += tensorBytes(g, t);
        }
        c.flops = flopsPerElement * gradientElements(g, n);
        const double share = shardShare(n);
        c.bytesRead *= share;
        c.bytesWritten *= share;
        c.flops *= share;
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

// Reads the 16-bit gradients, writes their fp32 copies; a host <-> device copy moves the
// bytes of its tensors. Both of a rank's 1/"shards" partition under ZeRO.
OpCost partitionCost(const Graph& g, const Node& n) {
    OpCost c = defaultCost(g, n);
    const double share = shardShare(n);
    c.bytesRead *= share;
    c.bytesWritten *= share;
    return c;
}

// Backward rules (OpTraits::backward).

// Losses seed backward: their gradient needs the saved probabilities, not a dLoss tensor.
void lossBackward(BackwardContext& c) {
    const Node f = c.fwd();
    if (!c.need(0)) return;
    c.dIn[0] = c.newGrad(f.inputs[0]);
    std::vector<int> ins{f.outputs.size() > 1 ? f.outputs[1] : f.inputs[0]};
    for (std::size_t i = 1; i < f.inputs.size(); ++i) ins.push_back(f.inputs[i]);
    c.addGrad(".grad", ins, {c.dIn[0]});
}

// NLLLoss seeds backward with d(log_probs); it reads only the labels.
void nllBackward(BackwardContext& c) {
    const Node f = c.fwd();
    if (!c.need(0)) return;
    c.dIn[0] = c.newGrad(f.inputs[0]);
    c.add(OpKind::NLLLossGrad, ".grad", {f.inputs[1]}, {c.dIn[0]});
}

}  // namespace

void registerTrainingOps(OpRegistry& r) {
    r.add(OpKind::CrossEntropy, {OpCategory::norm, false, crossEntropyShape, crossEntropyCost, lossBackward, true});
    r.add(OpKind::MeanLoss, {OpCategory::reduce, false, scalarLoss, {}, lossBackward, true});
    r.add(OpKind::NLLLoss, {OpCategory::reduce, false, scalarLoss, nllCost, nllBackward, true});
    r.add(OpKind::NLLLossGrad, {OpCategory::elementwise, false, {}, nllGradCost});
    r.add(OpKind::SoftmaxGrad, {OpCategory::norm, false, {}, softmaxGradCost});
    r.add(OpKind::LogSoftmaxGrad, {OpCategory::norm, false, {}, softmaxGradCost});
    // AdamW: m, v updates, bias corrections, decoupled decay, step: ~12 FLOPs per element.
    r.add(OpKind::AdamW, {OpCategory::optimizer, false, {}, optimizerCost(12)});
    r.add(OpKind::SGD, {OpCategory::optimizer, false, {}, optimizerCost(3)});
    r.add(OpKind::GradUnscale, {OpCategory::optimizer, false, {}, unscaleCost});
    r.add(OpKind::GradToFp32, {OpCategory::optimizer, false, {}, partitionCost});
    // Host <-> device copies (optimizer offload): the bytes of the tensors they read.
    r.add(OpKind::MemcpyD2H, {OpCategory::data_movement, false, {}, partitionCost});
    r.add(OpKind::MemcpyH2D, {OpCategory::data_movement, false, {}, partitionCost});
}

}  // namespace npu::engine::ops
