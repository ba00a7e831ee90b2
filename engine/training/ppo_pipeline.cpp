#include "engine/training/ppo_pipeline.h"

#include "engine/cluster/stage_profile.h"
#include "engine/parallel/pipeline_schedule.h"
#include "engine/training/ppo_graph.h"
#include "engine/training/ppo_passes.h"

#include <algorithm>
#include <cmath>

namespace npu::engine {

int inferenceMicroBatches(std::int64_t batch, std::int64_t tokens) {
    if (batch * tokens < kMegatronInferencePipelineThreshold) return 1;
    const std::int64_t size = std::max<std::int64_t>(1, kMegatronInferencePipelineThreshold / std::max<std::int64_t>(tokens, 1));
    return static_cast<int>((batch + size - 1) / size);
}

namespace {

// The collectives at one tensor-parallel point, `count` times over.
struct TpPoint {
    std::vector<std::pair<CollectiveKind, CollectiveCost>> calls;
    double bytes = 0;
    int count = 1;
    double timeNs() const {
        double t = 0;
        for (const auto& [kind, cost] : calls) t += cost.timeNs * count;
        return t;
    }
};

// One stage's rank over the step: its single-device run cut into pieces, placed where the
// pipeline puts them.
class StageLane {
public:
    StageLane(const SimulationResult& run, int stage) : m_stage(stage), m_run(splitPpoRun(run.devices.front())), m_summary(&run.summary) {
        m_rt.device = run.devices.front();
        m_rt.device.tasks.clear();
        const int next = static_cast<int>(m_rt.device.streams.size());
        m_tp = next, m_pp = next + 1, m_dp = next + 2;
        m_rt.device.streams.push_back({m_tp, "TP collectives", StreamKind::comm});
        m_rt.device.streams.push_back({m_pp, "PP send/recv", StreamKind::comm});
        m_rt.device.streams.push_back({m_dp, "DP gradients", StreamKind::comm});
        m_placed.assign(m_run.pieces.size(), {-1, -1});
    }

    int stage() const { return m_stage; }
    int tpStream() const { return m_tp; }
    int ppStream() const { return m_pp; }
    int dpStream() const { return m_dp; }
    const PpoPieces& run() const { return m_run; }
    double trainable(const std::string& model) const {
        const auto it = m_summary->params_by_model.find(model);
        return it == m_summary->params_by_model.end() ? 0.0 : static_cast<double>(it->second.trainable);
    }

    const PpoPiece* piece(const std::string& key) const {
        for (const PpoPiece& p : m_run.pieces)
            if (p.key() == key) return &p;
        return nullptr;
    }
    std::vector<SimTask> tasksOf(const PpoPiece& p) const {
        std::vector<SimTask> out;
        for (std::size_t i : p.tasks) out.push_back(m_run.tasks[i]);
        return out;
    }

    // One micro-batch's share of piece p: its kernels take `scale` of their time, the time
    // the device idles in the piece stays (in eager mode the host issues the same ops for
    // every micro-batch): its length.
    std::int64_t shareNs(const PpoPiece& p, double scale) const {
        std::int64_t busy = 0, covered = 0;  // the union of the tasks' intervals (tasks in start order)
        for (std::size_t i : p.tasks) {
            const SimTask& t = m_run.tasks[i];
            const std::int64_t from = std::max(t.start_ns - p.startNs, covered), to = t.start_ns - p.startNs + t.dur_ns;
            if (to > from) busy += to - from;
            covered = std::max(covered, to);
        }
        return std::max(p.durNs - roundNs(static_cast<double>(busy) * (1 - scale)), roundNs(static_cast<double>(busy) * scale));
    }

    // Places piece p's share from `start`, the TP point's collectives after each task in
    // `points`; returns its end.
    std::int64_t place(const PpoPiece& p, double scale, std::int64_t start, const std::vector<std::size_t>& points, const TpPoint& tp) {
        std::int64_t extra = 0, busy = 0, covered = 0;  // the union of the tasks so far (tasks in start order)
        auto point = points.begin();
        for (std::size_t k = 0; k < p.tasks.size(); ++k) {
            SimTask t = m_run.tasks[p.tasks[k]];
            const std::int64_t offset = t.start_ns - p.startNs, busyBefore = busy - std::max<std::int64_t>(0, covered - offset);
            busy += std::max<std::int64_t>(0, offset + t.dur_ns - std::max(offset, covered));
            covered = std::max(covered, offset + t.dur_ns);
            t.start_ns = start + offset - roundNs(static_cast<double>(busyBefore) * (1 - scale)) + extra;
            t.dur_ns = roundNs(static_cast<double>(t.dur_ns) * scale);
            m_work[p.phase] += t.dur_ns;
            m_rt.compute.push_back({t.start_ns, t.start_ns + t.dur_ns});
            std::int64_t at = t.start_ns + t.dur_ns;
            const std::string name = t.name;
            m_rt.device.tasks.push_back(std::move(t));
            if (point != points.end() && *point == k) {
                ++point;
                for (const auto& [kind, cost] : tp.calls)
                    at = comm(m_tp, "tp", kind, cost, tp.bytes, at, "TP " + std::string(collectiveKindName(kind)) + (tp.count > 1 ? " x" + std::to_string(tp.count) : "") + " " + name, tp.count);
                extra += roundNs(tp.timeNs());
                m_work[p.phase] += roundNs(tp.timeNs());
            }
        }
        const std::int64_t end = start + shareNs(p, scale) + extra;
        auto& span = m_placed[static_cast<std::size_t>(&p - m_run.pieces.data())];
        span.first = span.first < 0 ? start : std::min(span.first, start);
        span.second = std::max(span.second, end);
        return end;
    }

    std::int64_t comm(int stream, const std::string& group, CollectiveKind kind, const CollectiveCost& cost, double bytes, std::int64_t start,
                      const std::string& name, int count = 1) {
        const std::int64_t dur = roundNs(cost.timeNs * count);
        m_rt.comm.push_back({start, start + dur});
        auto& c = m_rt.collectives[group + " " + std::string(collectiveKindName(kind))];
        c.kind = collectiveKindName(kind);
        c.group = group;
        c.link = cost.link;
        c.count += count;
        c.bytes += bytes * count;
        c.time_ms += dur / 1e6;
        c.transit_ms += dur / 1e6;
        c.bus_GBps += cost.busBytes * count;  // summed bus bytes until finish()
        SimTask t;
        t.start_ns = start;
        t.dur_ns = dur;
        t.stream = stream;
        t.name = name;
        t.op_type = std::string(collectiveKindName(kind));
        t.category = OpCategory::comm;
        t.phase = Phase::communication;
        t.bytes = bytes * count;
        m_rt.device.tasks.push_back(std::move(t));
        return start + dur;
    }

    // Time the stage's own pieces (host-bound gaps included) and its waits take in a
    // phase: the rest of the phase is its pipeline bubble.
    void occupy(int phase, std::int64_t t) { m_busy[phase] += t; }
    std::int64_t busy(int phase) const { return m_busy[phase]; }
    // Its task time plus the communication it waits on (as time_by_phase_ms counts).
    void work(int phase, std::int64_t t) { m_work[phase] += t; }
    std::int64_t work(int phase) const { return m_work[phase]; }

    // Memory and host activity follow the pieces they happened in (linearly inside one).
    RankTimeline finish(CollectiveAlgorithm dpAlgorithm, std::int64_t end) {
        auto map = [&](std::int64_t t) {
            const auto& ps = m_run.pieces;
            auto it = std::upper_bound(ps.begin(), ps.end(), t, [](std::int64_t v, const PpoPiece& p) { return v < p.startNs; });
            if (it == ps.begin()) return t;
            const std::size_t k = static_cast<std::size_t>(it - ps.begin()) - 1;
            const auto [from, to] = m_placed[k];
            if (from < 0) return t;
            const double f = ps[k].durNs > 0 ? std::min(1.0, static_cast<double>(t - ps[k].startNs) / static_cast<double>(ps[k].durNs)) : 0.0;
            return from + roundNs(f * static_cast<double>(to - from));
        };
        DeviceResult& d = m_rt.device;
        for (MemoryEvent& e : d.memory) e.t_ns = map(e.t_ns);
        for (AllocatorSample& s : d.allocator_samples) s.t_ns = map(s.t_ns);
        for (PlacedBlock& b : d.memory_blocks) {
            b.alloc_ns = map(b.alloc_ns);
            if (b.free_ns >= 0) b.free_ns = map(b.free_ns);
        }
        for (SegmentSpan& s : d.memory_segments) {
            s.alloc_ns = map(s.alloc_ns);
            if (s.free_ns >= 0) s.free_ns = map(s.free_ns);
        }
        for (HostSlice& h : d.host) {
            // Its end in the piece it ran in (an end on a piece's boundary is not the next one's start).
            const std::int64_t end = h.dur_ns > 0 ? map(h.start_ns + h.dur_ns - 1) + 1 : map(h.start_ns);
            h.start_ns = map(h.start_ns);
            h.dur_ns = std::max<std::int64_t>(0, end - h.start_ns);
            if (h.kernel_start_ns >= 0) h.kernel_start_ns = map(h.kernel_start_ns);
        }
        d.loader.clear();
        for (auto& [key, c] : m_rt.collectives) {
            const double seconds = c.transit_ms / 1e3;
            c.achieved_GBps = seconds > 0 ? c.bytes / seconds / 1e9 : 0;
            c.bus_GBps = seconds > 0 ? c.bus_GBps / seconds / 1e9 : 0;
            c.algorithm = c.group == "dp" ? std::string(collectiveAlgorithmName(dpAlgorithm)) : c.group == "pp" ? "direct" : "ring";
        }
        std::stable_sort(d.tasks.begin(), d.tasks.end(), [](const SimTask& a, const SimTask& b) {
            return a.stream != b.stream ? a.stream < b.stream : a.start_ns < b.start_ns;
        });
        m_rt.endNs = end;
        for (const SimTask& t : d.tasks)
            if (t.category != OpCategory::comm) m_rt.pipelineEndNs = std::max(m_rt.pipelineEndNs, t.start_ns + t.dur_ns);
        return std::move(m_rt);
    }

private:
    int m_stage;
    PpoPieces m_run;
    const SimSummary* m_summary;
    RankTimeline m_rt;
    int m_tp = 0, m_pp = 0, m_dp = 0;
    std::vector<std::pair<std::int64_t, std::int64_t>> m_placed;  // per piece: first start, last end
    std::int64_t m_busy[3] = {0, 0, 0};
    std::int64_t m_work[3] = {0, 0, 0};
};

}  // namespace

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
