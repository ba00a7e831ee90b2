#pragma once
// A simulated run held against a measured one (a real trace imported into a .npudb):
// per op category (engine/cost/calibration_category.h) the kernel count and device time
// on each side, and the step: simulated, measured, and the measured step's busy (union of
// its kernels) and idle time. `npustudio --batch PROJECT.json --against TRACE|RUN.npudb`,
// the GUI's "Compare with measured run…" and `--fit` (profiler/analysis/profile_fit.h)
// all read this one comparison.
//
// Kernels are matched by category totals, never one to one: PyTorch splits ops the
// simulator counts as one (HF's eager RMSNorm is several kernels) and cuDNN runs
// convolutions as GEMM kernels, so a measured kernel launched by a convolution op (its
// ac2g flow leads back to aten::cudnn_convolution / convolution_backward) counts as conv
// whatever its name says, as the simulator counts it.
// Both sides count the first step of the first device with kernels (ProfilerStep#N or
// STEP rows; when there are none, as in a one-step trace, the device's first kernel start
// to its last kernel end).

#include "engine/ir/node.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace npu::profiler {

class ProfileDb;

struct MeasuredCategoryRow {
    engine::OpCategory category = engine::OpCategory::other;
    std::string name;  // engine::opCategoryName
    std::int64_t simulated_count = 0, measured_count = 0;
    std::int64_t simulated_ns = 0, measured_ns = 0;
    // simulated / measured - 1; 0 when nothing was measured.
    double error() const { return measured_ns > 0 ? double(simulated_ns) / double(measured_ns) - 1.0 : 0.0; }
};

struct MeasuredStep {
    std::int64_t simulated_ns = 0;
    std::int64_t simulated_busy_ns = 0;
    std::int64_t measured_ns = 0;
    std::int64_t measured_busy_ns = 0;
    std::int64_t measured_idle_ns = 0;  // measured - busy
};

struct MeasuredComparison {
    MeasuredStep step;
    std::vector<MeasuredCategoryRow> categories;  // calibrationCategories() order, rows with a kernel on either side
    std::vector<MeasuredCategoryRow> majorGroups;   // matmul, conv, attention, optimizer, memory_bound
};

// Per category kernel counts and time of one run's first step (see above).
struct CategoryTimes {
    std::int64_t step_ns = 0, busy_ns = 0;
    std::map<engine::OpCategory, std::pair<std::int64_t, std::int64_t>> byCategory;  // count, ns
};
CategoryTimes categoryTimes(const ProfileDb& db);

MeasuredComparison compareWithMeasured(const ProfileDb& simulated, const ProfileDb& measured);
MeasuredComparison compareWithMeasured(const CategoryTimes& simulated, const CategoryTimes& measured);

// {"step": {simulated_ms, measured_ms, measured_busy_ms, measured_idle_ms, simulated_busy_ms},
//  "categories": [{category, simulated_ms, measured_ms, simulated_count, measured_count, error}],
//  "major": [...same keys, "memory_bound" for the memory-bound categories together]}
nlohmann::json measuredComparisonReport(const MeasuredComparison& c);

}  // namespace npu::profiler
