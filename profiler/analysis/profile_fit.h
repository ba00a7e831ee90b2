#pragma once
// `--fit OUT.json`: a device-profile overlay (engine/cost/device_overlay.h) that makes a
// simulated run's per-category device time match a measured run's. For each category the
// simulation ran and the trace measured, the simulated time is
//   S = R + n * L
// (R: the roofline part of its n ops, already divided by the scale s_old the run used;
// L: the profile's launch gap per op), and the new scale is chosen so that S = M, the
// measured kernel time:
//   s_new = s_old * R / (M - n * L).
// The cost model divides every op's roofline time of the category by the scale, so
// re-running with the overlay reproduces M per category (to the rounding of each op to a
// nanosecond and to ops the scale cannot move: transfers on host links). Categories whose
// measured time is mostly launch gaps (M - n*L < 10% of M), or that only one side has,
// are left out and listed in "skipped". The written scale is relative to the base profile
// (overlays the run already used are folded in): name the base plus this one overlay.

#include "engine/cost/device_profile.h"
#include "profiler/analysis/measured_comparison.h"

#include <nlohmann/json.hpp>

#include <string>

namespace npu::profiler {

nlohmann::json fitProfileOverlay(const MeasuredComparison& comparison, const engine::DeviceProfile& used,
                                 const std::string& measuredSource);

}  // namespace npu::profiler
