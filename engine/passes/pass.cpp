#include "engine/passes/pass.h"

#include "engine/passes/graph_cost_summary.h"

#include <chrono>
#include <cmath>
#include <cstdio>

namespace npu::engine {

std::string PassStats::toString() const {
    char buf[256];
    std::snprintf(buf, sizeof buf, "%s: +%d -%d ~%d nodes, kernels %d -> %d, HBM %.3f -> %.3f GB, %.1f ms", pass.c_str(),
                  nodesAdded, nodesRemoved, nodesChanged, kernelsBefore, kernelsAfter, bytesBefore / 1e9, bytesAfter / 1e9, ms);
    return buf;
}

Expected<PassStats> Pass::run(Graph& graph) {
    PassStats stats;
    stats.pass = name();
    stats.level = level();
    const GraphCostSummary before = summarizeGraphCost(graph);
    const auto count = static_cast<int>(graph.nodes().size());
    const auto t0 = std::chrono::steady_clock::now();
    if (auto s = apply(graph, stats); !s) return makeError(name() + ": " + s.message());
    stats.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    stats.nodesAdded = static_cast<int>(graph.nodes().size()) - count + stats.nodesRemoved;
    const GraphCostSummary after = summarizeGraphCost(graph);
    stats.nodesBefore = before.nodes;
    stats.nodesAfter = after.nodes;
    stats.kernelsBefore = before.kernels;
    stats.kernelsAfter = after.kernels;
    stats.bytesBefore = before.bytes;
    stats.bytesAfter = after.bytes;
    stats.flopsBefore = before.flops;
    stats.flopsAfter = after.flops;
    return stats;
}

std::vector<std::string> PassManager::passNames() const {
    std::vector<std::string> names;
    for (const auto& p : m_passes) names.push_back(p->name());
    return names;
}

Expected<std::vector<PassStats>> PassManager::run(Graph& graph, const Progress& progress) {
    for (const std::string& off : m_disabled) {
        bool found = false;
        for (const auto& p : m_passes) found = found || p->name() == off;
        if (!found) {
            std::string known;
            for (const auto& p : m_passes) known += (known.empty() ? "" : ", ") + p->name();
            return makeError("optimizations.passes_off: unknown pass \"" + off + "\" (passes: " + known + ")");
        }
    }
    std::vector<PassStats> all;
    for (std::size_t i = 0; i < m_passes.size(); ++i) {
        Pass& pass = *m_passes[i];
        if (pass.level() > m_level || m_disabled.count(pass.name())) continue;
        if (progress.cancelled()) return cancelledError();
        progress(static_cast<double>(i) / static_cast<double>(m_passes.size()), pass.name());
        if (beforeEach) beforeEach(pass, graph);
        auto stats = pass.run(graph);
        if (!stats) return stats.error();
        // Fusion regroups work: the same FLOPs must come out (relative tolerance for the
        // summation order only).
        if (pass.preservesFlops() && std::abs(stats->flopsAfter - stats->flopsBefore) > 1e-9 * std::max(1.0, stats->flopsBefore))
            return makeError(pass.name() + ": changed the step's FLOPs from " + std::to_string(stats->flopsBefore) + " to " +
                             std::to_string(stats->flopsAfter) + " (a fusion must keep them)");
        if (log) log(stats->toString());
        all.push_back(*stats);
    }
    return all;
}

}  // namespace npu::engine
