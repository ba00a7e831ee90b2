#include "engine/cluster/phased_step.h"

#include "engine/cluster/comm_matrix.h"
#include "engine/cluster/program_pipeline.h"
#include "engine/cluster/program_rank.h"
#include "engine/cluster/stage_profile.h"
#include "engine/cluster/step_pacing.h"
#include "engine/cluster/step_result.h"
#include "engine/precision/precision_level.h"

#include <algorithm>

namespace npu::engine {

namespace {

// The step laid out: one timeline per stage (without stages, the rank insertions give
// the one stage, its length and its phases; no bubble, no decode step through stages).
Expected<ProgramPipelineLayout> layOut(const std::map<int, SimulationResult>& runs, const ClusterSetup& setup, const StepProgram& program,
                                       const StepPacing& pacing) {
    const int P = setup.parallel.pipelineStages;
    // What-ifs: each stage at its slowest rank's pace, every collective at the slowest link's.
    const ClusterSetup laidSetup = pacedSetup(setup, pacing);
    std::map<int, SimulationResult> paced;
    for (int s = 0; s < P; ++s)
        if (pacing.stagePace[static_cast<std::size_t>(s)] != 1) paced.emplace(s, pacedRun(runs.at(representativeStage(s, P)), pacing.stagePace[static_cast<std::size_t>(s)]));
    auto runOf = [&](int s) -> const SimulationResult& {
        const auto it = paced.find(s);
        return it != paced.end() ? it->second : runs.at(representativeStage(s, P));
    };
    if (P == 1) {
        ProgramRankTimeline laid = layOutProgramRank(runOf(0), laidSetup, program);
        ProgramPipelineLayout out;
        out.iterationNs = laid.rank.endNs;
        out.stages.push_back(std::move(laid.rank));
        out.phaseMs = std::move(laid.phaseMs);
        out.phaseWallMs = std::move(laid.phaseWallMs);
        return out;
    }
    std::vector<const SimulationResult*> byStage;
    for (int s = 0; s < P; ++s) byStage.push_back(&runOf(s));
    return layOutProgramPipeline(byStage, laidSetup, program);
}

}  // namespace

Expected<StepRun> layOutPhasedStep(const Project& project, const ResolvedCluster& resolved, const StepProgram& program,
                                   const RankSimulator& simulateRank, const Progress& progress) {
    auto fail = [&](const std::string& message) { return makeError(withProjectFile(project, message)); };
    const ClusterSetup& setup = resolved.setup;
    const ParallelConfig& par = setup.parallel;
    const int P = par.pipelineStages;
    auto precision = parsePrecision(project.training.precision);
    if (!precision) return fail(precision.message());

    // One rank per distinct stage (first, a middle one, last): its share of the batch, its
    // layers, its tensor-parallel shard, ZeRO's memory.
    auto stageRuns = runDistinctStages<SimulationResult>(
        P, 0.85, [P](int stage) { return P > 1 ? "stage " + std::to_string(stage) : std::string("rank 0"); },
        [&](int stage, const Progress& sub) {
            Project rank = stageProject(project, setup, stage);
            rank.training.batch = setup.microBatch * par.microBatches;
            return simulateRank(rank, {.keepGraphs = stage == 0}, sub);
        },
        progress);
    if (!stageRuns) return stageRuns.cancelled() ? cancelledError() : fail(stageRuns.message());
    std::map<int, SimulationResult>& runs = *stageRuns;
    progress(0.9, "adding the cluster's communication");
    const StepPacing pacing = stepPacing(setup);
    auto layout = layOut(runs, setup, program, pacing);
    if (!layout) return fail(layout.message());
    const std::int64_t iteration = layout->iterationNs;

    std::map<int, SimulationResult*> stageResults;
    for (auto& [stage, r] : runs) stageResults[stage] = &r;
    StepRun out;
    out.iterationNs = iteration;
    out.result = startStepResult(stageResults, P, iteration, {.busiestPeaks = false, .lossScale = true});
    SimulationResult& result = out.result;
    SimSummary& sum = result.summary;
    ClusterSummary& cs = sum.cluster;
    describeClusterShape(cs, setup);
    cs.schedule = P > 1 ? std::string(pipelineScheduleName(par.schedule)) : "none";
    cs.bubble_fraction = P > 1 ? layout->bubbleFraction : 0;
    // The ranks of a stage do the same work: all listed (each its own timeline) on a small
    // cluster, else one per stage standing for the others.
    const int devices = par.devices(), inStage = par.dataParallel * par.tensorParallel;
    const bool everyRank = devices <= kMaxStoredRanks;
    std::vector<LaidOutRanks> groups;
    for (int s = 0; s < P; ++s) {
        RankTimeline& timeline = layout->stages[static_cast<std::size_t>(s)];
        for (const auto& entry : timeline.collectives) {
            const CollectiveSummary& c = entry.second;  // not a structured binding: clang 14 cannot capture one
            if (std::none_of(cs.collectives.begin(), cs.collectives.end(), [&](const CollectiveSummary& k) { return k.group == c.group && k.kind == c.kind; }))
                cs.collectives.push_back(c);
        }
        LaidOutRanks g;
        g.stage = s;
        g.represents = everyRank ? 1 : inStage;
        for (int c = 0; c < (everyRank ? inStage : 1); ++c) g.ranks.push_back(setup.rankOf(s, c / par.tensorParallel, c % par.tensorParallel));
        if (P > 1) g.peakBytes = runs.at(representativeStage(s, P)).summary.peak_bytes;
        g.timeline = std::move(timeline);
        groups.push_back(std::move(g));
    }
    listRanks(groups, setup, iteration, {.collectivesPerRank = P > 1, .fillDpAlgorithm = false, .stageInName = P > 1}, result);
    if (P > 1) cs.links = communicationMatrix(setup, cs.ranks);

    // Every stage's FLOPs, on each of its data x tensor-parallel ranks.
    double rankFlops = 0;
    for (int st = 0; st < P; ++st) rankFlops += runs.at(representativeStage(st, P)).summary.flops_per_step / P;
    sum.flops_per_step = rankFlops * devices;
    setStepRates(sum, iteration, project.training.batch, rankFlops, resolved.device.peak(lowDType(*precision)));  // MFU of one rank
    addRankTaskTimes(sum, result.devices);
    // Rank 0's time in each phase (with pipeline stages its bubble included, and apart).
    for (const auto& [phase, ms] : layout->phaseMs) sum.time_by_phase_ms[phase] = ms;
    if (P > 1)
        for (const auto& [phase, ms] : layout->bubbleMs) sum.time_by_phase_ms[phase + "_bubble"] = ms;
    out.phaseWallMs = std::move(layout->phaseWallMs);
    out.decodeStepNs = layout->decodeStepNs;
    out.layoutNotes = std::move(layout->notes);
    out.pacingNotes = pacing.notes;
    return out;
}

}  // namespace npu::engine
