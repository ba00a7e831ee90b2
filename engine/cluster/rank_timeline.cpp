#include "engine/cluster/rank_timeline.h"
#include "engine/cluster/rank_builder.h"

#include "engine/cluster/zero_pass_comm.h"
#include "engine/result/task_layer.h"

#include <algorithm>
#include <cmath>

namespace npu::engine {

namespace {

// A stage's layer l as the model numbers it: chunk l / Lc of the stage is the model's
// virtual stage chunk * P + stage, of Lc layers (Megatron-LM's interleaving; one chunk
// without it).
struct LayerNumbering {
    int stages = 1, stage = 0, perChunk = 1;
    int model(int local) const { return (local / perChunk * stages + stage) * perChunk + local % perChunk; }
};

// A segment's tasks as the timeline shows them, their layers.N in the model's numbering:
// renamed once, since a stage's passes run the same tasks once per micro-batch.
std::vector<SimTask> inModelNumbering(const std::vector<SimTask>& tasks, const LayerNumbering& numbering) {
    std::vector<SimTask> out = tasks;
    for (SimTask& t : out)
        if (const int local = layerOfTaskName(t.name); local >= 0) t.name = shiftedLayerName(t.name, numbering.model(local) - local);
    return out;
}



// Time the TP intervals overlap [start, end): a DP collective on the same link gets half
// of it while they share (each gets half the link's bandwidth).
std::int64_t sharedTime(const std::vector<Interval>& tp, std::int64_t start, std::int64_t end) {
    std::int64_t shared = 0;
    for (const auto& i : tp) shared += std::max<std::int64_t>(0, std::min(end, i.end) - std::max(start, i.start));
    return shared;
}

// The gradient bytes the last backward pass's buckets reduce: the stage's, or under ZeRO-2/3
// (every backward pass reduces its own, engine/cluster/zero_pass_comm) its model chunk's.
double lastPassGradientBytes(const StageProfile& stage, const ClusterSetup& setup) {
    const ParallelConfig& par = setup.parallel;
    const int v = par.schedule == PipelineSchedule::interleaved && par.zeroStage >= 2 ? std::max(1, par.virtualStages) : 1;
    return stage.trainableParams * setup.gradientBytes / v;
}

int bucketCount(const StageProfile& stage, const ClusterSetup& setup) {
    const double gradBytes = lastPassGradientBytes(stage, setup);
    return std::max(1, static_cast<int>(std::ceil(gradBytes / std::max(setup.parallel.comm.bucketMb * 1e6, 1.0))));
}

const PipelinePass* lastBackwardPass(const std::vector<PipelinePass>& passes) {
    const PipelinePass* last = nullptr;
    for (const PipelinePass& pass : passes)
        if (pass.backward && (!last || pass.endNs > last->endNs)) last = &pass;
    return last;
}

}  // namespace

std::vector<std::int64_t> dpBucketReady(const StageProfile& stage, const std::vector<PipelinePass>& passes, const ClusterSetup& setup,
                                        std::int64_t ownEndNs) {
    const PipelinePass* last = lastBackwardPass(passes);
    if (setup.parallel.dataParallel <= 1 || !last) return {};
    const int buckets = bucketCount(stage, setup);
    const std::int64_t passStart = roundNs(last->startNs), passEnd = ownEndNs >= 0 ? ownEndNs : roundNs(last->endNs);
    std::vector<std::int64_t> ready;
    for (int k = 0; k < buckets; ++k)
        ready.push_back(setup.parallel.comm.overlap ? passStart + (passEnd - passStart) * (k + 1) / buckets : passEnd);
    return ready;
}

void addRankTaskTimes(SimSummary& sum, const std::vector<DeviceResult>& devices) {
    sum.time_by_category_ms.clear();
    sum.time_by_phase_ms.clear();
    if (devices.empty()) return;
    for (const SimTask& t : devices.front().tasks) {
        if (t.op_type == "recv") continue;
        sum.time_by_category_ms[std::string(opCategoryName(t.category))] += t.dur_ns / 1e6;
        sum.time_by_phase_ms[std::string(phaseName(t.phase))] += t.dur_ns / 1e6;
    }
}

RankTimeline layOutRank(const StageProfile& stage, const std::vector<PipelinePass>& passes, const ClusterSetup& setup,
                        const CommPlan& plan, bool materialise, const DpSync& sync, int stageIndex) {
    RankBuilder b(stage, materialise, setup.parallel.pipelineStages > 1);
    const ParallelConfig& par = setup.parallel;
    const int v = par.schedule == PipelineSchedule::interleaved ? par.virtualStages : 1;
    const std::int64_t tpNs = roundNs(plan.tpPointNs());
    // Named once: a rank reaches its TP points thousands of times.
    const std::string tpGroup = "tp";
    std::vector<std::string> tpNames;
    for (const auto& [kind, cost] : plan.tpPoint) tpNames.push_back("TP " + std::string(collectiveKindName(kind)));
    std::vector<Interval> tpBusy;
    const PipelinePass* lastBackward = nullptr;

    std::int64_t passFree = 0;  // end of this rank's previous pass
    // This rank's own work in its previous pass ends at prevOwnEnd, the pass's slot at
    // prevSlotEnd: they differ in lock-step (DpSync), when the group's slowest rank
    // decides the slot; -1 before the first pass. lastBackwardOwnEnd: the same for the
    // last backward pass (its buckets).
    std::int64_t prevOwnEnd = -1, prevSlotEnd = 0, lastBackwardOwnEnd = -1;
    // ZeRO-2/3's traffic inside the passes; the DP stream runs its collectives in turn.
    const ZeroPassComm zero = zeroPassComm(stage, setup, plan, v);
    const PipelinePass* finalBackward = lastBackwardPass(passes);
    const LayerNumbering numbering{par.pipelineStages, stageIndex >= 0 ? stageIndex : stage.stage, std::max(1, stage.layers / v)};
    const std::vector<SimTask> forwardShown = materialise ? inModelNumbering(stage.forward.tasks, numbering) : std::vector<SimTask>{};
    const std::vector<SimTask> backwardShown = materialise ? inModelNumbering(stage.backward.tasks, numbering) : std::vector<SimTask>{};
    std::int64_t dpFree = 0;
    if (materialise) {
        // Each pass: its chunk's tasks, the TP collectives after them, a send, a receive and a gather.
        std::size_t tasks = stage.optimizer.tasks.size() + 16;
        for (const PipelinePass& pass : passes) {
            const StageSegment& seg = pass.backward ? stage.backward : stage.forward;
            tasks += (seg.tasks.size() + plan.tpPoint.size() * seg.collectiveAfter.size()) / static_cast<std::size_t>(v) + plan.tpPoint.size() + 3;
        }
        b.reserve(tasks + zero.reduceBuckets.size() * passes.size() + 2 * static_cast<std::size_t>(bucketCount(stage, setup)));
    }
    for (const PipelinePass& pass : passes) {
        std::int64_t ownEnd = roundNs(pass.startNs);
        const StageSegment& seg = pass.backward ? stage.backward : stage.forward;
        const std::vector<SimTask>& shown = pass.backward ? backwardShown : forwardShown;
        // Activations come from the previous virtual stage, gradients from the next one;
        // they arrive p2p's time before the pass starts (the schedule adds it).
        const int receiver = pass.chunk * par.pipelineStages + stage.stage;
        const bool receives = pass.backward ? receiver < par.pipelineStages * v - 1 : receiver > 0;
        if (receives && par.pipelineStages > 1)
            b.receive(plan.p2p, plan.p2pBytes, std::max<std::int64_t>(0, roundNs(pass.startNs - plan.p2p.timeNs) - passFree), roundNs(pass.startNs),
                      std::string(pass.backward ? "recv gradients mb " : "recv activations mb ") + std::to_string(pass.microBatch));
        passFree = std::max(passFree, roundNs(pass.endNs));
        const std::size_t n = seg.tasks.size();
        // Chunk c of an interleaved stage holds layer group c; backward walks them in reverse.
        const std::size_t group = static_cast<std::size_t>(pass.backward ? v - 1 - pass.chunk : pass.chunk);
        const std::size_t from = n * group / static_cast<std::size_t>(v), to = n * (group + 1) / static_cast<std::size_t>(v);
        const std::int64_t base = from < n ? seg.tasks[from].start_ns : 0;
        // Under ZeRO-3 the pass's compute starts once its first module is gathered.
        std::int64_t shift = roundNs(pass.startNs) - base + (zero.forwardFetches > 0 ? roundNs(zero.firstFetchNs) : 0);
        auto point = std::lower_bound(seg.collectiveAfter.begin(), seg.collectiveAfter.end(), from);
        for (std::size_t i = from; i < to; ++i) {
            const SimTask& t = seg.tasks[i];
            b.task(shown.empty() ? t : shown[i], t.start_ns + shift, pass.microBatch);
            ownEnd = std::max(ownEnd, t.start_ns + t.dur_ns + shift);
            if (point != seg.collectiveAfter.end() && *point == i) {
                // This rank reaches the collective when its kernel ends, the group's
                // slowest rank at groupArrival (slow-rank what-ifs).
                const auto j = static_cast<std::size_t>(point - seg.collectiveAfter.begin());
                ++point;
                std::int64_t at = t.start_ns + t.dur_ns + shift;
                const std::int64_t arrival = j < seg.groupArrival.size() ? seg.groupArrival[j] + shift : at;
                const std::int64_t begin = at;
                for (std::size_t c = 0; c < plan.tpPoint.size(); ++c) {
                    const auto& [kind, cost] = plan.tpPoint[c];
                    at = b.comm(b.tpStream(), tpGroup, kind, cost, plan.tpBytes, at, tpNames[c],
                                -1, std::max<std::int64_t>(0, arrival - at));
                }
                tpBusy.push_back({begin, at});
                ownEnd = std::max(ownEnd, at);
                shift += tpNs;
            }
        }
        // Activations go to the next virtual stage, gradients back to the previous one.
        const int virtualStage = pass.chunk * par.pipelineStages + stage.stage;
        const bool sends = pass.backward ? virtualStage > 0 : virtualStage < par.pipelineStages * v - 1;
        if (sends && par.pipelineStages > 1)
            b.comm(b.ppStream(), "pp", CollectiveKind::send_recv, plan.p2p, plan.p2pBytes, roundNs(pass.endNs),
                   std::string(pass.backward ? "send gradients mb " : "send activations mb ") + std::to_string(pass.microBatch));
        if (zero.forwardFetches > 0) {
            // ZeRO-3 gathers the pass's weights module by module as it runs (the pass's
            // duration waits for them: zero_pass_comm). In lock-step this rank reaches the
            // first gather when done with its previous pass, and the group's slowest rank
            // at the slot's end.
            const int fetches = pass.backward ? zero.backwardFetches : zero.forwardFetches;
            const double bytes = zero.gatherBytes * fetches / zero.forwardFetches;
            const CollectiveCost ag = withBandwidthFactor(pass.backward ? zero.backwardGather : zero.forwardGather, sync.linkFactor);
            const std::int64_t waitNs = sync.lockStep && prevOwnEnd >= 0 ? std::max<std::int64_t>(0, prevSlotEnd - prevOwnEnd) : 0;
            dpFree = b.comm(b.dpStream(), "dp", CollectiveKind::all_gather, ag, bytes, std::max(roundNs(pass.startNs) - waitNs, dpFree),
                            "ZeRO-3 gather weights (" + std::to_string(fetches) + " modules)", -1, waitNs);
        }
        if (!zero.reduceBuckets.empty() && pass.backward && &pass != finalBackward) {
            // ZeRO-2/3: this micro-batch's gradients are reduce-scattered as its backward
            // pass makes them (the last backward pass's are the buckets below), ready as
            // the pass's own compute makes them (under ZeRO-3 the pass's slot also holds
            // the gathers and these reductions).
            const std::int64_t passStart = roundNs(pass.startNs), passEnd = ownEnd;
            const auto buckets = static_cast<std::int64_t>(zero.reduceBuckets.size());
            for (std::int64_t k = 0; k < buckets; ++k) {
                const ZeroPassComm::Bucket& bucket = zero.reduceBuckets[static_cast<std::size_t>(k)];
                const std::int64_t ready = par.comm.overlap ? passStart + (passEnd - passStart) * (k + 1) / buckets : passEnd;
                dpFree = b.comm(b.dpStream(), "dp", CollectiveKind::reduce_scatter, withBandwidthFactor(bucket.cost, sync.linkFactor), bucket.bytes,
                                std::max(ready, dpFree), "DP reduce_scatter mb " + std::to_string(pass.microBatch) + " bucket " + std::to_string(k));
            }
        }
        prevOwnEnd = ownEnd;
        prevSlotEnd = roundNs(pass.endNs);
        if (pass.backward && (!lastBackward || pass.endNs > lastBackward->endNs)) {
            lastBackward = &pass;
            lastBackwardOwnEnd = ownEnd;
        }
        b.out().pipelineEndNs = std::max(b.out().pipelineEndNs, roundNs(pass.endNs));
    }

    // Data-parallel gradient buckets, ready in turn as the last backward pass produces
    // the gradients (Megatron-LM / DDP bucketing).
    std::int64_t dpEnd = b.out().pipelineEndNs;
    if (par.dataParallel > 1 && lastBackward) {
        const CommunicationSettings& comm = par.comm;
        const double gradBytes = lastPassGradientBytes(stage, setup);
        const double bucket = std::max(comm.bucketMb * 1e6, 1.0);
        // This rank reaches bucket k when it has it; the transfer starts when the whole
        // group has (sync): the difference is the collective's wait.
        const std::vector<std::int64_t> own = dpBucketReady(stage, passes, setup, sync.lockStep || zero.forwardFetches > 0 ? lastBackwardOwnEnd : -1);
        const std::vector<std::int64_t> ready = sync.bucketReady.empty() ? own : sync.bucketReady;
        const int buckets = static_cast<int>(ready.size());
        const CollectiveKind kind = par.zeroStage >= 1 ? CollectiveKind::reduce_scatter : CollectiveKind::all_reduce;
        const bool sharesLink = setup.dpGroup().nodes <= 1 && par.tensorParallel > 1;
        std::int64_t free = dpFree;
        b.setAlgorithm("dp", kind, plan.dpAlgorithm);
        for (int k = 0; k < buckets; ++k) {
            const double raw = std::min(bucket, gradBytes - bucket * k);
            const double sent = raw / comm.compression;
            const std::size_t K = static_cast<std::size_t>(k);
            std::int64_t at = std::max(free, K < own.size() ? std::min(own[K], ready[K]) : ready[K]);
            std::int64_t groupAt = std::max(free, ready[K]);  // the group's last rank reaches it
            if (comm.compression > 1 && plan.hbmBandwidth > 0) {
                // Compressing reads the bucket and writes the smaller copy: an
                // elementwise kernel at HBM bandwidth (estimate), on the comm stream's side.
                const std::int64_t dur = roundNs((raw + sent) / plan.hbmBandwidth * 1e9);
                SimTask t;
                t.dur_ns = dur;
                t.stream = b.dpStream();
                t.name = "gradient compression";
                t.op_type = "GradientCompression";
                t.category = OpCategory::elementwise;
                t.phase = Phase::communication;
                t.bytes = raw + sent;
                b.task(t, at);
                at += dur;
                groupAt += dur;  // every rank compresses its bucket first
            }
            const CollectiveCost cost =
                withBandwidthFactor(collectiveCost(kind, plan.dpAlgorithm, sent, setup.dpGroup(), setup.cluster), sync.linkFactor);
            std::int64_t dur = roundNs(cost.timeNs);
            if (sharesLink) dur += sharedTime(tpBusy, std::max(at, groupAt), std::max(at, groupAt) + dur) / 2;
            free = b.comm(b.dpStream(), "dp", kind, cost, sent, at, "DP " + std::string(collectiveKindName(kind)) + " bucket " + std::to_string(k), dur,
                          std::max<std::int64_t>(0, groupAt - at));
        }
        dpEnd = std::max(dpEnd, free);
    }

    // The optimizer steps once every gradient is reduced; with ZeRO each rank updates its
    // 1/dp shard, then ZeRO-1/2 all-gather the updated weights.
    const double optScale = par.zeroStage >= 1 && par.dataParallel > 1 ? 1.0 / par.dataParallel : 1.0;
    std::int64_t end = dpEnd;
    for (const SimTask& t : stage.optimizer.tasks) {
        SimTask scaled = t;
        scaled.dur_ns = roundNs(t.dur_ns * optScale);
        const std::int64_t start = dpEnd + roundNs(t.start_ns * optScale);
        b.task(scaled, start);
        end = std::max(end, start + scaled.dur_ns);
        RankTimeline& out = b.out();
        out.optimizerStartNs = out.optimizerStartNs < 0 ? start : std::min(out.optimizerStartNs, start);
        out.optimizerEndNs = std::max(out.optimizerEndNs, start + scaled.dur_ns);
    }
    if ((par.zeroStage == 1 || par.zeroStage == 2) && par.dataParallel > 1) {
        const double bytes = stage.trainableParams * setup.weightBytes;
        const CollectiveCost ag = withBandwidthFactor(
                collectiveCost(CollectiveKind::all_gather, plan.dpAlgorithm, bytes, setup.dpGroup(), setup.cluster), sync.linkFactor);
        // Every rank starts its shard's update at dpEnd (the buckets are the group's); the
        // gather moves data when the slowest shard is done.
        const std::int64_t groupEnd = dpEnd + roundNs(static_cast<double>(end - dpEnd) * sync.optimizerSlowdown);
        end = b.comm(b.dpStream(), "dp", CollectiveKind::all_gather, ag, bytes, end, "ZeRO gather updated weights", -1,
                     std::max<std::int64_t>(0, groupEnd - end));
    }
    if (par.zeroStage >= 1 && par.dataParallel > 1) b.setAlgorithm("dp", CollectiveKind::all_gather, plan.dpAlgorithm);
    b.out().endNs = end;
    return b.finish();
}

}  // namespace npu::engine
