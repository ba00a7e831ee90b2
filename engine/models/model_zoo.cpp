#include "engine/models/model_zoo.h"

namespace npu::engine {

std::vector<std::string> zooFamilies() { return {"llama", "gpt", "bert", "resnet"}; }

bool isLanguageModel(const std::string& family) { return family == "llama" || family == "gpt" || family == "bert"; }

Expected<Graph> buildZooModel(const std::string& family, const nlohmann::json& config, const ZooShape& shape) {
    if (shape.batch <= 0) return makeError("training.batch: expected a positive integer");
    if (isLanguageModel(family) && shape.seq <= 0) return makeError("training.seq: expected a positive integer");
    if (family == "llama") return buildLlama(config, shape);
    if (family == "gpt") return buildGpt(config, shape);
    if (family == "bert") return buildBert(config, shape);
    if (family == "resnet") return buildResnet(config, shape);
    return makeError("model.zoo: unknown model family \"" + family + "\" (expected llama, gpt, bert or resnet)");
}

}  // namespace npu::engine
