#include "views/project/project_validation.h"

#include "engine/models/model_zoo.h"

namespace npu::views {

Expected<engine::Project> validateProject(const engine::Project& project) {
    auto parsed = engine::parseProject(engine::projectToJson(project), project.file.string());
    if (!parsed) return parsed.error();
    parsed->file = project.file;
    if (!parsed->model.zoo.empty())
        if (auto g = engine::buildZooModel(parsed->model.zoo, parsed->model.config, engine::ZooShape{1, parsed->training.seq}); !g)
            return g.error();
    return parsed;
}

}  // namespace npu::views
