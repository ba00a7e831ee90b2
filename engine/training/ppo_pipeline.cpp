#include "engine/training/ppo_pipeline.h"

#include "engine/cluster/stage_profile.h"
#include "engine/parallel/pipeline_schedule.h"
#include "engine/training/ppo_graph.h"
#include "engine/training/ppo_passes.h"
#include "engine/training/ppo_stage_lane.h"

#include <algorithm>
#include <cmath>

namespace npu::engine {

int inferenceMicroBatches(std::int64_t batch, std::int64_t tokens) {
    if (batch * tokens < kMegatronInferencePipelineThreshold) return 1;
    const std::int64_t size = std::max<std::int64_t>(1, kMegatronInferencePipelineThreshold / std::max<std::int64_t>(tokens, 1));
    return static_cast<int>((batch + size - 1) / size);
}

using ppo_pipeline::StageLane;
using ppo_pipeline::TpPoint;

Expected<PpoPipelineLayout> layOutPpoPipeline(const std::vector<const SimulationResult*>& runs, const ClusterSetup& setup,
                                              const PpoPipelineShape& shape) {
    const ParallelConfig& par = setup.parallel;
    const int P = par.pipelineStages, dp = par.dataParallel, tp = par.tensorParallel;
    if (static_cast<int>(runs.size()) != P) return makeError("pipeline: one simulated run per stage expected");
    std::vector<StageLane> lanes;
    for (int s = 0; s < P; ++s) {
        if (runs[static_cast<std::size_t>(s)]->devices.empty()) return makeError("pipeline stage " + std::to_string(s) + ": the run has no device");
        lanes.emplace_back(*runs[static_cast<std::size_t>(s)], s);
    }
    auto pieceOf = [&](StageLane& lane, const std::string& key) -> Expected<const PpoPiece*> {
        const PpoPiece* p = lane.piece(key);
        if (!p) return makeError("pipeline stage " + std::to_string(lane.stage()) + ": its run has no " + key + " (internal error)");
        return p;
    };
    const double act = setup.activationBytes, hidden = static_cast<double>(shape.hidden);
    const GroupPlacement neighbours = setup.ppPair(), lastToFirst = placeGroup(setup.cluster, 2, (P - 1) * dp * tp);
    // Megatron-LM's scatter/gather optimisation: each TP rank sends its 1/tp of the activations.
    auto hop = [&](double bytes) { return collectiveCost(CollectiveKind::send_recv, CollectiveAlgorithm::ring, bytes / tp, neighbours, setup.cluster); };
    auto passPoint = [&](double bytes) { return TpPoint{tensorParallelPointCollectives(setup, bytes), bytes, 1}; };
    PpoPipelineLayout out;
    std::int64_t T = 0;

    // A pipelined pass: piece `key` of every stage through the schedule from T; returns the
    // schedule (pass times from T).
    auto run = [&](const std::string& forwardKey, const std::string& backwardKey, PipelineSetup pipe, double mbBytes, int phase,
                   bool generation) -> Expected<PipelineTimeline> {
        const int m = pipe.microBatches;
        std::vector<const PpoPiece*> fwd, bwd;
        std::vector<std::vector<std::size_t>> fwdPoints, bwdPoints;
        std::vector<TpPoint> fwdTp;
        for (StageLane& lane : lanes) {
            auto f = pieceOf(lane, forwardKey);
            if (!f) return f.error();
            fwd.push_back(*f);
            if (generation) {
                // Every layer's 2 all-reduces of the new tokens' hidden states (and the
                // embedding's on the first stage) after the stage's step.
                fwdTp.push_back(TpPoint{tensorParallelPointCollectives(setup, mbBytes), mbBytes,
                                        static_cast<int>(2 * shape.layersPerStage + (lane.stage() == 0 ? 1 : 0))});
                if (par.sequenceParallel && tp > 1)  // decode runs no sequence-parallel region
                    fwdTp.back().calls = {{CollectiveKind::all_reduce, collectiveCost(CollectiveKind::all_reduce, CollectiveAlgorithm::ring, mbBytes, setup.tpGroup(), setup.cluster)}};
                fwdPoints.push_back(tp > 1 && !(*f)->tasks.empty() ? std::vector<std::size_t>{(*f)->tasks.size() - 1} : std::vector<std::size_t>{});
            } else {
                fwdTp.push_back(passPoint(mbBytes));
                fwdPoints.push_back(tp > 1 ? tensorParallelPoints(lane.tasksOf(**f), lane.stage() == 0) : std::vector<std::size_t>{});
            }
            pipe.forwardNs.push_back(static_cast<double>(lane.shareNs(**f, 1.0 / m)) + fwdTp.back().timeNs() * static_cast<double>(fwdPoints.back().size()));
            if (pipe.forwardOnly) continue;
            auto b = pieceOf(lane, backwardKey);
            if (!b) return b.error();
            bwd.push_back(*b);
            bwdPoints.push_back(tp > 1 ? tensorParallelPoints(lane.tasksOf(**b), lane.stage() == P - 1) : std::vector<std::size_t>{});
            pipe.backwardNs.push_back(static_cast<double>(lane.shareNs(**b, 1.0 / m)) + fwdTp.back().timeNs() * static_cast<double>(bwdPoints.back().size()));
        }
        pipe.stages = P;
        const CollectiveCost p2p = hop(mbBytes);
        pipe.p2pNs = p2p.timeNs;
        auto tl = simulatePipeline(pipe);
        if (!tl) return tl.error();
        for (int s = 0; s < P; ++s) {
            StageLane& lane = lanes[static_cast<std::size_t>(s)];
            const auto S = static_cast<std::size_t>(s);
            for (const PipelinePass& pass : tl->stages[S]) {
                const std::int64_t start = T + roundNs(pass.startNs);
                if (pass.backward) lane.place(*bwd[S], 1.0 / m, start, bwdPoints[S], fwdTp[S]);
                else lane.place(*fwd[S], 1.0 / m, start, fwdPoints[S], fwdTp[S]);
                lane.occupy(phase, roundNs(pass.endNs - pass.startNs));
                if (pass.backward ? s > 0 : s < P - 1)
                    lane.comm(lane.ppStream(), "pp", CollectiveKind::send_recv, p2p, mbBytes / tp, T + roundNs(pass.endNs),
                              std::string(pass.backward ? "send gradients mb " : "send activations mb ") + std::to_string(pass.microBatch));
            }
        }
        return tl;
    };

    // Generation: the prefill, then one unit per decode step, each through every stage.
    int units = 0;
    for (const PpoPiece& p : lanes.front().run().pieces) units += p.kind == PpoPieceKind::generation_unit;
    const double tokenIdBytes = 8;  // int64 token ids
    for (int u = 0; u < units; ++u) {
        const std::int64_t tokens = u == 0 ? shape.promptTokens : 1;
        PipelineSetup pipe;
        pipe.forwardOnly = true;
        pipe.microBatches = inferenceMicroBatches(shape.batch, tokens);
        (u == 0 ? out.prefillMicroBatches : out.decodeMicroBatches) = pipe.microBatches;
        const double mbBytes = static_cast<double>(shape.batch) / pipe.microBatches * static_cast<double>(tokens) * hidden * act;
        const std::string key = "generation " + std::to_string(u);
        auto tl = run(key, "", pipe, mbBytes, 0, true);
        if (!tl) return tl.error();
        // The last stage samples the next token and sends it back to the first.
        const double bytes = static_cast<double>(shape.batch) * tokenIdBytes;
        const CollectiveCost back = collectiveCost(CollectiveKind::send_recv, CollectiveAlgorithm::ring, bytes, lastToFirst, setup.cluster);
        lanes.back().comm(lanes.back().ppStream(), "pp", CollectiveKind::send_recv, back, bytes, T + roundNs(tl->iterationNs), "send sampled tokens to stage 0");
        if (u == 1 || (units == 1 && u == 0)) out.decodeStepNs = tl->iterationNs + back.timeNs;
        T += roundNs(tl->iterationNs + back.timeNs);
    }
    const std::int64_t generationEnd = T;

    // Scoring: each frozen model's forward over the rollout, pipelined forward-only.
    const int m = par.microBatches;
    const double mbBytes = static_cast<double>(shape.batch) / m * static_cast<double>(shape.sequenceTokens) * hidden * act;
    std::vector<std::string> scoring;
    for (const PpoPiece& p : lanes.front().run().pieces)
        if (p.phase == 1) scoring.push_back(p.key());
    for (const std::string& key : scoring) {
        PipelineSetup pipe;
        pipe.forwardOnly = true;
        pipe.microBatches = m;
        auto tl = run(key, "", pipe, mbBytes, 1, false);
        if (!tl) return tl.error();
        T += roundNs(tl->iterationNs);
    }
    const std::int64_t scoringEnd = T;

    // Training: actor then critic under the project's schedule; then each stage's
    // data-parallel gradient reduction and optimizer step.
    std::vector<std::int64_t> laneEnd(static_cast<std::size_t>(P), T);
    for (const char* model : {"actor", "critic"}) {
        PipelineSetup pipe;
        pipe.microBatches = m;
        pipe.schedule = par.schedule;
        const std::string prefix = std::string("training ") + model;
        auto tl = run(prefix + " forward", prefix + " backward", pipe, mbBytes, 2, false);
        if (!tl) return tl.error();
        std::int64_t end = T;
        for (int s = 0; s < P; ++s) {
            StageLane& lane = lanes[static_cast<std::size_t>(s)];
            const PipelinePass* last = nullptr;
            for (const PipelinePass& pass : tl->stages[static_cast<std::size_t>(s)])
                if (pass.backward && (!last || pass.endNs > last->endNs)) last = &pass;
            const std::int64_t pipelineEnd = T + (last ? roundNs(last->endNs) : 0);
            std::int64_t at = pipelineEnd;
            if (dp > 1 && last) {
                // Gradient buckets, ready in turn during the last backward pass (overlap) or at its end.
                const double grad = lane.trainable(model) * setup.gradientBytes;
                const double bucket = std::max(par.comm.bucketMb * 1e6, 1.0);
                const int buckets = std::max(1, static_cast<int>(std::ceil(grad / bucket)));
                const CollectiveKind kind = par.zeroStage >= 1 ? CollectiveKind::reduce_scatter : CollectiveKind::all_reduce;
                std::int64_t free = 0;
                for (int k = 0; k < buckets && grad > 0; ++k) {
                    const double bytes = std::min(bucket, grad - bucket * k) / par.comm.compression;
                    const std::int64_t ready = par.comm.overlap ? T + roundNs(last->startNs + (last->endNs - last->startNs) * (k + 1) / buckets) : pipelineEnd;
                    const CollectiveCost cost = collectiveCost(kind, par.comm.gradientAllreduce, bytes, setup.dpGroup(), setup.cluster);
                    free = lane.comm(lane.dpStream(), "dp", kind, cost, bytes, std::max(free, ready),
                                     "DP " + std::string(collectiveKindName(kind)) + " " + model + " bucket " + std::to_string(k));
                }
                at = std::max(at, free);
                lane.work(2, at - pipelineEnd);
            }
            auto opt = pieceOf(lane, std::string("training ") + model + " optimizer");
            if (!opt) return opt.error();
            // ZeRO >= 1: each rank updates its 1/dp of the states, then ZeRO-1/2 gather the weights.
            at = lane.place(**opt, par.zeroStage >= 1 && dp > 1 ? 1.0 / dp : 1.0, at, {}, TpPoint{});
            if ((par.zeroStage == 1 || par.zeroStage == 2) && dp > 1) {
                const double bytes = lane.trainable(model) * setup.weightBytes;
                const std::int64_t from = at;
                at = lane.comm(lane.dpStream(), "dp", CollectiveKind::all_gather,
                               collectiveCost(CollectiveKind::all_gather, par.comm.gradientAllreduce, bytes, setup.dpGroup(), setup.cluster), bytes, at,
                               std::string("ZeRO gather updated ") + model + " weights");
                lane.work(2, at - from);
            }
            lane.occupy(2, at - pipelineEnd);
            laneEnd[static_cast<std::size_t>(s)] = at;
            end = std::max(end, at);
        }
        // The critic's pipeline starts when every stage has stepped the actor (estimate:
        // a stage could start its first critic forward earlier).
        T = end;
    }

    out.iterationNs = T;
    out.phaseWallMs = {{kPpoPhases[0], generationEnd / 1e6}, {kPpoPhases[1], (scoringEnd - generationEnd) / 1e6}, {kPpoPhases[2], (T - scoringEnd) / 1e6}};
    double idle = 0;
    for (int phase = 0; phase < 3; ++phase) {
        const double wall = out.phaseWallMs[kPpoPhases[phase]] * 1e6;
        for (const StageLane& lane : lanes) idle += std::max(0.0, wall - static_cast<double>(lane.busy(phase))) / P;
        const double bubble = std::max(0.0, wall - static_cast<double>(lanes.front().busy(phase)));
        out.bubbleMs[kPpoPhases[phase]] = bubble / 1e6;
        out.phaseMs[kPpoPhases[phase]] = (static_cast<double>(lanes.front().work(phase)) + bubble) / 1e6;
    }
    out.bubbleFraction = T > 0 ? std::max(0.0, idle / static_cast<double>(T)) : 0;
    for (int s = 0; s < P; ++s) out.stages.push_back(lanes[static_cast<std::size_t>(s)].finish(par.comm.gradientAllreduce, laneEnd[static_cast<std::size_t>(s)]));
    out.notes = {"pipeline stages (NeMo-Aligner on Megatron-LM): every decode step goes through the " + std::to_string(P) +
                     " stages in turn and the sampled tokens go back to the first stage; the prefill in " + std::to_string(out.prefillMicroBatches) +
                     " and each decode step in " + std::to_string(out.decodeMicroBatches) + " micro-batch(es) (Megatron's inference pipelining threshold, batch x tokens >= " +
                     std::to_string(kMegatronInferencePipelineThreshold) + ")",
                 "scoring: each frozen model's forward pipelined forward-only in " + std::to_string(m) + " micro-batches; training: actor then critic under the " +
                     std::string(pipelineScheduleName(par.schedule)) + " schedule; each model's pipeline starts when the previous one has drained (estimate)",
                 "a micro-batch's pass: the stage's kernels over the rollout at 1/micro_batches of their time (not re-simulated at the micro-batch size), "
                 "its idle time between them (eager mode's host issuing every op) as it is"};
    return out;
}

}  // namespace npu::engine
