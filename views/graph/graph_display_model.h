#pragma once
// What the graph view draws: the engine graph reduced to boxes and edges. Repeated
// blocks (Node::block) can be collapsed into one box; constants and shape computations
// can be hidden. Built outside the widget so it can be tested and laid out off the GUI
// thread.

#include "engine/ir/graph.h"

#include <QString>

#include <set>
#include <string>
#include <vector>

namespace npu::views {

struct DisplayItem {
    std::vector<int> nodes;     // engine node ids (one, or a collapsed block's nodes)
    QString label;              // op type or block name
    QString sublabel;           // node name or "N ops"
    engine::OpCategory category = engine::OpCategory::other;
    bool opaque = false;        // an unsupported op (or a block containing one)
    bool block = false;         // a collapsed block
    QString pattern;            // a fused node's fusion pattern ("rms_norm"), else empty
    std::string blockName;
};

struct DisplayEdge {
    int from = -1, to = -1;     // display item indices
    int tensor = -1;            // engine tensor id (the first, when several connect the pair)
};

struct DisplayGraph {
    std::vector<DisplayItem> items;
    std::vector<DisplayEdge> edges;
    std::vector<int> itemOfNode;  // engine node id -> item index, -1 when hidden
};

struct DisplayOptions {
    std::set<std::string> collapsedBlocks;
    bool hideShapeOnly = true;  // Constant nodes and nodes computing only on shapes
};

DisplayGraph buildDisplayGraph(const engine::Graph& graph, const DisplayOptions& options);

// Distinct block names in first-appearance order.
std::vector<std::string> graphBlocks(const engine::Graph& graph);

}  // namespace npu::views
