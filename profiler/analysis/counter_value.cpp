#include "profiler/analysis/counter_value.h"

#include <algorithm>

namespace npu::profiler {

std::optional<double> counterValueAt(const CounterSeries& series, std::int64_t t_ns) {
    const auto it = std::upper_bound(series.ts_ns.begin(), series.ts_ns.end(), t_ns);
    if (it == series.ts_ns.begin()) return std::nullopt;
    return series.value[static_cast<std::size_t>(std::distance(series.ts_ns.begin(), it) - 1)];
}

}  // namespace npu::profiler
