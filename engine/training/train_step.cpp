#include "engine/training/train_step.h"

#include "engine/cluster/step_result.h"
#include "engine/models/model_zoo.h"
#include "engine/precision/precision_level.h"
#include "engine/sim/simulator.h"

namespace npu::engine {

StepProgram trainStepProgram(const Project& project) {
    const TrainingSettings& t = project.training;
    StepProgram p;
    const bool dpoReference = t.mode.name == "dpo" && t.mode.dpo.reference != "none";
    if (dpoReference) p.phases.push_back(makePhase(StepPhase::scoring, PhaseKind::forward_only, "reference"));
    p.phases.push_back(makePhase(StepPhase::training, PhaseKind::train, dpoReference ? "policy" : "model"));
    p.order = PhaseOrder::per_micro_batch;
    p.batch = t.batch;
    p.promptTokens = p.sequenceTokens = t.seq;
    // An ONNX or .npuom model has no config: its sizes come from its graph.
    if (const nlohmann::json& c = project.model.config; c.is_object()) {
        p.hidden = c.value("hidden", std::int64_t{1});
        p.layers = c.value("layers", std::int64_t{1});
    }
    return p;
}

Expected<SimulationResult> finishTrainStep(const Project& project, const ResolvedCluster& resolved, StepRun&& run) {
    auto fail = [&](const std::string& message) { return makeError(withProjectFile(project, message)); };
    const ClusterSetup& setup = resolved.setup;
    const ParallelConfig& par = setup.parallel;
    SimulationResult result = std::move(run.result);
    SimSummary& sum = result.summary;
    // Whole-model figures: the unpartitioned model's FLOPs and parameters.
    ZooShape shape{setup.microBatch, project.training.seq};
    auto full = buildZooModel(project.model.zoo, project.model.config, shape);
    if (!full) return fail(full.message());
    sum.params = full->parameterCount();
    sum.flops_per_step = modelFlopsPerStep(*full) * par.microBatches * par.dataParallel;
    auto precision = parsePrecision(project.training.precision);
    if (!precision) return fail(precision.message());
    const double peak = resolved.device.peak(lowDType(*precision));
    setStepRates(sum, run.iterationNs, project.training.batch, sum.flops_per_step, peak * par.devices());
    sum.cluster.notes = std::move(run.layoutNotes);
    return result;
}

}  // namespace npu::engine
