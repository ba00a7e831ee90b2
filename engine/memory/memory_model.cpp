#include "engine/memory/memory_model.h"

#include "engine/ir/op_registry.h"

#include <algorithm>
#include <numeric>

namespace npu::engine {

bool isResident(const Tensor& t) {
    if (t.persistent) return true;
    if (t.producer >= 0) return false;
    return t.role == TensorRole::weight || t.role == TensorRole::master_weight || t.role == TensorRole::optimizer_state ||
           t.role == TensorRole::input;
}

std::vector<int> storageRoots(const Graph& g) {
    std::vector<int> root(g.tensors().size());
    std::iota(root.begin(), root.end(), 0);
    const auto& reg = OpRegistry::instance();
    for (int id : g.topologicalOrder()) {
        const Node& n = g.node(id);
        if (n.inputs.empty() || n.outputs.empty() || n.inputs[0] < 0 || n.outputs[0] < 0) continue;
        if (reg.isShapeOnly(n.op) || n.attrInt("inplace", 0) != 0)
            root[static_cast<std::size_t>(n.outputs[0])] = root[static_cast<std::size_t>(n.inputs[0])];
    }
    return root;
}

namespace {

struct Change {
    std::int64_t t;
    std::int64_t delta;
    int tensor;
};

}  // namespace

MemoryTimeline trackMemory(const Graph& g, const std::vector<std::vector<NodeTiming>>& steps, bool lazyOptimizerState) {
    MemoryTimeline out;
    const std::vector<int> root = storageRoots(g);
    const std::size_t nt = g.tensors().size();
    // Lazy states: PyTorch's optimizers create them inside the first optimizer.step()
    // (Adam's _init_group zeros_like's exp_avg / exp_avg_sq), so they appear when the
    // first optimizer op reading them starts in the first step.
    std::vector<std::int64_t> firstStart(g.nodes().size(), -1);
    if (lazyOptimizerState && !steps.empty())
        for (const NodeTiming& n : steps.front())
            if (firstStart[static_cast<std::size_t>(n.node)] < 0) firstStart[static_cast<std::size_t>(n.node)] = n.start;
    std::vector<Change> changes;
    for (const Tensor& t : g.tensors())
        if (root[static_cast<std::size_t>(t.id)] == t.id && isResident(t) && t.bytes() > 0) {
            std::int64_t at = 0;
            if (lazyOptimizerState && t.role == TensorRole::optimizer_state) {
                std::int64_t first = -1;
                for (int c : t.consumers) {
                    const std::int64_t s = firstStart[static_cast<std::size_t>(c)];
                    if (s >= 0 && g.node(c).phase == Phase::optimizer && (first < 0 || s < first)) first = s;
                }
                at = std::max<std::int64_t>(first, 0);
            }
            changes.push_back({at, t.bytes(), t.id});
            out.residentBytes += t.bytes();
        }
    // Only the loss (outputs[0]) outlives the step's program: a training loop keeps the
    // loss and drops the other outputs (logits). The H200 memory snapshot of the
    // calibration model shows the bf16 logits freed before the backward pass begins.
    std::vector<bool> isOutput(nt, false);
    if (!g.outputs.empty() && g.outputs.front() >= 0)
        isOutput[static_cast<std::size_t>(root[static_cast<std::size_t>(g.outputs.front())])] = true;

    // Weight gradients: tensors (storage roots) an optimizer-phase node reads. Under
    // gradient accumulation the first micro-batch's buffer holds the sum until the
    // optimizer; later micro-batches' gradients are added into it and freed.
    std::vector<bool> accumulated(nt, false);
    for (const Tensor& t : g.tensors())
        for (int c : t.consumers)
            if (g.node(c).phase == Phase::optimizer) accumulated[static_cast<std::size_t>(root[static_cast<std::size_t>(t.id)])] = true;

    std::vector<std::int64_t> start(g.nodes().size(), -1), end(g.nodes().size(), -1);
    for (const auto& step : steps) {
        if (step.empty()) continue;
        // A node met again starts the next micro-batch.
        std::vector<std::size_t> cuts{0};
        std::int64_t optimizerEnd = -1;
        {
            std::vector<bool> seen(g.nodes().size(), false);
            for (std::size_t i = 0; i < step.size(); ++i) {
                const auto n = static_cast<std::size_t>(step[i].node);
                if (seen[n]) {
                    cuts.push_back(i);
                    std::fill(seen.begin(), seen.end(), false);
                }
                seen[n] = true;
                if (g.node(step[i].node).phase == Phase::optimizer) optimizerEnd = std::max(optimizerEnd, step[i].end);
            }
            cuts.push_back(step.size());
        }
        const bool micro = cuts.size() > 2;
        const std::int64_t stepEnd = step.back().end;
        for (std::size_t m = 0; m + 1 < cuts.size(); ++m) {
            std::fill(start.begin(), start.end(), -1);
            std::fill(end.begin(), end.end(), -1);
            for (std::size_t i = cuts[m]; i < cuts[m + 1]; ++i) {
                start[static_cast<std::size_t>(step[i].node)] = step[i].start;
                end[static_cast<std::size_t>(step[i].node)] = step[i].end;
            }
            std::vector<std::int64_t> alloc(nt, -1), release(nt, -1);
            for (const Tensor& t : g.tensors()) {
                const auto r = static_cast<std::size_t>(root[static_cast<std::size_t>(t.id)]);
                if (isResident(g.tensor(static_cast<int>(r)))) continue;
                if (t.producer >= 0 && start[static_cast<std::size_t>(t.producer)] >= 0) {
                    const std::int64_t s = start[static_cast<std::size_t>(t.producer)];
                    if (static_cast<int>(r) == t.id) alloc[r] = s;
                    release[r] = std::max(release[r], end[static_cast<std::size_t>(t.producer)]);
                }
                for (int c : t.consumers) {
                    if (end[static_cast<std::size_t>(c)] < 0) continue;
                    if (micro && m > 0 && accumulated[r] && g.node(c).phase == Phase::optimizer) continue;
                    release[r] = std::max(release[r], end[static_cast<std::size_t>(c)]);
                }
            }
            for (std::size_t r = 0; r < nt; ++r) {
                if (alloc[r] < 0) continue;
                const std::int64_t bytes = g.tensor(static_cast<int>(r)).bytes();
                if (bytes <= 0) continue;
                std::int64_t freeAt = isOutput[r] ? stepEnd : std::max(release[r], alloc[r]);
                if (micro && m == 0 && accumulated[r]) freeAt = std::max(freeAt, optimizerEnd);
                changes.push_back({alloc[r], bytes, static_cast<int>(r)});
                changes.push_back({freeAt, -bytes, static_cast<int>(r)});
            }
        }
    }
    std::stable_sort(changes.begin(), changes.end(), [](const Change& a, const Change& b) {
        if (a.t != b.t) return a.t < b.t;
        return a.delta < b.delta;  // frees first
    });
    std::map<TensorRole, std::int64_t> byRole, atPeak;
    std::int64_t live = 0;
    out.events.reserve(changes.size());
    for (const Change& c : changes) {
        live += c.delta;
        const TensorRole role = g.tensor(c.tensor).role;
        byRole[role] += c.delta;
        out.events.push_back({c.t, c.delta, live, c.tensor, role});
        if (live > out.peakBytes) {
            out.peakBytes = live;
            out.peakTimeNs = c.t;
            atPeak = byRole;
        }
    }
    for (const auto& [role, bytes] : atPeak)
        if (bytes > 0) out.peakByRole[std::string(tensorRoleName(role))] = bytes;
    return out;
}

}  // namespace npu::engine
