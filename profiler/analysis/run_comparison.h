#pragma once
// Two runs side by side: per op name and per category, the count and total-time deltas
// (B - A) sorted by |delta total|; both step breakdowns; and the first step start of
// each run so the views can align both timelines at step start.

#include "profiler/analysis/step_breakdown.h"

#include <cstdint>
#include <string>
#include <vector>

namespace npu::profiler {

class ProfileDb;

struct OpDelta {
    std::string key;
    std::string category;
    std::int64_t count_a = 0, count_b = 0;
    std::int64_t total_a_ns = 0, total_b_ns = 0;
    std::int64_t delta_count() const { return count_b - count_a; }
    std::int64_t delta_total_ns() const { return total_b_ns - total_a_ns; }
};

struct RunComparison {
    std::vector<OpDelta> byName;       // sorted by |delta total| descending
    std::vector<OpDelta> byCategory;
    // compute / communication / memory (kernel_classification.h): comparable between a
    // simulated run and a measured one, whose slice categories differ.
    std::vector<OpDelta> byKernelClass;
    std::vector<StepBreakdownRow> stepsA, stepsB;
    std::int64_t stepStartA_ns = 0;    // first step start (first kernel when the run has no steps)
    std::int64_t stepStartB_ns = 0;
    // Add to B's times to draw it on A's axis with both first steps starting together.
    std::int64_t alignOffsetB_ns() const { return stepStartA_ns - stepStartB_ns; }
};

RunComparison compareRuns(const ProfileDb& a, const ProfileDb& b);

}  // namespace npu::profiler
