#pragma once
// A pipeline stage's device memory over the iteration, from its schedule. A stage keeps
// the activations of every micro-batch whose forward pass it has run and whose backward
// it has not: counted from the stage's own passes in the order the schedule runs them
// (engine/parallel/pipeline_schedule), that is at most m under GPipe, p - s on stage s
// under 1F1B (PipeDream-Flush; capped at m), and under Megatron-LM's interleaved schedule
// (p - s - 1) * 2 + (v - 1) * p + 1 model chunks of 1/v of the stage each, which on the
// first stage is Megatron's p * (1 + (p - 1) / (p * v)) micro-batches (Korthikanti et al.
// 2022, sec. 4.2.3). The stage's one-micro-batch run gives what a micro-batch holds
// (engine/cluster/pass_memory); the stage's peak is that run's pass peak plus the
// activations of the other micro-batches in flight, or its optimizer step's peak.

#include "engine/cluster/stage_profile.h"
#include "engine/parallel/pipeline_schedule.h"
#include "engine/result/memory_summary.h"

#include <vector>

namespace npu::engine {

struct InFlight {
    double microBatches = 1;  // most micro-batches held at once (chunks / v)
    double atNs = 0;          // start of the backward pass that begins with that many held
    int microBatch = 0;       // whose backward it is
    // The same after the stage's first backward pass, when its weight gradients are
    // accumulating (held to the optimizer step); 0 when no later backward pass exists.
    double withGradients = 0;
    double withGradientsAtNs = 0;
    int withGradientsMicroBatch = 0;
};

// From one stage's passes in execution order.
InFlight inFlightActivations(const std::vector<PipelinePass>& passes, int virtualStages);

// Stage `stage`'s class of ranks (`ranks` devices; profile: its representative's run of one
// micro-batch), replayed over `passes`. Without micro-batches in flight beyond the one
// run, its figures are the run's own.
RankClassMemory replayStageMemory(const StageProfile& profile, int stage, int ranks, const std::vector<PipelinePass>& passes,
                                  int virtualStages);

// The stage's live bytes over the iteration as memory events (the rank's "Memory (live
// bytes)" counter): the requests of stageAllocations (engine/cluster/stage_allocations),
// whose highest point is the class's live peak (replayStageMemory).
std::vector<MemoryEvent> stageMemoryTimeline(const StageProfile& profile, const std::vector<PipelinePass>& passes, int virtualStages,
                                             std::int64_t optimizerStartNs, std::int64_t optimizerEndNs);

// The stage run's summary as its schedule makes it: peak, reserved and live peak raised
// to the class's, its saved activations by the micro-batches in flight, and out of memory
// (with the instant and the count in flight) when the class's peak exceeds the device.
void applyStageMemory(SimSummary& stageRun, const RankClassMemory& memory, PipelineSchedule schedule);

}  // namespace npu::engine
