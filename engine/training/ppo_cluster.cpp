#include "engine/training/ppo_cluster.h"

#include "engine/cluster/cluster_setup.h"
#include "engine/cluster/step_result.h"
#include "engine/cluster/stage_profile.h"
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

Expected<SimulationResult> simulatePpoCluster(const Project& project, const ResolvedCluster& resolved, const RankSimulator& simulateRank,
                                              const Progress& progress) {
    auto fail = [&](const std::string& message) { return makeError(withProjectFile(project, message)); };
    const DeviceProfile* device = &resolved.device;
    const ClusterSetup& setup = resolved.setup;
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
    auto stageRuns = runDistinctStages<SimulationResult>(
        P, 0.85, [P](int stage) { return P > 1 ? "stage " + std::to_string(stage) : std::string("rank 0"); },
        [&](int stage, const Progress& sub) {
            Project rank = stageProject(project, setup, stage);
            rank.training.batch = setup.microBatch * par.microBatches;
            return simulateRank(rank, stage == 0, sub);
        },
        progress);
    if (!stageRuns) return stageRuns.cancelled() ? cancelledError() : fail(stageRuns.message());
    std::map<int, SimulationResult>& runs = *stageRuns;
    progress(0.9, "adding the cluster's communication");
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

    std::map<int, SimulationResult*> stageResults;
    for (auto& [stage, r] : runs) stageResults[stage] = &r;
    SimulationResult result = startStepResult(stageResults, P, iteration, {.busiestPeaks = false, .lossScale = true});
    SimSummary& sum = result.summary;
    ClusterSummary& cs = sum.cluster;
    describeClusterShape(cs, setup);
    cs.schedule = P > 1 ? std::string(pipelineScheduleName(par.schedule)) : "none";
    cs.bubble_fraction = P > 1 ? pipeline.bubbleFraction : 0;
    // The ranks of a stage do the same work: all listed (each its own timeline) on a small
    // cluster, else one per stage standing for the others.
    const int devices = par.devices(), inStage = par.dataParallel * par.tensorParallel;
    const bool everyRank = devices <= kMaxStoredRanks;
    std::vector<LaidOutRanks> groups;
    for (auto& [s, timeline] : stageTimelines) {
        for (const auto& entry : timeline->collectives) {
            const CollectiveSummary& c = entry.second;  // not a structured binding: clang 14 cannot capture one
            if (std::none_of(cs.collectives.begin(), cs.collectives.end(), [&](const CollectiveSummary& k) { return k.group == c.group && k.kind == c.kind; }))
                cs.collectives.push_back(c);
        }
        LaidOutRanks g;
        g.stage = s;
        g.represents = everyRank ? 1 : inStage;
        for (int c = 0; c < (everyRank ? inStage : 1); ++c) g.ranks.push_back(setup.rankOf(s, c / par.tensorParallel, c % par.tensorParallel));
        if (P > 1) g.peakBytes = runs.at(representativeStage(s, P)).summary.peak_bytes;
        g.timeline = std::move(*timeline);
        groups.push_back(std::move(g));
    }
    listRanks(groups, setup, iteration, {.collectivesPerRank = P > 1, .fillDpAlgorithm = false, .stageInName = P > 1}, result);
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
