#include "engine/training/ppo_cluster.h"

#include "engine/cluster/cluster_setup.h"
#include "engine/cluster/cluster_simulator.h"
#include "engine/cluster/rank_time_split.h"
#include "engine/cluster/stage_profile.h"
#include "engine/driver/simulate_project.h"
#include "engine/precision/precision_level.h"
#include "engine/training/mode_graph.h"
#include "engine/cluster/comm_matrix.h"
#include "engine/cluster/rank_layout.h"
#include "engine/training/ppo_graph.h"
#include "engine/training/ppo_pipeline.h"
#include "engine/training/ppo_rank_timeline.h"
#include "engine/training/ppo_what_if.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace npu::engine {

Expected<SimulationResult> simulatePpoCluster(const Project& project, const SimulationOptions& options, const Progress& progress) {
    auto fail = [&](const std::string& message) { return makeError(withProjectFile(project, message)); };
    auto resolved = resolveCluster(project, options.devicesDir);
    if (!resolved) return resolved.error();
    const DeviceProfile* device = &resolved->device;
    const ClusterSetup& setup = resolved->setup;
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

    // One rank per distinct stage (first, a middle one, last): its share of the rollout
    // batch, its layers, its tensor-parallel shard, ZeRO's memory.
    std::vector<int> distinct{0};
    if (P > 2) distinct.push_back(1);
    if (P > 1) distinct.push_back(P - 1);
    std::map<int, SimulationResult> runs;
    for (std::size_t i = 0; i < distinct.size(); ++i) {
        Project rank = stageProject(project, setup, distinct[i]);
        rank.training.batch = setup.microBatch * par.microBatches;
        SimulationOptions one = options;
        one.steps = 1;
        one.adviseOnOom = false;
        one.zeroShardsOptimizer = false;  // the rank layouts scale the updates by 1/dp
        one.keepGraphs = options.keepGraphs && i == 0;
        Progress sub;
        sub.cancel = progress.cancel;
        const double lo = 0.85 * static_cast<double>(i) / static_cast<double>(distinct.size());
        sub.report = [&, lo](double f, std::string_view what) {
            progress(lo + 0.85 * f / static_cast<double>(distinct.size()), (P > 1 ? "stage " + std::to_string(distinct[i]) : std::string("rank 0")) + ": " + std::string(what));
        };
        auto run = simulateProject(rank, one, sub);
        if (!run) return run.cancelled() ? cancelledError() : fail(run.message());
        runs.emplace(distinct[i], std::move(*run));
    }
    progress(0.9, "adding the cluster's communication");
    SimulationResult* run = &runs.at(0);
    const PpoOptions& o = project.training.mode.ppo;
    const std::int64_t hidden = project.model.config.value("hidden", std::int64_t{1}), layers = project.model.config.value("layers", std::int64_t{1});
    PpoRankTimeline laid;
    PpoPipelineLayout pipeline;
    std::vector<std::pair<int, RankTimeline*>> stageTimelines;  // (stage, its ranks' timeline)
    // What-ifs: each stage at its slowest rank's pace, every collective at the slowest link's.
    const PpoPacing pacing = ppoPacing(setup);
    const ClusterSetup laidSetup = pacedSetup(setup, pacing);
    std::map<int, SimulationResult> paced;
    for (int s = 0; s < P; ++s)
        if (pacing.stagePace[static_cast<std::size_t>(s)] != 1) paced.emplace(s, pacedRun(runs.at(representativeStage(s, P)), pacing.stagePace[static_cast<std::size_t>(s)]));
    auto runOf = [&](int s) -> const SimulationResult& {
        const auto it = paced.find(s);
        return it != paced.end() ? it->second : runs.at(representativeStage(s, P));
    };
    if (P == 1) {
        laid = layOutPpoRank(runOf(0), laidSetup, {setup.microBatch * par.microBatches, o.prompt_tokens, o.prompt_tokens + o.generate_tokens, hidden, layers});
        stageTimelines.push_back({0, &laid.rank});
    } else {
        std::vector<const SimulationResult*> byStage;
        for (int s = 0; s < P; ++s) byStage.push_back(&runOf(s));
        auto layout = layOutPpoPipeline(byStage, laidSetup, {setup.microBatch * par.microBatches, o.prompt_tokens, o.prompt_tokens + o.generate_tokens, hidden, layers / P});
        if (!layout) return fail(layout.message());
        pipeline = std::move(*layout);
        for (int s = 0; s < P; ++s) stageTimelines.push_back({s, &pipeline.stages[static_cast<std::size_t>(s)]});
    }
    const std::int64_t iteration = P == 1 ? laid.rank.endNs : pipeline.iterationNs;

    SimulationResult result;
    result.summary = run->summary;
    result.graph_level = run->graph_level;
    result.kernels_per_step = run->kernels_per_step;
    result.passes = run->passes;
    result.loss_scale = run->loss_scale;
    result.graph_before_fusion = std::move(run->graph_before_fusion);
    result.graph_after_fusion = std::move(run->graph_after_fusion);
    result.steps.push_back({0, 0, iteration});

    SimSummary& sum = result.summary;
    ClusterSummary& cs = sum.cluster;
    describeClusterShape(cs, setup);
    cs.schedule = P > 1 ? std::string(pipelineScheduleName(par.schedule)) : "none";
    cs.bubble_fraction = P > 1 ? pipeline.bubbleFraction : 0;
    for (const auto& [stage, run] : runs)  // a later stage out of memory makes the run so
        if (run.summary.status != "ok" && result.summary.status == "ok") {
            result.summary.status = run.summary.status;
            result.summary.message = (P > 1 ? "pipeline stage " + std::to_string(stage) + ": " : std::string()) + run.summary.message;
        }
    // The ranks of a stage do the same work: all listed (each its own timeline) on a small
    // cluster, else one per stage standing for the others.
    const int devices = par.devices(), inStage = par.dataParallel * par.tensorParallel;
    const bool everyRank = devices <= kMaxStoredRanks;
    for (auto& [s, timeline] : stageTimelines) {
        RankTimeSplit split = splitRankTime(*timeline, iteration, P > 1);
        if (P > 1)
            for (const auto& [key, c] : timeline->collectives) split.collectives.push_back(c);
        const int listed = everyRank ? inStage : 1;
        for (int c = 0; c < listed; ++c) {
            const int rank = setup.rankOf(s, c / par.tensorParallel, c % par.tensorParallel);
            RankTimeSplit r = split;
            r.rank = rank;
            r.node = setup.nodeOf(rank);
            r.stage = s;
            r.represents = everyRank ? 1 : inStage;
            cs.ranks.push_back(r);
            DeviceResult dev = c + 1 == listed ? std::move(timeline->device) : timeline->device;
            dev.id = rank;
            dev.name = rankDeviceName(setup, rank) + (everyRank ? "" : " (" + (P > 1 ? "stage " + std::to_string(s) + ", " : std::string()) + "stands for " + std::to_string(inStage) + " ranks)");
            if (P > 1) dev.peak_bytes = runs.at(representativeStage(s, P)).summary.peak_bytes;
            result.devices.push_back(std::move(dev));
        }
        for (const auto& entry : timeline->collectives) {
            const CollectiveSummary& c = entry.second;  // not a structured binding: clang 14 cannot capture one
            if (std::none_of(cs.collectives.begin(), cs.collectives.end(), [&](const CollectiveSummary& k) { return k.group == c.group && k.kind == c.kind; }))
                cs.collectives.push_back(c);
        }
    }
    std::sort(result.devices.begin(), result.devices.end(), [](const DeviceResult& a, const DeviceResult& b) { return a.id < b.id; });
    std::sort(cs.ranks.begin(), cs.ranks.end(), [](const RankTimeSplit& a, const RankTimeSplit& b) { return a.rank < b.rank; });
    if (P > 1) cs.links = communicationMatrix(setup, cs.ranks);

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
    // Every stage's FLOPs, on each of its data x tensor-parallel ranks.
    double rankFlops = 0;
    for (int st = 0; st < P; ++st) rankFlops += runs.at(representativeStage(st, P)).summary.flops_per_step / P;
    sum.flops_per_step = rankFlops * devices;
    sum.step_time_ms = iteration / 1e6;
    sum.batch = project.training.batch;
    if (sum.step_time_ms > 0) {
        sum.samples_per_s = static_cast<double>(project.training.batch) / (sum.step_time_ms / 1e3);
        sum.tokens_per_s = sum.seq > 0 ? sum.samples_per_s * static_cast<double>(sum.seq) : 0;
        const double peak = device->peak(lowDType(*precision));
        sum.mfu = peak > 0 ? rankFlops / (sum.step_time_ms / 1e3) / peak : 0;
    }
    addRankTaskTimes(sum, result.devices);
    if (P == 1) {
        for (const auto& [phase, ms] : laid.phaseMs) sum.time_by_phase_ms[phase] = ms;
    } else {
        // Rank 0's time in each phase, its pipeline bubble included (and apart).
        for (const auto& [phase, ms] : pipeline.phaseMs) sum.time_by_phase_ms[phase] = ms;
        for (const auto& [phase, ms] : pipeline.bubbleMs) sum.time_by_phase_ms[phase + "_bubble"] = ms;
    }
    const auto& wallMs = P == 1 ? laid.phaseWallMs : pipeline.phaseWallMs;
    std::string wall;
    for (const char* phase : kPpoPhases) wall += std::string(wall.empty() ? "" : ", ") + phase + " " + std::to_string(std::llround(wallMs.at(phase))) + " ms";
    cs.notes = {P == 1 ? "training.mode \"ppo\": every rank does the same work; one rank (1/dp of the rollout batch, its 1/tp shard of the "
                         "four models) is simulated on one device and given the cluster's collectives"
                       : "training.mode \"ppo\": the ranks of a pipeline stage do the same work; one rank per stage (1/dp of the rollout batch, "
                         "its 1/tp shard of the four models, its 1/pp of their layers) is simulated on one device and given the cluster's collectives",
                P == 1 ? "time_by_phase_ms generation/scoring/training: rank 0's task time in each phase plus the time it waits on "
                         "communication; wall time by phase: " + wall
                       : "time_by_phase_ms generation/scoring/training: rank 0's task time in each phase plus the time it waits on "
                         "communication and on the other stages (its pipeline bubble, also as <phase>_bubble); wall time by phase: " + wall +
                             "; one decode step through the pipeline " + std::to_string(pipeline.decodeStepNs / 1e6).substr(0, 6) + " ms",
                "generation: 2 x layers + 1 tensor-parallel all-reduces of one token's hidden states after every decode step",
                "data-parallel gradient buckets and tensor-parallel collectives do not share link bandwidth here (estimate)"};
    for (const std::string& n : pipeline.notes) cs.notes.push_back(n);
    if (par.zeroStage == 3 && par.dataParallel > 1)
        cs.notes.push_back("ZeRO-3: each model's weights are gathered before each of its passes, prefetched from the pass's start");
    for (const std::string& n : pacing.notes) cs.notes.push_back(n);
    progress(1.0, "simulation done");
    return result;
}

}  // namespace npu::engine
