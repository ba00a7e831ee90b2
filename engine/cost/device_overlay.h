#pragma once
// A device-profile overlay ("format": "npustudio-device-overlay"): corrections laid over
// a profile, as `npustudio --batch PROJECT.json --against TRACE --fit OUT.json` writes
// them. A project names a profile plus overlays in its `device` string:
// "h200+fits/llama.json" (several: "h200+a.json+b.json", applied left to right). Today an
// overlay holds per-category efficiency scales:
//   "efficiency_scale": {"matmul": {"value": 1.04, "source": "fit: ..."}, ...}
// keys are calibration category names (engine/cost/calibration_category.h); every
// efficiency of an op in that category (compute and memory side) is multiplied by the
// value, so the roofline part of its time is divided by it. Scales of several overlays
// multiply. See docs/device-profiles.md "Overlays".

#include "base/expected.h"
#include "engine/cost/device_profile.h"

#include <nlohmann/json.hpp>

#include <string>

namespace npu::engine {

// Applies `doc` (read from `file`, named in messages) to `profile`.
Status applyDeviceOverlay(DeviceProfile& profile, const nlohmann::json& doc, const std::string& file);

}  // namespace npu::engine
