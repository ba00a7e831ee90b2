#include "engine/memory/zero_sharding.h"

#include <algorithm>

namespace npu::engine {

namespace {

std::int64_t share(std::int64_t bytes, int dp) { return (bytes + dp - 1) / dp; }

}  // namespace

std::vector<bool> zeroShardedTensors(const Graph& graph, int stage) {
    std::vector<bool> out(graph.tensors().size(), false);
    if (stage <= 0) return out;
    for (const Tensor& t : graph.tensors()) {
        if (t.role == TensorRole::optimizer_state || t.role == TensorRole::master_weight) out[static_cast<std::size_t>(t.id)] = true;
        if (t.role == TensorRole::weight && stage >= 3) out[static_cast<std::size_t>(t.id)] = true;
        // DeepSpeed's fp32 gradient partition is a rank's own from stage 1 on.
        if (t.producer >= 0 && graph.node(t.producer).kind == OpKind::GradToFp32) out[static_cast<std::size_t>(t.id)] = true;
        if (t.role != TensorRole::gradient || stage < 2) continue;
        bool weightGrad = false;
        for (int n : t.consumers) weightGrad = weightGrad || graph.node(n).phase == Phase::optimizer;
        // Follow in-place accumulation back to the buffer that holds the gradient.
        for (int cur = t.id; weightGrad && cur >= 0;) {
            out[static_cast<std::size_t>(cur)] = true;
            const Tensor& c = graph.tensor(cur);
            if (c.producer < 0) break;
            const Node& p = graph.node(c.producer);
            cur = p.attrInt("inplace", 0) != 0 && !p.inputs.empty() ? p.inputs[0] : -1;
        }
    }
    return out;
}

void shardMemoryEvents(std::vector<MemoryEvent>& events, const std::vector<bool>& sharded, int dataParallel) {
    if (dataParallel <= 1) return;
    std::int64_t live = 0;
    for (MemoryEvent& e : events) {
        if (e.tensor >= 0 && static_cast<std::size_t>(e.tensor) < sharded.size() && sharded[static_cast<std::size_t>(e.tensor)])
            e.delta_bytes = e.delta_bytes >= 0 ? share(e.delta_bytes, dataParallel) : -share(-e.delta_bytes, dataParallel);
        live += e.delta_bytes;
        e.live_bytes = live;
    }
}

void addGatheredParameters(std::vector<MemoryEvent>& events, const Graph& graph, const std::vector<std::vector<NodeTiming>>& steps,
                           int dataParallel) {
    if (dataParallel <= 1) return;
    const std::vector<bool> sharded = zeroShardedTensors(graph, 3);
    std::vector<MemoryEvent> added;
    std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>> windows(graph.tensors().size());
    for (const auto& step : steps)
        for (std::size_t i = 0; i < step.size(); ++i) {
            const Node& n = graph.node(step[i].node);
            if (n.phase == Phase::optimizer) continue;  // each rank updates its own shard
            const std::int64_t from = i > 0 ? step[i - 1].start : step[i].start;  // prefetched while the op before runs
            for (int t : n.inputs)
                if (t >= 0 && sharded[static_cast<std::size_t>(t)] && graph.tensor(t).role == TensorRole::weight)
                    windows[static_cast<std::size_t>(t)].push_back({from, step[i].end});
        }
    for (const Tensor& w : graph.tensors()) {
        if (!sharded[static_cast<std::size_t>(w.id)] || w.role != TensorRole::weight || w.bytes() <= 0) continue;
        const std::int64_t rest = w.bytes() - share(w.bytes(), dataParallel);
        if (rest <= 0) continue;
        if (w.numel() < kZero3PersistenceThreshold) {  // persistent: gathered once, kept
            added.push_back({0, rest, 0, w.id, TensorRole::gathered_weight});
            continue;
        }
        auto& spans = windows[static_cast<std::size_t>(w.id)];
        std::sort(spans.begin(), spans.end());
        for (std::size_t i = 0; i < spans.size();) {  // overlapping windows are one gather
            std::int64_t start = spans[i].first, end = spans[i].second;
            for (++i; i < spans.size() && spans[i].first <= end; ++i) end = std::max(end, spans[i].second);
            added.push_back({start, rest, 0, w.id, TensorRole::gathered_weight});
            added.push_back({end, -rest, 0, w.id, TensorRole::gathered_weight});
        }
    }
    if (added.empty()) return;
    events.insert(events.end(), added.begin(), added.end());
    std::stable_sort(events.begin(), events.end(), [](const MemoryEvent& a, const MemoryEvent& b) {
        if (a.t_ns != b.t_ns) return a.t_ns < b.t_ns;
        return a.delta_bytes < b.delta_bytes;  // frees first
    });
    std::int64_t live = 0;
    for (MemoryEvent& e : events) e.live_bytes = live += e.delta_bytes;
}

namespace {

// Calls add(tensor, bytes on this rank) for every model-state tensor.
void forEachModelState(const Graph& graph, int stage, int dataParallel, const std::function<void(const Tensor&, std::int64_t)>& add) {
    const std::vector<bool> sharded = zeroShardedTensors(graph, 2);  // stage 2 marks every model-state tensor but weights
    const std::vector<bool> shardedNow = zeroShardedTensors(graph, stage);
    for (const Tensor& t : graph.tensors()) {
        if (t.bytes() <= 0) continue;
        const auto i = static_cast<std::size_t>(t.id);
        // Count each gradient buffer once: in-place accumulations share their root's storage.
        const bool inplaceGrad = t.role == TensorRole::gradient && t.producer >= 0 &&
                                 graph.node(t.producer).attrInt("inplace", 0) != 0;
        const bool state = (t.role == TensorRole::weight && t.producer < 0) || (sharded[i] && !inplaceGrad);
        if (!state) continue;
        add(t, shardedNow[i] && dataParallel > 1 ? share(t.bytes(), dataParallel) : t.bytes());
    }
}

}  // namespace

std::int64_t modelStateBytes(const Graph& graph, int stage, int dataParallel) {
    std::int64_t total = 0;
    forEachModelState(graph, stage, dataParallel, [&](const Tensor&, std::int64_t bytes) { total += bytes; });
    return total;
}

std::map<std::string, ModelBytes> modelStateBytesByModel(const Graph& graph, int stage, int dataParallel,
                                                         const std::function<std::string(const std::string&)>& modelOf) {
    std::map<std::string, ModelBytes> out;
    forEachModelState(graph, stage, dataParallel, [&](const Tensor& t, std::int64_t bytes) {
        ModelBytes& m = out[modelOf(t.name)];
        if (t.role == TensorRole::weight) (t.frozen ? m.frozen_weights : m.trainable_weights) += bytes;
        else if (t.role == TensorRole::gradient) m.gradients += bytes;
        else m.optimizer_states += bytes;  // optimizer states, master weights
    });
    return out;
}

double zeroPaperBytes(double psi, int stage, int n) {
    switch (stage) {
    case 0: return 16 * psi;
    case 1: return 4 * psi + 12 * psi / n;
    case 2: return 2 * psi + 14 * psi / n;
    default: return 16 * psi / n;
    }
}

}  // namespace npu::engine
