#include "engine/ir/tensor.h"

namespace npu::engine {

std::string_view tensorRoleName(TensorRole r) {
    switch (r) {
    case TensorRole::weight: return "weight";
    case TensorRole::master_weight: return "master_weight";
    case TensorRole::activation: return "activation";
    case TensorRole::gradient: return "gradient";
    case TensorRole::optimizer_state: return "optimizer_state";
    case TensorRole::temporary: return "temporary";
    case TensorRole::comm_buffer: return "comm_buffer";
    case TensorRole::input: return "input";
    case TensorRole::kv_cache: return "kv_cache";
    case TensorRole::gathered_weight: return "gathered_weight";
    }
    return "activation";
}

std::int64_t Tensor::numel() const {
    std::int64_t n = 1;
    for (auto d : shape) {
        if (d < 0) return 0;
        n *= d;
    }
    return n;
}

bool Tensor::hasUnknownDims() const {
    for (auto d : shape)
        if (d < 0) return true;
    return false;
}

}  // namespace npu::engine
