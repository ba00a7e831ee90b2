#include "engine/project/project_memory_options.h"

namespace npu::engine {

MemoryOptions memoryOptionsFor(const Project& project) {
    MemoryOptions o;
    const nlohmann::json& opt = project.optimizations;
    const bool optimizer = opt.contains("memory_optimizer") && opt["memory_optimizer"].is_object();
    o.allocator = opt.value("allocator", std::string(optimizer ? "buddy" : "caching"));
    if (optimizer) {
        const nlohmann::json& m = opt["memory_optimizer"];
        o.buddy.strategy = m.value("strategy", o.buddy.strategy);
        o.buddy.max_fragmentation = m.value("max_fragmentation", o.buddy.max_fragmentation);
    }
    o.caching.expandable_segments = opt.value("expandable_segments", false);
    if (opt.contains("max_split_size_mb")) o.caching.max_split_size = opt["max_split_size_mb"].get<std::int64_t>() << 20;
    return o;
}

}  // namespace npu::engine
