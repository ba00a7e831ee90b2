#include "engine/cluster/program_pipeline.h"

#include "engine/cluster/stage_lane.h"
#include "engine/cluster/stage_profile.h"
#include "engine/parallel/pipeline_schedule.h"

#include <algorithm>
#include <cmath>

namespace npu::engine {

int inferenceMicroBatches(std::int64_t batch, std::int64_t tokens) {
    if (batch * tokens < kMegatronInferencePipelineThreshold) return 1;
    const std::int64_t size = std::max<std::int64_t>(1, kMegatronInferencePipelineThreshold / std::max<std::int64_t>(tokens, 1));
    return static_cast<int>((batch + size - 1) / size);
}

namespace {


// The layout under way: the stage lanes and the time T the next phase starts at.
class PipelineLayout {
public:
    PipelineLayout(const ClusterSetup& setup, const StepProgram& program)
        : m_setup(setup), m_par(setup.parallel), m_program(program), m_P(setup.parallel.pipelineStages),
          m_layersPerStage(program.layers / setup.parallel.pipelineStages) {}

    Expected<void> addLanes(const std::vector<const SimulationResult*>& runs) {
        if (static_cast<int>(runs.size()) != m_P) return makeError("pipeline: one simulated run per stage expected");
        for (int s = 0; s < m_P; ++s) {
            if (runs[static_cast<std::size_t>(s)]->devices.empty()) return makeError("pipeline stage " + std::to_string(s) + ": the run has no device");
            m_lanes.emplace_back(*runs[static_cast<std::size_t>(s)], s, m_program);
        }
        return {};
    }

    Expected<void> run(const StepProgramPhase& phase) {
        const std::int64_t from = m_T;
        Expected<void> done = phase.kind == PhaseKind::decode ? decode(phase) : phase.kind == PhaseKind::forward_only ? forwardOnly(phase) : train(phase);
        m_wallNs[static_cast<std::size_t>(phase.phase)] += m_T - from;
        return done;
    }

    ProgramPipelineLayout finish() {
        m_out.iterationNs = m_T;
        for (int p = 0; p < 3; ++p) m_out.phaseWallMs[kStepPhaseNames[p]] = static_cast<double>(m_wallNs[static_cast<std::size_t>(p)]) / 1e6;
        double idle = 0;
        for (int p = 0; p < 3; ++p) {
            const auto phase = static_cast<StepPhase>(p);
            const double wall = m_out.phaseWallMs[kStepPhaseNames[p]] * 1e6;
            for (const StageLane& lane : m_lanes) idle += std::max(0.0, wall - static_cast<double>(lane.busy(phase))) / m_P;
            const double bubble = std::max(0.0, wall - static_cast<double>(m_lanes.front().busy(phase)));
            m_out.bubbleMs[kStepPhaseNames[p]] = bubble / 1e6;
            m_out.phaseMs[kStepPhaseNames[p]] = (static_cast<double>(m_lanes.front().work(phase)) + bubble) / 1e6;
        }
        m_out.bubbleFraction = m_T > 0 ? std::max(0.0, idle / static_cast<double>(m_T)) : 0;
        for (int s = 0; s < m_P; ++s)
            m_out.stages.push_back(m_lanes[static_cast<std::size_t>(s)].finish(m_par.comm.gradientAllreduce, m_laneEnd.empty() ? m_T : m_laneEnd[static_cast<std::size_t>(s)]));
        m_out.notes = notes();
        return std::move(m_out);
    }

private:
    Expected<const RunPiece*> pieceOf(StageLane& lane, const std::string& key) {
        const RunPiece* p = lane.piece(key);
        if (!p) return makeError("pipeline stage " + std::to_string(lane.stage()) + ": its run has no " + key + " (internal error)");
        return p;
    }
    // Megatron-LM's scatter/gather optimisation: each TP rank sends its 1/tp of the activations.
    CollectiveCost hop(double bytes) const {
        return collectiveCost(CollectiveKind::send_recv, CollectiveAlgorithm::ring, bytes / m_par.tensorParallel, m_setup.ppPair(), m_setup.cluster);
    }
    double tokensBytes(double sequences, std::int64_t tokens) const {
        return sequences * static_cast<double>(tokens) * static_cast<double>(m_program.hidden) * m_setup.activationBytes;
    }

    // Piece `forwardKey` (and `backwardKey` unless forward-only) of every stage through
    // the schedule from T; returns the schedule (pass times from T). decoding: a decode
    // unit, whose tensor-parallel collectives follow the stage's step.
    Expected<PipelineTimeline> pipelined(const std::string& forwardKey, const std::string& backwardKey, PipelineSetup pipe, double mbBytes,
                                         StepPhase phase, bool decoding) {
        const int m = pipe.microBatches, tp = m_par.tensorParallel;
        std::vector<const RunPiece*> fwd, bwd;
        std::vector<std::vector<std::size_t>> fwdPoints, bwdPoints;
        std::vector<TpPoint> fwdTp;
        for (StageLane& lane : m_lanes) {
            auto f = pieceOf(lane, forwardKey);
            if (!f) return f.error();
            fwd.push_back(*f);
            if (decoding) {
                // Every layer's 2 all-reduces of the new tokens' hidden states (and the
                // embedding's on the first stage) after the stage's step.
                fwdTp.push_back(TpPoint{tensorParallelPointCollectives(m_setup, mbBytes), mbBytes,
                                        static_cast<int>(2 * m_layersPerStage + (lane.stage() == 0 ? 1 : 0))});
                if (m_par.sequenceParallel && tp > 1)  // decode runs no sequence-parallel region
                    fwdTp.back().calls = {{CollectiveKind::all_reduce, collectiveCost(CollectiveKind::all_reduce, CollectiveAlgorithm::ring, mbBytes, m_setup.tpGroup(), m_setup.cluster)}};
                fwdPoints.push_back(tp > 1 && !(*f)->tasks.empty() ? std::vector<std::size_t>{(*f)->tasks.size() - 1} : std::vector<std::size_t>{});
            } else {
                fwdTp.push_back(TpPoint{tensorParallelPointCollectives(m_setup, mbBytes), mbBytes, 1});
                fwdPoints.push_back(tp > 1 ? tensorParallelPoints(lane.tasksOf(**f), lane.stage() == 0) : std::vector<std::size_t>{});
            }
            pipe.forwardNs.push_back(static_cast<double>(lane.shareNs(**f, 1.0 / m)) + fwdTp.back().timeNs() * static_cast<double>(fwdPoints.back().size()));
            if (pipe.forwardOnly) continue;
            auto b = pieceOf(lane, backwardKey);
            if (!b) return b.error();
            bwd.push_back(*b);
            bwdPoints.push_back(tp > 1 ? tensorParallelPoints(lane.tasksOf(**b), lane.stage() == m_P - 1) : std::vector<std::size_t>{});
            pipe.backwardNs.push_back(static_cast<double>(lane.shareNs(**b, 1.0 / m)) + fwdTp.back().timeNs() * static_cast<double>(bwdPoints.back().size()));
        }
        pipe.stages = m_P;
        const CollectiveCost p2p = hop(mbBytes);
        pipe.p2pNs = p2p.timeNs;
        auto tl = simulatePipeline(pipe);
        if (!tl) return tl.error();
        for (int s = 0; s < m_P; ++s) {
            StageLane& lane = m_lanes[static_cast<std::size_t>(s)];
            const auto S = static_cast<std::size_t>(s);
            for (const PipelinePass& pass : tl->stages[S]) {
                const std::int64_t start = m_T + roundNs(pass.startNs);
                if (pass.backward) lane.place(*bwd[S], 1.0 / m, start, bwdPoints[S], fwdTp[S]);
                else lane.place(*fwd[S], 1.0 / m, start, fwdPoints[S], fwdTp[S]);
                lane.occupy(phase, roundNs(pass.endNs - pass.startNs));
                if (pass.backward ? s > 0 : s < m_P - 1)
                    lane.comm(lane.ppStream(), "pp", CollectiveKind::send_recv, p2p, mbBytes / tp, m_T + roundNs(pass.endNs),
                              std::string(pass.backward ? "send gradients mb " : "send activations mb ") + std::to_string(pass.microBatch));
            }
        }
        return tl;
    }

    // The prefill, then one unit per decode step, each through every stage; the last stage
    // samples the next token and sends it back to the first.
    Expected<void> decode(const StepProgramPhase& phase) {
        int units = 0;
        for (const RunPiece& p : m_lanes.front().run().pieces) units += p.kind == PieceKind::decode_unit;
        const double tokenIdBytes = 8;  // int64 token ids
        const GroupPlacement lastToFirst = placeGroup(m_setup.cluster, 2, (m_P - 1) * m_par.dataParallel * m_par.tensorParallel);
        const std::int64_t batch = m_program.batch;
        for (int u = 0; u < units; ++u) {
            const std::int64_t tokens = u == 0 ? m_program.promptTokens : 1;
            PipelineSetup pipe;
            pipe.forwardOnly = true;
            pipe.microBatches = phase.microBatching == MicroBatching::inference_threshold ? inferenceMicroBatches(batch, tokens) : m_par.microBatches;
            (u == 0 ? m_out.prefillMicroBatches : m_out.decodeMicroBatches) = pipe.microBatches;
            const double mbBytes = tokensBytes(static_cast<double>(batch) / pipe.microBatches, tokens);
            auto tl = pipelined(decodeUnitKey(u), "", pipe, mbBytes, phase.phase, true);
            if (!tl) return tl.error();
            const double bytes = static_cast<double>(batch) * tokenIdBytes;
            const CollectiveCost back = collectiveCost(CollectiveKind::send_recv, CollectiveAlgorithm::ring, bytes, lastToFirst, m_setup.cluster);
            m_lanes.back().comm(m_lanes.back().ppStream(), "pp", CollectiveKind::send_recv, back, bytes, m_T + roundNs(tl->iterationNs), "send sampled tokens to stage 0");
            if (u == 1 || (units == 1 && u == 0)) m_out.decodeStepNs = tl->iterationNs + back.timeNs;
            m_T += roundNs(tl->iterationNs + back.timeNs);
        }
        return {};
    }

    double microBatchBytes() const { return tokensBytes(static_cast<double>(m_program.batch) / m_par.microBatches, m_program.sequenceTokens); }

    Expected<void> forwardOnly(const StepProgramPhase& phase) {
        PipelineSetup pipe;
        pipe.forwardOnly = true;
        pipe.microBatches = m_par.microBatches;
        auto tl = pipelined(pieceKey(phase.phase, phase.model, PieceKind::forward), "", pipe, microBatchBytes(), phase.phase, false);
        if (!tl) return tl.error();
        m_T += roundNs(tl->iterationNs);
        return {};
    }

    // Forward and backward under the project's schedule; then each stage's data-parallel
    // gradient reduction and optimizer step. The next phase starts when every stage has
    // stepped (estimate: a stage could start its first pass of the next model earlier).
    Expected<void> train(const StepProgramPhase& phase) {
        PipelineSetup pipe;
        pipe.microBatches = m_par.microBatches;
        pipe.schedule = m_par.schedule;
        auto tl = pipelined(pieceKey(phase.phase, phase.model, PieceKind::forward), pieceKey(phase.phase, phase.model, PieceKind::backward), pipe,
                            microBatchBytes(), phase.phase, false);
        if (!tl) return tl.error();
        m_laneEnd.resize(static_cast<std::size_t>(m_P), m_T);
        std::int64_t end = m_T;
        for (int s = 0; s < m_P; ++s) {
            auto at = stepStage(m_lanes[static_cast<std::size_t>(s)], phase, tl->stages[static_cast<std::size_t>(s)]);
            if (!at) return at.error();
            m_laneEnd[static_cast<std::size_t>(s)] = *at;
            end = std::max(end, *at);
        }
        m_T = end;
        return {};
    }

    // One stage after its last backward pass of `phase`: gradient buckets (ready in turn
    // during that pass with overlap, or at its end), the optimizer step, ZeRO-1/2's gather
    // of the updated weights. Returns when the stage is done.
    Expected<std::int64_t> stepStage(StageLane& lane, const StepProgramPhase& phase, const std::vector<PipelinePass>& passes) {
        const int dp = m_par.dataParallel;
        const std::string& model = phase.model;
        const PipelinePass* last = nullptr;
        for (const PipelinePass& pass : passes)
            if (pass.backward && (!last || pass.endNs > last->endNs)) last = &pass;
        const std::int64_t pipelineEnd = m_T + (last ? roundNs(last->endNs) : 0);
        std::int64_t at = pipelineEnd;
        if (dp > 1 && last && phase.collectives.gradients) {
            const double grad = lane.trainable(model) * m_setup.gradientBytes;
            const double bucket = std::max(m_par.comm.bucketMb * 1e6, 1.0);
            const int buckets = std::max(1, static_cast<int>(std::ceil(grad / bucket)));
            const CollectiveKind kind = m_par.zeroStage >= 1 ? CollectiveKind::reduce_scatter : CollectiveKind::all_reduce;
            std::int64_t free = 0;
            for (int k = 0; k < buckets && grad > 0; ++k) {
                const double bytes = std::min(bucket, grad - bucket * k) / m_par.comm.compression;
                const std::int64_t ready = m_par.comm.overlap ? m_T + roundNs(last->startNs + (last->endNs - last->startNs) * (k + 1) / buckets) : pipelineEnd;
                const CollectiveCost cost = collectiveCost(kind, m_par.comm.gradientAllreduce, bytes, m_setup.dpGroup(), m_setup.cluster);
                free = lane.comm(lane.dpStream(), "dp", kind, cost, bytes, std::max(free, ready),
                                 "DP " + std::string(collectiveKindName(kind)) + " " + model + " bucket " + std::to_string(k));
            }
            at = std::max(at, free);
            lane.work(phase.phase, at - pipelineEnd);
        }
        auto opt = pieceOf(lane, pieceKey(phase.phase, m_program.weightsOf(model), PieceKind::optimizer));
        if (!opt) return opt.error();
        // ZeRO >= 1: each rank updates its 1/dp of the states, then ZeRO-1/2 gather the weights.
        at = lane.place(**opt, m_par.zeroStage >= 1 && dp > 1 ? 1.0 / dp : 1.0, at, {}, TpPoint{});
        if ((m_par.zeroStage == 1 || m_par.zeroStage == 2) && dp > 1) {
            const double bytes = lane.trainable(model) * m_setup.weightBytes;
            const std::int64_t from = at;
            at = lane.comm(lane.dpStream(), "dp", CollectiveKind::all_gather,
                           collectiveCost(CollectiveKind::all_gather, m_par.comm.gradientAllreduce, bytes, m_setup.dpGroup(), m_setup.cluster), bytes, at,
                           std::string("ZeRO gather updated ") + model + " weights");
            lane.work(phase.phase, at - from);
        }
        lane.occupy(phase.phase, at - pipelineEnd);
        return at;
    }

    std::vector<std::string> notes() const {
        const StepProgramPhase* forwardOnly = nullptr;  // the last of each kind names its step phase
        const StepProgramPhase* train = nullptr;
        std::string trained;
        for (const StepProgramPhase& p : m_program.phases) {
            if (p.kind == PhaseKind::forward_only) forwardOnly = &p;
            if (p.kind != PhaseKind::train) continue;
            trained += (train ? " then " : "") + p.model;
            train = &p;
        }
        std::vector<std::string> out;
        if (!m_program.decodingModel().empty())
            out.push_back("pipeline stages (NeMo-Aligner on Megatron-LM): every decode step goes through the " + std::to_string(m_P) +
                          " stages in turn and the sampled tokens go back to the first stage; the prefill in " + std::to_string(m_out.prefillMicroBatches) +
                          " and each decode step in " + std::to_string(m_out.decodeMicroBatches) +
                          " micro-batch(es) (Megatron's inference pipelining threshold, batch x tokens >= " +
                          std::to_string(kMegatronInferencePipelineThreshold) + ")");
        std::string passes;
        if (forwardOnly)
            passes += std::string(stepPhaseName(forwardOnly->phase)) + ": each frozen model's forward pipelined forward-only in " +
                      std::to_string(m_par.microBatches) + " micro-batches; ";
        if (train)
            passes += std::string(stepPhaseName(train->phase)) + ": " + trained + " under the " + std::string(pipelineScheduleName(m_par.schedule)) +
                      " schedule; ";
        out.push_back(passes + "each model's pipeline starts when the previous one has drained (estimate)");
        out.push_back("a micro-batch's pass: the stage's kernels over the rollout at 1/micro_batches of their time (not re-simulated at the "
                      "micro-batch size), its idle time between them (eager mode's host issuing every op) as it is");
        return out;
    }

    const ClusterSetup& m_setup;
    const ParallelConfig& m_par;
    const StepProgram& m_program;
    const int m_P;
    const std::int64_t m_layersPerStage;
    std::vector<StageLane> m_lanes;
    std::int64_t m_T = 0;
    std::int64_t m_wallNs[3] = {0, 0, 0};  // by step phase
    std::vector<std::int64_t> m_laneEnd;   // per stage: where its last optimizer step ended
    ProgramPipelineLayout m_out;
};

}  // namespace

Expected<ProgramPipelineLayout> layOutProgramPipeline(const std::vector<const SimulationResult*>& runs, const ClusterSetup& setup,
                                                      const StepProgram& program) {
    PipelineLayout layout(setup, program);
    if (auto added = layout.addLanes(runs); !added) return added.error();
    for (const StepProgramPhase& phase : program.phases)
        if (auto done = layout.run(phase); !done) return done.error();
    return layout.finish();
}

}  // namespace npu::engine
