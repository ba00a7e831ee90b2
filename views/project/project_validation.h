#pragma once
// What a load and a simulation would reject in a project, checked before it is written:
// the project parser (every key, type and range), the device (a profile present in
// resources/devices, or a device JSON that loads), then, for a zoo model, the model
// builder (heads dividing hidden, sequence within max_seq, ...). The New Project dialog
// and in-place edits in the Project explorer both use it.

#include "base/expected.h"
#include "engine/project/project.h"

#include <filesystem>
#include <string>
#include <vector>

namespace npu::views {

// The project as it would be loaded (runs and file kept), or the first problem.
Expected<engine::Project> validateProject(const engine::Project& project);

// The device profiles present (resources/devices/*.json), by name: what a project's
// "device" may name without a path. Sorted.
std::vector<std::string> deviceProfileNames();

// A project's device: a profile name from deviceProfileNames(), or a path to a device
// JSON (with "+overlay.json" parts, relative to projectFolder) that loads as the
// simulation would load it.
Status validateDevice(const std::string& device, const std::filesystem::path& projectFolder);

}  // namespace npu::views
