#include "views/graph/graph_display_model.h"

#include "engine/ir/op_registry.h"

#include <map>
#include <set>

namespace npu::views {

using namespace npu::engine;

std::vector<std::string> graphBlocks(const Graph& graph) {
    std::vector<std::string> blocks;
    std::set<std::string> seen;
    for (const Node& n : graph.nodes())
        if (!n.block.empty() && seen.insert(n.block).second) blocks.push_back(n.block);
    return blocks;
}

DisplayGraph buildDisplayGraph(const Graph& graph, const DisplayOptions& options) {
    DisplayGraph d;
    d.itemOfNode.assign(graph.nodes().size(), -1);
    std::map<std::string, int> blockItem;
    for (int id : graph.topologicalOrder()) {
        const Node& n = graph.node(id);
        if (options.hideShapeOnly && !n.opaque &&
            (n.kind == OpKind::Constant || n.attrInt(kShapeOnlyAttr, 0) != 0 || n.kind == OpKind::Shape))
            continue;
        if (!n.block.empty() && options.collapsedBlocks.count(n.block)) {
            auto [it, inserted] = blockItem.try_emplace(n.block, static_cast<int>(d.items.size()));
            if (inserted) {
                DisplayItem item;
                item.block = true;
                item.blockName = n.block;
                item.label = QString::fromStdString(n.block);
                item.category = OpCategory::other;
                d.items.push_back(std::move(item));
            }
            DisplayItem& item = d.items[static_cast<size_t>(it->second)];
            item.nodes.push_back(id);
            item.opaque = item.opaque || n.opaque;
            item.sublabel = QStringLiteral("%1 ops").arg(item.nodes.size());
            d.itemOfNode[static_cast<size_t>(id)] = it->second;
            continue;
        }
        DisplayItem item;
        item.nodes = {id};
        item.pattern = QString::fromStdString(n.attrString("pattern"));
        // A fused node reads as what it is (its pattern); its kind is in the details.
        item.label = item.pattern.isEmpty() ? QString::fromStdString(n.op) : item.pattern;
        // Every op shows the dtype it computes in (the project's precision level applied).
        if (n.dtype != DType::unknown) item.label += QStringLiteral(" · ") + QString::fromLatin1(dtypeName(n.dtype).data(), static_cast<qsizetype>(dtypeName(n.dtype).size()));
        item.sublabel = QString::fromStdString(n.name);
        item.category = OpRegistry::instance().category(n.op);
        item.opaque = n.opaque;
        d.itemOfNode[static_cast<size_t>(id)] = static_cast<int>(d.items.size());
        d.items.push_back(std::move(item));
    }
    std::set<std::pair<int, int>> seen;
    for (const Node& n : graph.nodes()) {
        const int to = d.itemOfNode[static_cast<size_t>(n.id)];
        if (to < 0) continue;
        for (int t : n.inputs) {
            if (t < 0) continue;
            const int producer = graph.tensor(t).producer;
            if (producer < 0) continue;
            const int from = d.itemOfNode[static_cast<size_t>(producer)];
            if (from < 0 || from == to || !seen.insert({from, to}).second) continue;
            d.edges.push_back({from, to, t});
        }
    }
    return d;
}

}  // namespace npu::views
