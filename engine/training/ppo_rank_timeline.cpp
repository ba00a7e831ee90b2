#include "engine/training/ppo_rank_timeline.h"

#include "engine/cluster/rank_time_split.h"
#include "engine/cluster/stage_profile.h"
#include "engine/result/device_time_map.h"
#include "engine/training/ppo_graph.h"
#include "engine/training/ppo_passes.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace npu::engine {

namespace {

// Waits inserted into the rank's single-device timeline (a blocking collective, a pass
// waiting for its ZeRO-3 gather; negative: optimizer time ZeRO saves): a task starting at
// t moves by every insertion at or before t.
class Shifts {
public:
    int add(std::int64_t at, std::int64_t dur) {
        m_at.push_back(at);
        m_dur.push_back(dur);
        m_sorted.clear();
        return static_cast<int>(m_at.size()) - 1;
    }
    std::int64_t upTo(std::int64_t t) {  // insertions at or before t
        index();
        const auto it = std::upper_bound(m_sorted.begin(), m_sorted.end(), t, [&](std::int64_t v, int i) { return v < m_at[static_cast<std::size_t>(i)]; });
        return m_prefix[static_cast<std::size_t>(it - m_sorted.begin())];
    }
    // Where insertion i itself starts: after the insertions sorted before it.
    std::int64_t startOf(int i) {
        index();
        const auto pos = static_cast<std::size_t>(std::find(m_sorted.begin(), m_sorted.end(), i) - m_sorted.begin());
        return m_at[static_cast<std::size_t>(i)] + m_prefix[pos];
    }
    std::int64_t map(std::int64_t t) { return t + upTo(t); }

private:
    void index() {
        if (m_sorted.size() == m_at.size() && !m_at.empty()) return;
        m_sorted.resize(m_at.size());
        std::iota(m_sorted.begin(), m_sorted.end(), 0);
        std::stable_sort(m_sorted.begin(), m_sorted.end(), [&](int a, int b) { return m_at[static_cast<std::size_t>(a)] < m_at[static_cast<std::size_t>(b)]; });
        m_prefix.assign(m_sorted.size() + 1, 0);
        for (std::size_t k = 0; k < m_sorted.size(); ++k) m_prefix[k + 1] = m_prefix[k] + m_dur[static_cast<std::size_t>(m_sorted[k])];
    }
    std::vector<std::int64_t> m_at, m_dur, m_prefix;
    std::vector<int> m_sorted;
};

struct Comm {
    int insertion = -1;              // blocking: starts where its insertion does
    std::int64_t anchor = -1;        // prefetched: starts at this (unshifted) time of the rank's run
    std::int64_t start = -1;         // else: placed (shifted time)
    std::int64_t dur = 0;
    int stream = 0;
    std::string group, name;
    CollectiveKind kind = CollectiveKind::all_reduce;
    CollectiveCost cost;
    double bytes = 0;
    int count = 1;
};

}  // namespace

PpoRankTimeline layOutPpoRank(const SimulationResult& run, const ClusterSetup& setup, const PpoRankShape& shape) {
    PpoRankTimeline out;
    if (run.devices.empty()) return out;
    const DeviceResult& dev = run.devices.front();
    const ParallelConfig& par = setup.parallel;
    std::vector<SimTask> tasks = dev.tasks;
    std::stable_sort(tasks.begin(), tasks.end(), [](const SimTask& a, const SimTask& b) { return a.start_ns < b.start_ns; });

    // The passes: each model's tasks of a phase (the optimizer apart), in program order.
    std::vector<std::pair<int, std::string>> passOrder;
    std::map<std::pair<int, std::string>, std::vector<std::size_t>> passes;
    std::map<std::string, std::vector<std::size_t>> optimizerOf, backwardOf;
    for (std::size_t i = 0; i < tasks.size(); ++i) {
        const SimTask& t = tasks[i];
        const std::string& model = t.model;
        if (t.phase == Phase::optimizer) {
            optimizerOf[ppoWeightsOwner(model)].push_back(i);
            continue;
        }
        const std::pair<int, std::string> key{static_cast<int>(t.step_phase), model};
        if (!passes.count(key)) passOrder.push_back(key);
        passes[key].push_back(i);
        if (key.first == 2 && (t.phase == Phase::backward || t.phase == Phase::recompute)) backwardOf[model].push_back(i);
    }

    RankTimeline& rt = out.rank;
    rt.device = dev;
    const int tpStream = static_cast<int>(dev.streams.size()), dpStream = tpStream + 1;
    rt.device.streams.push_back({tpStream, "TP collectives", StreamKind::comm});
    rt.device.streams.push_back({dpStream, "DP gradients", StreamKind::comm});
    Shifts shifts;
    std::vector<Comm> comms;
    std::map<int, std::int64_t> blocked;  // by phase: waits on communication inserted into it
    auto blocking = [&](int phase, std::int64_t at, const std::string& group, CollectiveKind kind, const CollectiveCost& cost, double bytes, int count,
                        const std::string& name) {
        Comm c{shifts.add(at, roundNs(cost.timeNs * count)), -1, -1, roundNs(cost.timeNs * count), tpStream, group, name, kind, cost, bytes, count};
        blocked[phase] += c.dur;
        comms.push_back(std::move(c));
    };
    auto endOf = [&](std::size_t i) { return shifts.map(tasks[i].start_ns) + tasks[i].dur_ns; };

    if (par.tensorParallel > 1) {
        const double act = setup.activationBytes, hidden = static_cast<double>(shape.hidden);
        const double passBytes = static_cast<double>(shape.batch * shape.sequenceTokens) * hidden * act;
        const auto point = tensorParallelPointCollectives(setup, passBytes);
        for (const auto& key : passOrder) {
            const std::vector<std::size_t>& idx = passes.at(key);
            if (key.first == 0) {
                // generate(): after every token (the prefill: the prompt's), the layers'
                // 2 all-reduces and the embedding's, of that token's hidden states.
                for (std::size_t i : idx) {
                    const bool prefill = tasks[i].op_type == "DecodePrefill";
                    if (!prefill && tasks[i].op_type != "DecodeStep") continue;
                    const double bytes = static_cast<double>(shape.batch * (prefill ? shape.promptTokens : 1)) * hidden * act;
                    const int count = static_cast<int>(2 * shape.layers + 1);
                    blocking(0, tasks[i].start_ns + tasks[i].dur_ns, "tp", CollectiveKind::all_reduce,
                             collectiveCost(CollectiveKind::all_reduce, CollectiveAlgorithm::ring, bytes, setup.tpGroup(), setup.cluster),
                             bytes * count, count, "TP all_reduce x" + std::to_string(count) + " " + tasks[i].name);
                }
                continue;
            }
            std::vector<SimTask> pass;
            for (std::size_t i : idx) pass.push_back(tasks[i]);
            for (std::size_t p : tensorParallelPoints(pass, true))
                for (const auto& [kind, cost] : point)
                    blocking(key.first, pass[p].start_ns + pass[p].dur_ns, "tp", kind, cost, passBytes, 1, "TP " + std::string(collectiveKindName(kind)) + " " + key.second);
        }
    }

    const int dp = par.dataParallel;
    auto paramsOf = [&](const std::string& model) {
        const auto it = run.summary.params_by_model.find(ppoWeightsOwner(model));
        return it == run.summary.params_by_model.end() ? ModelParams{} : it->second;
    };
    if (par.zeroStage == 3 && dp > 1)
        for (const auto& key : passOrder) {
            // ZeRO-3: the pass's model gathered before it (prefetched from its start).
            const std::vector<std::size_t>& idx = passes.at(key);
            const ModelParams p = paramsOf(key.second);
            const double bytes = static_cast<double>(p.trainable + p.frozen) * setup.weightBytes;
            if (bytes <= 0) continue;
            const CollectiveCost cost = collectiveCost(CollectiveKind::all_gather, par.comm.gradientAllreduce, bytes, setup.dpGroup(), setup.cluster);
            const std::int64_t first = tasks[idx.front()].start_ns;
            std::int64_t end = 0;
            std::size_t last = idx.front();
            for (std::size_t i : idx)
                if (endOf(i) >= end) end = endOf(i), last = i;
            const std::int64_t wait = shifts.map(first) + roundNs(cost.timeNs) - end;
            if (wait > 0) {
                shifts.add(tasks[last].start_ns + tasks[last].dur_ns, wait);
                blocked[key.first] += wait;
            }
            comms.push_back({-1, first, -1, roundNs(cost.timeNs), dpStream, "dp", "ZeRO-3 gather " + key.second + " weights", CollectiveKind::all_gather, cost, bytes, 1});
        }

    std::map<std::size_t, std::int64_t> optimizerDur;  // ZeRO >= 1: each rank updates 1/dp
    if (dp > 1) {
        std::int64_t dpFree = 0;
        const CollectiveKind kind = par.zeroStage >= 1 ? CollectiveKind::reduce_scatter : CollectiveKind::all_reduce;
        for (const char* model : {"actor", "critic"}) {
            const auto bwd = backwardOf.find(model);
            if (bwd == backwardOf.end() || bwd->second.empty()) continue;
            const std::vector<std::size_t>& b = bwd->second;
            const std::int64_t from = shifts.map(tasks[b.front()].start_ns);
            std::int64_t to = from;
            for (std::size_t i : b) to = std::max(to, endOf(i));
            const double grad = static_cast<double>(paramsOf(model).trainable) * setup.gradientBytes;
            const double bucket = std::max(par.comm.bucketMb * 1e6, 1.0);
            const int buckets = std::max(1, static_cast<int>(std::ceil(grad / bucket)));
            for (int k = 0; k < buckets && grad > 0; ++k) {
                const double bytes = std::min(bucket, grad - bucket * k) / par.comm.compression;
                const std::int64_t ready = par.comm.overlap ? from + (to - from) * (k + 1) / buckets : to;
                const CollectiveCost cost = collectiveCost(kind, par.comm.gradientAllreduce, bytes, setup.dpGroup(), setup.cluster);
                const std::int64_t at = std::max(dpFree, ready);
                comms.push_back({-1, -1, at, roundNs(cost.timeNs), dpStream, "dp", "DP " + std::string(collectiveKindName(kind)) + " " + model + " bucket " + std::to_string(k), kind, cost, bytes, 1});
                dpFree = at + roundNs(cost.timeNs);
            }
            const auto opt = optimizerOf.find(model);
            if (opt == optimizerOf.end()) continue;
            const std::int64_t optStart = tasks[opt->second.front()].start_ns;
            if (const std::int64_t wait = dpFree - shifts.map(optStart); wait > 0) {
                shifts.add(optStart, wait);
                blocked[2] += wait;
            }
            std::int64_t optEnd = 0;
            for (std::size_t i : opt->second) {
                const std::int64_t own = par.zeroStage >= 1 ? tasks[i].dur_ns / dp : tasks[i].dur_ns;
                if (own != tasks[i].dur_ns) {
                    optimizerDur[i] = own;
                    shifts.add(tasks[i].start_ns + tasks[i].dur_ns, own - tasks[i].dur_ns);
                }
                optEnd = std::max(optEnd, shifts.map(tasks[i].start_ns) + own);
            }
            if (par.zeroStage == 1 || par.zeroStage == 2) {
                const double bytes = static_cast<double>(paramsOf(model).trainable) * setup.weightBytes;
                const CollectiveCost cost = collectiveCost(CollectiveKind::all_gather, par.comm.gradientAllreduce, bytes, setup.dpGroup(), setup.cluster);
                const std::int64_t at = std::max(dpFree, optEnd);
                comms.push_back({-1, -1, at, roundNs(cost.timeNs), dpStream, "dp", std::string("ZeRO gather updated ") + model + " weights", CollectiveKind::all_gather, cost, bytes, 1});
                dpFree = at + roundNs(cost.timeNs);
            }
        }
    }

    // The rank's own work, shifted; then the communication.
    std::map<int, bool> commStream;
    for (const SimStream& s : rt.device.streams) commStream[s.id] = s.kind == StreamKind::comm;
    std::int64_t end = 0, scoringStart = -1, trainingStart = -1;
    std::map<int, std::int64_t> busy;
    for (std::size_t i = 0; i < tasks.size(); ++i) {
        SimTask& t = tasks[i];
        const int phase = static_cast<int>(t.step_phase);
        t.start_ns = shifts.map(t.start_ns);
        if (const auto it = optimizerDur.find(i); it != optimizerDur.end()) t.dur_ns = it->second;
        (commStream[t.stream] ? rt.comm : rt.compute).push_back({t.start_ns, t.start_ns + t.dur_ns});
        end = std::max(end, t.start_ns + t.dur_ns);
        busy[phase] += t.dur_ns;
        if (phase == 1 && scoringStart < 0) scoringStart = t.start_ns;
        if (phase == 2 && trainingStart < 0) trainingStart = t.start_ns;
    }
    rt.device.tasks = std::move(tasks);
    for (Comm& c : comms) {
        const std::int64_t start = c.insertion >= 0 ? shifts.startOf(c.insertion) : c.anchor >= 0 ? shifts.map(c.anchor) : c.start;
        rt.comm.push_back({start, start + c.dur});
        end = std::max(end, start + c.dur);
        auto& s = rt.collectives[c.group + " " + std::string(collectiveKindName(c.kind))];
        s.kind = collectiveKindName(c.kind);
        s.group = c.group;
        s.link = c.cost.link;
        s.algorithm = c.group == "dp" ? std::string(collectiveAlgorithmName(par.comm.gradientAllreduce)) : "ring";
        s.count += c.count;
        s.bytes += c.bytes;
        s.time_ms += c.dur / 1e6;
        s.bus_GBps += c.cost.busBytes * c.count;  // summed bus bytes until divided below
        SimTask t;
        t.start_ns = start;
        t.dur_ns = c.dur;
        t.stream = c.stream;
        t.name = c.name;
        t.op_type = std::string(collectiveKindName(c.kind));
        t.category = OpCategory::comm;
        t.phase = Phase::communication;
        t.bytes = c.bytes;
        rt.device.tasks.push_back(std::move(t));
    }
    for (auto& [key, s] : rt.collectives) {
        const double seconds = s.time_ms / 1e3;
        s.achieved_GBps = seconds > 0 ? s.bytes / seconds / 1e9 : 0;
        s.bus_GBps = seconds > 0 ? s.bus_GBps / seconds / 1e9 : 0;
    }
    std::stable_sort(rt.device.tasks.begin(), rt.device.tasks.end(), [](const SimTask& a, const SimTask& b) {
        return a.stream != b.stream ? a.stream < b.stream : a.start_ns < b.start_ns;
    });
    // Memory and host activity follow their tasks.
    remapMemoryTimes(rt.device, [&](std::int64_t t) { return shifts.map(t); });
    for (HostSlice& h : rt.device.host) {
        h.start_ns = shifts.map(h.start_ns);
        if (h.kernel_start_ns >= 0) h.kernel_start_ns = shifts.map(h.kernel_start_ns);
    }
    rt.device.loader.clear();
    rt.endNs = end;
    if (scoringStart < 0) scoringStart = end;
    if (trainingStart < 0) trainingStart = end;
    for (int p = 0; p < 3; ++p) out.phaseMs[kPpoPhases[p]] = static_cast<double>(busy[p] + blocked[p]) / 1e6;
    out.phaseWallMs = {{kPpoPhases[0], scoringStart / 1e6}, {kPpoPhases[1], (trainingStart - scoringStart) / 1e6}, {kPpoPhases[2], (end - trainingStart) / 1e6}};
    return out;
}

}  // namespace npu::engine
