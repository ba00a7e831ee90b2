#pragma once
// What a load and a simulation would reject in a project, checked before it is written:
// the project parser (every key, type and range), then, for a zoo model, the model
// builder (heads dividing hidden, sequence within max_seq, ...). The New Project dialog
// and in-place edits in the Project explorer both use it.

#include "base/expected.h"
#include "engine/project/project.h"

namespace npu::views {

// The project as it would be loaded (runs and file kept), or the first problem.
Expected<engine::Project> validateProject(const engine::Project& project);

}  // namespace npu::views
