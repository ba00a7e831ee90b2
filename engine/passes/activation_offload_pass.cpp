#include "engine/passes/activation_offload_pass.h"

#include "engine/memory/memory_model.h"
#include "engine/passes/graph_edit.h"

#include <algorithm>
#include <map>

namespace npu::engine {

namespace {

bool readsBackward(Phase p) { return p == Phase::backward || p == Phase::recompute; }

struct BlockOffload {
    std::vector<int> tensors;
    std::size_t lastForwardUse = 0;       // position after which the device copy may go
    std::size_t firstBackwardUse = SIZE_MAX;  // position before which it must be back
    DType dtype = DType::f32;
};

}  // namespace

Status ActivationOffloadPass::apply(Graph& graph, PassStats& stats) {
    const std::vector<int> order = graph.topologicalOrder();
    std::vector<std::size_t> pos(graph.nodes().size(), 0);
    for (std::size_t p = 0; p < order.size(); ++p) pos[static_cast<std::size_t>(order[p])] = p;

    // Saved activations: made by a forward node, read by a backward or recompute node.
    // Grouped by the block of their first such reader, where they must be back.
    std::map<std::string, BlockOffload> blocks;
    for (const Tensor& t : graph.tensors()) {
        if (t.producer < 0 || isResident(t) || t.bytes() <= 0) continue;
        const Node& producer = graph.node(t.producer);
        if (producer.phase != Phase::forward || graph.isRemoved(producer.id)) continue;
        std::size_t lastForward = pos[static_cast<std::size_t>(producer.id)];
        std::size_t firstBackward = SIZE_MAX;
        int firstReader = -1;
        for (int c : t.consumers) {
            if (graph.isRemoved(c)) continue;
            const Node& n = graph.node(c);
            const std::size_t p = pos[static_cast<std::size_t>(c)];
            if (n.phase == Phase::forward) lastForward = std::max(lastForward, p);
            else if (readsBackward(n.phase) && p < firstBackward) {
                firstBackward = p;
                firstReader = c;
            }
        }
        if (firstReader < 0 || graph.node(firstReader).block.empty() || firstBackward <= lastForward) continue;
        BlockOffload& b = blocks[graph.node(firstReader).block];
        b.tensors.push_back(t.id);
        b.lastForwardUse = std::max(b.lastForwardUse, lastForward);
        b.firstBackwardUse = std::min(b.firstBackwardUse, firstBackward);
        b.dtype = t.dtype;
    }

    std::map<std::size_t, std::vector<int>> after, before;  // program position -> copies
    const Attributes pcie{{"link", std::string("pcie_bandwidth")}, {"stream", std::string("memcpy")}};
    for (auto& [block, b] : blocks) {
        if (b.firstBackwardUse <= b.lastForwardUse) continue;  // read again right away: nothing to gain
        std::vector<int> reloaded;
        for (int t : b.tensors) reloaded.push_back(cloneTensor(graph, t, graph.tensor(t).name + ".reloaded"));
        const int d2h = graph.addNode(OpKind::MemcpyD2H, block + ".offload_activations", b.tensors, {}, pcie, Phase::forward, b.dtype);
        const int h2d = graph.addNode(OpKind::MemcpyH2D, block + ".reload_activations", {}, reloaded, pcie, Phase::backward, b.dtype);
        graph.node(d2h).block = block;
        graph.node(h2d).block = block;
        for (std::size_t i = 0; i < b.tensors.size(); ++i)
            for (int c : std::vector<int>(graph.tensor(b.tensors[i]).consumers))
                if (c != d2h && readsBackward(graph.node(c).phase)) {
                    replaceInput(graph, c, b.tensors[i], reloaded[i]);
                    ++stats.nodesChanged;
                }
        after[b.lastForwardUse].push_back(d2h);
        before[b.firstBackwardUse].push_back(h2d);
    }
    if (after.empty()) return {};
    std::vector<int> program;
    program.reserve(order.size() + 2 * blocks.size());
    for (std::size_t p = 0; p < order.size(); ++p) {
        if (auto it = before.find(p); it != before.end()) program.insert(program.end(), it->second.begin(), it->second.end());
        program.push_back(order[p]);
        if (auto it = after.find(p); it != after.end()) program.insert(program.end(), it->second.begin(), it->second.end());
    }
    reorderNodes(graph, program);
    return {};
}

}  // namespace npu::engine
