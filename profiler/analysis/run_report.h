#pragma once
// The JSON written by `npustudio --batch ... --report` for an imported or simulated run
// and for a comparison. Keys are documented in docs/report-format.md.

#include <nlohmann/json.hpp>

namespace npu::profiler {

class ProfileDb;

// events, slices, counters, flows, source, devices[] (HTA metrics + peak memory),
// step_breakdown[], top_kernels[], diagnostics[].
nlohmann::json runReport(const ProfileDb& db, int topKernels = 20);

// a, b (file, source), by_name / by_category / by_kernel_class deltas, steps_a/steps_b,
// alignment.
nlohmann::json compareReport(const ProfileDb& a, const ProfileDb& b, int topDeltas = 50);

}  // namespace npu::profiler
