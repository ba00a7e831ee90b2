#include "profiler/analysis/interval_set.h"

#include <algorithm>

namespace npu::profiler {

std::vector<Interval> mergeIntervals(std::vector<Interval> v) {
    std::sort(v.begin(), v.end(), [](const Interval& a, const Interval& b) { return a.start < b.start; });
    std::vector<Interval> out;
    for (const auto& i : v) {
        if (i.end <= i.start) continue;
        // Touching intervals merge too, as HTA's merge_kernel_intervals does (ts > running max end).
        if (!out.empty() && i.start <= out.back().end)
            out.back().end = std::max(out.back().end, i.end);
        else
            out.push_back(i);
    }
    return out;
}

std::int64_t totalLength(const std::vector<Interval>& merged) {
    std::int64_t sum = 0;
    for (const auto& i : merged) sum += i.end - i.start;
    return sum;
}

std::vector<Interval> intersect(const std::vector<Interval>& a, const std::vector<Interval>& b) {
    std::vector<Interval> out;
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        const auto lo = std::max(a[i].start, b[j].start);
        const auto hi = std::min(a[i].end, b[j].end);
        if (lo < hi) out.push_back({lo, hi});
        if (a[i].end < b[j].end) ++i; else ++j;
    }
    return out;
}

std::vector<Interval> clipIntervals(const std::vector<Interval>& v, std::int64_t lo, std::int64_t hi) {
    std::vector<Interval> out;
    for (const auto& i : v) {
        const auto s = std::max(i.start, lo), e = std::min(i.end, hi);
        if (s < e) out.push_back({s, e});
    }
    return out;
}

}  // namespace npu::profiler
