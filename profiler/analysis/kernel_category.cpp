#include "profiler/analysis/kernel_category.h"

#include "profiler/analysis/kernel_classification.h"

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <string>

namespace npu::profiler {
namespace {

using engine::OpCategory;

bool containsAny(const std::string& lowerName, std::initializer_list<std::string_view> words) {
    return std::any_of(words.begin(), words.end(),
                       [&](std::string_view w) { return lowerName.find(w) != std::string::npos; });
}

// Triton names its generated kernels by kind: triton_poi (pointwise), triton_red /
// triton_per (reductions), triton_mm / triton_tem (matmul templates).
bool tritonCategory(const std::string& n, OpCategory& out) {
    const auto at = n.find("triton_");
    if (at == std::string::npos) return false;
    const std::string_view kind = std::string_view(n).substr(at + 7, 3);
    if (kind == "red" || kind == "per") out = OpCategory::reduce;
    else if (kind == "mm_" || kind == "tem") out = OpCategory::matmul;
    else out = OpCategory::elementwise;
    return true;
}

}  // namespace

bool isUnclassifiedKernelCategory(std::string_view c) {
    // Empty: the NPU hardware tasks of torch_npu's trace_view.json carry no "cat".
    return c.empty() || c == "kernel" || c == "Kernel" || c == "gpu_memcpy" || c == "gpu_memset";
}

// First matching rule wins; the order matters where names share words: a cuDNN
// convolution is an "implicit_gemm", flash-attention helpers live in cudnn::fusion, a
// cuBLAS split-K pass "reduces", and ATen elementwise kernels carry their functor
// (copy, index, norm statistics) in template arguments.
engine::OpCategory kernelCategory(std::string_view name, std::string_view traceCategory) {
    switch (classifyKernel(name, traceCategory)) {
    case KernelClass::communication: return OpCategory::comm;
    case KernelClass::memory: return OpCategory::data_movement;
    case KernelClass::compute:
    case KernelClass::other: break;  // named by the rules below (sync/event tasks end as other)
    }
    std::string n(name);
    std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    OpCategory triton;
    if (tritonCategory(n, triton)) return triton;
    // Fused optimizer steps (AdamW, SGD, Adagrad, LAMB) and the foreach kernels optimizers
    // and gradient unscaling run as (multi_tensor_apply).
    // Ascend: "aclnnForeach*" is torch_npu's multi-tensor apply (the optimizer's foreach
    // path, as in the msinsight pt_text_level1 capture's SGD step).
    if (containsAny(n, {"adam", "sgd", "adagrad", "lamb_", "multi_tensor_apply", "optimizer", "fused_optim",
                        "aclnnforeach"}))
        return OpCategory::optimizer;
    // Flash / fused SDPA, and cuDNN's flash backward helpers (dO·O row sums, dQ conversion).
    if (containsAny(n, {"flash", "sdpa", "fmha", "attention", "attn", "dot_do_o", "convert_dq"}))
        return OpCategory::attention;
    if (containsAny(n, {"convolution", "conv2d", "conv1d", "conv3d", "depthwise", "fprop", "dgrad", "wgrad",
                        "winograd", "scudnn", "nhwckrsc", "cask_cudnn", "cask_plugin"}))
        return OpCategory::conv;
    // The registry counts softmax and cross-entropy as norm ops (row statistics).
    if (containsAny(n, {"batch_norm", "batchnorm", "bn_fw", "bn_bw", "layer_norm", "layernorm", "rms_norm",
                        "rmsnorm", "group_norm", "groupnorm", "instance_norm", "gammabetabackward",
                        "rowwisemoments", "softmax", "cross_entropy", "crossentropy"}))
        return OpCategory::norm;
    if (containsAny(n, {"gemm", "gemv", "nvjet", "cutlass", "cublas", "matmul", "splitkreduce", "xmma", "magma",
                        "epilogue::"}))
        return OpCategory::matmul;
    // Max pooling windows are data movement (the registry's MaxPool) even when the kernel
    // also returns the argmax (Ascend "MaxPoolWithArgmaxV1").
    if (containsAny(n, {"maxpool", "max_pool"})) return OpCategory::data_movement;
    if (containsAny(n, {"reduce", "nll_loss", "radix_sort", "radixsort", "scan", "argmax", "topk", "cumsum",
                        "global_avg", "adaptive_avg"}))
        return OpCategory::reduce;
    // A dtype conversion ("bfloat16_copy_kernel", or ATen's direct copy through a casting
    // loader/storer: "LoadWithCast"/"StoreWithCast", autocast's aten::_to_copy) is the
    // registry's Cast, an elementwise op; a copy within one dtype is data movement.
    if (n.find("_copy_kernel") != std::string::npos &&
        (n.find("direct_copy") == std::string::npos || containsAny(n, {"loadwithcast", "storewithcast"})))
        return OpCategory::elementwise;
    // Copies, concatenation, gathers/scatters, layout transforms, pooling windows (the
    // registry's MaxPool/AveragePool are data movement), embedding lookups.
    if (containsAny(n, {"copy", "cat_array", "catarray", "gather", "scatter", "index", "embedding", "transpose",
                        "permute", "pool", "pad", "nchwtonhwc", "nhwctonchw", "transdata", "tensormove"}))
        return OpCategory::data_movement;
    if (containsAny(n, {"elementwise", "fill", "relu", "gelu", "silu", "dropout", "threshold", "clamp"}))
        return OpCategory::elementwise;
    // Ascend aclnn kernels are named by their op ("aclnnMuls_MulAiCore_Mul"); those no rule
    // above took (matmul, conv, norm, reduce, copy, pool, foreach) are pointwise ops.
    if (n.rfind("aclnn", 0) == 0) return OpCategory::elementwise;
    return OpCategory::other;
}

}  // namespace npu::profiler
