#pragma once
// One rank's share of a decoder-only zoo model under Megatron-LM partitioning, read from
// keys the cluster simulation (engine/cluster) sets in model.config for each pipeline
// stage: "tensor_parallel" shards attention heads (q/k/v column-parallel, o_proj
// row-parallel), the MLP (fc/gate/up column-parallel, down/proj row-parallel) and the
// vocabulary (vocab-parallel embedding and lm_head) by its degree; "embedding": false and
// "lm_head": false cut the model at a pipeline boundary: the stage starts from the hidden
// states received from the previous stage, or ends in a stand-in loss whose backward is
// the gradient received from the next stage. The collectives themselves are added by
// engine/cluster, not here.

#include "engine/models/config_reader.h"
#include "engine/models/graph_builder.h"

#include <cstdint>
#include <optional>
#include <string>

namespace npu::engine {

// A graph of more layers than this is a typo, not a model (the largest published dense
// transformers have ~130 layers); refused before building it, with this message.
inline constexpr std::int64_t kMaxModelLayers = 1024;
std::string tooManyLayers(std::int64_t layers);

struct ModelPartition {
    std::int64_t tensorParallel = 1;
    // Megatron-LM's sequence parallelism: norms, dropouts and residual adds run on 1/t of
    // the sequence; "sequence_parallel" in model.config (set by the cluster simulation).
    bool sequenceParallel = false;
    bool embedding = true;   // this stage holds the token embedding (first stage)
    bool lmHead = true;      // this stage holds the final norm, lm_head and loss (last stage)

    static ModelPartition read(ConfigReader& cfg);
    // n / tensorParallel; an error names the key when it does not divide.
    std::int64_t shard(std::int64_t n, const char* key, std::optional<Error>& error) const;
    // This rank's sequence length outside the tensor-parallel regions.
    std::int64_t localSeq(std::int64_t seq) const { return sequenceParallel ? seq / tensorParallel : seq; }
    // Into a tensor-parallel region (before a column-parallel linear) and out of one (after
    // a row-parallel linear, or the vocab-parallel embedding): the sequence all-gathered
    // and reduce-scattered under sequence parallelism; x itself without it.
    int gatherSequence(GraphBuilder& b, int x, const std::string& name) const;
    int scatterSequence(GraphBuilder& b, int x, const std::string& name) const;
};

// The activations a stage without the embedding starts from: [B, S, hidden] (S: the
// rank's local sequence).
int addStageInput(GraphBuilder& b, std::int64_t batch, std::int64_t seq, std::int64_t hidden);
// Ends a stage without the lm_head: a parameter-free loss over its output hidden states.
void addStageOutput(GraphBuilder& b, int hidden);

}  // namespace npu::engine
