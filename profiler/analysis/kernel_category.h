#pragma once
// The op category of a measured kernel, from its name: the categories the simulator
// gives its ops (engine::OpCategory, defined once in the op registry), so a measured
// run and a simulated one group their time the same way (Compare "By category").
// Name rules only: a Kineto/CUPTI trace records a kernel's mangled or demangled name
// and nothing about the op behind it. The rules were written against the kernels of
// the shared LLaMA and ResNet-50 H200 traces and HTA's test traces (cuBLAS nvjet/sgemm,
// cuDNN xmma/winograd/scudnn convolutions and flash SDPA, ATen native kernels, NCCL,
// fbgemm, Triton) and of the torch_npu captures in ../shared/data/third_party/msinsight (aclnn,
// TransData, HCCL tasks); a name no rule knows is `other`.

#include "engine/ir/node.h"

#include <string_view>

namespace npu::profiler {

// `traceCategory` is the event's own category ("kernel", "gpu_memcpy", ...): copies and
// sets are data movement whatever their name.
engine::OpCategory kernelCategory(std::string_view name, std::string_view traceCategory = {});

// Trace categories that name a device kernel/copy without saying what it computes: the
// ones an import replaces with kernelCategory().
bool isUnclassifiedKernelCategory(std::string_view traceCategory);

}  // namespace npu::profiler
