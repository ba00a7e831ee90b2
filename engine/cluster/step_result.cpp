#include "engine/cluster/step_result.h"

#include "engine/cluster/rank_time_split.h"

#include <algorithm>

namespace npu::engine {

std::vector<int> distinctStages(int stages) {
    std::vector<int> distinct{0};
    if (stages > 2) distinct.push_back(1);
    if (stages > 1) distinct.push_back(stages - 1);
    return distinct;
}

SimulationResult startStepResult(std::map<int, SimulationResult*> runs, int stages, std::int64_t iterationNs, const StepResultStart& how) {
    SimulationResult& first = *runs.at(0);
    SimulationResult result;
    result.summary = first.summary;
    result.graph_level = first.graph_level;
    result.kernels_per_step = first.kernels_per_step;
    result.graph_scope = first.graph_scope;
    result.passes = first.passes;
    if (how.lossScale) result.loss_scale = first.loss_scale;
    result.graph_before_fusion = std::move(first.graph_before_fusion);
    result.graph_after_fusion = std::move(first.graph_after_fusion);
    result.steps.push_back({0, 0, iterationNs});
    SimSummary& sum = result.summary;
    sum.status = "ok";  // the first stage's own status is taken below, with its stage named
    sum.message.clear();
    for (const auto& [stage, run] : runs) {  // a later stage out of memory makes the run so
        const SimSummary& st = run->summary;
        if (st.status != "ok" && sum.status == "ok") {
            sum.status = st.status;
            sum.message = (stages > 1 ? "pipeline stage " + std::to_string(stage) + ": " : std::string()) + st.message;
        }
        // What must fit the devices, and what the strategy search compares: the stage that
        // needs the most (a later stage may hold the LM head).
        if (how.busiestPeaks) {
            sum.peak_bytes = std::max(sum.peak_bytes, st.peak_bytes);
            sum.memory.reserved_peak_bytes = std::max(sum.memory.reserved_peak_bytes, st.memory.reserved_peak_bytes);
        }
    }
    return result;
}

void setStepRates(SimSummary& sum, std::int64_t iterationNs, std::int64_t batch, double mfuFlops, double peakFlops) {
    sum.step_time_ms = iterationNs / 1e6;
    sum.batch = batch;
    if (sum.step_time_ms <= 0) return;
    sum.samples_per_s = static_cast<double>(batch) / (sum.step_time_ms / 1e3);
    sum.tokens_per_s = sum.seq > 0 ? sum.samples_per_s * static_cast<double>(sum.seq) : 0;
    sum.mfu = peakFlops > 0 ? mfuFlops / (sum.step_time_ms / 1e3) / peakFlops : 0;
}

void listRanks(std::vector<LaidOutRanks>& groups, const ClusterSetup& setup, std::int64_t iterationNs, const RankListing& how,
               SimulationResult& result) {
    const ParallelConfig& par = setup.parallel;
    const int P = par.pipelineStages;
    ClusterSummary& cs = result.summary.cluster;
    for (LaidOutRanks& g : groups) {
        RankTimeline& rt = g.timeline;
        RankTimeSplit groupSplit = splitRankTime(rt, iterationNs, P > 1);
        if (how.collectivesPerRank)
            for (const auto& [key, c] : rt.collectives) {
                groupSplit.collectives.push_back(c);
                if (how.fillDpAlgorithm && c.group == "dp" && c.algorithm.empty())
                    groupSplit.collectives.back().algorithm = std::string(collectiveAlgorithmName(par.comm.gradientAllreduce));
            }
        for (std::size_t c = 0; c < g.ranks.size(); ++c) {
            const int rank = g.ranks[c];
            RankTimeSplit split = groupSplit;
            split.rank = rank;
            split.node = setup.nodeOf(rank);
            split.stage = g.stage;
            split.represents = g.represents;
            cs.ranks.push_back(std::move(split));
            DeviceResult dev = c + 1 == g.ranks.size() ? std::move(rt.device) : rt.device;
            dev.id = rank;
            dev.name = rankDeviceName(setup, rank);
            if (g.represents != 1)
                dev.name += " (" + (how.stageInName ? "stage " + std::to_string(g.stage) + ", " : std::string()) + "stands for " +
                            std::to_string(g.represents) + " ranks)";
            if (how.capacityBytes >= 0) dev.capacity_bytes = how.capacityBytes;
            if (g.peakBytes >= 0) dev.peak_bytes = g.peakBytes;
            result.devices.push_back(std::move(dev));
        }
    }
    std::sort(result.devices.begin(), result.devices.end(), [](const DeviceResult& a, const DeviceResult& b) { return a.id < b.id; });
    std::sort(cs.ranks.begin(), cs.ranks.end(), [](const RankTimeSplit& a, const RankTimeSplit& b) { return a.rank < b.rank; });
    // The step split of a cluster run is rank 0's over the whole step (the stage profile's
    // own split is one micro-batch's pass): its compute-stream busy time.
    if (!cs.ranks.empty()) result.summary.device_busy_ms = cs.ranks.front().computing_ms;
}

}  // namespace npu::engine
