#pragma once
// ZeRO (Rajbhandari et al. 2020) as one data-parallel rank sees it: stage 1 keeps 1/N of
// the optimizer states (and fp32 master weights), stage 2 also 1/N of the gradients,
// stage 3 also 1/N of the parameters. For mixed-precision Adam that gives the paper's
// 16Ψ, 4Ψ + 12Ψ/N, 2Ψ + 14Ψ/N and 16Ψ/N bytes of model states per device. DeepSpeed's
// fp32 copy of the gradient partition at the step (GradToFp32, training.framework
// deepspeed) is a rank's 1/N from stage 1 on: 4Ψ/N more while the update runs.
// This is a single-device simulation of one rank's share: the step's memory events are
// rescaled by category; the reduce-scatter / all-gather traffic ZeRO adds is not on the
// timeline of a single-device run (engine/cluster adds it for cluster runs). Stage 3's
// gathered parameters are added by addGatheredParameters.

#include "engine/ir/graph.h"
#include "engine/memory/memory_model.h"
#include "engine/memory/memory_category.h"
#include "engine/result/simulation_result.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace npu::engine {

// Per tensor id: true when a rank keeps only 1/N of it at this stage. Gradients means
// the weights' gradients (what the optimizer reads, and the buffers they accumulate in
// place into), not the activation gradients of the backward pass.
std::vector<bool> zeroShardedTensors(const Graph& graph, int stage);

// Rescales the sharded tensors' events in place and recomputes the running live_bytes.
void shardMemoryEvents(std::vector<MemoryEvent>& events, const std::vector<bool>& sharded, int dataParallel);

// ZeRO-3's gathered parameters, as DeepSpeed's stage-3 parameter fetch holds them: each
// sharded weight is all-gathered for the ops that read it (a module's forward, its
// backward and recomputation; not the optimizer step, which updates the shard) from the
// start of the op before (the next module is
// prefetched while the current one runs) to the end of its last reader, so its full bytes
// are live then (the rest of the shard added as a gathered_weight event of the weight's id);
// weights under DeepSpeed's stage3_param_persistence_threshold (1e5 elements by default,
// DeepSpeed's config docs) stay gathered for the whole run. Events stay sorted (frees
// first at an instant) with live_bytes recomputed.
inline constexpr std::int64_t kZero3PersistenceThreshold = 100'000;
void addGatheredParameters(std::vector<MemoryEvent>& events, const Graph& graph, const std::vector<std::vector<NodeTiming>>& steps,
                           int dataParallel);

// Bytes of model states (weights, gradients of weights, master weights, optimizer
// states) one rank holds, from the graph's tensors.
std::int64_t modelStateBytes(const Graph& graph, int stage, int dataParallel);

// The same model states split by model (modelOf: a tensor's name -> its model) and kind.
std::map<std::string, ModelBytes> modelStateBytesByModel(const Graph& graph, int stage, int dataParallel,
                                                         const std::function<std::string(const std::string&)>& modelOf);

// The ZeRO paper's figure for mixed-precision Adam (K = 12): bytes per rank.
double zeroPaperBytes(double params, int stage, int dataParallel);

}  // namespace npu::engine
