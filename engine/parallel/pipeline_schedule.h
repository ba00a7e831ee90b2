#pragma once
// Pipeline-parallel schedules run as a dependency simulation: each stage executes its
// forward/backward passes of every micro-batch in the order the schedule prescribes
// (GPipe: all forwards then all backwards; 1F1B: PipeDream-Flush's warm-up, steady
// one-forward-one-backward, cool-down; interleaved: Megatron-LM's virtual stages), a pass
// starts when its stage is free and its input has arrived from the neighbour stage.
// Bubble time is what is left of the iteration when a stage is idle.

#include "base/expected.h"

#include <cstdint>
#include <string>
#include <vector>

namespace npu::engine {

enum class PipelineSchedule { gpipe, one_f_one_b, interleaved };
bool parsePipelineSchedule(std::string_view name, PipelineSchedule& out);  // gpipe | 1f1b | interleaved
std::string_view pipelineScheduleName(PipelineSchedule s);

struct PipelineSetup {
    int stages = 1;
    int microBatches = 1;
    int virtualStages = 1;             // model chunks per stage (interleaved only)
    PipelineSchedule schedule = PipelineSchedule::one_f_one_b;
    // Per stage (size == stages), for one micro-batch through all of the stage's layers;
    // an interleaved stage runs each of its chunks in 1/virtualStages of it.
    std::vector<double> forwardNs;
    std::vector<double> backwardNs;    // include recomputation if any
    double p2pNs = 0;                  // activation/gradient transfer between neighbours
    // Inference (Megatron-LM's forward_only, text generation's pipelined forward step):
    // each stage runs its micro-batches' forwards in order, no backward (backwardNs unused).
    bool forwardOnly = false;
};

struct PipelinePass {
    int microBatch = 0;
    int chunk = 0;                     // model chunk on this stage (interleaved), else 0
    bool backward = false;
    double startNs = 0;
    double endNs = 0;
};

struct PipelineTimeline {
    std::vector<std::vector<PipelinePass>> stages;  // in execution order
    double iterationNs = 0;
    std::vector<double> busyNs;        // per stage
    std::vector<double> bubbleNs;      // per stage: iteration - busy
    // Mean bubble / iteration over stages: (p-1)/(m+p-1) for GPipe and 1F1B with equal
    // stages, about (p-1)/(v*m+p-1) interleaved.
    double bubbleFraction() const;
};

// Errors: stages/micro-batches < 1, 1F1B with fewer micro-batches than stages is allowed
// (it degrades to GPipe-like), interleaved needs micro-batches divisible by stages.
Expected<PipelineTimeline> simulatePipeline(const PipelineSetup& setup);

}  // namespace npu::engine
