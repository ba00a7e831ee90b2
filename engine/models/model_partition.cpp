#include "engine/models/model_partition.h"

#include <algorithm>

namespace npu::engine {

std::string tooManyLayers(std::int64_t layers) {
    return "model.config.layers: " + std::to_string(layers) + " is more than the " + std::to_string(kMaxModelLayers) +
           " layers NPU Studio builds a graph for (the largest published dense models have about 130); a typo?";
}

ModelPartition ModelPartition::read(ConfigReader& cfg) {
    ModelPartition p;
    p.tensorParallel = cfg.positiveInt("tensor_parallel", 1);
    p.sequenceParallel = cfg.boolean("sequence_parallel", false) && p.tensorParallel > 1;
    p.embedding = cfg.boolean("embedding", true);
    p.lmHead = cfg.boolean("lm_head", true);
    return p;
}

std::int64_t ModelPartition::shard(std::int64_t n, const char* key, std::optional<Error>& error) const {
    if (n % tensorParallel != 0 && !error)
        error = makeError(std::string("model.config.") + key + ": " + std::to_string(n) + " is not divisible by tensor_parallel " +
                          std::to_string(tensorParallel));
    return std::max<std::int64_t>(n / tensorParallel, 1);
}

int ModelPartition::gatherSequence(GraphBuilder& b, int x, const std::string& name) const {
    return sequenceParallel ? b.op(OpKind::SequenceGather, name, {x}, {{"tensor_parallel", tensorParallel}}) : x;
}

int ModelPartition::scatterSequence(GraphBuilder& b, int x, const std::string& name) const {
    return sequenceParallel ? b.op(OpKind::SequenceScatter, name, {x}, {{"tensor_parallel", tensorParallel}}) : x;
}

int addStageInput(GraphBuilder& b, std::int64_t batch, std::int64_t seq, std::int64_t hidden) {
    // Received from the previous pipeline stage in the compute precision; fp32 here as
    // every zoo input, the mixed-precision pass casts it like any activation.
    return b.input("pipeline.recv_activations", {batch, seq, hidden}, DType::f32);
}

void addStageOutput(GraphBuilder& b, int hidden) {
    // MeanLoss's backward writes a gradient of the output's shape: the stand-in for the
    // gradient the next stage sends back.
    b.markOutput(b.op(OpKind::MeanLoss, "pipeline.send_activations", {hidden}));
}

}  // namespace npu::engine
