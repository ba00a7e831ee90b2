#include "views/project/project_validation.h"

#include "engine/cost/device_profile.h"
#include "engine/driver/simulate_project.h"
#include "engine/models/model_zoo.h"

#include <algorithm>

namespace npu::views {

Expected<engine::Project> validateProject(const engine::Project& project) {
    auto parsed = engine::parseProject(engine::projectToJson(project), project.file.string());
    if (!parsed) return parsed.error();
    parsed->file = project.file;
    if (Status st = validateDevice(parsed->device, project.file.empty() ? std::filesystem::path() : project.file.parent_path()); !st)
        return st.error();
    if (!parsed->model.zoo.empty())
        if (auto g = engine::buildZooModel(parsed->model.zoo, parsed->model.config, engine::ZooShape{1, parsed->training.seq}); !g)
            return g.error();
    return parsed;
}

std::vector<std::string> deviceProfileNames() { return engine::deviceProfileNames(engine::defaultDevicesDir()); }

Status validateDevice(const std::string& device, const std::filesystem::path& projectFolder) {
    if (device.empty()) return makeError("device: choose a device profile");
    // A bare name (no path, no overlay): one of the profiles present, said with the choices,
    // rather than the loader's "no profile <path>" after the project is written.
    const bool bareName = device.find_first_of("/\\+") == std::string::npos &&
                          std::filesystem::path(device).extension() != ".json";
    if (bareName) {
        const auto names = deviceProfileNames();
        if (std::find(names.begin(), names.end(), device) != names.end()) return {};
        std::string choices;
        for (const auto& n : names) choices += (choices.empty() ? "" : ", ") + n;
        return makeError("device \"" + device + "\": no such device profile; choose one of " + choices +
                         " (resources/devices) or give the path of a device JSON");
    }
    auto loaded = engine::loadDeviceProfile(device, engine::defaultDevicesDir(), projectFolder);
    if (!loaded) return loaded.error();
    return {};
}

}  // namespace npu::views
