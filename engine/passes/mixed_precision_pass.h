#pragma once
// Precision policy of a training run, applied to the forward graph before the training
// pass (backward ops inherit the forward dtypes):
// - fp32: everything fp32 (matmuls in plain fp32, TF32 off, as in the calibration runs).
// - tf32: fp32 tensors, matmuls and convolutions on TF32 tensor cores
//   (torch.backends.cuda.matmul.allow_tf32 = True); an extension of the project vocabulary.
// - bf16-amp / fp16-amp: PyTorch autocast. Parameters stay fp32. Matmul, conv and
//   attention run in the low dtype: their fp32 inputs get Cast nodes (one per weight and
//   step - autocast caches weight casts - but one per consuming op for activations,
//   which autocast does not cache). Norms with fp32 math (LayerNorm, softmax, log-softmax,
//   losses) cast low inputs back to fp32. Other ops follow type promotion (fp32 + bf16
//   -> fp32), so the residual stream stays fp32. RMSNorm and BatchNorm keep the input
//   dtype (HF LlamaRMSNorm computes in fp32 internally; cuDNN BN takes bf16 with fp32
//   affine parameters).
// - bf16-o2 / fp16-o2 (O2) and bf16 / fp16 (O3, pure): the model is cast to the half
//   type (weights and activations); the training pass adds fp32 master weights and states
//   for O2 only (engine/precision/precision_level.h). Norms, softmax and losses keep fp32
//   math inside their kernels (the zoo graphs' explicit upcasts, fp32 loss outputs).

#include "engine/passes/pass.h"
#include "engine/precision/precision_level.h"

namespace npu::engine {

class MixedPrecisionPass : public Pass {
public:
    explicit MixedPrecisionPass(Precision precision) : m_precision(precision) {}
    std::string name() const override { return "mixed-precision"; }

protected:
    Status apply(Graph& graph, PassStats& stats) override;

private:
    Precision m_precision;
};

}  // namespace npu::engine
