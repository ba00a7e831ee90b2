#pragma once
// Where training actually runs out of memory. A simulated step is a steady one (a step
// in the middle of training): optimizer states are resident before it starts, so its
// allocator replay fails at t = 0 on a state whenever weights + states exceed the
// device. PyTorch meets the limit elsewhere: its optimizers create their states lazily
// in the first optimizer.step(), after the first forward and backward. This replays the
// first step with lazy states followed by a steady one and reports the first failure
// there (op, tensor, instant, largest live tensors) — the OutOfMemoryError a user sees.

#include "engine/ir/graph.h"
#include "engine/memory/memory_analysis.h"
#include "engine/memory/memory_model.h"

#include <cstdint>
#include <vector>

namespace npu::engine {

// steps: the run's node timings per step; stepNs: the first step's duration (a steady
// step is appended, shifted by it, when the run has a single step). Replaces oom's op,
// tensor, instant, request and top tensors when that replay fails (its instant mapped
// back into the run when it falls in the appended step) and sets oom.training_step.
void locateOomInTraining(const Graph& graph, const std::vector<std::vector<NodeTiming>>& steps, std::int64_t stepNs,
                         std::int64_t capacity, const MemoryOptions& options, OomReport& oom);

}  // namespace npu::engine
