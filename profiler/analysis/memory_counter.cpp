#include "profiler/analysis/memory_counter.h"

namespace npu::profiler {

MemoryCounter classifyMemoryCounter(std::string_view name) {
    MemoryCounter c;
    c.displayName = std::string(name);
    // A unit suffix of Ascend's trace counters: the argument name after the last space.
    struct Unit {
        std::string_view suffix;
        double bytes;
    };
    static constexpr Unit kUnits[] = {{" B", 1.0}, {" KB", 1024.0}, {" MB", 1024.0 * 1024.0}, {" GB", 1024.0 * 1024.0 * 1024.0}};
    for (const auto& u : kUnits)
        if (name.ends_with(u.suffix)) {
            c.kind = MemoryCounterKind::other;
            c.bytesPerUnit = u.bytes;
            c.displayName = std::string(name.substr(0, name.size() - u.suffix.size()));
            break;
        }
    if (name == "Memory (live bytes)" || name.find("Total Allocated") != std::string_view::npos)
        c.kind = MemoryCounterKind::allocated;
    else if (name.find("Total Reserved") != std::string_view::npos || name.starts_with("Caching allocator model"))
        c.kind = MemoryCounterKind::reserved;
    else if (name.find("Total Active") != std::string_view::npos)
        c.kind = MemoryCounterKind::active;
    return c;
}

}  // namespace npu::profiler
