#pragma once
// The JSON written by `npustudio --batch ... --report` for an imported or simulated run
// and for a comparison. Keys are documented in docs/report-format.md.

#include <nlohmann/json.hpp>

namespace npu::profiler {

class ProfileDb;

// events, slices, counters, flows, source, devices[] (HTA metrics + peak memory),
// step_breakdown[], top_kernels[], diagnostics[]. htaCompat: the device metrics and step
// breakdown over the kernels HTA's parser keeps (profiler/analysis/hta_compat.h), and an
// "hta_compat" object saying what was dropped.
nlohmann::json runReport(const ProfileDb& db, int topKernels = 20, bool htaCompat = false);

// a, b (file, source), by_name / by_category / by_kernel_class deltas, steps_a/steps_b,
// alignment.
nlohmann::json compareReport(const ProfileDb& a, const ProfileDb& b, int topDeltas = 50);

}  // namespace npu::profiler
