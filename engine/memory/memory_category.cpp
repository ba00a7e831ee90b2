#include "engine/memory/memory_category.h"

#include "engine/memory/memory_model.h"

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
    case MemoryCategory::gathered_weights: return "gathered_weights";
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
    // A storage is saved for backward when any tensor sharing it is: the output of an
    // in-place ReLU or a view read by a backward op keeps its input's block alive, and
    // memory is accounted on that owner (memory_model.cpp).
    const std::vector<int> root = storageRoots(g);
    std::vector<bool> saved(g.tensors().size(), false);
    for (const Tensor& t : g.tensors())
        if (readInBackward(g, t)) saved[static_cast<std::size_t>(root[static_cast<std::size_t>(t.id)])] = true;
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
        case TensorRole::gathered_weight: out.push_back(MemoryCategory::gathered_weights); break;
        case TensorRole::temporary: out.push_back(MemoryCategory::temporaries); break;
        case TensorRole::activation:
            out.push_back(readInBackward(g, t) || saved[static_cast<std::size_t>(root[static_cast<std::size_t>(t.id)])]
                              ? MemoryCategory::activations
                              : MemoryCategory::temporaries);
            break;
        }
    }
    return out;
}

}  // namespace npu::engine
