#include "engine/cluster/step_scheduler.h"

#include "engine/cluster/micro_batched_step.h"
#include "engine/cluster/phased_step.h"

namespace npu::engine {

namespace {

// The per-micro-batch layout runs one pipeline whose micro-batches go through every phase
// and ends in one train phase's gradients and optimizer step, with tensor-parallel syncs
// at every block: a program asking it for something else is refused, not quietly laid
// out as if it had not asked.
Expected<void> checkMicroBatchedProgram(const StepProgram& program) {
    int trains = 0;
    for (const StepProgramPhase& p : program.phases) {
        const std::string what = "step program: phase " + std::string(stepPhaseName(p.phase)) + " of \"" + p.model + "\"";
        if (p.kind == PhaseKind::decode) return makeError(what + " decodes, which only a per-step program can lay out", ErrorCode::bad_input);
        if (p.microBatching != MicroBatching::project || p.collectives.tensorParallel != TensorParallelSync::every_block)
            return makeError(what + ": a per-micro-batch program runs every phase over the project's micro-batches, synchronising "
                             "tensor parallelism at every block", ErrorCode::bad_input);
        if (p.kind == PhaseKind::train) ++trains;
        if (p.collectives.gradients != (p.kind == PhaseKind::train))
            return makeError(what + ": a per-micro-batch program reduces the gradients of its train phase only", ErrorCode::bad_input);
    }
    if (trains != 1) return makeError("step program: a per-micro-batch program has one train phase (" + std::to_string(trains) + " given)", ErrorCode::bad_input);
    return {};
}

}  // namespace

Expected<StepRun> scheduleStep(const Project& project, const ResolvedCluster* cluster, const StepProgram& program,
                               const RankSimulator& simulateRank, const Progress& progress, const StepLayoutOptions& layout) {
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
    if (program.order == PhaseOrder::per_micro_batch)
        if (auto ok = checkMicroBatchedProgram(program); !ok) return ok.error();
    return program.order == PhaseOrder::per_micro_batch ? layOutMicroBatchedStep(project, *cluster, simulateRank, progress, layout)
                                                        : layOutPhasedStep(project, *cluster, program, simulateRank, progress);
}

}  // namespace npu::engine
