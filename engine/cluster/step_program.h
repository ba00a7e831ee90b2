#pragma once
// A step as the cluster scheduler lays it out over the ranks (engine/cluster/
// step_scheduler): its phases in the order they run, each naming the model whose tasks it
// holds, what kind of pass it is, and so which collectives the cluster adds to it:
//   decode        autoregressive generation: a prefill, then one step per token; the
//                 tensor-parallel group all-reduces each step's hidden states, a pipeline
//                 passes every step through all stages in turn (Megatron's text generation);
//   forward_only  a forward pass keeping no activations (scoring, a reference model):
//                 tensor-parallel collectives at every block, pipelined forward-only;
//   train         forward, backward and optimizer step of a trained model: tensor-parallel
//                 collectives at every block, the pipeline schedule over the micro-batches,
//                 the data-parallel gradient buckets, ZeRO's gathers.
// The phases run in one of two orders:
//   per_micro_batch  each micro-batch goes through every phase before the next one starts,
//                    so one pipeline of micro-batches carries them all (pretrain, SFT, the
//                    PEFT modes: one train phase; DPO: the frozen reference's forward, then
//                    the policy's forward and backward, on each micro-batch);
//   per_step         each phase runs over the whole batch, micro-batched in itself, and its
//                    pipeline drains before the next phase starts (RLHF-PPO's rollout, its
//                    scoring and the two models' training).
// Every rank runs every phase (its 1/dp of the batch, its 1/tp shard, its 1/pp of the
// layers). The tasks of one rank's single-device run of the step carry the labels the
// phases are found by (SimTask::step_phase, SimTask::model).

#include "engine/result/simulation_result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace npu::engine {

enum class PhaseKind { decode, forward_only, train };
enum class PhaseOrder { per_micro_batch, per_step };

struct StepProgramPhase {
    StepPhase phase = StepPhase::training;  // the step phase its tasks are labelled with
    PhaseKind kind = PhaseKind::train;
    std::string model;                      // its tasks' model label
    std::string weightsOf;                  // the model whose weights it runs, when not its own
};

struct StepProgram {
    std::vector<StepProgramPhase> phases;   // in the order they run
    PhaseOrder order = PhaseOrder::per_micro_batch;
    // The step's shape on one data-parallel replica.
    std::int64_t batch = 1;                 // sequences
    std::int64_t promptTokens = 1;          // a decode phase's prompt
    std::int64_t sequenceTokens = 1;        // prompt + generated: what the other phases run over
    std::int64_t hidden = 1;
    std::int64_t layers = 1;                // of each model, unpartitioned

    // The model whose weights (parameters, gradients, gathers) tasks of `model` use.
    std::string weightsOf(const std::string& model) const;
    // Whether a phase of that kind runs in step phase `phase`.
    bool runs(StepPhase phase, PhaseKind kind) const;
    // The decode phase's model ("" without one).
    std::string decodingModel() const;
};

}  // namespace npu::engine
