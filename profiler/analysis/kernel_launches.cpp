#include "profiler/analysis/kernel_launches.h"

#include "profiler/analysis/kernel_classification.h"
#include "profiler/store/sqlite_statement.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace npu::profiler {

std::vector<KernelLaunch> loadKernelLaunches(const ProfileDb& db) {
    std::vector<KernelLaunch> out;
    const auto& strings = db.strings();
    // Launch flows: Kineto's ac2g (CUDA runtime call -> kernel) and torch_npu's
    // HostToDevice (CANN "Node@launch" -> the task on the NPU stream), the same relation.
    std::int64_t launchKinds[2] = {-1, -1};
    int found = 0;
    for (const char* kind : {"ac2g", "HostToDevice"}) {
        const auto it = std::find(strings.begin(), strings.end(), std::string(kind));
        if (it != strings.end()) launchKinds[found++] = it - strings.begin();
    }
    if (found == 0) return out;
    std::unordered_map<std::int64_t, TrackKind> kindOf;
    for (const auto& t : db.tracks()) kindOf[t.id] = t.kind;
    SqliteStatement q(db.handle(),
                      "SELECT a.id, a.track_id, a.start_ns, a.dur_ns, a.depth, a.name_id, "
                      "       b.id, b.track_id, b.start_ns, b.dur_ns, b.name_id "
                      "FROM FLOW f JOIN TASK a ON a.id = f.from_task JOIN TASK b ON b.id = f.to_task "
                      "WHERE f.kind_id IN (?, ?)");
    q.bind(1, launchKinds[0]);
    q.bind(2, launchKinds[found - 1]);
    std::unordered_map<std::int64_t, std::vector<size_t>> byHostTrack;  // launches per host track
    while (q.step() == SQLITE_ROW) {
        const auto fromTrack = q.int64(1), toTrack = q.int64(7);
        if (kindOf[fromTrack] != TrackKind::host_thread || !isDeviceTrack(kindOf[toTrack])) continue;
        KernelLaunch l;
        l.launchSlice = q.int64(0);
        l.launchStart = q.int64(2);
        l.launchEnd = l.launchStart + std::max<std::int64_t>(0, q.int64(3));
        l.launchName = static_cast<std::int32_t>(q.int64(5));
        l.kernelSlice = q.int64(6);
        l.kernelTrack = toTrack;
        l.kernelStart = q.int64(8);
        l.kernelEnd = l.kernelStart + std::max<std::int64_t>(0, q.int64(9));
        l.kernelName = static_cast<std::int32_t>(q.int64(10));
        byHostTrack[fromTrack].push_back(out.size());
        out.push_back(l);
    }
    // The runtime call's op: the innermost cpu_op open at the call's start on its thread.
    // One sweep per thread over its ops (by start, longest first) and its launches, with
    // a stack of the open ops.
    const auto cpuOp = std::find(strings.begin(), strings.end(), std::string("cpu_op"));
    if (cpuOp != strings.end()) {
        SqliteStatement ops(db.handle(),
                            "SELECT start_ns, dur_ns, name_id FROM TASK WHERE track_id = ? AND category_id = ? "
                            "ORDER BY start_ns, dur_ns DESC");
        for (auto& [track, indices] : byHostTrack) {
            std::sort(indices.begin(), indices.end(),
                      [&](size_t a, size_t b) { return out[a].launchStart < out[b].launchStart; });
            ops.reset();
            ops.bind(1, track);
            ops.bind(2, static_cast<std::int64_t>(cpuOp - strings.begin()));
            std::vector<std::pair<std::int64_t, std::int32_t>> open;  // end, name
            bool more = ops.step() == SQLITE_ROW;
            for (const size_t i : indices) {
                KernelLaunch& l = out[i];
                while (more && ops.int64(0) <= l.launchStart) {
                    const std::int64_t start = ops.int64(0);
                    while (!open.empty() && open.back().first <= start) open.pop_back();
                    open.emplace_back(start + std::max<std::int64_t>(0, ops.int64(1)), static_cast<std::int32_t>(ops.int64(2)));
                    more = ops.step() == SQLITE_ROW;
                }
                while (!open.empty() && open.back().first < l.launchEnd) open.pop_back();
                if (!open.empty()) l.opName = open.back().second;
            }
        }
    }
    // torch_npu launches from a CANN thread with no cpu_op around the call; its
    // async_npu flow goes from the PyTorch op to the same task and names the op.
    const auto asyncNpu = std::find(strings.begin(), strings.end(), std::string("async_npu"));
    if (asyncNpu != strings.end()) {
        std::unordered_map<std::int64_t, std::int32_t> opOfTask;
        SqliteStatement a(db.handle(), "SELECT f.to_task, t.name_id FROM FLOW f JOIN TASK t ON t.id = f.from_task WHERE f.kind_id = ?");
        a.bind(1, static_cast<std::int64_t>(asyncNpu - strings.begin()));
        while (a.step() == SQLITE_ROW) opOfTask[a.int64(0)] = static_cast<std::int32_t>(a.int64(1));
        for (auto& l : out)
            if (l.opName < 0)
                if (const auto it = opOfTask.find(l.kernelSlice); it != opOfTask.end()) l.opName = it->second;
    }
    std::sort(out.begin(), out.end(), [](const KernelLaunch& a, const KernelLaunch& b) {
        return a.kernelStart != b.kernelStart ? a.kernelStart < b.kernelStart : a.kernelSlice < b.kernelSlice;
    });
    return out;
}

std::vector<StreamLaunchStats> streamLaunchStats(const ProfileDb& db, const std::vector<KernelLaunch>& launches) {
    std::map<std::int64_t, std::vector<const KernelLaunch*>> byTrack;
    for (const auto& l : launches) byTrack[l.kernelTrack].push_back(&l);
    std::unordered_map<std::int64_t, std::string> deviceName;
    for (const auto& d : db.devices()) deviceName[d.id] = d.name;
    std::vector<StreamLaunchStats> out;
    for (const auto& t : db.tracks()) {
        const auto it = byTrack.find(t.id);
        if (it == byTrack.end()) continue;
        const auto& ls = it->second;
        StreamLaunchStats s;
        s.track = t.id;
        s.name = deviceName[t.device] + " · " + t.name;
        s.launches = static_cast<std::int64_t>(ls.size());
        std::vector<std::int64_t> delays;
        delays.reserve(ls.size());
        double sum = 0;
        for (const auto* l : ls) {
            delays.push_back(l->delay_ns());
            sum += double(l->delay_ns());
            if (l->kernelEnd - l->kernelStart < l->launchEnd - l->launchStart) ++s.short_kernels;
        }
        std::sort(delays.begin(), delays.end());
        auto pct = [&](double p) { return delays[std::min(delays.size() - 1, static_cast<size_t>(p * double(delays.size())))]; };
        s.mean_delay_ns = sum / double(delays.size());
        s.p50_delay_ns = pct(0.5);
        s.p95_delay_ns = pct(0.95);
        s.max_delay_ns = delays.back();
        // Queue: +1 at each launch, -1 at each kernel end; at equal times ends first.
        std::vector<std::pair<std::int64_t, int>> events;
        for (const auto* l : ls) {
            events.emplace_back(l->launchStart, +1);
            events.emplace_back(l->kernelEnd, -1);
        }
        std::sort(events.begin(), events.end());
        std::int64_t depth = 0, lastT = events.front().first;
        double area = 0;
        for (size_t i = 0; i < events.size(); ++i) {
            area += double(depth) * double(events[i].first - lastT);
            lastT = events[i].first;
            depth += events[i].second;
            if (i + 1 < events.size() && events[i + 1].first == events[i].first) continue;  // one sample per instant
            s.queue.ts_ns.push_back(events[i].first);
            s.queue.value.push_back(double(depth));
            s.max_queue = std::max(s.max_queue, depth);
        }
        const std::int64_t span = events.back().first - events.front().first;
        s.mean_queue = span > 0 ? area / double(span) : 0;
        out.push_back(std::move(s));
    }
    return out;
}

std::vector<OpKernelsRow> opKernelTable(const ProfileDb& db, const std::vector<KernelLaunch>& launches) {
    struct Acc {
        std::int64_t launches = 0, time = 0;
        double delay = 0;
        std::map<std::int32_t, std::int64_t> kernels;
    };
    std::map<std::int32_t, Acc> byOp;
    for (const auto& l : launches) {
        Acc& a = byOp[l.opName];
        ++a.launches;
        a.time += l.kernelEnd - l.kernelStart;
        a.delay += double(l.delay_ns());
        a.kernels[l.kernelName] += l.kernelEnd - l.kernelStart;
    }
    std::vector<OpKernelsRow> out;
    for (const auto& [op, a] : byOp) {
        OpKernelsRow r;
        r.op = op >= 0 ? db.string(op) : std::string("(no op)");
        r.launches = a.launches;
        r.kernel_time_ns = a.time;
        r.distinct_kernels = static_cast<std::int64_t>(a.kernels.size());
        const auto top = std::max_element(a.kernels.begin(), a.kernels.end(),
                                          [](const auto& x, const auto& y) { return x.second < y.second; });
        r.top_kernel = db.string(top->first);
        r.mean_delay_ns = a.delay / double(a.launches);
        out.push_back(std::move(r));
    }
    std::sort(out.begin(), out.end(), [](const OpKernelsRow& a, const OpKernelsRow& b) {
        return a.kernel_time_ns != b.kernel_time_ns ? a.kernel_time_ns > b.kernel_time_ns : a.op < b.op;
    });
    return out;
}

}  // namespace npu::profiler
