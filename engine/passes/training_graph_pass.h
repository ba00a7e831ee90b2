#pragma once
// Turns a forward graph into one training step: backward nodes for every forward op that
// leads to the loss (reverse program order, gradients of tensors used twice accumulated
// in place), then the optimizer update over every weight that received a gradient.
// Optimizer: AdamW as PyTorch's fused multi-tensor kernel (one op reading param, grad,
// exp_avg, exp_avg_sq and writing back all but the grad; the fp32 master copy too when
// the weights are low precision), or SGD with momentum (one buffer). fp16 loss scaling
// adds a GradUnscale op (unscale + inf check) before the update.

#include "engine/passes/pass.h"
#include "engine/precision/precision_level.h"

namespace npu::engine {

struct TrainingOptions {
    std::string optimizer = "adamw";    // adamw | sgd
    bool fp32MasterWeights = false;     // weights are low precision: keep an fp32 master copy
    bool lossScaling = false;           // fp16: unscale gradients before the update
    // ZeRO-Offload style: optimizer states and fp32 masters live in host memory; each
    // gradient is copied to the host over PCIe as backward finishes it (and freed), the
    // host runs the update, the updated parameters come back. Device memory holds the
    // weights, and a gradient only between its last backward op and its copy.
    bool offloadOptimizer = false;
    // ZeRO stage >= 1 over N data-parallel ranks: each rank updates only its 1/N partition
    // of the parameters (Rajbhandari et al. 2020), so the update's traffic and FLOPs are 1/N.
    int optimizerShards = 1;
    // The same partition for the offloaded gradients' copies, which run in backward (a
    // cluster's rank layout scales only the optimizer phase by 1/N, so this is set there too).
    int gradientCopyShards = 1;
    // Adam moments / SGD momentum: fp32, or the half type for pure (O3) training where
    // the optimizer runs on the model's own half-precision parameters.
    DType optimizerStateDType = DType::f32;
    // The first N graph outputs are losses that seed backward (PPO: the actor's and the
    // critic's); the other outputs are results kept to the end of the step.
    int lossOutputs = 1;
    // Megatron-LM's gradients (training.framework megatron, with fp32 masters): each weight's
    // gradient is an fp32 main_grad buffer kept for the whole run, which the weight-gradient
    // kernels accumulate into (gradient_accumulation_fusion) and the optimizer reads.
    bool fp32MainGrad = false;
    // DeepSpeed's ZeRO optimizer (stages 1-3) with 16-bit gradients and fp32 masters: at the
    // step each rank casts its gradient partition to fp32 (stage 1/2's single_grad_partition,
    // stage 3's fp32_partitioned_groups_flat grad) and frees the 16-bit ones; Adam reads
    // the fp32 copy, which lives until the update ends (4 bytes/param over N: DeepSpeed's
    // estimators' 16Ψ/N is these 4 plus the 12 of masters and moments).
    bool fp32GradPartition = false;
};

// What a precision level asks of the training pass: fp32 masters (O2), half optimizer
// states (O3), the unscale + inf-check kernel (fp16 levels).
TrainingOptions trainingOptionsFor(Precision precision, const std::string& optimizer = "adamw");

class TrainingGraphPass : public Pass {
public:
    explicit TrainingGraphPass(TrainingOptions options) : m_options(std::move(options)) {}
    std::string name() const override { return "training-graph"; }

protected:
    Status apply(Graph& graph, PassStats& stats) override;

private:
    TrainingOptions m_options;
};

}  // namespace npu::engine
