#include "views/timeline/counter_lod.h"

#include <algorithm>

namespace npu::views {

void reduceCounter(const profiler::CounterSeries& series, std::int64_t t0, std::int64_t t1, int width,
                   CounterColumns& out)
{
    out.columns.assign(static_cast<std::size_t>(std::max(0, width)), CounterColumn{});
    out.firstColumn = width;
    out.lastColumn = -1;
    const auto& ts = series.ts_ns;
    const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(ts.size());
    if (n == 0 || width <= 0 || t1 <= t0)
        return;
    // The sample in force at t0: the last one at or before it (-1 when none yet).
    std::ptrdiff_t i = (std::upper_bound(ts.begin(), ts.end(), t0) - ts.begin()) - 1;
    const double span = static_cast<double>(t1 - t0);
    for (int c = 0; c < width; ++c) {
        const std::int64_t colEnd = t0 + static_cast<std::int64_t>(span * (c + 1) / width);
        CounterColumn col;
        bool any = i >= 0;
        if (any)
            col.min = col.max = series.value[static_cast<std::size_t>(i)];
        while (i + 1 < n && ts[static_cast<std::size_t>(i + 1)] < colEnd) {
            ++i;
            const double v = series.value[static_cast<std::size_t>(i)];
            col.min = any ? std::min(col.min, v) : v;
            col.max = any ? std::max(col.max, v) : v;
            any = true;
        }
        if (!any)
            continue;
        col.last = series.value[static_cast<std::size_t>(i)];
        out.columns[static_cast<std::size_t>(c)] = col;
        out.firstColumn = std::min(out.firstColumn, c);
        if (i + 1 < n || ts[static_cast<std::size_t>(i)] >= t0 + static_cast<std::int64_t>(span * c / width))
            out.lastColumn = c;
    }
}

}  // namespace npu::views
