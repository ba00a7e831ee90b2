#include "engine/cluster/step_scheduler.h"

#include "engine/cluster/micro_batched_step.h"
#include "engine/cluster/phased_step.h"

namespace npu::engine {

Expected<StepRun> scheduleStep(const Project& project, const ResolvedCluster* cluster, const StepProgram& program,
                               const RankSimulator& simulateRank, const Progress& progress) {
    if (!cluster) {
        // One device runs the whole program: its graph holds every phase in the program's
        // order (engine/training/mode_graph), so there is nothing to lay out.
        auto run = simulateRank(project, {.keepGraphs = true, .wholeJob = true}, progress);
        if (!run) return run.error();
        StepRun step;
        step.iterationNs = static_cast<std::int64_t>(run->summary.step_time_ms * 1e6);
        step.result = std::move(*run);
        return step;
    }
    return program.order == PhaseOrder::per_micro_batch ? layOutMicroBatchedStep(project, *cluster, simulateRank, progress)
                                                        : layOutPhasedStep(project, *cluster, program, simulateRank, progress);
}

}  // namespace npu::engine
