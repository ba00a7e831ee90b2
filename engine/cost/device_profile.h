#pragma once
// A device profile (resources/devices/NAME.json, "format": "npustudio-device"): peak
// rates per dtype, HBM size and bandwidth, on-chip buffers, cores, launch overhead,
// efficiency curves and links. Every number in the file carries its "source"; the
// loader rejects numbers without one. See docs/device-profiles.md.

#include "base/expected.h"
#include "engine/cost/efficiency_curve.h"
#include "engine/cost/host_profile.h"
#include "engine/ir/dtype.h"
#include "engine/ir/node.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace npu::engine {

struct DeviceProfile {
    std::string name;
    std::string description;
    std::string kind;                       // gpu | npu
    std::filesystem::path file;
    std::map<DType, double> peakFlops;      // FLOP/s per compute dtype (dense)
    double hbmBytes = 0;
    double hbmBandwidth = 0;                // bytes/s
    std::map<std::string, double> onChip;   // l2_bytes, ...
    int cores = 0;
    double launchOverheadNs = 0;            // device-side gap added to every kernel
    // "matmul.bf16", "conv_backward.fp32", "attention.bf16", "memory", "memory.norm", ...
    std::map<std::string, EfficiencyCurve> efficiency;
    std::map<std::string, double> links;    // bytes/s
    HostProfile host;                       // the "host" block (engine/cost/host_profile)
    // Overlays laid over the profile (engine/cost/device_overlay.h), in order, and the
    // per-category efficiency scales they set (1 when absent).
    std::vector<std::string> overlays;
    std::map<OpCategory, double> efficiencyScale;
    nlohmann::json sources;                 // key path -> source text, for display

    // Peak for a compute dtype; tf32 falls back to fp32, fp16 to bf16 and vice versa.
    double peak(DType dtype) const;
    // Curve by exact name; nullptr when absent (the cost model tries fallbacks).
    const EfficiencyCurve* curve(const std::string& name) const;
    double scale(OpCategory c) const;
};

// name: a profile name looked up as devicesDir/NAME.json, or a path to a .json file,
// optionally followed by overlays: "h200+fit.json+more.json" (device_overlay.h).
// Relative overlay paths resolve against overlayDir (the project's folder) when given.
Expected<DeviceProfile> loadDeviceProfile(const std::string& nameOrPath, const std::filesystem::path& devicesDir,
                                          const std::filesystem::path& overlayDir = {});
Expected<DeviceProfile> parseDeviceProfile(const nlohmann::json& doc, const std::string& fileForMessages);

// The profile names loadDeviceProfile finds in devicesDir (its NAME.json files), sorted.
std::vector<std::string> deviceProfileNames(const std::filesystem::path& devicesDir);

}  // namespace npu::engine
