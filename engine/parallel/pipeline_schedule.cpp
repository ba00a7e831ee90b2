#include "engine/parallel/pipeline_schedule.h"

#include <algorithm>
#include <numeric>

namespace npu::engine {

bool parsePipelineSchedule(std::string_view name, PipelineSchedule& out) {
    if (name == "gpipe") out = PipelineSchedule::gpipe;
    else if (name == "1f1b") out = PipelineSchedule::one_f_one_b;
    else if (name == "interleaved") out = PipelineSchedule::interleaved;
    else return false;
    return true;
}

std::string_view pipelineScheduleName(PipelineSchedule s) {
    switch (s) {
    case PipelineSchedule::gpipe: return "gpipe";
    case PipelineSchedule::one_f_one_b: return "1f1b";
    case PipelineSchedule::interleaved: return "interleaved";
    }
    return "1f1b";
}

double PipelineTimeline::bubbleFraction() const {
    if (iterationNs <= 0 || bubbleNs.empty()) return 0;
    return std::accumulate(bubbleNs.begin(), bubbleNs.end(), 0.0) / static_cast<double>(bubbleNs.size()) / iterationNs;
}

namespace {

struct Op {
    int microBatch;
    int chunk;
    bool backward;
};

// Megatron-LM's interleaved order: virtual micro-batch k of a stage runs model chunk
// (k / p) % v (reversed for backward) of micro-batch (k / (p*v)) * p + k % p.
Op virtualOp(int k, int p, int v, bool backward) {
    int chunk = (k / p) % v;
    if (backward) chunk = v - 1 - chunk;
    return {(k / (p * v)) * p + k % p, chunk, backward};
}

std::vector<Op> stageOrder(const PipelineSetup& s, int stage) {
    const int p = s.stages, m = s.microBatches, v = s.schedule == PipelineSchedule::interleaved ? s.virtualStages : 1;
    std::vector<Op> ops;
    ops.reserve(static_cast<std::size_t>(2 * m * v));
    if (s.forwardOnly || s.schedule == PipelineSchedule::gpipe) {
        for (int i = 0; i < m; ++i) ops.push_back({i, 0, false});
        if (s.forwardOnly) return ops;
        for (int i = 0; i < m; ++i) ops.push_back({i, 0, true});
        return ops;
    }
    const int total = m * v;
    const int warmup = v == 1 ? std::min(p - stage - 1, m) : std::min((p - stage - 1) * 2 + (v - 1) * p, total);
    for (int k = 0; k < warmup; ++k) ops.push_back(virtualOp(k, p, v, false));
    for (int k = 0; k < total - warmup; ++k) {
        ops.push_back(virtualOp(warmup + k, p, v, false));
        ops.push_back(virtualOp(k, p, v, true));
    }
    for (int k = total - warmup; k < total; ++k) ops.push_back(virtualOp(k, p, v, true));
    return ops;
}

}  // namespace

Expected<PipelineTimeline> simulatePipeline(const PipelineSetup& s) {
    const int p = s.stages, m = s.microBatches;
    if (p < 1) return makeError("parallel.pipeline_stages: expected at least 1, got " + std::to_string(p));
    if (m < 1) return makeError("parallel.micro_batches: expected at least 1, got " + std::to_string(m));
    const int v = s.schedule == PipelineSchedule::interleaved && !s.forwardOnly ? s.virtualStages : 1;
    if (v < 1) return makeError("parallel.virtual_stages: expected at least 1, got " + std::to_string(v));
    if (v > 1 && m % p != 0)
        return makeError("parallel.micro_batches: the interleaved schedule needs a multiple of pipeline_stages (" + std::to_string(p) +
                         "), got " + std::to_string(m));
    if (static_cast<int>(s.forwardNs.size()) != p || (!s.forwardOnly && static_cast<int>(s.backwardNs.size()) != p))
        return makeError("pipeline: one forward and one backward time per stage expected");

    const int V = p * v;  // virtual stages; (stage s, chunk c) is virtual stage c*p + s
    const auto at = [V](int mb, int vs) { return static_cast<std::size_t>(mb) * static_cast<std::size_t>(V) + static_cast<std::size_t>(vs); };
    std::vector<double> endF(static_cast<std::size_t>(m) * V, -1), endB(static_cast<std::size_t>(m) * V, -1);

    PipelineTimeline t;
    t.stages.resize(static_cast<std::size_t>(p));
    std::vector<std::vector<Op>> orders;
    for (int st = 0; st < p; ++st) orders.push_back(stageOrder(s, st));
    std::vector<std::size_t> next(static_cast<std::size_t>(p), 0);
    std::vector<double> freeAt(static_cast<std::size_t>(p), 0);
    std::size_t remaining = 0;
    for (const auto& o : orders) remaining += o.size();

    while (remaining > 0) {
        bool progressed = false;
        for (int st = 0; st < p; ++st) {
            auto& i = next[static_cast<std::size_t>(st)];
            const auto& order = orders[static_cast<std::size_t>(st)];
            while (i < order.size()) {
                const Op& op = order[i];
                const int vs = op.chunk * p + st;
                double ready = 0;
                if (!op.backward) {
                    if (vs > 0) {
                        const double dep = endF[at(op.microBatch, vs - 1)];
                        if (dep < 0) break;
                        ready = dep + (p > 1 ? s.p2pNs : 0);
                    }
                } else if (vs < V - 1) {
                    const double dep = endB[at(op.microBatch, vs + 1)];
                    if (dep < 0) break;
                    ready = dep + (p > 1 ? s.p2pNs : 0);
                } else {
                    const double dep = endF[at(op.microBatch, vs)];
                    if (dep < 0) break;
                    ready = dep;
                }
                const double dur = (op.backward ? s.backwardNs : s.forwardNs)[static_cast<std::size_t>(st)] / v;
                const double start = std::max(freeAt[static_cast<std::size_t>(st)], ready);
                const double end = start + dur;
                (op.backward ? endB : endF)[at(op.microBatch, vs)] = end;
                freeAt[static_cast<std::size_t>(st)] = end;
                t.stages[static_cast<std::size_t>(st)].push_back({op.microBatch, op.chunk, op.backward, start, end});
                ++i;
                --remaining;
                progressed = true;
            }
        }
        if (!progressed) return makeError("pipeline schedule " + std::string(pipelineScheduleName(s.schedule)) + " deadlocked (internal error)");
    }
    for (int st = 0; st < p; ++st) {
        double busy = 0;
        for (const auto& pass : t.stages[static_cast<std::size_t>(st)]) busy += pass.endNs - pass.startNs;
        t.busyNs.push_back(busy);
        t.iterationNs = std::max(t.iterationNs, freeAt[static_cast<std::size_t>(st)]);
    }
    for (double b : t.busyNs) t.bubbleNs.push_back(t.iterationNs - b);
    return t;
}

}  // namespace npu::engine
