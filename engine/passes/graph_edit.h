#pragma once
// Small graph surgery helpers the passes share: renumbering nodes into a program order,
// rewiring a node's input, bypassing a node, cloning tensors.

#include "engine/ir/graph.h"

#include <optional>
#include <string>
#include <vector>

namespace npu::engine {

// Rebuilds the node list in `order` (every live node exactly once, a valid topological
// order): node ids become program order, which the simulator schedules as is.
void reorderNodes(Graph& graph, const std::vector<int>& order);

// Replaces tensor `from` by `to` among node `nodeId`'s inputs, keeping consumer lists right.
void replaceInput(Graph& graph, int nodeId, int from, int to);

// Consumers of the node's first output read its first input instead; the node is
// marked removed (call Graph::compact() afterwards).
void bypassNode(Graph& graph, int nodeId);

int cloneTensor(Graph& graph, int tensorId, const std::string& name, std::optional<TensorRole> role = std::nullopt,
                std::optional<DType> dtype = std::nullopt);

}  // namespace npu::engine
