#include "engine/passes/fusion/fusion_context.h"

#include "engine/ir/op_registry.h"
#include "engine/passes/graph_edit.h"

#include <algorithm>
#include <cmath>
#include <queue>
#include <set>

namespace npu::engine {

bool isElementwise(const Node& node) {
    return OpRegistry::instance().category(node.op) == OpCategory::elementwise && !node.opaque;
}

std::vector<int> walkProducers(const FusionContext& ctx, int start, int maxSteps) {
    std::vector<int> out;
    int cur = start;
    const Graph& g = const_cast<FusionContext&>(ctx).graph();
    while (static_cast<int>(out.size()) < maxSteps) {
        int next = -1;
        for (int t : g.node(cur).inputs) {
            const int p = ctx.producer(t);
            if (p < 0 || !ctx.available(p) || !isElementwise(g.node(p)) || g.node(p).phase != g.node(start).phase) continue;
            if (ctx.soleConsumer(p) != cur) continue;
            next = p;
            break;
        }
        if (next < 0) break;
        out.push_back(next);
        cur = next;
    }
    return out;
}

std::vector<int> walkConsumers(const FusionContext& ctx, int start, int maxSteps) {
    std::vector<int> out;
    int cur = start;
    const Graph& g = const_cast<FusionContext&>(ctx).graph();
    while (static_cast<int>(out.size()) < maxSteps) {
        const int c = ctx.soleConsumer(cur);
        if (c < 0 || !ctx.available(c) || !isElementwise(g.node(c)) || g.node(c).phase != g.node(start).phase) break;
        out.push_back(c);
        cur = c;
    }
    return out;
}

FusionContext::FusionContext(Graph& graph) : m_graph(graph) {
    const std::size_t n = graph.nodes().size();
    m_backwardOf.resize(n);
    m_position.resize(n);
    m_topo.resize(n);
    m_taken.assign(n, false);
    for (const Node& node : graph.nodes()) {
        m_position[static_cast<std::size_t>(node.id)] = node.id;
        m_topo[static_cast<std::size_t>(node.id)] = node.id;
        if (node.forwardNode >= 0 && node.phase != Phase::forward && !graph.isRemoved(node.id))
            m_backwardOf[static_cast<std::size_t>(node.forwardNode)].push_back(node.id);
    }
}

bool FusionContext::available(int nodeId) const {
    return nodeId >= 0 && !m_graph.isRemoved(nodeId) &&
           (static_cast<std::size_t>(nodeId) >= m_taken.size() || !m_taken[static_cast<std::size_t>(nodeId)]);
}

std::vector<int> FusionContext::consumers(int tensorId) const {
    std::vector<int> out;
    if (tensorId < 0) return out;
    for (int c : m_graph.tensor(tensorId).consumers)
        if (!m_graph.isRemoved(c) && std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
    return out;
}

int FusionContext::soleConsumer(int nodeId) const {
    const Node& n = m_graph.node(nodeId);
    if (n.outputs.empty() || isGraphOutput(n.outputs[0])) return -1;
    // Readers in another phase (backward reading a saved activation) do not keep a
    // kernel apart: fuse() recomputes or writes what they read.
    int sole = -1;
    for (int c : consumers(n.outputs[0])) {
        if (m_graph.node(c).phase != n.phase) continue;
        if (sole >= 0) return -1;
        sole = c;
    }
    return sole;
}

int FusionContext::producer(int tensorId) const {
    if (tensorId < 0) return -1;
    const int p = m_graph.tensor(tensorId).producer;
    return p >= 0 && !m_graph.isRemoved(p) ? p : -1;
}

bool FusionContext::hasBackward(int nodeId) const {
    if (nodeId < 0 || static_cast<std::size_t>(nodeId) >= m_backwardOf.size()) return false;
    for (int b : m_backwardOf[static_cast<std::size_t>(nodeId)])
        if (!m_graph.isRemoved(b)) return true;
    return false;
}

bool FusionContext::isGraphOutput(int tensorId) const {
    return std::find(m_graph.outputs.begin(), m_graph.outputs.end(), tensorId) != m_graph.outputs.end();
}

// No path leaves the set and comes back into it. Any such path runs through nodes
// ranked before the set's last member (m_topo), so the walk stops there.
bool FusionContext::convex(const std::vector<int>& members) const {
    const std::set<int> in(members.begin(), members.end());
    double last = 0;
    for (int m : members) last = std::max(last, m_topo[static_cast<std::size_t>(m)]);
    std::vector<int> stack;
    std::set<int> seen;
    for (int m : members)
        for (int t : m_graph.node(m).outputs)
            for (int c : consumers(t))
                if (!in.count(c)) stack.push_back(c);
    while (!stack.empty()) {
        const int id = stack.back();
        stack.pop_back();
        if (!seen.insert(id).second || m_topo[static_cast<std::size_t>(id)] > last) continue;
        for (int t : m_graph.node(id).outputs)
            for (int c : consumers(t)) {
                if (in.count(c)) return false;
                stack.push_back(c);
            }
    }
    return true;
}

int FusionContext::makeFused(const std::vector<int>& members, OpKind op, const std::string& pattern,
                             const std::vector<int>& dropInputs, const std::vector<int>& addInputs) {
    const auto& reg = OpRegistry::instance();
    const std::set<int> in(members.begin(), members.end());
    std::vector<int> inputs, outputs;
    double flops = 0, position = 0, topo = 0;
    std::string names;
    const Node* anchor = nullptr;
    for (int m : members) {
        const Node& n = m_graph.node(m);
        flops += reg.cost(m_graph, n).flops;
        position = std::max(position, m_position[static_cast<std::size_t>(m)]);
        topo = std::max(topo, m_topo[static_cast<std::size_t>(m)]);
        const std::string parts = n.attrString("fused_nodes");
        names += (names.empty() ? "" : ",") + (parts.empty() ? n.name : parts);
        const OpCategory c = reg.category(n.op);
        if (!anchor || (c == OpCategory::matmul || c == OpCategory::conv || c == OpCategory::attention)) {
            const OpCategory a = anchor ? reg.category(anchor->op) : OpCategory::other;
            if (!anchor || (a != OpCategory::matmul && a != OpCategory::conv && a != OpCategory::attention)) anchor = &n;
        }
        for (int t : n.inputs) {
            if (t < 0 || in.count(producer(t)) || std::count(dropInputs.begin(), dropInputs.end(), t)) continue;
            if (std::find(inputs.begin(), inputs.end(), t) == inputs.end()) inputs.push_back(t);
        }
        for (int t : n.outputs) {
            if (t < 0) continue;
            bool outside = isGraphOutput(t);
            for (int c : consumers(t)) outside = outside || !in.count(c);
            if (outside) outputs.push_back(t);
        }
    }
    for (int t : addInputs)
        if (std::find(inputs.begin(), inputs.end(), t) == inputs.end()) inputs.push_back(t);
    // A generic pass (chains, cast folding) absorbing a named kernel keeps its name: a
    // SwiGLU kernel that also writes the next cast is still SwiGLU.
    std::string label = pattern;
    if (pattern == "elementwise" || pattern == "cast_folding")
        for (int m : members)
            if (const std::string p = m_graph.node(m).attrString("pattern"); !p.empty() && p != "elementwise" && p != "cast_folding") {
                label = p;
                break;
            }
    Attributes attrs{{"pattern", label}, {"fused_nodes", names}, {"flops", flops}};
    const Phase phase = anchor->phase;
    const DType dtype = anchor->dtype;
    const std::string block = anchor->block;
    const std::string name = isFusedOp(anchor->kind) ? anchor->name : anchor->name + "." + label;
    for (int m : members) {
        m_graph.markRemoved(m);
        ++m_removed;
    }
    const int id = m_graph.addNode(op, name, inputs, outputs, std::move(attrs), phase, dtype);
    m_graph.node(id).block = block;
    m_position.push_back(position);
    m_topo.push_back(topo);
    m_taken.push_back(true);
    m_backwardOf.emplace_back();
    ++m_fused;
    repairTopo(id);
    return id;
}

// Readers of the fused node's outputs ranked at or before it (they read an earlier part)
// move just after it, and their readers in turn; usually none or a few nodes.
void FusionContext::repairTopo(int fusedId) {
    std::vector<int> stack{fusedId};
    while (!stack.empty()) {
        const int id = stack.back();
        stack.pop_back();
        const double rank = m_topo[static_cast<std::size_t>(id)];
        for (int t : m_graph.node(id).outputs)
            for (int c : consumers(t)) {
                double& r = m_topo[static_cast<std::size_t>(c)];
                if (r > rank) continue;
                r = std::nextafter(rank, rank + 1);
                stack.push_back(c);
            }
    }
}

int FusionContext::fuse(const FusionRequest& request) {
    std::vector<int> fwd = request.nodes;
    std::sort(fwd.begin(), fwd.end());
    fwd.erase(std::unique(fwd.begin(), fwd.end()), fwd.end());
    if (fwd.size() < 2) return -1;
    for (int m : fwd)
        if (!available(m)) return -1;
    if (!convex(fwd)) return -1;

    if (request.withBackward) {
        const int id = fuseGroups(fwd, request, true);
        if (id >= 0) return id;
    }
    return fuseGroups(fwd, request, false);
}

int FusionContext::fuseGroups(const std::vector<int>& fwd, const FusionRequest& request, bool withBackward) {
    std::vector<int> bwd;
    if (withBackward) {
        const auto& from = request.backwardFrom.empty() ? fwd : request.backwardFrom;
        for (int m : from)
            for (int b : m_backwardOf[static_cast<std::size_t>(m)])
                if (!m_graph.isRemoved(b)) bwd.push_back(b);
        std::sort(bwd.begin(), bwd.end());
        bwd.erase(std::unique(bwd.begin(), bwd.end()), bwd.end());
        for (int b : bwd)
            if (!available(b)) return -1;
        if (bwd.size() > 1 && !convex(bwd)) return -1;
    }
    {
        // A backward node left out must not need its forward node for its cost (generic
        // "<Op>Grad", attention and conv gradients do): it would lose it.
        const auto& reg = OpRegistry::instance();
        for (int m : fwd)
            for (int b : m_backwardOf[static_cast<std::size_t>(m)]) {
                if (m_graph.isRemoved(b) || std::count(bwd.begin(), bwd.end(), b)) continue;
                Node& node = m_graph.node(b);
                const OpCost with = reg.cost(m_graph, node);
                const int saved = node.forwardNode;
                node.forwardNode = -1;
                const OpCost without = reg.cost(m_graph, node);
                node.forwardNode = saved;
                if (with.flops != without.flops || with.bytes() != without.bytes()) return -1;
            }
    }

    // Forward tensors the backward group would read but can recompute: produced inside
    // the forward set and needed nowhere else.
    std::vector<int> recomputed, fwdInputs;
    const std::set<int> fwdSet(fwd.begin(), fwd.end()), bwdSet(bwd.begin(), bwd.end());
    for (int m : fwd) {
        const Node& n = m_graph.node(m);
        for (int t : n.inputs)
            if (t >= 0 && !fwdSet.count(producer(t)) && std::find(fwdInputs.begin(), fwdInputs.end(), t) == fwdInputs.end())
                fwdInputs.push_back(t);
        for (int t : n.outputs) {
            if (t < 0 || isGraphOutput(t)) continue;
            bool readByBwd = false, readElsewhere = false;
            for (int c : consumers(t)) {
                if (bwdSet.count(c)) readByBwd = true;
                else if (!fwdSet.count(c)) readElsewhere = true;
            }
            const bool dropoutMask = n.kind == OpKind::Dropout && n.outputs.size() > 1 && t == n.outputs[1];
            if (dropoutMask && !request.regeneratesDropoutMask) continue;
            if (readByBwd && !readElsewhere && request.recompute) recomputed.push_back(t);
        }
    }
    int bwdId = -1;
    if (!bwd.empty()) {
        const std::vector<int> add = recomputed.empty() ? std::vector<int>{} : fwdInputs;
        bwdId = makeFused(bwd, request.backwardOp.value_or(request.op), request.pattern, recomputed, add);
    }
    const int fwdId = makeFused(fwd, request.op, request.pattern, {}, {});
    if (bwdId >= 0) m_graph.node(bwdId).forwardNode = fwdId;
    return fwdId;
}

void FusionContext::finish() {
    if (m_fused == 0) return;  // nothing removed: the node list is already in program order
    Graph& g = m_graph;
    // Kahn's algorithm, ready nodes by program position.
    const std::size_t n = g.nodes().size();
    std::vector<int> indegree(n, 0);
    for (const Node& node : g.nodes()) {
        if (g.isRemoved(node.id)) continue;
        for (int t : node.inputs)
            if (producer(t) >= 0) ++indegree[static_cast<std::size_t>(node.id)];
    }
    using Item = std::pair<double, int>;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> ready;
    for (const Node& node : g.nodes())
        if (!g.isRemoved(node.id) && indegree[static_cast<std::size_t>(node.id)] == 0)
            ready.push({m_position[static_cast<std::size_t>(node.id)], node.id});
    std::vector<int> order;
    while (!ready.empty()) {
        const int id = ready.top().second;
        ready.pop();
        order.push_back(id);
        for (int t : g.node(id).outputs) {
            if (t < 0) continue;
            for (int c : g.tensor(t).consumers)
                if (!g.isRemoved(c) && --indegree[static_cast<std::size_t>(c)] == 0) ready.push({m_position[static_cast<std::size_t>(c)], c});
        }
    }
    reorderNodes(g, order);
}

}  // namespace npu::engine
