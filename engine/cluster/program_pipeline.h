#pragma once
// A step program (engine/cluster/step_program) on pipeline stages, as NeMo-Aligner runs
// RLHF on Megatron-LM: each stage's rank holds its 1/p of the layers of every model (its
// tensor-parallel shard of them) and its share of the step, simulated on one device, is
// laid out over the step the way the pipeline runs each phase:
//   decode        Megatron's text generation: every decode step goes through all stages in
//                 turn (the new token's activations sent stage to stage, the sampled token
//                 sent back from the last stage to the first for the next step), the other
//                 stages idle meanwhile. A forward of batch x tokens at or above Megatron's
//                 --inference-batch-times-seqlen-threshold (512) is micro-batched and
//                 pipelined (micro-batches of max(1, 512 / tokens) sequences): the prefill
//                 of a large prompt batch, not the one-token decode steps of a small one;
//   forward_only  the model's forward over the batch in parallel.micro_batches, pipelined
//                 forward-only;
//   train         forward and backward of the micro-batches under the project's pipeline
//                 schedule (engine/parallel/pipeline_schedule: 1F1B, GPipe), each stage's
//                 data-parallel gradient reduction, optimizer step (ZeRO-1/2: 1/dp of it,
//                 then the updated weights all-gathered).
// Tensor-parallel collectives block inside each pass as on one stage (engine/cluster/
// program_rank). A stage's pass of one micro-batch: the kernels of its pass over the batch
// at 1/m of their time (not re-simulated at the micro-batch size), the device's idle time
// between them as it is (eager mode's host issues every op for every micro-batch).

#include "base/expected.h"
#include "engine/cluster/cluster_setup.h"
#include "engine/cluster/rank_timeline.h"
#include "engine/cluster/step_program.h"
#include "engine/result/simulation_result.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace npu::engine {

// Megatron-LM's --inference-batch-times-seqlen-threshold default (megatron/training/
// arguments.py, _add_inference_args): below it a forward is not pipelined.
inline constexpr std::int64_t kMegatronInferencePipelineThreshold = 512;

// Micro-batches of Megatron's pipelined inference forward of batch x tokens.
int inferenceMicroBatches(std::int64_t batch, std::int64_t tokens);

struct ProgramPipelineLayout {
    std::vector<RankTimeline> stages;            // one per stage: its ranks all do the same work
    std::int64_t iterationNs = 0;
    std::map<std::string, double> phaseWallMs;   // by step phase (bubbles included)
    // Rank 0 (the first stage) per step phase: its task time plus the communication it
    // waits on plus its pipeline bubble (as time_by_phase_ms counts without stages, bubble
    // added), and that bubble: the phase's wall time the stage spends waiting for the others.
    std::map<std::string, double> phaseMs;
    std::map<std::string, double> bubbleMs;
    double bubbleFraction = 0;                   // stage idle / iteration, mean over stages
    double decodeStepNs = 0;                     // one decode step: all stages, the hops, the token back
    int prefillMicroBatches = 1, decodeMicroBatches = 1;
    std::vector<std::string> notes;
};

// runs: the single-device run of each stage (size == pipeline stages; a middle stage may
// repeat the run of another middle stage).
Expected<ProgramPipelineLayout> layOutProgramPipeline(const std::vector<const SimulationResult*>& runs, const ClusterSetup& setup,
                                                      const StepProgram& program);

}  // namespace npu::engine
