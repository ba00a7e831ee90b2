#include "profiler/analysis/profile_fit.h"

#include <cstdio>

namespace npu::profiler {

nlohmann::json fitProfileOverlay(const MeasuredComparison& c, const engine::DeviceProfile& used,
                                 const std::string& measuredSource) {
    nlohmann::json scales = nlohmann::json::object();
    nlohmann::json skipped = nlohmann::json::array();
    const double gap = used.launchOverheadNs;
    for (const auto& r : c.categories) {
        const double n = double(r.simulated_count), measured = double(r.measured_ns);
        const double roofline = double(r.simulated_ns) - n * gap;
        const double target = measured - n * gap;
        if (r.simulated_count == 0 || r.measured_count == 0 || roofline <= 0 || target < 0.1 * measured) {
            skipped.push_back({{"category", r.name},
                               {"reason", r.simulated_count == 0   ? "not simulated"
                                          : r.measured_count == 0 ? "not measured"
                                                                  : "measured time is mostly launch gaps"}});
            continue;
        }
        const double old = used.scale(r.category);
        const double scale = old * roofline / target;
        char source[512];
        std::snprintf(source, sizeof source,
                      "fit: %s: %lld kernels, %.3f ms measured; simulated %lld ops, %.3f ms at scale %.4f with a %.0f ns "
                      "launch gap each; scale = %.4f x %.3f / (%.3f - %lld x %.0f ns)",
                      measuredSource.c_str(), (long long)r.measured_count, measured / 1e6, (long long)r.simulated_count,
                      double(r.simulated_ns) / 1e6, old, gap, old, roofline / 1e6, measured / 1e6,
                      (long long)r.simulated_count, gap);
        scales[r.name] = {{"value", scale}, {"source", source}};
    }
    return {{"format", "npustudio-device-overlay"},
            {"version", 1},
            {"base", used.name},
            {"fitted_against", measuredSource},
            {"efficiency_scale", scales},
            {"skipped", skipped}};
}

}  // namespace npu::profiler
