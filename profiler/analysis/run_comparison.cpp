#include "profiler/analysis/run_comparison.h"

#include "profiler/analysis/op_statistics.h"
#include "profiler/store/profile_db.h"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <map>

namespace npu::profiler {
namespace {

std::vector<OpDelta> deltas(const ProfileDb& a, const ProfileDb& b, OpGrouping grouping) {
    OpStatOptions o;
    o.grouping = grouping;
    std::map<std::string, OpDelta> m;
    for (const auto& r : computeOpStatistics(a, o).rows) {
        auto& d = m[r.key];
        d.key = r.key;
        d.category = r.category;
        d.count_a = r.count;
        d.total_a_ns = r.total_ns;
    }
    for (const auto& r : computeOpStatistics(b, o).rows) {
        auto& d = m[r.key];
        d.key = r.key;
        if (d.category.empty()) d.category = r.category;
        d.count_b = r.count;
        d.total_b_ns = r.total_ns;
    }
    std::vector<OpDelta> out;
    out.reserve(m.size());
    for (auto& [k, d] : m) out.push_back(std::move(d));
    std::stable_sort(out.begin(), out.end(), [](const OpDelta& x, const OpDelta& y) {
        return std::llabs(x.delta_total_ns()) > std::llabs(y.delta_total_ns());
    });
    return out;
}

std::vector<OpDelta> byClass(const std::vector<OpDelta>& byName) {
    std::map<std::string, OpDelta> m;
    for (const auto& d : byName) {
        const std::string cls(kernelClassName(classifyKernel(d.key, d.category)));
        auto& o = m[cls];
        o.key = o.category = cls;
        o.count_a += d.count_a;
        o.count_b += d.count_b;
        o.total_a_ns += d.total_a_ns;
        o.total_b_ns += d.total_b_ns;
    }
    std::vector<OpDelta> out;
    for (auto& [k, d] : m) out.push_back(std::move(d));
    std::stable_sort(out.begin(), out.end(), [](const OpDelta& x, const OpDelta& y) {
        return std::llabs(x.delta_total_ns()) > std::llabs(y.delta_total_ns());
    });
    return out;
}

std::int64_t firstStepStart(const std::vector<StepBreakdownRow>& rows) {
    std::int64_t first = std::numeric_limits<std::int64_t>::max();
    for (const auto& r : rows)
        if (r.type == "rank") first = std::min(first, r.step_start_ns);
    return first == std::numeric_limits<std::int64_t>::max() ? 0 : first;
}

}  // namespace

RunComparison compareRuns(const ProfileDb& a, const ProfileDb& b) {
    RunComparison c;
    c.byName = deltas(a, b, OpGrouping::byName);
    c.byCategory = deltas(a, b, OpGrouping::byCategory);
    c.byKernelClass = byClass(c.byName);
    c.stepsA = computeStepBreakdown(a);
    c.stepsB = computeStepBreakdown(b);
    c.stepStartA_ns = firstStepStart(c.stepsA);
    c.stepStartB_ns = firstStepStart(c.stepsB);
    return c;
}

}  // namespace npu::profiler
