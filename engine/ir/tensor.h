#pragma once
// A tensor of the graph: shape, element type and the role it plays in training, which
// decides how the memory planner accounts for it.

#include "engine/ir/dtype.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace npu::engine {

enum class TensorRole : std::uint8_t {
    weight,            // parameters in the compute dtype (or fp32 without mixed precision)
    master_weight,     // fp32 copy kept by mixed precision
    activation,        // forward outputs saved or consumed later
    gradient,          // gradients of weights and activations
    optimizer_state,   // Adam moments, momentum
    temporary,         // workspace and short-lived intermediates
    comm_buffer,       // gradient buckets, send/recv buffers
    input,             // model inputs (tokens, images, labels)
    kv_cache,          // keys and values of past tokens kept by autoregressive decoding (PPO generation)
    gathered_weight,   // ZeRO-3: the rest of a sharded weight, all-gathered while its ops run (memory events only)
};

std::string_view tensorRoleName(TensorRole r);

// Dimension value for a dimension not yet bound (ONNX dynamic dims before binding).
inline constexpr std::int64_t kUnknownDim = -1;

struct Tensor {
    int id = -1;
    std::string name;
    std::vector<std::int64_t> shape;
    DType dtype = DType::f32;
    TensorRole role = TensorRole::activation;
    int producer = -1;           // node id, -1 for graph inputs and weights
    std::vector<int> consumers;  // node ids
    std::vector<std::string> symbolicDims;  // names of dynamic dims, parallel to shape ("" if static)
    // A weight that does not train (the base model under LoRA or prompt/prefix tuning, a
    // DPO/PPO reference): no gradient, no optimizer state (engine/training).
    bool frozen = false;
    // Allocated for the whole run though a node writes it: a buffer the framework keeps
    // (Megatron-LM's fp32 main_grad, which the weight-gradient GEMMs accumulate into).
    bool persistent = false;

    std::int64_t numel() const;   // 0 if any dim unknown
    std::int64_t bytes() const { return numel() * dtypeBytes(dtype); }
    bool hasUnknownDims() const;
};

}  // namespace npu::engine
