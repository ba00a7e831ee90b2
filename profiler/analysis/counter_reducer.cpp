#include "profiler/analysis/counter_reducer.h"

#include <algorithm>

namespace npu::profiler {

CounterSeries reduceCounter(const CounterSeries& s, std::int64_t t0, std::int64_t t1, int buckets) {
    CounterSeries out;
    if (s.ts_ns.empty() || t1 <= t0 || buckets <= 0) return out;
    const auto begin = std::lower_bound(s.ts_ns.begin(), s.ts_ns.end(), t0) - s.ts_ns.begin();
    const auto end = std::lower_bound(s.ts_ns.begin(), s.ts_ns.end(), t1) - s.ts_ns.begin();
    const bool carried = begin > 0;  // the value in force at t0
    const size_t inRange = size_t(end - begin);

    if (inRange <= size_t(buckets)) {
        if (carried) {
            out.ts_ns.push_back(t0);
            out.value.push_back(s.value[begin - 1]);
        }
        out.ts_ns.insert(out.ts_ns.end(), s.ts_ns.begin() + begin, s.ts_ns.begin() + end);
        out.value.insert(out.value.end(), s.value.begin() + begin, s.value.begin() + end);
        return out;
    }

    const double width = double(t1 - t0) / buckets;
    out.ts_ns.reserve(buckets);
    out.value.reserve(buckets);
    double current = carried ? s.value[begin - 1] : s.value[begin];
    auto i = begin;
    for (int b = 0; b < buckets; ++b) {
        const std::int64_t bStart = t0 + std::int64_t(b * width);
        const std::int64_t bEnd = b + 1 == buckets ? t1 : t0 + std::int64_t((b + 1) * width);
        double maxValue = current;
        bool any = carried || i > begin;
        for (; i < end && s.ts_ns[i] < bEnd; ++i) {
            current = s.value[i];
            maxValue = any ? std::max(maxValue, current) : current;
            any = true;
        }
        if (!any) continue;  // before the first sample
        out.ts_ns.push_back(bStart);
        out.value.push_back(maxValue);
    }
    return out;
}

CounterPeak counterPeak(const CounterSeries& s) {
    CounterPeak p;
    for (size_t i = 0; i < s.value.size(); ++i) {
        if (!p.valid || s.value[i] > p.value) {
            p.value = s.value[i];
            p.ts_ns = s.ts_ns[i];
            p.valid = true;
        }
    }
    return p;
}

}  // namespace npu::profiler
