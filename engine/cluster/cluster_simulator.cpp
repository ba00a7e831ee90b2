#include "engine/cluster/cluster_simulator.h"

#include "engine/cluster/cluster_setup.h"
#include "engine/cluster/comm_matrix.h"
#include "engine/cluster/rank_layout.h"
#include "engine/cluster/rank_time_split.h"
#include "engine/cluster/rank_timeline.h"
#include "engine/cluster/stage_profile.h"
#include "engine/models/model_zoo.h"
#include "engine/passes/mixed_precision_pass.h"
#include "engine/driver/simulate_project.h"
#include "engine/sim/simulator.h"

#include <algorithm>
#include <map>

namespace npu::engine {

namespace {

CommPlan planCommunication(const ClusterSetup& s, const Project& project, const DeviceProfile& device) {
    CommPlan plan;
    const ParallelConfig& par = s.parallel;
    const double hidden = static_cast<double>(project.model.config.value("hidden", std::int64_t{1}));
    const double tokens = static_cast<double>(s.microBatch * project.training.seq);
    plan.tpBytes = tokens * hidden * s.activationBytes;
    plan.tpPoint = tensorParallelPointCollectives(s, plan.tpBytes);
    // Megatron-LM's scatter/gather optimisation: with tensor parallelism each rank sends
    // its 1/tp of the activations and the receivers all-gather over the fast link.
    plan.p2pBytes = tokens * hidden * s.activationBytes / par.tensorParallel;
    plan.p2p = collectiveCost(CollectiveKind::send_recv, CollectiveAlgorithm::ring, plan.p2pBytes, s.ppPair(), s.cluster);
    plan.dpAlgorithm = par.comm.gradientAllreduce;
    plan.hbmBandwidth = device.hbmBandwidth;
    return plan;
}

}  // namespace

Expected<SimulationResult> simulateCluster(const Project& project, const SimulationOptions& options, const Progress& progress) {
    auto fail = [&](const std::string& message) { return makeError(withProjectFile(project, message)); };
    auto resolved = resolveCluster(project, options.devicesDir);
    if (!resolved) return resolved.error();
    const DeviceProfile* device = &resolved->device;
    const ClusterSetup& setup = resolved->setup;
    const ParallelConfig& par = setup.parallel;
    const int P = par.pipelineStages;

    // The distinct stages, each simulated once on one device.
    std::map<int, StageProfile> profiles;
    std::vector<int> distinct{0};
    if (P > 2) distinct.push_back(1);
    if (P > 1) distinct.push_back(P - 1);
    for (std::size_t i = 0; i < distinct.size(); ++i) {
        Progress sub;
        sub.cancel = progress.cancel;
        const double lo = 0.8 * static_cast<double>(i) / static_cast<double>(distinct.size());
        sub.report = [&, lo](double f, std::string_view what) {
            progress(lo + 0.8 * f / static_cast<double>(distinct.size()), "stage " + std::to_string(distinct[i]) + ": " + std::string(what));
        };
        auto stage = simulateStage(project, setup, distinct[i], options, sub);
        if (!stage) return stage.cancelled() ? cancelledError() : fail(stage.message());
        profiles.emplace(distinct[i], std::move(*stage));
    }
    if (progress.cancelled()) return cancelledError();
    progress(0.85, "scheduling the pipeline");

    const CommPlan plan = planCommunication(setup, project, *device);
    const double tpNs = plan.tpPointNs();
    PipelineSetup pipe;
    pipe.stages = P;
    pipe.microBatches = par.microBatches;
    pipe.virtualStages = par.virtualStages;
    pipe.schedule = par.schedule;
    pipe.p2pNs = plan.p2p.timeNs;
    for (int s = 0; s < P; ++s) {
        const StageProfile& st = profiles.at(representativeStage(s, P));
        pipe.forwardNs.push_back(static_cast<double>(st.forward.durNs) + tpNs * static_cast<double>(st.forward.collectiveAfter.size()));
        pipe.backwardNs.push_back(static_cast<double>(st.backward.durNs) + tpNs * static_cast<double>(st.backward.collectiveAfter.size()));
    }
    // Which ranks get a timeline: all of a small cluster, else one per distinct group.
    const int devices = par.devices();
    const bool everyRank = devices <= kMaxStoredRanks;
    auto layout = layOutCluster(profiles, setup, plan, pipe, everyRank);
    if (!layout) return fail(layout.message());
    const std::int64_t iteration = layout->iterationNs;

    SimulationResult result;
    const StageProfile& first = profiles.at(0);
    result.summary = first.run.summary;
    for (const auto& [stage, profile] : profiles) {  // a later stage out of memory makes the run so
        if (profile.run.summary.status != "ok" && result.summary.status == "ok") {
            result.summary.status = profile.run.summary.status;
            result.summary.message = "pipeline stage " + std::to_string(stage) + ": " + profile.run.summary.message;
        }
        // The peaks are the stage that needs the most (a later stage may hold the LM head):
        // what must fit the devices, and what the strategy search compares.
        const SimSummary& st = profile.run.summary;
        result.summary.peak_bytes = std::max(result.summary.peak_bytes, st.peak_bytes);
        result.summary.memory.reserved_peak_bytes = std::max(result.summary.memory.reserved_peak_bytes, st.memory.reserved_peak_bytes);
    }
    result.graph_level = first.run.graph_level;
    result.kernels_per_step = first.run.kernels_per_step;
    result.passes = first.run.passes;
    result.graph_before_fusion = first.run.graph_before_fusion;
    result.graph_after_fusion = first.run.graph_after_fusion;
    result.steps.push_back({0, 0, iteration});

    ClusterSummary& cs = result.summary.cluster;
    describeClusterShape(cs, setup);
    cs.schedule = std::string(pipelineScheduleName(par.schedule));
    cs.bubble_fraction = P > 1 ? layout->bubbleFraction : 0;

    std::map<std::string, CollectiveSummary> collectives;
    const RankTimeline* middle = nullptr;  // a rank of a middle (or the last) stage
    for (LaidOutRanks& g : layout->groups) {
        RankTimeline& rt = g.timeline;
        const int s = g.stage;
        RankTimeSplit groupSplit = splitRankTime(rt, iteration, P > 1);
        for (const auto& [key, c] : rt.collectives) {
            groupSplit.collectives.push_back(c);
            if (c.group == "dp" && c.algorithm.empty()) groupSplit.collectives.back().algorithm = std::string(collectiveAlgorithmName(par.comm.gradientAllreduce));
        }
        for (std::size_t c = 0; c < g.ranks.size(); ++c) {
            const int rank = g.ranks[c];
            RankTimeSplit split = groupSplit;
            split.rank = rank;
            split.node = setup.nodeOf(rank);
            split.stage = s;
            split.represents = g.represents;
            cs.ranks.push_back(split);
            DeviceResult dev = c + 1 == g.ranks.size() ? std::move(rt.device) : rt.device;
            dev.id = rank;
            dev.name = rankDeviceName(setup, rank) + (g.represents == 1 ? "" : " (stage " + std::to_string(s) + ", stands for " + std::to_string(g.represents) + " ranks)");
            dev.capacity_bytes = first.run.summary.capacity_bytes;
            dev.peak_bytes = profiles.at(representativeStage(s, P)).run.summary.peak_bytes;
            result.devices.push_back(std::move(dev));
        }
        if (s == 0 && collectives.empty())
            for (const auto& [key, c] : rt.collectives) collectives[key] = c;
        if (s == (P > 2 ? 1 : P - 1) && !middle) middle = &rt;
    }
    // The report's collectives: what one rank of the first stage runs per iteration, plus
    // the pipeline sends of a middle stage when the first has none of a kind.
    if (P > 1 && middle)
        for (const auto& [key, c] : middle->collectives)
            if (!collectives.count(key)) collectives[key] = c;
    for (auto& [key, c] : collectives) {
        if (c.group == "dp" && c.algorithm.empty()) c.algorithm = std::string(collectiveAlgorithmName(par.comm.gradientAllreduce));
        cs.collectives.push_back(c);
    }
    std::sort(result.devices.begin(), result.devices.end(), [](const DeviceResult& a, const DeviceResult& b) { return a.id < b.id; });
    std::sort(cs.ranks.begin(), cs.ranks.end(), [](const RankTimeSplit& a, const RankTimeSplit& b) { return a.rank < b.rank; });
    cs.links = communicationMatrix(setup, cs.ranks);

    // Whole-model figures: the unpartitioned model's FLOPs and parameters.
    SimSummary& sum = result.summary;
    ZooShape shape{setup.microBatch, project.training.seq};
    auto full = buildZooModel(project.model.zoo, project.model.config, shape);
    if (!full) return fail(full.message());
    sum.params = full->parameterCount();
    sum.flops_per_step = modelFlopsPerStep(*full) * par.microBatches * par.dataParallel;
    sum.step_time_ms = iteration / 1e6;
    sum.batch = project.training.batch;
    if (sum.step_time_ms > 0) {
        sum.samples_per_s = static_cast<double>(project.training.batch) / (sum.step_time_ms / 1e3);
        sum.tokens_per_s = sum.seq > 0 ? sum.samples_per_s * static_cast<double>(sum.seq) : 0;
        const double peak = device->peak(lowDType(*parsePrecision(project.training.precision)));
        sum.mfu = peak > 0 ? sum.flops_per_step / (sum.step_time_ms / 1e3) / (peak * devices) : 0;
    }
    addRankTaskTimes(sum, result.devices);  // engine/cluster/rank_timeline
    cs.notes = {"one iteration simulated (training.steps and --steps do not repeat it); ranks of a pipeline stage do identical "
                "work and are simulated once, a stage's layers from its first two",
                "memory figures are one micro-batch of the first stage (the peak and reserved peak: of the stage that needs the most): "
                "1F1B's in-flight activations of earlier micro-batches are not added",
                "tensor-parallel collectives block the next block of the layer (Megatron-LM); data-parallel buckets sharing a link with "
                "them get half its bandwidth while both run (estimate)",
                "sequence parallelism changes the collectives, not the norm/dropout kernels' sizes (they are costed unsharded)"};
    for (const std::string& n : layout->notes) cs.notes.push_back(n);
    if (par.comm.compression > 1) cs.notes.push_back("gradient compression costs one HBM read + write of each bucket (estimate)");
    progress(1.0, "simulation done");
    return result;
}

}  // namespace npu::engine
