#include "engine/passes/pass.h"

#include <chrono>
#include <cstdio>

namespace npu::engine {

std::string PassStats::toString() const {
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s: +%d -%d ~%d nodes, %.1f ms", pass.c_str(), nodesAdded, nodesRemoved, nodesChanged, ms);
    return buf;
}

Expected<PassStats> Pass::run(Graph& graph) {
    PassStats stats;
    stats.pass = name();
    const auto before = static_cast<int>(graph.nodes().size());
    const auto t0 = std::chrono::steady_clock::now();
    if (auto s = apply(graph, stats); !s) return makeError(name() + ": " + s.message());
    stats.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    stats.nodesAdded = static_cast<int>(graph.nodes().size()) - before + stats.nodesRemoved;
    return stats;
}

Expected<std::vector<PassStats>> PassManager::run(Graph& graph, const Progress& progress) {
    std::vector<PassStats> all;
    for (std::size_t i = 0; i < m_passes.size(); ++i) {
        if (progress.cancelled()) return makeError("cancelled");
        progress(static_cast<double>(i) / static_cast<double>(m_passes.size()), m_passes[i]->name());
        auto stats = m_passes[i]->run(graph);
        if (!stats) return stats.error();
        if (log) log(stats->toString());
        all.push_back(*stats);
    }
    return all;
}

}  // namespace npu::engine
