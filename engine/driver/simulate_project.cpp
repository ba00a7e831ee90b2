#include "engine/driver/simulate_project.h"

#include "engine/cluster/step_scheduler.h"
#include "engine/driver/communication_advice.h"
#include "engine/driver/device_run.h"
#include "engine/project/parallel_settings.h"
#include "engine/training/step_modes.h"

#include <optional>

namespace npu::engine {

std::filesystem::path defaultDevicesDir() {
    std::error_code ec;
#ifdef NPU_RESOURCES_DIR
    const std::filesystem::path compiled = std::filesystem::path(NPU_RESOURCES_DIR) / "devices";
    if (std::filesystem::is_directory(compiled, ec)) return compiled;
#endif
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) return exe.parent_path().parent_path() / "resources" / "devices";
    return "resources/devices";
}

Expected<SimulationResult> simulateProject(const Project& project, const SimulationOptions& options, const Progress& progress) {
    // A project without a cluster is a cluster of one.
    std::optional<ResolvedCluster> cluster;
    if (isClusterProject(project)) {
        auto resolved = resolveCluster(project, options.devicesDir.empty() ? defaultDevicesDir() : options.devicesDir);
        if (!resolved) return resolved.error();
        cluster = std::move(*resolved);
    }
    const ResolvedCluster* resolved = cluster ? &*cluster : nullptr;
    auto program = modeStepProgram(project, resolved);
    if (!program) return program.error();
    // Each distinct rank's share of the step on one device (or the whole job on a cluster of one).
    const RankSimulator simulateRank = [&](const Project& rank, const RankRun& how, const Progress& sub) {
        if (how.wholeJob) return simulateOnDevice(rank, options, sub);
        SimulationOptions one = options;
        one.steps = 1;
        one.adviseOnOom = false;
        one.zeroShardsOptimizer = false;  // the rank layouts scale the optimizer by 1/dp
        one.keepGraphs = options.keepGraphs && how.keepGraphs;
        if (!options.rankRuns) return simulateOnDevice(rank, one, sub);
        // What of the options changes a rank's run (the rest is fixed above or not read by
        // simulateOnDevice); the devices folder is one per search.
        const std::string flags = options.devicesDir.string() + (one.keepGraphs ? " graphs" : "");
        return options.rankRuns->run(rank, flags, [&] { return simulateOnDevice(rank, one, sub); });
    };
    auto step = scheduleStep(project, resolved, *program, simulateRank, progress, {.rankTimelines = options.rankTimelines});
    if (!step) return step.error();
    auto result = finishModeStep(project, resolved, std::move(*step));
    if (!result || !resolved) return result;
    progress(1.0, "simulation done");
    if (options.adviseOnCommunication) result->summary.cluster.advice = communicationAdvice(project, result->summary.cluster, options);
    return result;
}

}  // namespace npu::engine
