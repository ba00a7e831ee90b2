#include "engine/passes/activation_checkpointing_pass.h"

#include "engine/passes/graph_edit.h"

#include "engine/ir/op_registry.h"

#include <map>
#include <set>

namespace npu::engine {

namespace {
// memory_bound: keep what matmuls, convolutions and attention produce; recompute the
// cheap memory-bound ops between them (norms, activations, rotary, casts, residual adds),
// whose outputs are most of a transformer layer's saved bytes per FLOP.
bool memoryBound(const Node& n) {
    const OpCategory c = OpRegistry::instance().category(n.op);
    return c != OpCategory::matmul && c != OpCategory::conv && c != OpCategory::attention;
}

// selective (Megatron-LM): the attention core, spelled out or one kernel.
bool attentionCore(const Node& n) {
    return n.attrInt("attention_core", 0) != 0 || OpRegistry::instance().category(n.op) == OpCategory::attention;
}

bool recomputed(const std::string& mode, const Node& n) {
    return mode == "full" || (mode == "selective" && attentionCore(n)) || (mode == "memory_bound" && memoryBound(n));
}
}  // namespace

Status ActivationCheckpointingPass::apply(Graph& graph, PassStats& stats) {
    if (m_mode == "none") return {};
    if (m_mode != "full" && m_mode != "selective" && m_mode != "memory_bound")
        return makeError("training.activation_checkpointing: expected none, selective, memory_bound or full, got \"" + m_mode + "\"");

    const std::vector<int> order = graph.topologicalOrder();
    std::map<std::string, std::vector<int>> forwardOf;   // block -> forward nodes in order
    std::map<std::string, int> firstBackward;            // block -> position in order
    for (std::size_t pos = 0; pos < order.size(); ++pos) {
        const Node& n = graph.node(order[pos]);
        if (n.block.empty()) continue;
        if (n.phase == Phase::forward && recomputed(m_mode, n)) forwardOf[n.block].push_back(n.id);
        else if (n.phase == Phase::backward && !firstBackward.count(n.block)) firstBackward[n.block] = static_cast<int>(pos);
    }

    std::map<int, std::vector<int>> insertBefore;  // position -> recompute nodes
    for (const auto& [block, fwdNodes] : forwardOf) {
        auto fb = firstBackward.find(block);
        if (fb == firstBackward.end()) continue;  // nothing of this block is differentiated
        std::map<int, int> clone;                 // original tensor -> recomputed tensor
        std::vector<int> recompute;
        for (int id : fwdNodes) {
            const Node f = graph.node(id);
            std::vector<int> ins;
            for (int t : f.inputs) ins.push_back(clone.count(t) ? clone[t] : t);
            std::vector<int> outs;
            for (int t : f.outputs) {
                if (t < 0) {
                    outs.push_back(t);
                    continue;
                }
                outs.push_back(cloneTensor(graph, t, graph.tensor(t).name + ".recompute"));
                clone[t] = outs.back();
            }
            const int r = graph.addNode(f.op, f.name, ins, outs, f.attrs, Phase::recompute, f.dtype);
            graph.node(r).block = block;
            graph.node(r).forwardNode = id;
            graph.node(r).opaque = f.opaque;
            recompute.push_back(r);
        }
        // The block's backward reads the recomputed activations, so the originals die in
        // forward, after their last forward consumer.
        for (std::size_t pos = static_cast<std::size_t>(fb->second); pos < order.size(); ++pos) {
            const Node& n = graph.node(order[pos]);
            if (n.block != block || n.phase != Phase::backward) continue;
            for (int t : std::vector<int>(n.inputs))
                if (clone.count(t)) replaceInput(graph, n.id, t, clone[t]);
            ++stats.nodesChanged;
        }
        insertBefore[fb->second] = recompute;
    }
    std::vector<int> program;
    for (std::size_t pos = 0; pos < order.size(); ++pos) {
        if (auto it = insertBefore.find(static_cast<int>(pos)); it != insertBefore.end())
            program.insert(program.end(), it->second.begin(), it->second.end());
        program.push_back(order[pos]);
    }
    reorderNodes(graph, program);
    return {};
}

}  // namespace npu::engine
