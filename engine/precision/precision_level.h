#pragma once
// The precision level of a training run (project training.precision), in the names users
// know from PyTorch/Apex/Megatron, and what each level keeps in which dtype:
//   fp32      O0  everything fp32 (TF32 off)
//   tf32      O0  fp32 tensors, matmuls/convs on TF32 tensor cores
//   *-amp     O1  autocast: fp32 parameters, grads, optimizer states; matmul/conv/attention
//                 in the half type, norms/softmax/losses in fp32
//   *-o2      O2  weights and activations in the half type; fp32 master weights and fp32
//                 optimizer states; the half gradients are upcast to fp32 inside the update
//                 (Apex O2 / Megatron bf16); norms/softmax/losses with fp32 math
//   bf16/fp16 O3  pure: weights, gradients and optimizer states all in the half type, no
//                 master copy (model.to(torch.bfloat16) with AdamW)
// fp16 levels need loss scaling (engine/precision/loss_scaler); bf16 has fp32's exponent
// range and does not. docs/precision.md has the table.

#include "base/expected.h"
#include "engine/ir/dtype.h"

#include <string>
#include <string_view>
#include <vector>

namespace npu::engine {

enum class Precision { fp32, tf32, fp16_amp, bf16_amp, fp16_o2, bf16_o2, fp16, bf16 };

Expected<Precision> parsePrecision(const std::string& text);
std::string_view precisionName(Precision p);
// Every accepted training.precision value, in menu order.
const std::vector<std::string>& precisionNames();
std::string_view precisionLevel(Precision p);  // "O0" .. "O3"

DType lowDType(Precision p);            // f16 / bf16; f32 (fp32) or tf32
bool isAutocast(Precision p);           // O1
bool castsModel(Precision p);           // O2, O3: weights and activations in the half type
bool keepsFp32Masters(Precision p);     // O2
DType optimizerStateDType(Precision p); // fp32 except O3 (the half type)
bool needsLossScaling(Precision p);     // the fp16 levels

}  // namespace npu::engine
