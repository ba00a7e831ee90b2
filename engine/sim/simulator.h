#pragma once
// Single-device simulator: costs the training step's nodes (CostModel), has the host
// thread issue them in program (topological) order (engine/sim/host_dispatch: eager
// launches or one graph launch, fed by the data loader of engine/sim/data_loader) onto
// one compute stream for `steps` steps; tracks live memory (engine/memory), replays it
// through the chosen allocator and fills the summary. A run whose allocator cannot fit the step in the
// device's HBM is returned with status "oom", the failing op and the live tensors.

#include "base/expected.h"
#include "base/progress.h"
#include "engine/cost/device_profile.h"
#include "engine/ir/graph.h"
#include "engine/memory/memory_analysis.h"
#include "engine/sim/data_loader.h"
#include "engine/sim/host_dispatch.h"
#include "engine/result/simulation_result.h"

#include <functional>
#include <string>

namespace npu::engine {

struct SimulatorOptions {
    int steps = 1;
    std::int64_t batch = 1;          // samples per micro-batch
    int gradientAccumulation = 1;    // micro-batches per step (forward + backward each, one optimizer update)
    std::int64_t seq = 0;            // tokens per sample (0: not a language model)
    std::string precision = "fp32";
    DType computeDType = DType::f32; // the dtype MFU is measured against
    MemoryOptions memory;            // allocator replayed over the step (engine/memory)
    // Steps whose optimizer update is skipped (fp16 loss-scale overflow): they run forward,
    // backward and the unscale/inf check only (engine/precision/skipped_update.h).
    std::vector<bool> skipUpdate;
    // The host side: eager or graph dispatch with the device profile's host costs, the
    // launch queue depth (0: the profile's) and the data loader (default: none, batches
    // always ready). A profile without a host block issues at no host cost.
    DispatchMode dispatch = DispatchMode::eager;
    int queueDepth = 0;
    DataLoaderOptions data;
};

Expected<SimulationResult> simulate(const Graph& graph, const DeviceProfile& device, const SimulatorOptions& options,
                                    const Progress& progress = {});

// Model FLOPs of one step: 3 x forward FLOPs (forward + a backward of twice the
// forward), without recomputation and independent of kernel choices. With `trains`, a
// forward op it says no to belongs to a forward-only pass (DPO's reference, PPO's
// generation and scoring) and counts once.
double modelFlopsPerStep(const Graph& graph, const std::function<bool(const Node&)>& trains = {});

}  // namespace npu::engine
