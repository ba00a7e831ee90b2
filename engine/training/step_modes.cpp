#include "engine/training/step_modes.h"

#include "engine/training/ppo_program.h"
#include "engine/training/ppo_step.h"
#include "engine/training/train_step.h"

namespace npu::engine {

namespace {

bool isPpo(const Project& project) { return project.training.mode.name == "ppo"; }

std::int64_t configSize(const Project& project, const char* key) {
    const nlohmann::json& c = project.model.config;
    return c.is_object() ? c.value(key, std::int64_t{1}) : 1;
}

}  // namespace

Expected<StepProgram> modeStepProgram(const Project& project, const ResolvedCluster* cluster) {
    if (!isPpo(project)) return trainStepProgram(project);
    if (cluster) return ppoStepOnCluster(project, cluster->setup);
    return ppoStepProgram(project.training.batch, project.training.mode.ppo, configSize(project, "hidden"), configSize(project, "layers"));
}

Expected<SimulationResult> finishModeStep(const Project& project, const ResolvedCluster* cluster, StepRun&& run) {
    if (!cluster) return std::move(run.result);
    return isPpo(project) ? finishPpoStep(project, cluster->setup, std::move(run)) : finishTrainStep(project, *cluster, std::move(run));
}

}  // namespace npu::engine
