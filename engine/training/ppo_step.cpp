#include "engine/training/ppo_step.h"

#include "engine/precision/precision_level.h"
#include "engine/training/mode_graph.h"
#include "engine/training/ppo_graph.h"
#include "engine/training/ppo_program.h"

#include <cmath>

namespace npu::engine {

Expected<StepProgram> ppoStepOnCluster(const Project& project, const ClusterSetup& setup) {
    auto fail = [&](const std::string& message) { return makeError(withProjectFile(project, message)); };
    const ParallelConfig& par = setup.parallel;
    const int P = par.pipelineStages;
    if (P > 1 && par.zeroStage == 3)
        return fail("parallel.zero_stage: 3 with pipeline_stages " + std::to_string(P) + ": training.mode \"ppo\" with pipeline stages runs as "
                    "NeMo-Aligner on Megatron-LM, whose distributed optimizer shards the optimizer states and gradients (ZeRO-1/2), not the "
                    "weights (DeepSpeed refuses ZeRO-3 with pipeline parallelism too); use zero_stage 0, 1 or 2");
    if (P > 1 && par.schedule == PipelineSchedule::interleaved)
        return fail("parallel.schedule: \"interleaved\" is not modelled for training.mode \"ppo\" (the rollout's decode steps would "
                    "cross every virtual stage); use \"1f1b\" or \"gpipe\"");
    auto precision = parsePrecision(project.training.precision);
    if (!precision) return fail(precision.message());
    const std::int64_t hidden = project.model.config.value("hidden", std::int64_t{1}), layers = project.model.config.value("layers", std::int64_t{1});
    return ppoStepProgram(setup.microBatch * par.microBatches, project.training.mode.ppo, hidden, layers);
}

Expected<SimulationResult> finishPpoStep(const Project& project, const ClusterSetup& setup, StepRun&& run) {
    auto fail = [&](const std::string& message) { return makeError(withProjectFile(project, message)); };
    const ParallelConfig& par = setup.parallel;
    const int P = par.pipelineStages;
    auto precision = parsePrecision(project.training.precision);
    if (!precision) return fail(precision.message());
    SimulationResult result = std::move(run.result);
    SimSummary& sum = result.summary;

    // Whole-model parameters (the rank's run counts its tensor-parallel shard); the bytes
    // per model stay the rank's (memory per device).
    const DType halfType = isAutocast(*precision) || castsModel(*precision) ? lowDType(*precision) : DType::f32;
    auto whole = buildModeGraph(project, halfType);
    if (!whole) return fail(whole.message());
    sum.trainable_params = whole->parameters.trainable;
    sum.frozen_params = whole->parameters.frozen;
    sum.params = sum.trainable_params + sum.frozen_params;
    for (const auto& [model, split] : whole->parametersByModel) {
        sum.params_by_model[model].trainable = split.trainable;
        sum.params_by_model[model].frozen = split.frozen;
    }

    std::string wall;
    for (const char* phase : kPpoPhases) wall += std::string(wall.empty() ? "" : ", ") + phase + " " + std::to_string(std::llround(run.phaseWallMs.at(phase))) + " ms";
    ClusterSummary& cs = sum.cluster;
    cs.notes = {P == 1 ? "training.mode \"ppo\": every rank does the same work; one rank (1/dp of the rollout batch, its 1/tp shard of the "
                         "four models) is simulated on one device and given the cluster's collectives"
                       : "training.mode \"ppo\": the ranks of a pipeline stage do the same work; one rank per stage (1/dp of the rollout batch, "
                         "its 1/tp shard of the four models, its 1/pp of their layers) is simulated on one device and given the cluster's collectives",
                P == 1 ? "time_by_phase_ms generation/scoring/training: rank 0's task time in each phase plus the time it waits on "
                         "communication; wall time by phase: " + wall
                       : "time_by_phase_ms generation/scoring/training: rank 0's task time in each phase plus the time it waits on "
                         "communication and on the other stages (its pipeline bubble, also as <phase>_bubble); wall time by phase: " + wall +
                             "; one decode step through the pipeline " + std::to_string(run.decodeStepNs / 1e6).substr(0, 6) + " ms",
                "generation: 2 x layers + 1 tensor-parallel all-reduces of one token's hidden states after every decode step",
                "data-parallel gradient buckets and tensor-parallel collectives do not share link bandwidth here (estimate)"};
    for (const std::string& n : run.layoutNotes) cs.notes.push_back(n);
    if (par.zeroStage == 3 && par.dataParallel > 1)
        cs.notes.push_back("ZeRO-3: each model's weights are gathered before each of its passes, prefetched from the pass's start");
    for (const std::string& n : run.pacingNotes) cs.notes.push_back(n);
    return result;
}

}  // namespace npu::engine
