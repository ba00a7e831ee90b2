#pragma once
// Built-in models from a config (the "model": {"zoo": ..., "config": {...}} of a
// project). Each builder returns the forward graph of one training micro-batch with
// fp32 weights; the passes add backward, optimizer, precision and recomputation.

#include "base/expected.h"
#include "engine/ir/graph.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace npu::engine {

struct ZooShape {
    std::int64_t batch = 1;
    std::int64_t seq = 1024;  // tokens per sample (language models)
};

// family: llama | gpt | bert | resnet. Errors name the key ("model.config.hidden: ...").
Expected<Graph> buildZooModel(const std::string& family, const nlohmann::json& config, const ZooShape& shape);
std::vector<std::string> zooFamilies();
bool isLanguageModel(const std::string& family);

Expected<Graph> buildLlama(const nlohmann::json& config, const ZooShape& shape);
Expected<Graph> buildGpt(const nlohmann::json& config, const ZooShape& shape);
Expected<Graph> buildBert(const nlohmann::json& config, const ZooShape& shape);
Expected<Graph> buildResnet(const nlohmann::json& config, const ZooShape& shape);

}  // namespace npu::engine
