#pragma once
// What both step layouts of the cluster scheduler (per micro-batch, engine/cluster/
// micro_batched_step; phase by phase, engine/cluster/phased_step) share: the distinct
// stages simulated once each, the result begun from their runs, and the rank listing. The symmetry: every rank of a pipeline stage does the same work, and the
// stages between the first and the last are identical, so at most three stage ranks are
// simulated, each on one device.

#include "base/expected.h"
#include "base/progress.h"
#include "engine/cluster/cluster_setup.h"
#include "engine/cluster/rank_timeline.h"
#include "engine/result/simulation_result.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace npu::engine {

// At most this many ranks get their own timeline in the result.
inline constexpr int kMaxStoredRanks = 64;

// Stage s's representative among the simulated ones: first, a middle one, last.
inline int representativeStage(int stage, int stages) { return stage == 0 ? 0 : stage == stages - 1 ? stages - 1 : 1; }

// The stages whose rank is simulated: 0, then 1 when there are middle stages, then the last.
std::vector<int> distinctStages(int stages);

// Runs simulate(stage, progress) for each distinct stage in order, reporting into the
// first `share` of `progress` as "<label(stage)>: <what the stage run reports>". The
// first failure is returned as the stage run gave it (a cancel keeps its code).
template <class Run>
Expected<std::map<int, Run>> runDistinctStages(int stages, double share, const std::function<std::string(int)>& label,
                                               const std::function<Expected<Run>(int, const Progress&)>& simulate,
                                               const Progress& progress) {
    const std::vector<int> distinct = distinctStages(stages);
    const double n = static_cast<double>(distinct.size());
    std::map<int, Run> runs;
    for (std::size_t i = 0; i < distinct.size(); ++i) {
        const int stage = distinct[i];
        Progress sub;
        sub.cancel = progress.cancel;
        const double lo = share * static_cast<double>(i) / n;
        sub.report = [&, lo, stage](double f, std::string_view what) { progress(lo + share * f / n, label(stage) + ": " + std::string(what)); };
        auto run = simulate(stage, sub);
        if (!run) return run.error();
        runs.emplace(stage, std::move(*run));
    }
    return runs;
}

// The step's result begun from its stage runs (by stage; runs.at(0) is the first stage):
// the first stage's summary, passes and graphs (moved out of it), one step of
// iterationNs, and the status of the first stage that is not "ok" ("pipeline stage s: "
// before its message when there are several stages).
struct StepResultStart {
    bool busiestPeaks = true;        // peak and reserved peak: of the stage that needs the most
    bool lossScale = false;          // keep the first stage's loss-scale points
};
SimulationResult startStepResult(std::map<int, SimulationResult*> runs, int stages, std::int64_t iterationNs, const StepResultStart& how);

// The step's length and rates in the summary: step time, samples/s, tokens/s (summary.seq
// tokens a sample) and MFU, the FLOPs `mfuFlops` per step over `peakFlops` per second.
void setStepRates(SimSummary& sum, std::int64_t iterationNs, std::int64_t batch, double mfuFlops, double peakFlops);

// The ranks that share one laid-out timeline.
struct LaidOutRanks {
    int stage = 0;
    std::vector<int> ranks;          // ranks sharing this timeline (listed one by one in the report)
    int represents = 1;              // ranks each listed rank stands for (1 when every rank is listed)
    RankTimeline timeline;
    std::int64_t peakBytes = -1;     // each listed device's peak; -1: the timeline device's own
};

// How the report lists the ranks of the laid-out groups.
struct RankListing {
    bool collectivesPerRank = true;  // each rank's time split lists its collectives
    bool fillDpAlgorithm = true;     // a data-parallel collective naming no algorithm gets the gradient all-reduce's
    bool stageInName = true;         // a rank standing for others says its stage
    std::int64_t capacityBytes = -1; // each listed device's capacity; -1: the timeline device's own
};

// Appends each group's ranks to result.devices (the timeline's device, renamed and
// renumbered; moved into the last rank) and summary.cluster.ranks (its time split over
// iterationNs), both then sorted by rank.
void listRanks(std::vector<LaidOutRanks>& groups, const ClusterSetup& setup, std::int64_t iterationNs, const RankListing& how,
               SimulationResult& result);

}  // namespace npu::engine
