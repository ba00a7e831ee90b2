#include "engine/cost/device_overlay.h"

#include "engine/cost/calibration_category.h"

namespace npu::engine {

Status applyDeviceOverlay(DeviceProfile& profile, const nlohmann::json& doc, const std::string& file) {
    if (!doc.is_object()) return makeError(file + ": expected a JSON object at the top level");
    if (doc.value("format", std::string()) != "npustudio-device-overlay")
        return makeError(file + ": format: expected \"npustudio-device-overlay\"");
    if (!doc.contains("version") || !doc.at("version").is_number_integer() || doc.at("version").get<int>() != 1)
        return makeError(file + ": version: expected 1");
    const nlohmann::json scales = doc.value("efficiency_scale", nlohmann::json::object());
    if (!scales.is_object()) return makeError(file + ": efficiency_scale: expected an object of category -> {value, source}");
    for (const auto& [key, v] : scales.items()) {
        const std::string path = file + ": efficiency_scale." + key;
        const auto category = calibrationCategoryFromName(key);
        if (!category)
            return makeError(path + ": unknown category (expected matmul, attention, conv, norm, elementwise, reduce, "
                                    "optimizer, data_movement, comm or other)");
        if (!v.is_object() || !v.contains("value") || !v.at("value").is_number() || v.at("value").get<double>() <= 0)
            return makeError(path + ": expected {\"value\": number > 0, \"source\": \"...\"}, got " + v.dump());
        if (!v.contains("source") || !v.at("source").is_string() || v.at("source").get<std::string>().empty())
            return makeError(path + ".source: every number needs a source");
        auto [it, inserted] = profile.efficiencyScale.emplace(*category, 1.0);
        it->second *= v.at("value").get<double>();
        profile.sources["overlay:" + file + ":efficiency_scale." + key] = v.at("source");
    }
    profile.overlays.push_back(file);
    return {};
}

}  // namespace npu::engine
