#include "engine/driver/rank_run_cache.h"

namespace npu::engine {

Expected<SimulationResult> RankRunCache::run(const Project& rank, const std::string& flags, const std::function<Expected<SimulationResult>()>& simulate) {
    // The whole project as the file would hold it, and where it is (messages name it).
    std::string key = flags + "\n" + rank.file.string() + "\n" + projectToJson(rank).dump();
    if (const auto it = m_runs.find(key); it != m_runs.end()) return it->second;  // tasks shared, not copied (SharedVector)
    auto fresh = simulate();
    if (!fresh) return fresh;
    m_runs.emplace(std::move(key), *fresh);
    return fresh;
}

}  // namespace npu::engine
