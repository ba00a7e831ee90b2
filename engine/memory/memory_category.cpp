#include "engine/memory/memory_category.h"

namespace npu::engine {

std::string_view memoryCategoryName(MemoryCategory c) {
    switch (c) {
    case MemoryCategory::weights: return "weights";
    case MemoryCategory::master_weights: return "master_weights";
    case MemoryCategory::gradients: return "gradients";
    case MemoryCategory::optimizer_state: return "optimizer_state";
    case MemoryCategory::activations: return "activations";
    case MemoryCategory::temporaries: return "temporaries";
    case MemoryCategory::comm_buffers: return "comm_buffers";
    case MemoryCategory::inputs: return "inputs";
    case MemoryCategory::kv_cache: return "kv_cache";
    }
    return "temporaries";
}

namespace {

bool readInBackward(const Graph& g, const Tensor& t) {
    for (int c : t.consumers) {
        const Phase p = g.node(c).phase;
        if (p == Phase::backward || p == Phase::recompute) return true;
    }
    return false;
}

}  // namespace

std::vector<MemoryCategory> memoryCategories(const Graph& g) {
    std::vector<MemoryCategory> out;
    out.reserve(g.tensors().size());
    for (const Tensor& t : g.tensors()) {
        switch (t.role) {
        case TensorRole::weight: out.push_back(MemoryCategory::weights); break;
        case TensorRole::master_weight: out.push_back(MemoryCategory::master_weights); break;
        case TensorRole::gradient: out.push_back(MemoryCategory::gradients); break;
        case TensorRole::optimizer_state: out.push_back(MemoryCategory::optimizer_state); break;
        case TensorRole::comm_buffer: out.push_back(MemoryCategory::comm_buffers); break;
        case TensorRole::input: out.push_back(MemoryCategory::inputs); break;
        case TensorRole::kv_cache: out.push_back(MemoryCategory::kv_cache); break;
        case TensorRole::temporary: out.push_back(MemoryCategory::temporaries); break;
        case TensorRole::activation:
            out.push_back(readInBackward(g, t) ? MemoryCategory::activations : MemoryCategory::temporaries);
            break;
        }
    }
    return out;
}

}  // namespace npu::engine
