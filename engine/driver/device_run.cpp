#include "engine/driver/device_run.h"

#include "engine/cost/device_profile.h"
#include "engine/driver/loss_scale_plan.h"
#include "engine/driver/oom_advice.h"
#include "engine/driver/project_host_options.h"
#include "engine/project/project_memory_options.h"
#include "engine/frontends/model_loader.h"
#include "engine/memory/zero_sharding.h"
#include "engine/npuom/graph_json.h"
#include "engine/passes/activation_checkpointing_pass.h"
#include "engine/passes/activation_offload_pass.h"
#include "engine/passes/fusion/fusion_passes.h"
#include "engine/passes/graph_cost_summary.h"
#include "engine/passes/mixed_precision_pass.h"
#include "engine/passes/training_graph_pass.h"
#include "engine/precision/skipped_update.h"
#include "engine/sim/dtype_summary.h"
#include "engine/sim/simulator.h"
#include "engine/training/mode_graph.h"
#include "engine/training/model_ensemble.h"
#include "engine/training/ppo_graph.h"

#include <set>

namespace npu::engine {

namespace {

std::string prefixed(const Project& project, const std::string& message) {
    const std::string file = project.file.empty() ? project.name : project.file.string();
    return message.rfind(file, 0) == 0 ? message : file + ": " + message;
}

}  // namespace

Expected<SimulationResult> simulateOnDevice(const Project& project, const SimulationOptions& options, const Progress& progress) {
    auto fail = [&](const std::string& message) { return makeError(prefixed(project, message)); };
    const TrainingSettings& t = project.training;
    auto precision = parsePrecision(t.precision);
    if (!precision) return fail(precision.message());

    progress(0.0, "building model graph");
    const bool lm = project.model.zoo.empty() || isLanguageModel(project.model.zoo);
    const DType halfType = isAutocast(*precision) || castsModel(*precision) ? lowDType(*precision) : DType::f32;
    auto modeGraph = buildModeGraph(project, halfType);
    if (!modeGraph) return fail(modeGraph.message());
    Graph* graph = &modeGraph->graph;
    if (progress.cancelled()) return cancelledError();

    progress(0.1, "loading device profile");
    auto device = loadDeviceProfile(project.device, options.devicesDir.empty() ? defaultDevicesDir() : options.devicesDir,
                                    project.file.empty() ? std::filesystem::path() : project.file.parent_path());
    if (!device) return fail(device.message());

    PassManager passes;
    passes.add(std::make_unique<MixedPrecisionPass>(*precision));
    TrainingOptions training = trainingOptionsFor(*precision, t.optimizer);
    training.offloadOptimizer = t.offload_optimizer;
    training.fp32MainGrad = t.framework == "megatron" && training.fp32MasterWeights;
    training.fp32GradPartition = t.framework == "deepspeed" && training.fp32MasterWeights && zeroStage(project) >= 1;
    if (const std::int64_t dp = project.parallel.value("data_parallel", std::int64_t{1}); zeroStage(project) >= 1 && dp > 1) {
        if (options.zeroShardsOptimizer) training.optimizerShards = static_cast<int>(dp);
        training.gradientCopyShards = static_cast<int>(dp);
    }
    training.lossOutputs = modeGraph->lossOutputs;
    passes.add(std::make_unique<TrainingGraphPass>(training));
    passes.add(std::make_unique<ActivationCheckpointingPass>(t.activation_checkpointing));
    addFusionPasses(passes);
    if (t.offload_activations) passes.add(std::make_unique<ActivationOffloadPass>());  // moves what the fused kernels save
    const int graphLevel = project.optimizations.value("graph_level", 0);
    passes.setLevel(graphLevel);
    std::set<std::string> off;
    if (auto it = project.optimizations.find("passes_off"); it != project.optimizations.end() && it->is_array())
        for (const auto& name : *it) off.insert(name.get<std::string>());
    passes.setDisabled(off);
    std::string graphBefore;
    passes.beforeEach = [&](const Pass& pass, const Graph& g) {
        if (options.keepGraphs && pass.preservesFlops() && graphBefore.empty()) graphBefore = graphToJson(g).dump();
    };
    Progress passProgress;
    passProgress.cancel = progress.cancel;
    passProgress.report = [&](double f, std::string_view stage) { progress(0.15 + 0.15 * f, stage); };
    auto stats = passes.run(*graph, passProgress);
    if (!stats) return stats.cancelled() ? cancelledError() : fail(stats.message());
    const std::vector<std::string> ppoPhaseOfNode = modeGraph->ppo ? schedulePpoStep(*graph) : std::vector<std::string>{};

    // Every micro-batch's kernels are laid out one by one (their memory too): bound the
    // work so a typo (gradient_accumulation: 10000000) is refused, not run out of memory.
    constexpr std::int64_t kMaxOpsPerStep = 4'000'000;
    const auto opsPerStep = static_cast<std::int64_t>(graph->nodes().size()) * t.gradient_accumulation;
    if (t.gradient_accumulation > 1 && opsPerStep > kMaxOpsPerStep)
        return fail("training.gradient_accumulation: " + std::to_string(t.gradient_accumulation) + " micro-batches of " +
                    std::to_string(graph->nodes().size()) + " ops each is more than the " + std::to_string(kMaxOpsPerStep) +
                    " ops a step may lay out; use at most " + std::to_string(std::max<std::int64_t>(1, kMaxOpsPerStep / static_cast<std::int64_t>(graph->nodes().size()))) +
                    " (the step time grows linearly with the micro-batches beyond the first)");
    const int steps = options.steps > 0 ? options.steps : static_cast<int>(t.steps);
    auto lossScale = planLossScaling(t, *precision, steps, project.file.empty() ? project.name : project.file.string());
    if (!lossScale) return fail(lossScale.message());
    SimulatorOptions sim;
    sim.steps = steps;
    sim.skipUpdate = lossScale->skipUpdate;
    sim.batch = t.batch * modeGraph->sequencesPerSample;
    sim.seq = lm && !project.model.zoo.empty() && project.model.zoo != "resnet" ? t.seq : 0;
    if (modeGraph->sequenceLength > 0) sim.seq = modeGraph->sequenceLength;
    sim.precision = t.precision;
    sim.computeDType = lowDType(*precision);
    sim.gradientAccumulation = static_cast<int>(t.gradient_accumulation);
    sim.memory = memoryOptionsFor(project);
    sim.memory.zeroStage = zeroStage(project);
    sim.memory.dataParallel = static_cast<int>(project.parallel.value("data_parallel", std::int64_t{1}));
    applyHostOptions(project, graphLevel, sim);
    Progress simProgress;
    simProgress.cancel = progress.cancel;
    simProgress.report = [&](double f, std::string_view stage) { progress(0.3 + 0.7 * f, stage); };
    auto result = simulate(*graph, *device, sim, simProgress);
    if (!result) return result.cancelled() ? cancelledError() : fail(result.message());
    if (modeGraph->ppo) labelPpoTasks(*result);
    result->summary.model = project.model.zoo.empty() ? graph->name : project.model.zoo;
    // The gradient convention matters with fp32 masters (O2) only: said then.
    if (training.fp32MasterWeights) result->summary.framework = t.framework;
    result->summary.trainable_params = modeGraph->parameters.trainable;
    result->summary.frozen_params = modeGraph->parameters.frozen;
    for (const auto& [model, split] : modeGraph->parametersByModel)
        result->summary.params_by_model[model] = {split.trainable, split.frozen};
    result->summary.bytes_by_model = modelStateBytesByModel(*graph, sim.memory.zeroStage, sim.memory.dataParallel, [&](const std::string& name) {
        return modelOfTask(name, modeGraph->otherModels, modeGraph->mainModel);
    });
    if (modeGraph->ppo) {
        for (const auto& [phase, ms] : timeByPpoPhaseMs(*result, ppoPhaseOfNode, summaryStep(sim.skipUpdate, sim.steps)))
            result->summary.time_by_phase_ms[phase] = ms;
    } else if (!modeGraph->otherModels.empty()) {
        for (const auto& [model, ms] : timeByModelMs(*result, modeGraph->otherModels, modeGraph->mainModel, summaryStep(sim.skipUpdate, sim.steps)))
            result->summary.time_by_phase_ms[model] = ms;
    }
    if (!modeGraph->otherModels.empty()) {
        const auto trains = [&](const Node& n) {
            if (modeGraph->ppo) return static_cast<std::size_t>(n.id) < ppoPhaseOfNode.size() && ppoPhaseOfNode[static_cast<std::size_t>(n.id)] == "training";
            return modelOfTask(n.name, modeGraph->otherModels, modeGraph->mainModel) == modeGraph->mainModel;
        };
        SimSummary& s = result->summary;
        const double flops = modelFlopsPerStep(*graph, trains) * std::max(1, sim.gradientAccumulation);
        if (s.flops_per_step > 0) s.mfu *= flops / s.flops_per_step;  // MFU is proportional to the model FLOPs
        s.flops_per_step = flops;
        splitComputeTracksByModel(*result, modeGraph->otherModels, modeGraph->mainModel);
    }
    summarizeByDType(*result, summaryStep(sim.skipUpdate, sim.steps));
    result->summary.loss_scale = lossScale->summary;
    result->loss_scale = std::move(lossScale->points);
    result->graph_level = graphLevel;
    result->kernels_per_step = summarizeGraphCost(*graph).kernels;
    for (const PassStats& p : *stats)
        result->passes.push_back({p.pass, p.level, p.nodesBefore, p.nodesAfter, p.kernelsBefore, p.kernelsAfter, p.bytesBefore,
                                  p.bytesAfter, p.flopsBefore, p.flopsAfter, p.ms});
    if (options.keepGraphs) {
        result->graph_after_fusion = graphToJson(*graph).dump();
        result->graph_before_fusion = graphBefore.empty() ? result->graph_after_fusion : graphBefore;
    }
    if (result->summary.status == "oom" && options.adviseOnOom) result->summary.memory.oom.advice = oomAdvice(project, options);
    return result;
}

}  // namespace npu::engine
