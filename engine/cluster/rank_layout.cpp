#include "engine/cluster/rank_layout.h"

#include "base/parallel_for.h"

#include "engine/cluster/zero_pass_comm.h"

#include "engine/cluster/step_result.h"

#include <algorithm>
#include <cstdio>
#include <tuple>

namespace npu::engine {

namespace {

std::int64_t scaled(std::int64_t v, double f) { return static_cast<std::int64_t>(std::llround(static_cast<double>(v) * f)); }

// The stage's segments on a slow device: the forward and backward passes advance at the
// TP group's pace (its slowest rank: every block ends with a collective that waits for
// it) while this rank's own kernels take `own` times as long: a faster rank runs each
// block's kernels back to back from the block's start, reaches the block's collective
// early and waits in it (groupArrival, read by engine/cluster/rank_timeline); the
// optimizer (no TP collective) runs at its own pace. The run keeps only its streams,
// which is all layOutRank reads of it.
StageProfile slowedStage(const StageProfile& st, double pace, double own) {
    StageProfile out;
    out.stage = st.stage;
    out.layers = st.layers;
    out.first = st.first;
    out.last = st.last;
    out.trainableParams = st.trainableParams;
    if (!st.run.devices.empty()) {
        out.run.devices.emplace_back();
        out.run.devices.back().streams = st.run.devices.front().streams;
    }
    own = std::min(own, pace);
    for (auto [from, to, f] : {std::tuple{&st.forward, &out.forward, pace}, {&st.backward, &out.backward, pace}, {&st.optimizer, &out.optimizer, own}}) {
        *to = *from;
        to->durNs = scaled(from->durNs, f);
        to->groupArrival.clear();
        auto point = from->collectiveAfter.begin();
        std::int64_t blockStart = from->tasks.empty() ? 0 : from->tasks.front().start_ns;
        for (std::size_t i = 0; i < from->tasks.size(); ++i) {
            const SimTask& orig = from->tasks[i];
            SimTask& t = to->tasks[i];
            t.start_ns = scaled(blockStart, f) + scaled(orig.start_ns - blockStart, own);
            t.dur_ns = scaled(orig.dur_ns, own);
            if (point != from->collectiveAfter.end() && *point == i) {
                ++point;
                to->groupArrival.push_back(scaled(orig.start_ns + orig.dur_ns, f));
                if (i + 1 < from->tasks.size()) blockStart = from->tasks[i + 1].start_ns;
            }
        }
    }
    return out;
}

CommPlan slowedPlan(const CommPlan& plan, double tpLink, double p2pLink) {
    CommPlan out = plan;
    for (auto& [kind, cost] : out.tpPoint) cost = withBandwidthFactor(cost, tpLink);
    out.p2p = withBandwidthFactor(plan.p2p, p2pLink);
    return out;
}

std::string ms(double ns) {
    char b[32];
    std::snprintf(b, sizeof b, "%.3f ms", ns / 1e6);
    return b;
}

Expected<ClusterLayout> symmetric(const std::map<int, StageProfile>& profiles, const ClusterSetup& setup, const CommPlan& plan,
                                  const PipelineSetup& pipe, bool everyRank, bool materialise) {
    const ParallelConfig& par = setup.parallel;
    auto timeline = simulatePipeline(pipe);
    if (!timeline) return timeline.error();
    ClusterLayout out;
    out.bubbleFraction = timeline->bubbleFraction();
    const int inStage = par.dataParallel * par.tensorParallel;
    // The stages' timelines are independent: laid out on every core when their tasks are
    // (a 175B model's stage holds ~70k of them). The figures alone take microseconds, and
    // the strategy search already runs one simulation per core.
    std::vector<RankTimeline> stageTimelines(static_cast<std::size_t>(par.pipelineStages));
    parallelFor(stageTimelines.size(), materialise ? 0 : 1, [&](std::size_t i) {
        const int s = static_cast<int>(i);
        stageTimelines[i] = layOutRank(profiles.at(representativeStage(s, par.pipelineStages)), timeline->stages[i], setup, plan,
                                       materialise && (everyRank || s < kMaxStoredRanks), {}, s);
    });
    for (int s = 0; s < par.pipelineStages; ++s) {
        LaidOutRanks g;
        g.stage = s;
        g.timeline = std::move(stageTimelines[static_cast<std::size_t>(s)]);
        for (int c = 0; c < (everyRank ? inStage : 1); ++c) g.ranks.push_back(setup.rankOf(s, c / par.tensorParallel, c % par.tensorParallel));
        g.represents = everyRank ? 1 : inStage;
        out.iterationNs = std::max(out.iterationNs, g.timeline.endNs);
        out.groups.push_back(std::move(g));
    }
    return out;
}

}  // namespace

Expected<ClusterLayout> layOutCluster(const std::map<int, StageProfile>& profiles, const ClusterSetup& setup, const CommPlan& plan,
                                      const PipelineSetup& pipe, bool everyRank, bool materialise) {
    const ClusterSpec& cl = setup.cluster;
    if (cl.slowCompute.empty() && cl.slowLink.empty()) return symmetric(profiles, setup, plan, pipe, everyRank, materialise);
    const ParallelConfig& par = setup.parallel;
    const int P = par.pipelineStages, D = par.dataParallel, T = par.tensorParallel;
    auto factor = [](const std::map<int, double>& m, int rank) {
        auto it = m.find(rank);
        return it == m.end() ? 1.0 : it->second;
    };
    // Per stage and replica: the TP group's pace (its slowest device) and slowest link.
    std::vector<std::vector<double>> compute(static_cast<std::size_t>(P), std::vector<double>(static_cast<std::size_t>(D), 1.0));
    std::vector<std::vector<double>> tpLink = compute;
    std::vector<double> p2pLink(static_cast<std::size_t>(D), 1.0);  // a replica's sends: its slowest link (estimate)
    std::vector<bool> slowedReplica(static_cast<std::size_t>(D), false);
    for (int s = 0; s < P; ++s)
        for (int d = 0; d < D; ++d)
            for (int t = 0; t < T; ++t) {
                const int r = setup.rankOf(s, d, t);
                const auto S = static_cast<std::size_t>(s), Dd = static_cast<std::size_t>(d);
                compute[S][Dd] = std::max(compute[S][Dd], factor(cl.slowCompute, r));
                tpLink[S][Dd] = std::min(tpLink[S][Dd], factor(cl.slowLink, r));
                p2pLink[Dd] = std::min(p2pLink[Dd], factor(cl.slowLink, r));
                if (cl.slowCompute.count(r) || cl.slowLink.count(r)) slowedReplica[Dd] = true;
            }
    // Each replica's own pipeline; replicas without a what-if are identical (simulated once).
    std::map<std::tuple<int, double, double>, StageProfile> stages;  // (representative, pace, own) -> slowed profile
    auto stageOf = [&](int s, int d, double own = -1) -> const StageProfile& {
        const int rep = representativeStage(s, P);
        const double pace = compute[static_cast<std::size_t>(s)][static_cast<std::size_t>(d)];
        if (own < 0) own = pace;
        auto it = stages.find({rep, pace, own});
        if (it == stages.end()) it = stages.emplace(std::tuple{rep, pace, own}, slowedStage(profiles.at(rep), pace, own)).first;
        return it->second;
    };
    const int plain = static_cast<int>(std::find(slowedReplica.begin(), slowedReplica.end(), false) - slowedReplica.begin());
    std::vector<int> replicas;  // the distinct ones: each slowed replica, and the first plain one
    for (int d = 0; d < D; ++d)
        if (slowedReplica[static_cast<std::size_t>(d)] || d == plain) replicas.push_back(d);
    std::map<int, PipelineTimeline> timelines;
    std::map<int, std::vector<CommPlan>> plans;
    std::map<int, PipelineSetup> setups;
    ClusterLayout out;
    for (int d : replicas) {
        PipelineSetup& pd = setups.emplace(d, pipe).first->second;
        for (int s = 0; s < P; ++s) {
            const StageProfile& st = stageOf(s, d);
            plans[d].push_back(slowedPlan(plan, tpLink[static_cast<std::size_t>(s)][static_cast<std::size_t>(d)], p2pLink[static_cast<std::size_t>(d)]));
            const PassDurations ns = stagePassNs(st, setup, plans[d].back());
            pd.forwardNs[static_cast<std::size_t>(s)] = ns.forwardNs;
            pd.backwardNs[static_cast<std::size_t>(s)] = ns.backwardNs;
        }
        pd.p2pNs = plans[d].front().p2p.timeNs;
    }
    // ZeRO-3 gathers a pass's weights from the whole data-parallel group before the pass:
    // no replica runs ahead of the slowest, every replica's passes take the slowest's time.
    const bool lockStep = par.zeroStage == 3 && D > 1;
    if (lockStep) {
        PipelineSetup slowest = setups.begin()->second;
        for (const auto& [d, pd] : setups) {
            for (std::size_t s = 0; s < slowest.forwardNs.size(); ++s) {
                slowest.forwardNs[s] = std::max(slowest.forwardNs[s], pd.forwardNs[s]);
                slowest.backwardNs[s] = std::max(slowest.backwardNs[s], pd.backwardNs[s]);
            }
            slowest.p2pNs = std::max(slowest.p2pNs, pd.p2pNs);
        }
        for (auto& [d, pd] : setups) pd = slowest;
        out.notes.push_back("ZeRO-3: each pass's parameter all-gather waits for the data-parallel group's slowest rank, so the replicas run "
                            "their passes in lock-step; a rank done early with a pass waits in the next pass's gather");
    }
    for (const auto& [d, pd] : setups) {
        auto tl = simulatePipeline(pd);
        if (!tl) return tl.error();
        out.bubbleFraction = std::max(out.bubbleFraction, tl->bubbleFraction());
        timelines.emplace(d, std::move(*tl));
    }
    for (int s = 0; s < P; ++s) {
        // The data-parallel group's buckets: each starts when its slowest rank has it.
        DpSync sync;
        sync.lockStep = lockStep;
        std::map<int, std::vector<std::int64_t>> own;
        for (int d : replicas) {
            own[d] = dpBucketReady(stageOf(s, d), timelines.at(d).stages[static_cast<std::size_t>(s)], setup);
            if (sync.bucketReady.empty()) sync.bucketReady = own[d];
            for (std::size_t k = 0; k < sync.bucketReady.size() && k < own[d].size(); ++k)
                sync.bucketReady[k] = std::max(sync.bucketReady[k], own[d][k]);
        }
        for (int d : replicas) {
            if (D > 1 && !own[d].empty() && own[d].back() < sync.bucketReady.back())
                out.notes.push_back("stage " + std::to_string(s) + ", replica " + std::to_string(d) + " (rank " + std::to_string(setup.rankOf(s, d, 0)) +
                                    (d == plain ? " and every replica without a what-if" : "") + ") waits " +
                                    ms(double(sync.bucketReady.back() - own[d].back())) + " for its data-parallel group's last gradient bucket");
            // TP ranks of a replica differ in their own device speed, in their DP group's
            // slowest link and, with ZeRO-1/2, its slowest device (whose optimizer shard
            // the gather of the updated weights waits for).
            std::map<std::tuple<double, double, double>, std::vector<int>> byKind;  // (own compute factor, DP link, DP slowest) -> ranks
            for (int t = 0; t < T; ++t) {
                double link = 1, slowest = 1;
                for (int e = 0; e < D; ++e) {
                    link = std::min(link, factor(cl.slowLink, setup.rankOf(s, e, t)));
                    if (par.zeroStage == 1 || par.zeroStage == 2) slowest = std::max(slowest, factor(cl.slowCompute, setup.rankOf(s, e, t)));
                }
                for (int e = 0; e < D; ++e)
                    if (e == d || (d == plain && !slowedReplica[static_cast<std::size_t>(e)]))
                        byKind[{factor(cl.slowCompute, setup.rankOf(s, e, t)), link, slowest}].push_back(setup.rankOf(s, e, t));
            }
            for (auto& [kind, ranks] : byKind) {
                const auto [ownFactor, link, slowest] = kind;
                sync.linkFactor = link;
                sync.optimizerSlowdown = slowest / ownFactor;
                std::sort(ranks.begin(), ranks.end());
                LaidOutRanks g;
                g.stage = s;
                g.timeline = layOutRank(stageOf(s, d, ownFactor), timelines.at(d).stages[static_cast<std::size_t>(s)], setup,
                                        plans.at(d)[static_cast<std::size_t>(s)], materialise && (everyRank || out.groups.size() < std::size_t(kMaxStoredRanks)), sync, s);
                g.represents = everyRank ? 1 : static_cast<int>(ranks.size());
                g.ranks = everyRank ? ranks : std::vector<int>{ranks.front()};
                if (const auto ag = g.timeline.collectives.find("dp all_gather"); ag != g.timeline.collectives.end() && ag->second.wait_ms >= 1e-3)
                    out.notes.push_back("stage " + std::to_string(s) + ", rank " + std::to_string(ranks.front()) +
                                        (ranks.size() > 1 ? " (and " + std::to_string(ranks.size() - 1) + " ranks like it)" : "") + " waits " +
                                        ms(ag->second.wait_ms * 1e6) + " in ZeRO's parameter all-gathers for its data-parallel group's slowest rank");
                out.iterationNs = std::max(out.iterationNs, g.timeline.endNs);
                out.groups.push_back(std::move(g));
            }
        }
    }
    for (const auto& [rank, f] : cl.slowCompute)
        out.notes.push_back("what-if: rank " + std::to_string(rank) + " computes at " + std::to_string(f).substr(0, 4) + "x the time" +
                            (T > 1 ? "; the ranks tensor-parallel with it reach every TP collective first and wait in it for it (the collectives' wait time)" : ""));
    for (const auto& [rank, f] : cl.slowLink)
        out.notes.push_back("what-if: rank " + std::to_string(rank) + "'s links at " + std::to_string(f).substr(0, 4) +
                            "x bandwidth: its TP group's collectives, its replica's pipeline sends and its DP group's buckets run at that pace");
    std::sort(out.groups.begin(), out.groups.end(), [](const LaidOutRanks& a, const LaidOutRanks& b) { return a.ranks.front() < b.ranks.front(); });
    return out;
}

}  // namespace npu::engine
