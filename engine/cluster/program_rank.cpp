#include "engine/cluster/program_rank.h"

#include "engine/cluster/run_pieces.h"
#include "engine/cluster/stage_profile.h"
#include "engine/cluster/timeline_shifts.h"
#include "engine/result/device_time_map.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace npu::engine {

namespace {

// A collective the layout adds to the rank.
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

using PassKey = std::pair<int, std::string>;  // (step phase, task model)

class RankInsertion {
public:
    RankInsertion(const SimulationResult& run, const ClusterSetup& setup, const StepProgram& program)
        : m_run(run), m_setup(setup), m_par(setup.parallel), m_program(program) {
        const DeviceResult& dev = run.devices.front();
        m_tasks = dev.tasks;
        std::stable_sort(m_tasks.begin(), m_tasks.end(), [](const SimTask& a, const SimTask& b) { return a.start_ns < b.start_ns; });
        // The passes: each model's tasks of a step phase (the optimizer apart), in program order.
        for (std::size_t i = 0; i < m_tasks.size(); ++i) {
            const SimTask& t = m_tasks[i];
            if (t.phase == Phase::optimizer) {
                m_optimizerOf[program.weightsOf(t.model)].push_back(i);
                continue;
            }
            const PassKey key{static_cast<int>(t.step_phase), t.model};
            if (!m_passes.count(key)) m_passOrder.push_back(key);
            m_passes[key].push_back(i);
            if (program.runs(t.step_phase, PhaseKind::train) && (t.phase == Phase::backward || t.phase == Phase::recompute)) m_backwardOf[t.model].push_back(i);
        }
        m_out.rank.device = dev;
        m_tpStream = static_cast<int>(dev.streams.size()), m_dpStream = m_tpStream + 1;
        m_out.rank.device.streams.push_back({m_tpStream, "TP collectives", StreamKind::comm});
        m_out.rank.device.streams.push_back({m_dpStream, "DP gradients", StreamKind::comm});
    }

    void addTensorParallel();
    void addZero3Gathers();
    void addDataParallel();
    ProgramRankTimeline finish();

private:
    void blocking(int phase, std::int64_t at, const std::string& group, CollectiveKind kind, const CollectiveCost& cost, double bytes, int count,
                  const std::string& name) {
        Comm c{m_shifts.add(at, roundNs(cost.timeNs * count)), -1, -1, roundNs(cost.timeNs * count), m_tpStream, group, name, kind, cost, bytes, count};
        m_blocked[phase] += c.dur;
        m_comms.push_back(std::move(c));
    }
    std::int64_t endOf(std::size_t i) { return m_shifts.map(m_tasks[i].start_ns) + m_tasks[i].dur_ns; }
    ModelParams paramsOf(const std::string& model) const {
        const auto it = m_run.summary.params_by_model.find(m_program.weightsOf(model));
        return it == m_run.summary.params_by_model.end() ? ModelParams{} : it->second;
    }
    void stepModel(const std::string& model, std::int64_t& dpFree);

    const SimulationResult& m_run;
    const ClusterSetup& m_setup;
    const ParallelConfig& m_par;
    const StepProgram& m_program;
    std::vector<SimTask> m_tasks;
    std::vector<PassKey> m_passOrder;
    std::map<PassKey, std::vector<std::size_t>> m_passes;
    std::map<std::string, std::vector<std::size_t>> m_optimizerOf, m_backwardOf;
    int m_tpStream = 0, m_dpStream = 0;
    TimelineShifts m_shifts;
    std::vector<Comm> m_comms;
    std::map<int, std::int64_t> m_blocked;             // by step phase: waits on communication inserted into it
    std::map<std::size_t, std::int64_t> m_optimizerDur;  // ZeRO >= 1: each rank updates 1/dp
    ProgramRankTimeline m_out;
};

void RankInsertion::addTensorParallel() {
    if (m_par.tensorParallel <= 1) return;
    const double act = m_setup.activationBytes, hidden = static_cast<double>(m_program.hidden);
    const double passBytes = static_cast<double>(m_program.batch * m_program.sequenceTokens) * hidden * act;
    const auto point = tensorParallelPointCollectives(m_setup, passBytes);
    for (const PassKey& key : m_passOrder) {
        const std::vector<std::size_t>& idx = m_passes.at(key);
        const StepProgramPhase* phase = m_program.phaseOf(static_cast<StepPhase>(key.first), key.second);
        if (phase && phase->collectives.tensorParallel == TensorParallelSync::every_token) {
            // generate(): after every token (the prefill: the prompt's), the layers'
            // 2 all-reduces and the embedding's, of that token's hidden states.
            for (std::size_t i : idx) {
                const bool prefill = isDecodePrefill(m_tasks[i]);
                if (!prefill && !isDecodeStep(m_tasks[i])) continue;
                const double bytes = static_cast<double>(m_program.batch * (prefill ? m_program.promptTokens : 1)) * hidden * act;
                const int count = static_cast<int>(2 * m_program.layers + 1);
                blocking(key.first, m_tasks[i].start_ns + m_tasks[i].dur_ns, "tp", CollectiveKind::all_reduce,
                         collectiveCost(CollectiveKind::all_reduce, CollectiveAlgorithm::ring, bytes, m_setup.tpGroup(), m_setup.cluster), bytes * count,
                         count, "TP all_reduce x" + std::to_string(count) + " " + m_tasks[i].name);
            }
            continue;
        }
        std::vector<SimTask> pass;
        for (std::size_t i : idx) pass.push_back(m_tasks[i]);
        for (std::size_t p : tensorParallelPoints(pass, true))
            for (const auto& [kind, cost] : point)
                blocking(key.first, pass[p].start_ns + pass[p].dur_ns, "tp", kind, cost, passBytes, 1, "TP " + std::string(collectiveKindName(kind)) + " " + key.second);
    }
}

void RankInsertion::addZero3Gathers() {
    if (m_par.zeroStage != 3 || m_par.dataParallel <= 1) return;
    for (const PassKey& key : m_passOrder) {
        // ZeRO-3: the pass's model gathered before it (prefetched from its start).
        const StepProgramPhase* phase = m_program.phaseOf(static_cast<StepPhase>(key.first), key.second);
        if (phase && !phase->collectives.zeroGathers) continue;
        const std::vector<std::size_t>& idx = m_passes.at(key);
        const ModelParams p = paramsOf(key.second);
        const double bytes = static_cast<double>(p.trainable + p.frozen) * m_setup.weightBytes;
        if (bytes <= 0) continue;
        const CollectiveCost cost = collectiveCost(CollectiveKind::all_gather, m_par.comm.gradientAllreduce, bytes, m_setup.dpGroup(), m_setup.cluster);
        const std::int64_t first = m_tasks[idx.front()].start_ns;
        std::int64_t end = 0;
        std::size_t last = idx.front();
        for (std::size_t i : idx)
            if (endOf(i) >= end) end = endOf(i), last = i;
        const std::int64_t wait = m_shifts.map(first) + roundNs(cost.timeNs) - end;
        if (wait > 0) {
            m_shifts.add(m_tasks[last].start_ns + m_tasks[last].dur_ns, wait);
            m_blocked[key.first] += wait;
        }
        m_comms.push_back({-1, first, -1, roundNs(cost.timeNs), m_dpStream, "dp", "ZeRO-3 gather " + key.second + " weights", CollectiveKind::all_gather, cost, bytes, 1});
    }
}

void RankInsertion::addDataParallel() {
    if (m_par.dataParallel <= 1) return;
    std::int64_t dpFree = 0;
    for (const StepProgramPhase& phase : m_program.phases)
        if (phase.collectives.gradients) stepModel(phase.model, dpFree);
}

// A trained model's gradient buckets during its backward pass, its optimizer waiting for
// the last; ZeRO >= 1's 1/dp update, ZeRO-1/2's gather of the updated weights.
void RankInsertion::stepModel(const std::string& model, std::int64_t& dpFree) {
    const int dp = m_par.dataParallel;
    const CollectiveKind kind = m_par.zeroStage >= 1 ? CollectiveKind::reduce_scatter : CollectiveKind::all_reduce;
    const auto bwd = m_backwardOf.find(model);
    if (bwd == m_backwardOf.end() || bwd->second.empty()) return;
    const std::vector<std::size_t>& b = bwd->second;
    const std::int64_t from = m_shifts.map(m_tasks[b.front()].start_ns);
    std::int64_t to = from;
    for (std::size_t i : b) to = std::max(to, endOf(i));
    const double grad = static_cast<double>(paramsOf(model).trainable) * m_setup.gradientBytes;
    const double bucket = std::max(m_par.comm.bucketMb * 1e6, 1.0);
    const int buckets = std::max(1, static_cast<int>(std::ceil(grad / bucket)));
    for (int k = 0; k < buckets && grad > 0; ++k) {
        const double bytes = std::min(bucket, grad - bucket * k) / m_par.comm.compression;
        const std::int64_t ready = m_par.comm.overlap ? from + (to - from) * (k + 1) / buckets : to;
        const CollectiveCost cost = collectiveCost(kind, m_par.comm.gradientAllreduce, bytes, m_setup.dpGroup(), m_setup.cluster);
        const std::int64_t at = std::max(dpFree, ready);
        m_comms.push_back({-1, -1, at, roundNs(cost.timeNs), m_dpStream, "dp", "DP " + std::string(collectiveKindName(kind)) + " " + model + " bucket " + std::to_string(k), kind, cost, bytes, 1});
        dpFree = at + roundNs(cost.timeNs);
    }
    const auto opt = m_optimizerOf.find(model);
    if (opt == m_optimizerOf.end()) return;
    const int trainPhase = static_cast<int>(m_tasks[b.front()].step_phase);
    const std::int64_t optStart = m_tasks[opt->second.front()].start_ns;
    if (const std::int64_t wait = dpFree - m_shifts.map(optStart); wait > 0) {
        m_shifts.add(optStart, wait);
        m_blocked[trainPhase] += wait;
    }
    std::int64_t optEnd = 0;
    for (std::size_t i : opt->second) {
        const std::int64_t own = m_par.zeroStage >= 1 ? m_tasks[i].dur_ns / dp : m_tasks[i].dur_ns;
        if (own != m_tasks[i].dur_ns) {
            m_optimizerDur[i] = own;
            m_shifts.add(m_tasks[i].start_ns + m_tasks[i].dur_ns, own - m_tasks[i].dur_ns);
        }
        optEnd = std::max(optEnd, m_shifts.map(m_tasks[i].start_ns) + own);
    }
    if (m_par.zeroStage == 1 || m_par.zeroStage == 2) {
        const double bytes = static_cast<double>(paramsOf(model).trainable) * m_setup.weightBytes;
        const CollectiveCost cost = collectiveCost(CollectiveKind::all_gather, m_par.comm.gradientAllreduce, bytes, m_setup.dpGroup(), m_setup.cluster);
        const std::int64_t at = std::max(dpFree, optEnd);
        m_comms.push_back({-1, -1, at, roundNs(cost.timeNs), m_dpStream, "dp", std::string("ZeRO gather updated ") + model + " weights", CollectiveKind::all_gather, cost, bytes, 1});
        dpFree = at + roundNs(cost.timeNs);
    }
}

// The rank's own work, shifted; then the communication.
ProgramRankTimeline RankInsertion::finish() {
    RankTimeline& rt = m_out.rank;
    std::map<int, bool> commStream;
    for (const SimStream& s : rt.device.streams) commStream[s.id] = s.kind == StreamKind::comm;
    std::int64_t end = 0;
    std::int64_t phaseStart[3] = {0, -1, -1};  // first task of each step phase after the first
    std::map<int, std::int64_t> busy;
    for (std::size_t i = 0; i < m_tasks.size(); ++i) {
        SimTask& t = m_tasks[i];
        const int phase = static_cast<int>(t.step_phase);
        t.start_ns = m_shifts.map(t.start_ns);
        if (const auto it = m_optimizerDur.find(i); it != m_optimizerDur.end()) t.dur_ns = it->second;
        addBusy(commStream[t.stream] ? rt.comm : rt.compute, t.start_ns, t.start_ns + t.dur_ns);
        end = std::max(end, t.start_ns + t.dur_ns);
        busy[phase] += t.dur_ns;
        if (phase > 0 && phase < 3 && phaseStart[phase] < 0) phaseStart[phase] = t.start_ns;
    }
    rt.device.tasks = std::move(m_tasks);
    for (Comm& c : m_comms) {
        const std::int64_t start = c.insertion >= 0 ? m_shifts.startOf(c.insertion) : c.anchor >= 0 ? m_shifts.map(c.anchor) : c.start;
        rt.comm.push_back({start, start + c.dur});
        end = std::max(end, start + c.dur);
        auto& s = rt.collectives[c.group + " " + std::string(collectiveKindName(c.kind))];
        s.kind = collectiveKindName(c.kind);
        s.group = c.group;
        s.link = c.cost.link;
        s.algorithm = c.group == "dp" ? std::string(collectiveAlgorithmName(m_par.comm.gradientAllreduce)) : "ring";
        s.count += c.count;
        s.bytes += c.bytes;
        s.time_ms += c.dur / 1e6;
        s.bus_GBps += c.cost.busBytes * c.count;  // summed bus bytes until divided below
        rt.device.tasks.push_back(collectiveTask(start, c.dur, c.stream, c.name, c.kind, c.bytes));
    }
    for (auto& [key, s] : rt.collectives) setCollectiveRates(s, s.time_ms / 1e3);
    std::stable_sort(rt.device.tasks.begin(), rt.device.tasks.end(), [](const SimTask& a, const SimTask& b) {
        return a.stream != b.stream ? a.stream < b.stream : a.start_ns < b.start_ns;
    });
    // Memory and host activity follow their tasks.
    remapMemoryTimes(rt.device, [&](std::int64_t t) { return m_shifts.map(t); });
    for (HostSlice& h : rt.device.host) {
        h.start_ns = m_shifts.map(h.start_ns);
        if (h.kernel_start_ns >= 0) h.kernel_start_ns = m_shifts.map(h.kernel_start_ns);
    }
    rt.device.loader.clear();
    rt.endNs = end;
    for (int p = 1; p < 3; ++p)
        if (phaseStart[p] < 0) phaseStart[p] = end;
    for (int p = 0; p < 3; ++p) {
        m_out.phaseMs[kStepPhaseNames[p]] = static_cast<double>(busy[p] + m_blocked[p]) / 1e6;
        // A step phase's wall time: from its first task to the next phase's (the last: to the end).
        m_out.phaseWallMs[kStepPhaseNames[p]] = ((p < 2 ? phaseStart[p + 1] : end) - phaseStart[p]) / 1e6;
    }
    return std::move(m_out);
}

}  // namespace

ProgramRankTimeline layOutProgramRank(const SimulationResult& run, const ClusterSetup& setup, const StepProgram& program) {
    if (run.devices.empty()) return {};
    RankInsertion insertion(run, setup, program);
    insertion.addTensorParallel();
    insertion.addZero3Gathers();
    insertion.addDataParallel();
    return insertion.finish();
}

}  // namespace npu::engine
