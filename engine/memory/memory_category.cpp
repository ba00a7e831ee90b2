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

MemoryCategory memoryCategoryOfRole(TensorRole role) {
    switch (role) {
    case TensorRole::weight: return MemoryCategory::weights;
    case TensorRole::master_weight: return MemoryCategory::master_weights;
    case TensorRole::gradient: return MemoryCategory::gradients;
    case TensorRole::optimizer_state: return MemoryCategory::optimizer_state;
    case TensorRole::comm_buffer: return MemoryCategory::comm_buffers;
    case TensorRole::input: return MemoryCategory::inputs;
    case TensorRole::kv_cache: return MemoryCategory::kv_cache;
    case TensorRole::gathered_weight: return MemoryCategory::gathered_weights;
    case TensorRole::temporary: return MemoryCategory::temporaries;
    case TensorRole::activation: return MemoryCategory::activations;
    }
    return MemoryCategory::temporaries;
}

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
        const bool temporary = t.role == TensorRole::activation && !readInBackward(g, t) &&
                               !saved[static_cast<std::size_t>(root[static_cast<std::size_t>(t.id)])];
        out.push_back(temporary ? MemoryCategory::temporaries : memoryCategoryOfRole(t.role));
    }
    return out;
}

}  // namespace npu::engine
