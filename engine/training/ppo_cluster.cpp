#include "engine/training/ppo_cluster.h"

#include "engine/cluster/cluster_setup.h"
#include "engine/cluster/cluster_simulator.h"
#include "engine/cluster/rank_time_split.h"
#include "engine/cluster/stage_profile.h"
#include "engine/pipeline/simulation_pipeline.h"
#include "engine/precision/precision_level.h"
#include "engine/training/mode_graph.h"
#include "engine/training/ppo_graph.h"
#include "engine/training/ppo_rank_timeline.h"

#include <cmath>

namespace npu::engine {

Expected<SimulationResult> simulatePpoCluster(const Project& project, const SimulationOptions& options, const Progress& progress) {
    auto fail = [&](const std::string& message) { return makeError(withProjectFile(project, message)); };
    auto resolved = resolveCluster(project, options.devicesDir);
    if (!resolved) return resolved.error();
    const DeviceProfile* device = &resolved->device;
    const ClusterSetup& setup = resolved->setup;
    const ParallelConfig& par = setup.parallel;
    if (par.pipelineStages > 1)
        return fail("parallel.pipeline_stages: training.mode \"ppo\" runs without pipeline parallelism (DeepSpeed-Chat and TRL "
                    "generate and train under data/tensor parallelism and ZeRO); use parallel.tensor_parallel, data_parallel and zero_stage");
    auto precision = parsePrecision(project.training.precision);
    if (!precision) return fail(precision.message());

    // One rank: its share of the rollout batch, its tensor-parallel shard, ZeRO's memory.
    Project rank = stageProject(project, setup, 0);
    rank.training.batch = setup.microBatch * par.microBatches;
    SimulationOptions one = options;
    one.steps = 1;
    one.adviseOnOom = false;
    one.zeroShardsOptimizer = false;  // ppo_rank_timeline scales the updates by 1/dp
    Progress sub;
    sub.cancel = progress.cancel;
    sub.report = [&](double f, std::string_view what) { progress(0.85 * f, "rank 0: " + std::string(what)); };
    auto run = simulateProject(rank, one, sub);
    if (!run) return run.message() == "cancelled" ? makeError("cancelled") : fail(run.message());
    progress(0.9, "adding the cluster's communication");

    const PpoOptions& o = project.training.mode.ppo;
    PpoRankShape shape;
    shape.batch = rank.training.batch;
    shape.promptTokens = o.prompt_tokens;
    shape.sequenceTokens = o.prompt_tokens + o.generate_tokens;
    shape.hidden = project.model.config.value("hidden", std::int64_t{1});
    shape.layers = project.model.config.value("layers", std::int64_t{1});
    PpoRankTimeline laid = layOutPpoRank(*run, setup, shape);
    const std::int64_t iteration = laid.rank.endNs;

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
    cs.present = true;
    cs.nodes = setup.cluster.nodes;
    cs.devices_per_node = setup.cluster.devicesPerNode;
    cs.data_parallel = par.dataParallel;
    cs.tensor_parallel = par.tensorParallel;
    cs.pipeline_stages = 1;
    cs.sequence_parallel = par.sequenceParallel;
    cs.micro_batches = par.microBatches;
    cs.micro_batch_size = setup.microBatch;
    cs.schedule = "none";
    cs.zero_stage = par.zeroStage;
    // Every rank does the same work: all listed (each its own timeline) on a small cluster.
    const int devices = par.devices();
    const bool everyRank = devices <= kMaxStoredRanks;
    const RankTimeSplit split = splitRankTime(laid.rank, iteration, false);
    for (int r = 0; r < (everyRank ? devices : 1); ++r) {
        RankTimeSplit s = split;
        s.rank = r;
        s.node = setup.nodeOf(r);
        s.represents = everyRank ? 1 : devices;
        cs.ranks.push_back(s);
        DeviceResult dev = r + 1 == (everyRank ? devices : 1) ? std::move(laid.rank.device) : laid.rank.device;
        dev.id = r;
        dev.name = "rank " + std::to_string(r) + (everyRank ? "" : " (stands for " + std::to_string(devices) + " ranks)");
        result.devices.push_back(std::move(dev));
    }
    for (const auto& [key, c] : laid.rank.collectives) cs.collectives.push_back(c);

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
    const double rankFlops = sum.flops_per_step;
    sum.flops_per_step = rankFlops * devices;
    sum.step_time_ms = iteration / 1e6;
    sum.batch = project.training.batch;
    if (sum.step_time_ms > 0) {
        sum.samples_per_s = static_cast<double>(project.training.batch) / (sum.step_time_ms / 1e3);
        sum.tokens_per_s = sum.seq > 0 ? sum.samples_per_s * static_cast<double>(sum.seq) : 0;
        const double peak = device->peak(lowDType(*precision));
        sum.mfu = peak > 0 ? rankFlops / (sum.step_time_ms / 1e3) / peak : 0;
    }
    sum.time_by_category_ms.clear();
    sum.time_by_phase_ms.clear();
    if (!result.devices.empty())
        for (const SimTask& t : result.devices.front().tasks) {
            sum.time_by_category_ms[std::string(opCategoryName(t.category))] += t.dur_ns / 1e6;
            sum.time_by_phase_ms[std::string(phaseName(t.phase))] += t.dur_ns / 1e6;
        }
    for (const auto& [phase, ms] : laid.phaseMs) sum.time_by_phase_ms[phase] = ms;
    std::string wall;
    for (const char* phase : kPpoPhases) wall += std::string(wall.empty() ? "" : ", ") + phase + " " + std::to_string(std::llround(laid.phaseWallMs[phase])) + " ms";
    cs.notes = {"training.mode \"ppo\": every rank does the same work; one rank (1/dp of the rollout batch, its 1/tp shard of the "
                "four models) is simulated on one device and given the cluster's collectives",
                "time_by_phase_ms generation/scoring/training: rank 0's task time in each phase plus the time it waits on "
                "communication; wall time by phase: " + wall,
                "generation: 2 x layers + 1 tensor-parallel all-reduces of one token's hidden states after every decode step",
                "data-parallel gradient buckets and tensor-parallel collectives do not share link bandwidth here (estimate)",
                "the communication playbook and the strategy search do not cover training.mode \"ppo\""};
    if (par.zeroStage == 3 && par.dataParallel > 1)
        cs.notes.push_back("ZeRO-3: each model's weights are gathered before each of its passes, prefetched from the pass's start");
    if (!setup.cluster.slowCompute.empty() || !setup.cluster.slowLink.empty())
        cs.notes.push_back("cluster.slow_ranks / slow_links are not applied to training.mode \"ppo\"");
    progress(1.0, "simulation done");
    return result;
}

}  // namespace npu::engine
