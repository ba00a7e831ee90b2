#pragma once
// Operator / kernel statistics from a profiling database: per op name, op type or
// category, the count, total, mean, min and max duration and the share of the summed
// durations of every row (so the shares add up to 100%).

#include "profiler/store/profile_db.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace npu::profiler {

enum class OpGrouping { byName, byType, byCategory };

struct OpStatRow {
    std::string key;        // name, op type or category
    std::string category;   // the category of the group (for byName/byType, the most common one)
    std::int64_t count = 0;
    std::int64_t total_ns = 0;
    double mean_ns = 0;
    std::int64_t min_ns = 0;
    std::int64_t max_ns = 0;
    double share = 0;       // total / reference_ns, in [0, 1]
    // The dtypes the group's ops compute in (OP_INFO, simulated runs), most time first,
    // joined by "/" ("bf16", "bf16/fp32"); empty where the run has no OP_INFO.
    std::string dtype;
};

struct OpStatOptions {
    OpGrouping grouping = OpGrouping::byName;
    std::optional<std::int64_t> device;                 // restrict to one device
    std::optional<std::pair<std::int64_t, std::int64_t>> range;  // [start, end) ns, slices overlapping it
    bool kernelsOnly = true;  // device tracks (compute/comm/memcpy) only, not host threads
};

struct OpStatistics {
    std::vector<OpStatRow> rows;    // sorted by total_ns descending
    std::int64_t reference_ns = 0;  // what share is relative to: the summed total of all rows
};

OpStatistics computeOpStatistics(const ProfileDb& db, const OpStatOptions& options = {});

}  // namespace npu::profiler
