#pragma once
// A pipeline stage rank's memory over the iteration as the blocks its allocator is asked
// for, from the stage's schedule and the figures of its one-micro-batch run
// (engine/cluster/pass_memory): the model states of each layer from the start; each
// forward pass saves its micro-batch's activations layer by layer; each backward pass
// takes the run's backward working set at its start, frees the activations layer by layer
// in reverse and returns the working set at its end; the first backward pass leaves every
// layer's weight gradients until the optimizer step, which takes its own working set.
//
// One block per layer and role (estimate): the stage run holds the tensors of its first
// two layers only (the rest grow by layer symmetry), so a layer's tensors of one role are
// one block here, and the allocator's replay sees the layers' sizes, not each tensor's.
// The same trace gives the rank's live-bytes curve (stageMemoryTimeline) and, replayed
// through the chosen allocator, its memory map, segments and reserved curve.

#include "engine/cluster/stage_profile.h"
#include "engine/memory/allocation_trace.h"
#include "engine/memory/memory_analysis.h"
#include "engine/parallel/pipeline_schedule.h"

#include <cstdint>
#include <string>
#include <vector>

namespace npu::engine {

struct StageAllocations {
    AllocationTrace trace;
    std::vector<std::string> names;      // per buffer: "activations · micro-batch 3 · layer 5"
    std::vector<std::string> producers;  // per buffer: the pass that asks for it ("forward 3", "" for model states)
    std::vector<TensorRole> roles;       // per buffer
};

// optimizerStartNs/EndNs: the rank's optimizer step ([-1, -1] when it has none).
StageAllocations stageAllocations(const StageProfile& profile, const std::vector<PipelinePass>& passes, int virtualStages,
                                  std::int64_t optimizerStartNs, std::int64_t optimizerEndNs);

// The `count` largest of the device's blocks live at `t` (the out-of-memory panel's
// largest tensors for a stage that does not fit), largest first.
std::vector<LiveTensorInfo> largestLiveBlocks(const DeviceResult& device, std::int64_t t, std::size_t count);

// The trace's requests as live-memory events (no tensor ids: the blocks are the stage's).
std::vector<MemoryEvent> liveMemoryEvents(const StageAllocations& allocations);

// The rank's memory map: `allocations` replayed through the project's allocator
// (memoryOptionsFor) on a device of `capacity` bytes, into `device`'s blocks (named),
// segments and allocator samples (the Memory tab's map, live blocks and reserved curve).
// Returns the replay's summary (reserved peak, fragmentation, out of memory).
MemorySummary placeStageBlocks(const StageAllocations& allocations, MemoryOptions options, std::int64_t capacity, DeviceResult& device);

}  // namespace npu::engine
