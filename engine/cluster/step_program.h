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
// Each phase names its micro-batching and its collectives (StepProgramPhase; makePhase
// gives a kind's, so a program builder says only what differs), and the layouts read
// them there, not from the kind. Every rank runs every phase (its 1/dp of the batch, its
// 1/tp shard, its 1/pp of the layers): no mode yet splits the ranks between phases. The
// tasks of one rank's single-device run of the step carry the labels the phases are
// found by (SimTask::step_phase, SimTask::model).

#include "engine/result/simulation_result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace npu::engine {

enum class PhaseKind { decode, forward_only, train };
enum class PhaseOrder { per_micro_batch, per_step };

// When the tensor-parallel group synchronises a pass's activations.
enum class TensorParallelSync {
    every_block,  // Megatron's 2 all-reduces per layer (reduce-scatter + all-gather with SP)
    every_token,  // generation: the layers' all-reduces and the embedding's after each token
};
// How a phase's batch is cut over the pipeline stages.
enum class MicroBatching {
    project,              // parallel.micro_batches
    inference_threshold,  // Megatron's inference pipelining: whole batch below batch x tokens threshold
};
// The collectives the cluster adds to a phase's passes, besides the pipeline's send/recv.
struct PhaseCollectives {
    TensorParallelSync tensorParallel = TensorParallelSync::every_block;
    bool gradients = false;    // data-parallel gradient buckets (reduce-scatter under ZeRO), the optimizer after them
    bool zeroGathers = true;   // ZeRO-3: the pass's weights all-gathered before it
};

struct StepProgramPhase {
    StepPhase phase = StepPhase::training;  // the step phase its tasks are labelled with
    PhaseKind kind = PhaseKind::train;
    std::string model;                      // its tasks' model label
    std::string weightsOf;                  // the model whose weights it runs, when not its own
    MicroBatching microBatching = MicroBatching::project;
    PhaseCollectives collectives;
};

// A phase of `kind` with that kind's micro-batching and collectives: decode syncs the
// tensor-parallel group every token and pipelines by Megatron's inference threshold;
// forward_only and train sync every block over the project's micro-batches; only train
// reduces gradients.
StepProgramPhase makePhase(StepPhase phase, PhaseKind kind, std::string model, std::string weightsOf = {});

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
    // The phase whose tasks carry step phase `phase` and model label `model` (the first
    // of that step phase when none carries the label; nullptr when none runs in it).
    const StepProgramPhase* phaseOf(StepPhase phase, const std::string& model) const;
};

}  // namespace npu::engine
