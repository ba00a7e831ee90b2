#include "engine/cluster/rank_builder.h"

#include <algorithm>

namespace npu::engine {

RankBuilder::RankBuilder(const StageProfile& stage, bool materialise, bool pipeline) : m_materialise(materialise) {
    if (!stage.run.devices.empty()) m_out.device.streams = stage.run.devices.front().streams;
    if (m_out.device.streams.empty()) m_out.device.streams.push_back({0, "Compute", StreamKind::compute});
    for (const auto& s : m_out.device.streams) markStream(s.id, s.kind == StreamKind::comm);
    const int next = static_cast<int>(m_out.device.streams.size());
    m_tp = addStream(next, "TP collectives");
    m_pp = addStream(next + 1, "PP send");
    m_dp = addStream(next + 2, "DP gradients");
    if (pipeline) m_ppRecv = addStream(next + 3, "PP recv");
}

void RankBuilder::task(const SimTask& t, std::int64_t start, int microBatch) {
    const std::int64_t end = start + t.dur_ns;
    addBusy(isCommStream(t.stream) ? m_out.comm : m_out.compute, start, end);
    if (!m_materialise) return;
    SimTask& copy = m_out.device.tasks.emplace_back(t);
    copy.start_ns = start;
    copy.micro_batch = microBatch;
}

std::int64_t RankBuilder::comm(int stream, const std::string& group, CollectiveKind kind, const CollectiveCost& cost, double bytes,
                               std::int64_t start, const std::string& name, std::int64_t durNs, std::int64_t waitNs) {
    const std::int64_t transit = durNs >= 0 ? durNs : roundNs(cost.timeNs);
    const std::int64_t dur = waitNs + transit;
    addBusy(m_out.comm, start, start + dur);
    CollectiveSummary& c = summaryOf(group, kind);
    c.kind = collectiveKindName(kind);
    c.group = group;
    c.link = cost.link;
    c.count += 1;
    c.bytes += bytes;
    c.time_ms += dur / 1e6;
    c.transit_ms += transit / 1e6;
    c.wait_ms += waitNs / 1e6;
    c.synchronization_ms += waitNs / 1e6;
    c.bus_GBps += cost.busBytes;  // summed bus bytes until finish()
    if (m_materialise) m_out.device.tasks.push_back(collectiveTask(start, dur, stream, name, kind, bytes));
    return start + dur;
}

void RankBuilder::receive(const CollectiveCost& cost, double bytes, std::int64_t waitNs, std::int64_t end, const std::string& name) {
    auto& c = m_out.collectives["pp recv"];
    c.kind = "recv";
    c.group = "pp";
    c.algorithm = "direct";
    c.link = cost.link;
    c.count += 1;
    c.bytes += bytes;
    const std::int64_t transit = roundNs(cost.timeNs);
    c.time_ms += (waitNs + transit) / 1e6;
    c.transit_ms += transit / 1e6;
    c.wait_ms += waitNs / 1e6;
    c.synchronization_ms += waitNs / 1e6;
    c.bus_GBps += cost.busBytes;
    if (!m_materialise || m_ppRecv < 0) return;
    SimTask t;
    t.start_ns = end - waitNs - transit;
    t.dur_ns = waitNs + transit;
    t.stream = m_ppRecv;
    t.name = name;
    t.op_type = "recv";
    t.category = OpCategory::comm;
    t.phase = Phase::communication;
    t.bytes = bytes;
    m_out.device.tasks.push_back(std::move(t));
}

void RankBuilder::setAlgorithm(const std::string& group, CollectiveKind kind, CollectiveAlgorithm a) {
    m_out.collectives[group + " " + std::string(collectiveKindName(kind))].algorithm = collectiveAlgorithmName(a);
}

namespace {

bool startsBefore(const SimTask& a, const SimTask& b) { return a.start_ns < b.start_ns; }

// Stable by stream, then start. Tasks come stream by stream in start order, with the
// streams interleaved: one counting pass by stream moves each task once, where a merge
// sort of the whole list moved each one log n times (the largest share of laying out a
// 175B model's ranks).
void sortByStreamThenStart(std::vector<SimTask>& tasks) {
    int streams = 0;
    for (const SimTask& t : tasks) {
        if (t.stream < 0) {  // not a stream of ours: the general sort
            std::stable_sort(tasks.begin(), tasks.end(), [](const SimTask& a, const SimTask& b) {
                return a.stream != b.stream ? a.stream < b.stream : a.start_ns < b.start_ns;
            });
            return;
        }
        streams = std::max(streams, t.stream + 1);
    }
    std::vector<std::size_t> first(static_cast<std::size_t>(streams) + 1, 0);
    for (const SimTask& t : tasks) ++first[static_cast<std::size_t>(t.stream) + 1];
    for (std::size_t s = 1; s < first.size(); ++s) first[s] += first[s - 1];
    std::vector<std::size_t> place(first.begin(), first.end() - 1);
    std::vector<SimTask> sorted(tasks.size());
    for (SimTask& t : tasks) sorted[place[static_cast<std::size_t>(t.stream)]++] = std::move(t);
    for (std::size_t s = 0; s + 1 < first.size(); ++s) {
        const auto from = sorted.begin() + static_cast<std::ptrdiff_t>(first[s]), to = sorted.begin() + static_cast<std::ptrdiff_t>(first[s + 1]);
        if (!std::is_sorted(from, to, startsBefore)) std::stable_sort(from, to, startsBefore);
    }
    tasks = std::move(sorted);
}

}  // namespace

RankTimeline RankBuilder::finish() {
    for (auto& [key, c] : m_out.collectives) {
        c.wait_ratio = c.wait_ms + c.transit_ms > 0 ? c.wait_ms / (c.wait_ms + c.transit_ms) : 0;
        setCollectiveRates(c, c.transit_ms / 1e3);
        if (c.algorithm.empty()) c.algorithm = c.kind == "send_recv" ? "direct" : "ring";
    }
    sortByStreamThenStart(m_out.device.tasks.edit());
    return std::move(m_out);
}

int RankBuilder::addStream(int id, const char* name) {
    m_out.device.streams.push_back({id, name, StreamKind::comm});
    markStream(id, true);
    return id;
}

CollectiveSummary& RankBuilder::summaryOf(const std::string& group, CollectiveKind kind) {
    for (const auto& [g, k, c] : m_summaries)
        if (k == kind && g == group) return *c;
    CollectiveSummary* c = &m_out.collectives[group + " " + std::string(collectiveKindName(kind))];
    m_summaries.emplace_back(group, kind, c);
    return *c;
}

void RankBuilder::markStream(int id, bool comm) {
    if (id < 0) return;
    if (static_cast<std::size_t>(id) >= m_commStream.size()) m_commStream.resize(static_cast<std::size_t>(id) + 1, 0);
    m_commStream[static_cast<std::size_t>(id)] = comm ? 1 : 0;
}

}  // namespace npu::engine
