#pragma once
// What a simulation produces: per device, the tasks on each stream, the memory curve,
// the steps, and a summary. This is the contract between the engine and everything
// downstream (profiler::SimulationWriter stores it in a .npudb; the batch report reads
// its summary).

#include "engine/result/cluster_summary.h"
#include "engine/ir/dtype.h"
#include "engine/ir/node.h"
#include "engine/ir/tensor.h"
#include "engine/result/memory_summary.h"
#include "engine/result/host_activity.h"
#include "engine/result/shared_vector.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace npu::engine {

enum class StreamKind : std::uint8_t { compute, comm, memcpy };
std::string_view streamKindName(StreamKind k);

struct SimStream {
    int id = 0;              // index within the device
    std::string name;        // "Compute", "Communication", ...
    StreamKind kind = StreamKind::compute;
};

// The phase of a multi-phase step a task belongs to (RLHF-PPO: generation, scoring,
// training, in the order they run); none for a step of one phase.
enum class StepPhase : std::int8_t { generation = 0, scoring = 1, training = 2, none = -1 };
inline constexpr const char* kStepPhaseNames[] = {"generation", "scoring", "training"};
inline const char* stepPhaseName(StepPhase phase) { return phase == StepPhase::none ? "none" : kStepPhaseNames[static_cast<int>(phase)]; }

struct SimTask {
    std::int64_t start_ns = 0;
    std::int64_t dur_ns = 0;
    int stream = 0;          // SimStream::id
    int node = -1;           // node id in the simulated graph
    std::string name;        // node name
    std::string op_type;     // node op
    OpCategory category = OpCategory::other;
    DType dtype = DType::f32;
    Phase phase = Phase::forward;
    double flops = 0;
    double bytes = 0;        // bytes read + written
    // Typed labels, set where the step is built, so no layout parses them back out of a
    // name: the model of a multi-model step ("actor", "critic.score": the critic's scoring
    // forward; empty with one model), its phase, and the micro-batch (-1: once per step,
    // as the optimizer update).
    std::string model;
    StepPhase step_phase = StepPhase::none;
    int micro_batch = -1;
};

// One change of the live memory; live_bytes is the running total after the change.
struct MemoryEvent {
    std::int64_t t_ns = 0;
    std::int64_t delta_bytes = 0;
    std::int64_t live_bytes = 0;
    int tensor = -1;
    TensorRole role = TensorRole::activation;
};

struct SimStep {
    int index = 0;
    std::int64_t start_ns = 0;
    std::int64_t end_ns = 0;
};

struct DeviceResult {
    int id = 0;
    std::string name;                 // "npu0"
    std::vector<SimStream> streams;
    // Shared, not copied, between the ranks a cluster step lists with one timeline.
    SharedVector<SimTask> tasks;       // sorted by (stream, start_ns)
    SharedVector<MemoryEvent> memory;  // sorted by t_ns
    std::int64_t peak_bytes = 0;
    std::int64_t capacity_bytes = 0;
    // Peak memory split by tensor role at the moment of the peak.
    std::map<std::string, std::int64_t> peak_by_role;
    // The chosen allocator replayed over the run (engine/memory): its series after every
    // request, every block with its address (the memory map) and the segments it reserved.
    SharedVector<AllocatorSample> allocator_samples;
    SharedVector<PlacedBlock> memory_blocks;
    SharedVector<SegmentSpan> memory_segments;
    // The host side (engine/sim/host_dispatch, data_loader): the dispatch thread's slices
    // in time order and the data loader's batches; empty when the profile has no host
    // block and no loader is configured.
    std::vector<HostSlice> host;
    std::vector<LoaderSlice> loader;
    int loader_workers = 0;
};

// Loss scaling over a multi-step fp16 run (engine/precision/loss_scaler): the scale each
// step's loss was multiplied by, and whether its optimizer step was skipped.
struct LossScalePoint {
    int step = 0;
    double scale = 0;
    bool overflow = false;
    bool skipped = false;
};

struct LossScaleSummary {
    bool enabled = false;             // fp16 levels only: bf16 and fp32 need no scaling
    bool dynamic = true;
    double final_scale = 0;           // the scale after the last step (the next step's)
    std::int64_t overflows = 0;
    std::int64_t skipped_steps = 0;
};

struct ModelParams {
    std::int64_t trainable = 0;
    std::int64_t frozen = 0;
};

// Device bytes of one model's parameters and training state on this device (one rank's
// share: tensor-parallel shard and ZeRO sharding applied), from the simulated graph.
struct ModelBytes {
    std::int64_t trainable_weights = 0;
    std::int64_t frozen_weights = 0;
    std::int64_t gradients = 0;          // of the weights (what the optimizer reads)
    std::int64_t optimizer_states = 0;   // moments and fp32 master weights; none when offloaded to the host
};

struct SimSummary {
    std::string status = "ok";        // ok | oom | error
    std::string message;              // why, when not ok
    std::string model;                // model name
    std::string device;               // device profile name
    std::int64_t params = 0;
    // Of params (summed over every model of the mode: DPO's reference, PPO's four): those
    // that train and those frozen (engine/training; pretrain/sft: all train).
    std::int64_t trainable_params = 0;
    std::int64_t frozen_params = 0;
    // The same per model of an ensemble ({"actor": {trainable, frozen}, "reward": ...});
    // empty for single-model modes.
    std::map<std::string, ModelParams> params_by_model;
    // Bytes per model on one device, for every run ("model" for a single model: LoRA's base
    // frozen and adapters trainable; DPO's policy and reference; PPO's four).
    std::map<std::string, ModelBytes> bytes_by_model;
    double flops_per_step = 0;        // model FLOPs of one training step (fwd + bwd, no recompute)
    double step_time_ms = 0;
    double samples_per_s = 0;
    double tokens_per_s = 0;          // 0 for non-LM models
    std::int64_t peak_bytes = 0;      // allocated peak (the allocator's rounded block sizes)
    std::int64_t capacity_bytes = 0;
    MemorySummary memory;             // reserved peak, lower bound, plan, categories, OOM diagnosis
    double mfu = 0;                   // model FLOPs utilisation vs the device's peak in the compute dtype
    std::int64_t batch = 0;
    std::int64_t seq = 0;
    std::string precision;
    std::string framework;            // training.framework: whose gradient convention (deepspeed | fsdp | megatron)
    std::map<std::string, double> time_by_category_ms;  // OpCategory name -> total task time
    std::map<std::string, double> time_by_phase_ms;     // Phase name -> total task time
    // Step 0's task time and bytes (read + written) by the dtype each op computes in
    // (engine/sim/dtype_summary).
    std::map<std::string, double> time_by_dtype_ms;
    std::map<std::string, double> bytes_by_dtype;
    LossScaleSummary loss_scale;
    // The first step's wall time split (engine/sim/host_dispatch): device busy, device idle
    // while the host was still issuing (host-bound), device idle while the host waited for
    // a batch (data wait). The three add up to step_time_ms.
    double device_busy_ms = 0;
    double host_bound_idle_ms = 0;
    double data_wait_ms = 0;
    std::string graph_mode = "eager";  // eager | graph: how the host issued the step
    ClusterSummary cluster;           // multi-device runs (engine/cluster); present == false otherwise
};

// What one graph pass did (engine::PassStats, kept here so this header stays light).
struct PassRecord {
    std::string name;
    int level = 0;
    int nodes_before = 0, nodes_after = 0;
    int kernels_before = 0, kernels_after = 0;
    double bytes_before = 0, bytes_after = 0;  // HBM bytes of one step
    double flops_before = 0, flops_after = 0;
    double ms = 0;
};

struct SimulationResult {
    std::vector<DeviceResult> devices;
    std::vector<SimStep> steps;
    SimSummary summary;
    int graph_level = 0;               // optimizations.graph_level the run used
    int kernels_per_step = 0;          // kernels launched by one step of the graph simulated
    // What the graph, its passes and kernels_per_step are of when that is not the whole
    // model's step on one device (a cluster run simulates part of one rank's stage and
    // lays the rest out): "" for a single-device run.
    std::string graph_scope;
    std::vector<PassRecord> passes;    // in the order they ran
    std::vector<LossScalePoint> loss_scale;  // one per step when summary.loss_scale.enabled
    // The training graph before fusion and the graph simulated, as engine/npuom graph
    // JSON text (empty when not kept).
    std::string graph_before_fusion;
    std::string graph_after_fusion;
};

}  // namespace npu::engine
