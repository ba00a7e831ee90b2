#pragma once
// A cluster run's memory per rank class (the ranks of one pipeline stage), as rows: each
// class at its own peak, replayed through its pipeline schedule (engine/cluster/
// stage_memory), with the micro-batches in flight and the peak's breakdown. The Memory
// tab's "Memory per rank class" table shows them.

#include "engine/result/memory_summary.h"

#include <nlohmann/json.hpp>

namespace npu::profiler {

// Columns: rank_class, ranks, micro_batches_in_flight, activations_per_micro_batch_bytes,
// peak_bytes, reserved_bytes, then the breakdown at the peak: weights_bytes,
// master_weights_bytes, gradients_bytes, optimizer_states_bytes, activations_bytes,
// temporaries_bytes, comm_buffers_bytes, allocator_overhead_bytes (each only where the
// class holds some); and out_of_memory.
// Empty for runs without rank classes (single-device runs, imported traces).
nlohmann::json rankClassMemoryRows(const engine::MemorySummary& memory);

}  // namespace npu::profiler
