#include "engine/cluster/micro_batched_step.h"

#include "base/units.h"

#include "engine/cluster/cluster_setup.h"
#include "engine/cluster/comm_matrix.h"
#include "engine/cluster/rank_layout.h"
#include "engine/cluster/rank_timeline.h"
#include "engine/cluster/stage_allocations.h"
#include "engine/cluster/stage_memory.h"
#include "engine/cluster/stage_profile.h"
#include "engine/cluster/step_result.h"
#include "engine/cluster/zero_pass_comm.h"
#include "engine/project/project_memory_options.h"
#include "engine/sim/simulator.h"

#include <algorithm>
#include <map>
#include <tuple>

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

Expected<StepRun> layOutMicroBatchedStep(const Project& project, const ResolvedCluster& resolved, const RankSimulator& simulateRank,
                                         const Progress& progress, const StepLayoutOptions& options) {
    auto fail = [&](const std::string& message) { return makeError(withProjectFile(project, message)); };
    const DeviceProfile* device = &resolved.device;
    const ClusterSetup& setup = resolved.setup;
    const ParallelConfig& par = setup.parallel;
    const int P = par.pipelineStages;

    // The distinct stages, each simulated once on one device.
    auto stages = runDistinctStages<StageProfile>(
        P, 0.8, [](int stage) { return "stage " + std::to_string(stage); },
        [&](int stage, const Progress& sub) { return simulateStage(project, setup, stage, simulateRank, sub); }, progress);
    if (!stages) return stages.cancelled() ? cancelledError() : fail(stages.message());
    const std::map<int, StageProfile>& profiles = *stages;
    if (progress.cancelled()) return cancelledError();
    progress(0.85, "scheduling the pipeline");

    const CommPlan plan = planCommunication(setup, project, *device);
    PipelineSetup pipe;
    pipe.stages = P;
    pipe.microBatches = par.microBatches;
    pipe.virtualStages = par.virtualStages;
    pipe.schedule = par.schedule;
    pipe.p2pNs = plan.p2p.timeNs;
    for (int s = 0; s < P; ++s) {
        const PassDurations ns = stagePassNs(profiles.at(representativeStage(s, P)), setup, plan);
        pipe.forwardNs.push_back(ns.forwardNs);
        pipe.backwardNs.push_back(ns.backwardNs);
    }
    // Which ranks get a timeline: all of a small cluster, else one per distinct group.
    const int devices = par.devices();
    const bool everyRank = devices <= kMaxStoredRanks;
    auto layout = layOutCluster(profiles, setup, plan, pipe, everyRank, options.rankTimelines);
    if (!layout) return fail(layout.message());
    const std::int64_t iteration = layout->iterationNs;

    // Each stage's memory through its own schedule: the representatives' runs (stages 0, 1
    // and P-1, the fullest of the first, middle and last stages) take their stage's figures.
    auto schedule = simulatePipeline(pipe);
    if (!schedule) return fail(schedule.message());
    const int chunks = par.schedule == PipelineSchedule::interleaved ? par.virtualStages : 1;
    std::vector<RankClassMemory> rankClasses;
    for (int s = 0; s < P; ++s)
        rankClasses.push_back(replayStageMemory(profiles.at(representativeStage(s, P)), s, par.dataParallel * par.tensorParallel,
                                                schedule->stages[static_cast<std::size_t>(s)], chunks));
    for (auto& [stage, profile] : *stages) applyStageMemory(profile.run.summary, rankClasses[static_cast<std::size_t>(stage)], par.schedule);

    const std::int64_t capacity = profiles.at(0).run.summary.capacity_bytes;
    const MemoryOptions memory = memoryOptionsFor(project);
    std::map<int, SimulationResult*> runs;
    for (auto& [stage, profile] : *stages) runs[stage] = &profile.run;
    SimulationResult result = startStepResult(runs, P, iteration, {.busiestPeaks = true, .lossScale = false});
    ClusterSummary& cs = result.summary.cluster;
    describeClusterShape(cs, setup);
    cs.schedule = std::string(pipelineScheduleName(par.schedule));
    cs.bubble_fraction = P > 1 ? layout->bubbleFraction : 0;

    std::map<std::tuple<int, std::int64_t, std::int64_t>, DeviceResult> placedMemory;  // by (stage, optimizer window)
    for (LaidOutRanks& g : layout->groups) {
        g.peakBytes = rankClasses[static_cast<std::size_t>(g.stage)].peak_bytes;
        // The rank's live-bytes counter, through the symmetric schedule (what-if replicas'
        // passes shift by their waits; the figures are the class's). Only for a rank
        // whose tasks are laid out: the curves go with its timeline.
        const std::int64_t optStart = g.timeline.optimizerStartNs, optEnd = g.timeline.optimizerEndNs;
        if (g.timeline.device.tasks.empty()) continue;
        // Its blocks through the project's allocator: the memory map, live blocks and reserved
        // curve; replayed once per stage and optimizer window, which a stage's ranks share.
        const auto key = std::make_tuple(g.stage, optStart, optEnd);
        auto placed = placedMemory.find(key);
        if (placed == placedMemory.end()) {
            const StageAllocations allocations = stageAllocations(profiles.at(representativeStage(g.stage, P)),
                                                                  schedule->stages[static_cast<std::size_t>(g.stage)], chunks, optStart, optEnd);
            DeviceResult device;
            device.memory = liveMemoryEvents(allocations);
            placeStageBlocks(allocations, memory, capacity, device);
            placed = placedMemory.emplace(key, std::move(device)).first;
        }
        g.timeline.device.memory = placed->second.memory;
        g.timeline.device.memory_blocks = placed->second.memory_blocks;
        g.timeline.device.memory_segments = placed->second.memory_segments;
        g.timeline.device.allocator_samples = placed->second.allocator_samples;
        // A stage that does not fit: the out-of-memory panel lists what its rank holds then.
        OomReport& oom = result.summary.memory.oom;
        if (oom.present && oom.top_tensors.empty() && rankClasses[static_cast<std::size_t>(g.stage)].oom &&
            rankClasses[static_cast<std::size_t>(g.stage)].peak_time_ns == oom.time_ns)
            oom.top_tensors = largestLiveBlocks(g.timeline.device, oom.time_ns, 10);
    }
    result.summary.memory.rank_classes = std::move(rankClasses);
    listRanks(layout->groups, setup, iteration, {.capacityBytes = capacity}, result);
    std::map<std::string, CollectiveSummary> collectives;
    const RankTimeline* middle = nullptr;  // a rank of a middle (or the last) stage
    for (const LaidOutRanks& g : layout->groups) {
        if (g.stage == 0 && collectives.empty())
            for (const auto& [key, c] : g.timeline.collectives) collectives[key] = c;
        if (g.stage == (P > 2 ? 1 : P - 1) && !middle) middle = &g.timeline;
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
    cs.links = communicationMatrix(setup, cs.ranks);

    addRankTaskTimes(result.summary, result.devices);  // engine/cluster/rank_timeline
    StepRun step;
    step.iterationNs = iteration;
    step.layoutNotes = {"one iteration simulated (training.steps and --steps do not repeat it); ranks of a pipeline stage do identical "
                        "work and are simulated once, a stage's layers from its first two",
                        "memory: each stage holds the activations of the micro-batches its schedule has in flight (memory.rank_classes); the "
                        "peak and reserved peak are the fullest stage's, the reserved figure its one-micro-batch run's reserved/allocated "
                        "ratio applied to the in-flight activations (estimate)",
                        "tensor-parallel collectives block the next block of the layer (Megatron-LM); data-parallel buckets sharing a link with "
                        "them get half its bandwidth while both run (estimate)",
                        "sequence parallelism (parallel.sequence_parallel): norms, dropouts and residual adds run on 1/tp of the sequence and keep "
                        "1/tp of its activations, the column-parallel linears keep their sequence shard (Megatron-LM gathers it again in "
                        "backward; that all-gather's time is not added)"};
    if (project.training.activation_checkpointing == "selective" && project.model.config.value("attention", std::string("sdpa")) == "sdpa")
        step.layoutNotes.push_back("selective recomputation (Megatron-LM's: the attention core) under flash attention keeps almost the same "
                                   "activations (a flash kernel saves no softmax output or dropout mask) and adds one attention forward per "
                                   "layer; training.activation_checkpointing: memory_bound or full saves memory");
    if (par.dataParallel > 1 && !par.comm.bucketDefault.empty())
        step.layoutNotes.push_back("gradient buckets of " + units::decimalBytes(par.comm.bucketMb * 1e6) + ": " + par.comm.bucketDefault +
                                   " (training.framework " + project.training.framework + "; communication.bucket_size_mb sets another)");
    for (const std::string& n : layout->notes) step.layoutNotes.push_back(n);
    if (par.comm.compression > 1) step.layoutNotes.push_back("gradient compression costs one HBM read + write of each bucket (estimate)");
    step.result = std::move(result);
    return step;
}

}  // namespace npu::engine
