#pragma once
// Live device memory over a simulated run, tensor by tensor. Weights, master weights,
// optimizer states and model inputs are resident from the start. Every other tensor
// (activations, gradients, casts, temporaries) is allocated when its producer starts and
// freed when its last consumer ends, so a saved activation lives until its backward use
// and a weight gradient until the optimizer has read it (PyTorch's zero_grad(set_to_none)
// behaviour). The loss lives to the end of the step; other outputs (logits) are freed
// after their last reader, as a training loop that keeps only the loss does. Views (shape-only ops) and in-place ops share their input's storage.
// Frees at an instant happen before allocations at the same instant, as the caching
// allocator reuses a block released by the previous op.

#include "engine/ir/graph.h"
#include "engine/result/simulation_result.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace npu::engine {

struct NodeTiming {
    int node = -1;
    std::int64_t start = 0;
    std::int64_t end = 0;
};

struct MemoryTimeline {
    std::vector<MemoryEvent> events;
    std::int64_t peakBytes = 0;
    std::int64_t peakTimeNs = 0;
    std::int64_t residentBytes = 0;  // allocated before the first step
    std::map<std::string, std::int64_t> peakByRole;
};

// steps[i] holds the timing of every scheduled node of step i, in program order. Under
// gradient accumulation a step runs the forward/backward nodes once per micro-batch (a
// node met again starts the next one) and the optimizer once: the weight gradients of
// the first micro-batch live until the optimizer, later ones only until accumulated.
// lazyOptimizerState: optimizer states appear at the start of the first optimizer op that
// reads them in steps[0] (the first step of training) instead of before it (a later step).
MemoryTimeline trackMemory(const Graph& graph, const std::vector<std::vector<NodeTiming>>& steps,
                           bool lazyOptimizerState = false);

// Storage owner of every tensor id: views (shape-only ops) and in-place outputs point at
// their input's owner; other tensors own themselves.
std::vector<int> storageRoots(const Graph& graph);

// True for tensors resident for the whole run (weights, states, inputs without producer,
// persistent buffers).
bool isResident(const Tensor& tensor);

}  // namespace npu::engine
