#pragma once
// Reduces a counter track (memory bytes, ...) for drawing: a fixed number of equal
// time buckets over [t0, t1), each keeping the maximum the counter reached inside it.
// A counter is a step function, so the value carried into a bucket from the previous
// sample counts too; peaks are never lost however far the chart zooms out.

#include "profiler/store/profile_db.h"

#include <cstdint>

namespace npu::profiler {

struct CounterPeak {
    std::int64_t ts_ns = 0;
    double value = 0;
    bool valid = false;
};

// Samples sorted by ts. Returns at most `buckets` points (ts = bucket start), fewer
// when the series has fewer samples than buckets in the range (then the samples are
// returned as they are, with the carried-in value at t0).
CounterSeries reduceCounter(const CounterSeries& series, std::int64_t t0, std::int64_t t1, int buckets);

// The first time the series reaches its maximum.
CounterPeak counterPeak(const CounterSeries& series);

}  // namespace npu::profiler
