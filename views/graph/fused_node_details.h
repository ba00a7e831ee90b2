#pragma once
// What a fused node replaced: its members (the "fused_nodes" attribute the fusion passes
// write, engine/passes/fusion/fusion_context) looked up by name in the graph before the
// passes, with each member's FLOPs and bytes from the op registry.

#include "engine/ir/graph.h"

#include <QString>

#include <string>
#include <vector>

namespace npu::views {

// Names of the nodes a fused node replaced, in the order the pass listed them; empty
// for a node that is not fused.
std::vector<std::string> fusedMemberNames(const engine::Node& node);
// Their ids in `before` (names not found there are skipped).
std::vector<int> fusedMemberIds(const engine::Graph& before, const engine::Node& node);

// Link the details text carries to show the members in the graph before passes.
inline constexpr const char* kShowMembersLink = "npu:show-members";

// A table of the members (name, op, FLOPs, bytes read + written) with totals, set against
// the fused kernel's own bytes; `before` may be null (names only).
QString fusedMembersHtml(const engine::Graph* before, const engine::Graph& after, const engine::Node& node);

}  // namespace npu::views
