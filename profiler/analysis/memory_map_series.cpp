#include "profiler/analysis/memory_map_series.h"

#include <algorithm>
#include <map>

namespace npu::profiler {

MemoryMapSeries memoryMapSeries(const MemoryMapData& map) {
    MemoryMapSeries out;
    std::map<std::string, int> index;
    for (const auto& b : map.blocks) index.try_emplace(b.category, 0);
    for (auto& [category, i] : index) {
        i = static_cast<int>(out.categories.size());
        out.categories.push_back(category);
    }
    // Changes as (time, which, delta): which = category index, or -1 for reserved.
    struct Change {
        std::int64_t t;
        int which;
        double delta;
    };
    std::vector<Change> changes;
    changes.reserve(2 * (map.blocks.size() + map.segments.size()));
    for (const auto& b : map.blocks) {
        const int c = index.at(b.category);
        changes.push_back({b.alloc_ns, c, double(b.size)});
        if (b.free_ns >= 0) changes.push_back({b.free_ns, c, -double(b.size)});
    }
    for (const auto& s : map.segments) {
        changes.push_back({s.alloc_ns, -1, double(s.size)});
        if (s.free_ns >= 0) changes.push_back({s.free_ns, -1, -double(s.size)});
    }
    std::stable_sort(changes.begin(), changes.end(), [](const Change& a, const Change& b) { return a.t < b.t; });
    std::vector<double> held(out.categories.size(), 0.0);
    out.bytesByCategory.assign(out.categories.size(), {});
    double reserved = 0, allocated = 0;
    for (std::size_t i = 0; i < changes.size();) {
        const std::int64_t t = changes[i].t;
        for (; i < changes.size() && changes[i].t == t; ++i) {  // every change at one instant, then one sample
            if (changes[i].which < 0) reserved += changes[i].delta;
            else {
                held[static_cast<std::size_t>(changes[i].which)] += changes[i].delta;
                allocated += changes[i].delta;
            }
        }
        out.ts_ns.push_back(t);
        for (std::size_t c = 0; c < held.size(); ++c) out.bytesByCategory[c].push_back(held[c]);
        out.allocated.push_back(allocated);
        out.reserved.push_back(reserved);
        out.fragmentation.push_back(reserved > 0 ? std::max(0.0, reserved - allocated) / reserved : 0.0);
    }
    return out;
}

}  // namespace npu::profiler
