#pragma once
// The memory figures of a simulated step that the report, the store and the views read:
// lower bound, static plan, what the chosen allocator reserved, the breakdown by category
// at the peak, every allocator's figures side by side, and the out-of-memory diagnosis.
// Plain data, no dependencies, so SimulationResult can carry it.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace npu::engine {

struct AllocatorSample {
    std::int64_t t_ns = 0;
    std::int64_t allocated = 0;     // bytes of blocks handed out (rounded sizes)
    std::int64_t reserved = 0;      // bytes of segments held from the device
    std::int64_t active = 0;        // allocated + freed blocks not yet reusable
    std::int64_t largest_free = 0;  // largest free block inside reserved memory
};

struct PlacedBlock {
    int buffer = -1;                // AllocationTrace::buffers index
    std::int64_t addr = 0;
    std::int64_t size = 0;          // block size as the allocator rounded it
    std::int64_t alloc_ns = 0;
    std::int64_t free_ns = -1;      // -1: live at the end
    // Labels for the memory map, filled by analyseMemory (empty for imported traces).
    std::string category;           // memoryCategoryName of the buffer
    std::string name;               // tensor name
    std::string producer;           // producing op, "" for resident tensors
};

struct SegmentSpan {
    std::int64_t addr = 0;
    std::int64_t size = 0;
    std::int64_t alloc_ns = 0;
    std::int64_t free_ns = -1;
    bool small = false;             // small pool (caching allocator)
};

struct AllocatorFigures {
    std::string allocator;                 // caching | buddy | static
    std::int64_t allocated_peak_bytes = 0;
    std::int64_t reserved_peak_bytes = 0;
    std::int64_t largest_free_block_bytes = 0;  // at the reserved peak
    int segments = 0;                      // segments (chunks) reserved over the step
    bool oom = false;
};

struct LiveTensorInfo {
    std::string name;
    std::string category;
    std::string producer;                  // producing op, "" for resident tensors
    std::int64_t bytes = 0;
    std::int64_t alloc_ns = 0;
    std::int64_t free_ns = -1;
};

// One step of the out-of-memory playbook, with what re-simulating it gave.
struct OomAdvice {
    std::string action;                    // memory_optimizer | micro_batch | activation_checkpointing | zero | offload
    std::string change;                    // the project setting changed ("training.batch: 8 -> 4")
    std::int64_t predicted_peak_bytes = 0;       // allocated
    std::int64_t predicted_reserved_bytes = 0;
    double predicted_step_time_ms = 0;
    bool fits = false;
};

struct OomReport {
    bool present = false;
    std::string op;                        // op whose allocation failed
    std::string tensor;                    // tensor it could not allocate
    int training_step = 0;                 // 1: the first step (optimizer states created lazily), 2: a later one; 0: unknown
    std::int64_t time_ns = 0;              // within the simulated run
    std::int64_t request_bytes = 0;
    std::vector<LiveTensorInfo> top_tensors;
    std::vector<OomAdvice> advice;
};

// One class of ranks that do identical work (the ranks of one pipeline stage) at its own
// peak, its memory replayed through the stage's pipeline schedule (engine/cluster/
// stage_memory): what each of the class's devices holds.
struct RankClassMemory {
    std::string name;                      // "stage 0"
    int stage = 0;
    int ranks = 0;                         // devices in the class
    // Micro-batches whose activations the stage holds at once at most: 1F1B p - s (capped
    // at m), GPipe m, interleaved Megatron-LM's p + (p - 1) / v on the first stage.
    double micro_batches_in_flight = 1;
    std::int64_t activation_bytes_per_micro_batch = 0;  // what one forward pass leaves for its backward
    std::int64_t peak_bytes = 0;           // allocated, at the class's peak
    std::int64_t reserved_peak_bytes = 0;
    std::int64_t peak_time_ns = 0;         // in the iteration: when the most micro-batches are in flight, or the optimizer step
    // Live bytes at the peak by tensor role (tensorRoleName: weight, master_weight,
    // gradient, optimizer_state, activation, temporary, comm_buffer, input), plus
    // "allocator_overhead": reserved - allocated.
    std::map<std::string, std::int64_t> breakdown;
    bool oom = false;
};

struct MemorySummary {
    std::string allocator = "caching";
    std::int64_t reserved_peak_bytes = 0;
    std::int64_t lower_bound_bytes = 0;    // peak of live requested bytes
    std::int64_t planned_peak_bytes = 0;   // static greedy-by-size plan
    double fragmentation = 0;              // planned_peak / lower_bound - 1
    bool static_plan_skipped = false;      // too many buffers to plan (engine/memory/memory_analysis.cpp)
    std::int64_t largest_free_block_bytes = 0;  // chosen allocator, at its reserved peak
    std::map<std::string, std::int64_t> by_category;  // requested bytes live at the allocated peak
    std::vector<AllocatorFigures> allocators;
    OomReport oom;
    std::vector<RankClassMemory> rank_classes;  // cluster runs: one per pipeline stage
};

}  // namespace npu::engine
