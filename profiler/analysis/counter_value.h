#pragma once
// The value a counter (a step function: each sample holds until the next) has at a
// time: what the cursor readouts of the charts and counter tracks print.

#include "profiler/store/profile_db.h"

#include <cstdint>
#include <optional>

namespace npu::profiler {

// The last sample at or before t; nothing before the first sample.
std::optional<double> counterValueAt(const CounterSeries& series, std::int64_t t_ns);

}  // namespace npu::profiler
