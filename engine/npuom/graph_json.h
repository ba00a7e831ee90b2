#pragma once
// The engine Graph as JSON for the .npuom file: tensors (shape, dtype, role, symbolic
// dims) and nodes (op, name, attributes with their types, links, phase, dtype, block,
// opaque flag). Producer/consumer links are rebuilt on load and checked against the file.

#include "base/expected.h"
#include "engine/ir/graph.h"

#include <nlohmann/json.hpp>

#include <string>

namespace npu::engine {

nlohmann::json graphToJson(const Graph& graph);
// Validates every id and enum; errors name `where` and the JSON path ("graph.nodes[3].inputs[1]").
Expected<Graph> graphFromJson(const nlohmann::json& j, const std::string& where);

}  // namespace npu::engine
