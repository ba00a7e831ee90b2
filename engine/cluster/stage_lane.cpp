#include "engine/cluster/stage_lane.h"

#include "engine/result/device_time_map.h"

#include <algorithm>

namespace npu::engine {

double TpPoint::timeNs() const {
    double t = 0;
    for (const auto& [kind, cost] : calls) t += cost.timeNs * count;
    return t;
}

StageLane::StageLane(const SimulationResult& run, int stage, const StepProgram& program)
    : m_stage(stage), m_run(splitRun(run.devices.front(), program)), m_summary(&run.summary) {
    m_rt.device = run.devices.front();
    m_rt.device.tasks.clear();
    const int next = static_cast<int>(m_rt.device.streams.size());
    m_tp = next, m_pp = next + 1, m_dp = next + 2;
    m_rt.device.streams.push_back({m_tp, "TP collectives", StreamKind::comm});
    m_rt.device.streams.push_back({m_pp, "PP send/recv", StreamKind::comm});
    m_rt.device.streams.push_back({m_dp, "DP gradients", StreamKind::comm});
    m_placed.assign(m_run.pieces.size(), {-1, -1});
}

double StageLane::trainable(const std::string& model) const {
    const auto it = m_summary->params_by_model.find(model);
    return it == m_summary->params_by_model.end() ? 0.0 : static_cast<double>(it->second.trainable);
}

const RunPiece* StageLane::piece(const std::string& key) const {
    for (const RunPiece& p : m_run.pieces)
        if (p.key() == key) return &p;
    return nullptr;
}

std::vector<SimTask> StageLane::tasksOf(const RunPiece& p) const {
    std::vector<SimTask> out;
    for (std::size_t i : p.tasks) out.push_back(m_run.tasks[i]);
    return out;
}

std::int64_t StageLane::shareNs(const RunPiece& p, double scale) const {
    std::int64_t busy = 0, covered = 0;  // the union of the tasks' intervals (tasks in start order)
    for (std::size_t i : p.tasks) {
        const SimTask& t = m_run.tasks[i];
        const std::int64_t from = std::max(t.start_ns - p.startNs, covered), to = t.start_ns - p.startNs + t.dur_ns;
        if (to > from) busy += to - from;
        covered = std::max(covered, to);
    }
    return std::max(p.durNs - roundNs(static_cast<double>(busy) * (1 - scale)), roundNs(static_cast<double>(busy) * scale));
}

std::int64_t StageLane::place(const RunPiece& p, double scale, std::int64_t start, const std::vector<std::size_t>& points, const TpPoint& tp) {
    std::int64_t extra = 0, busy = 0, covered = 0;  // the union of the tasks so far (tasks in start order)
    auto point = points.begin();
    const std::size_t phase = index(p.phase);
    for (std::size_t k = 0; k < p.tasks.size(); ++k) {
        SimTask t = m_run.tasks[p.tasks[k]];
        const std::int64_t offset = t.start_ns - p.startNs, busyBefore = busy - std::max<std::int64_t>(0, covered - offset);
        busy += std::max<std::int64_t>(0, offset + t.dur_ns - std::max(offset, covered));
        covered = std::max(covered, offset + t.dur_ns);
        t.start_ns = start + offset - roundNs(static_cast<double>(busyBefore) * (1 - scale)) + extra;
        t.dur_ns = roundNs(static_cast<double>(t.dur_ns) * scale);
        m_work[phase] += t.dur_ns;
        addBusy(m_rt.compute, t.start_ns, t.start_ns + t.dur_ns);
        std::int64_t at = t.start_ns + t.dur_ns;
        const std::string name = t.name;
        m_rt.device.tasks.push_back(std::move(t));
        if (point != points.end() && *point == k) {
            ++point;
            for (const auto& [kind, cost] : tp.calls)
                at = comm(m_tp, "tp", kind, cost, tp.bytes, at, "TP " + std::string(collectiveKindName(kind)) + (tp.count > 1 ? " x" + std::to_string(tp.count) : "") + " " + name, tp.count);
            extra += roundNs(tp.timeNs());
            m_work[phase] += roundNs(tp.timeNs());
        }
    }
    const std::int64_t end = start + shareNs(p, scale) + extra;
    auto& span = m_placed[static_cast<std::size_t>(&p - m_run.pieces.data())];
    span.first = span.first < 0 ? start : std::min(span.first, start);
    span.second = std::max(span.second, end);
    return end;
}

std::int64_t StageLane::comm(int stream, const std::string& group, CollectiveKind kind, const CollectiveCost& cost, double bytes, std::int64_t start,
                             const std::string& name, int count) {
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
    m_rt.device.tasks.push_back(collectiveTask(start, dur, stream, name, kind, bytes * count));
    return start + dur;
}

std::int64_t StageLane::mapTime(std::int64_t t) const {
    const auto& ps = m_run.pieces;
    auto it = std::upper_bound(ps.begin(), ps.end(), t, [](std::int64_t v, const RunPiece& p) { return v < p.startNs; });
    if (it == ps.begin()) return t;
    const std::size_t k = static_cast<std::size_t>(it - ps.begin()) - 1;
    const auto [from, to] = m_placed[k];
    if (from < 0) return t;
    const double f = ps[k].durNs > 0 ? std::min(1.0, static_cast<double>(t - ps[k].startNs) / static_cast<double>(ps[k].durNs)) : 0.0;
    return from + roundNs(f * static_cast<double>(to - from));
}

RankTimeline StageLane::finish(CollectiveAlgorithm dpAlgorithm, std::int64_t end) {
    auto map = [this](std::int64_t t) { return mapTime(t); };
    DeviceResult& d = m_rt.device;
    remapMemoryTimes(d, map);
    for (HostSlice& h : d.host) {
        // Its end in the piece it ran in (an end on a piece's boundary is not the next one's start).
        const std::int64_t hostEnd = h.dur_ns > 0 ? map(h.start_ns + h.dur_ns - 1) + 1 : map(h.start_ns);
        h.start_ns = map(h.start_ns);
        h.dur_ns = std::max<std::int64_t>(0, hostEnd - h.start_ns);
        if (h.kernel_start_ns >= 0) h.kernel_start_ns = map(h.kernel_start_ns);
    }
    d.loader.clear();
    for (auto& [key, c] : m_rt.collectives) {
        setCollectiveRates(c, c.transit_ms / 1e3);
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

}  // namespace npu::engine
