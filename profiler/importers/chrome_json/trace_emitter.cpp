// TraceBuilder::emit: the second half of an import, from compact rows to the sink.
#include "profiler/importers/chrome_json/flow_binder.h"
#include "profiler/importers/chrome_json/trace_builder.h"
#include "profiler/importers/chrome_json/track_classifier.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace npu::profiler {

namespace {

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    return s;
}

std::string idText(const TraceEventId& id) {
    if (!id.present) return "0";
    return id.isString ? std::string(id.str) : std::to_string(id.num);
}

}  // namespace

Expected<TraceEmitStats> TraceBuilder::writeTo(TraceSink& sink, const TraceEmitOptions& options, const Progress& progress,
                                       double progressFrom, double progressTo) {
    TraceEmitStats stats;
    std::map<std::pair<int, int>, std::int64_t> devices;
    auto deviceFor = [&](TraceDeviceKind kind, int index) {
        const auto key = std::make_pair(static_cast<int>(kind), kind == TraceDeviceKind::cpu ? 0 : index);
        if (auto it = devices.find(key); it != devices.end()) return it->second;
        const auto id = sink.addDevice(options.devicePrefix + deviceName(kind, index), deviceKindName(kind));
        devices.emplace(key, id);
        ++stats.devices;
        return id;
    };

    std::vector<std::uint32_t> order(m_processes.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        return m_processes[a].sortIndex < m_processes[b].sortIndex;
    });

    std::int64_t totalSlices = 0, written = 0;
    for (const auto& t : m_threads) totalSlices += static_cast<std::int64_t>(t.slices.size());
    const double span = progressTo - progressFrom;

    std::vector<std::int64_t> processTrack(m_processes.size(), -1);
    std::vector<TraceProcessPlacement> placement(m_processes.size());
    std::vector<std::int64_t> processDevice(m_processes.size(), -1);
    auto trackOfProcess = [&](std::uint32_t p) {
        if (processTrack[p] >= 0) return processTrack[p];
        const ImportProcess& info = m_processes[p];
        const auto name = m_strings.view(info.name);
        const auto labels = m_strings.view(info.labels);
        std::string label = name.empty() ? std::string("process") : std::string(name);
        label += " (" + idText(info.pid) + ")";
        if (!labels.empty()) label += " " + std::string(labels);
        processDevice[p] = deviceFor(placement[p].kind, placement[p].index);
        processTrack[p] = sink.addTrack(processDevice[p], -1, TrackKind::process, label, info.sortIndex);
        return processTrack[p];
    };

    std::vector<std::pair<std::int64_t, std::int64_t>> steps;
    std::vector<std::uint32_t> stack;
    for (const auto p : order) {
        ImportProcess& proc = m_processes[p];
        placement[p] = placeProcess(m_strings.view(proc.name), m_strings.view(proc.labels), proc.gpuEvents, proc.pid);
        std::vector<std::uint32_t> threads = proc.threads;
        std::stable_sort(threads.begin(), threads.end(), [&](std::uint32_t a, std::uint32_t b) {
            return m_threads[a].sortIndex < m_threads[b].sortIndex;
        });
        for (const auto ti : threads) {
            ImportThread& t = m_threads[ti];
            if (t.slices.empty()) continue;
            const auto parentTrack = trackOfProcess(p);
            std::string name(trimmed(m_strings.view(t.name)));
            const TrackKind kind = threadTrackKind(placement[p], t, name);
            if (name.empty()) name = (placement[p].kind == TraceDeviceKind::cpu ? "thread " : "stream ") + idText(t.tid);
            const auto track = sink.addTrack(processDevice[p], parentTrack, kind, name, t.sortIndex);

            // Outer slices first at equal starts, so the stack below sees parents before children.
            std::stable_sort(t.slices.begin(), t.slices.end(), [](const ImportSlice& a, const ImportSlice& b) {
                return a.start != b.start ? a.start < b.start : a.dur > b.dur;
            });
            t.ids.resize(t.slices.size());
            t.parent.resize(t.slices.size());
            stack.clear();
            for (std::uint32_t i = 0; i < t.slices.size(); ++i) {
                const ImportSlice& s = t.slices[i];
                while (!stack.empty()) {
                    const ImportSlice& top = t.slices[stack.back()];
                    if (top.start + top.dur > s.start || (top.dur > 0 && top.start == s.start)) break;
                    stack.pop_back();
                }
                if (!stack.empty()) {
                    const ImportSlice& top = t.slices[stack.back()];
                    if (s.start + s.dur > top.start + top.dur)
                        m_diag.add(DiagnosticKind::overlapping_slices, [&] {
                            return "\"" + std::string(m_strings.view(s.name)) + "\" at " + std::to_string(s.start) +
                                   " ns outlasts its enclosing \"" + std::string(m_strings.view(top.name)) +
                                   "\" on " + name + "; drawn nested";
                        });
                }
                t.parent[i] = stack.empty() ? -1 : static_cast<std::int32_t>(stack.back());
                const int depth = static_cast<int>(stack.size());
                stack.push_back(i);
                t.ids[i] = sink.addSlice(track, s.start, s.dur, depth, m_strings.view(s.name), m_strings.view(s.cat),
                                         m_args.view(s.args));
                if (options.steps && placement[p].kind == TraceDeviceKind::cpu && m_strings.view(s.name).starts_with("ProfilerStep#"))
                    steps.emplace_back(s.start, s.start + s.dur);
                if ((++written & 0xFFFF) == 0) {
                    if (progress.cancelled()) return cancelledError("import cancelled");
                    progress(progressFrom + span * 0.9 * double(written) / double(std::max<std::int64_t>(1, totalSlices)),
                             "writing slices");
                }
            }
        }
    }
    stats.slices = written - m_instants;
    stats.instants = m_instants;

    for (auto& c : m_counters) {
        trackOfProcess(c.process);
        const auto track = sink.addTrack(processDevice[c.process], processTrack[c.process], TrackKind::counter,
                                         m_strings.view(c.name), 0);
        std::stable_sort(c.samples.begin(), c.samples.end(), [](auto& a, auto& b) { return a.first < b.first; });
        for (const auto& [ts, v] : c.samples) sink.addCounter(track, ts, v);
        stats.counters += static_cast<std::int64_t>(c.samples.size());
    }
    for (auto& m : m_memory) {
        const TraceDeviceKind kind = m.deviceType == 0 ? TraceDeviceKind::cpu : m.deviceType == 20 ? TraceDeviceKind::npu : TraceDeviceKind::gpu;
        const auto device = deviceFor(kind, std::max(0, m.deviceIndex));
        for (auto* series : {&m.allocated, &m.reserved}) {
            if (series->empty()) continue;
            const auto track = sink.addTrack(device, -1, TrackKind::counter,
                                             series == &m.allocated ? "Total Allocated" : "Total Reserved", 0);
            std::stable_sort(series->begin(), series->end(), [](auto& a, auto& b) { return a.first < b.first; });
            for (const auto& [ts, v] : *series) sink.addCounter(track, ts, v);
            stats.counters += static_cast<std::int64_t>(series->size());
        }
    }
    if (progress.cancelled()) return cancelledError("import cancelled");
    progress(progressFrom + span * 0.95, "binding flows");
    stats.flows = FlowBinder::run(*this, sink);

    std::sort(steps.begin(), steps.end());
    steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
    for (const auto& [start, end] : steps) sink.addStep(start, end);
    progress(progressTo, "written");
    return stats;
}

}  // namespace npu::profiler
