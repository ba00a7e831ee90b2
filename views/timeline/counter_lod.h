#pragma once
// Counter series reduced to one (min, max, last) triple per pixel column before drawing,
// so a million-sample memory curve costs as much as its width.

#include "profiler/store/profile_db.h"

#include <cstdint>
#include <vector>

namespace npu::views {

struct CounterColumn {
    double min = 0;
    double max = 0;
    double last = 0;  // value in force at the column's right edge (counters are steps)
};

// out.columns is resized to `width` and overwritten (its capacity is reused frame to frame).
struct CounterColumns {
    std::vector<CounterColumn> columns;
    int firstColumn = 0;  // columns before this have no sample in force
    int lastColumn = -1;  // columns after this are past the final sample
};

void reduceCounter(const profiler::CounterSeries& series, std::int64_t t0, std::int64_t t1, int width,
                   CounterColumns& out);

}  // namespace npu::views
