#include "profiler/analysis/step_breakdown.h"

#include "profiler/analysis/interval_set.h"
#include "profiler/store/profile_db.h"
#include "profiler/store/sqlite_statement.h"

#include <algorithm>
#include <limits>
#include <map>

namespace npu::profiler {
namespace {

constexpr std::string_view kStepPrefix = "ProfilerStep#";

// ProfilerStep#N slices on host threads, by device. The name id list is small, so the
// query filters by id instead of comparing text per row.
std::map<std::int64_t, std::vector<StepWindow>> hostStepsByDevice(const ProfileDb& db) {
    std::map<std::int64_t, std::vector<StepWindow>> out;
    const auto& strings = db.strings();
    SqliteStatement q(db.handle(), "SELECT k.device_id, t.start_ns, t.dur_ns FROM TASK t JOIN TRACK k ON k.id = t.track_id "
                                   "WHERE k.kind = 'host_thread' AND t.name_id = ? ORDER BY t.start_ns");
    for (size_t id = 0; id < strings.size(); ++id) {
        if (!strings[id].starts_with(kStepPrefix)) continue;
        q.reset();
        q.bind(1, static_cast<std::int64_t>(id));
        while (q.step() == SQLITE_ROW) {
            auto& v = out[q.int64(0)];
            const auto start = q.int64(1);
            if (std::any_of(v.begin(), v.end(), [&](const StepWindow& w) { return w.name == strings[id]; })) continue;
            v.push_back({strings[id], start, start + q.int64(2)});
        }
    }
    for (auto& [dev, v] : out)
        std::sort(v.begin(), v.end(), [](const StepWindow& a, const StepWindow& b) { return a.start_ns < b.start_ns; });
    return out;
}

// The host device whose slices launch this device's kernels (Kineto ac2g flows).
// The stored rows: an aliased rank (rank classes) launches as its class's first rank does,
// from its own copy of that rank's host tracks.
std::int64_t hostLinkedByFlows(const ProfileDb& db, std::int64_t device) {
    const std::int64_t asked = db.rankClasses().classDeviceOf(device);
    SqliteStatement q(db.handle(), "SELECT ka.device_id FROM FLOW f JOIN main.TASK b ON b.id = f.to_task "
                                   "JOIN TRACK kb ON kb.id = b.track_id JOIN main.TASK a ON a.id = f.from_task "
                                   "JOIN TRACK ka ON ka.id = a.track_id WHERE kb.device_id = ? AND ka.kind = 'host_thread' "
                                   "LIMIT 1");
    q.bind(1, asked);
    if (q.step() != SQLITE_ROW) return -1;
    const std::int64_t host = q.int64(0);
    return host == asked ? device : host;
}

// Cluster imports name devices "<rank prefix> CPU", "<rank prefix> GPU 0": the host of
// the same rank shares the first word.
std::int64_t hostWithSamePrefix(const ProfileDb& db, std::int64_t device,
                                const std::map<std::int64_t, std::vector<StepWindow>>& host) {
    const auto devices = db.devices();
    auto prefixOf = [&](std::int64_t id) -> std::string {
        for (const auto& d : devices)
            if (d.id == id) {
                const auto space = d.name.find(' ');
                return space == std::string::npos ? std::string() : d.name.substr(0, space);
            }
        return {};
    };
    const std::string mine = prefixOf(device);
    if (mine.empty()) return -1;
    std::int64_t found = -1;
    for (const auto& [id, steps] : host) {
        if (prefixOf(id) != mine) continue;
        if (found >= 0) return -1;  // ambiguous
        found = id;
    }
    return found;
}

}  // namespace

std::vector<StepWindow> stepWindowsFor(const ProfileDb& db, std::int64_t device) {
    const auto host = hostStepsByDevice(db);
    if (auto it = host.find(device); it != host.end()) return it->second;
    if (!host.empty()) {
        if (auto it = host.find(hostLinkedByFlows(db, device)); it != host.end()) return it->second;
        if (auto it = host.find(hostWithSamePrefix(db, device, host)); it != host.end()) return it->second;
        if (host.size() == 1) return host.begin()->second;
    }
    std::vector<StepWindow> out;
    for (const auto& s : db.steps()) out.push_back({std::to_string(s.id), s.start_ns, s.end_ns});
    if (out.empty()) {
        out.push_back({"", std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()});
    }
    return out;
}

StepBreakdownRow computeStepRow(const std::vector<DeviceKernel>& kernels, const StepWindow& step,
                                const ProfileDb& db) {
    StepBreakdownRow r;
    r.step = step.name;
    std::vector<Interval> compute, comm;
    std::int64_t first = std::numeric_limits<std::int64_t>::max(), last = std::numeric_limits<std::int64_t>::min();
    for (const auto& k : kernels) {
        if (k.start >= step.end_ns) break;  // sorted by start
        if (k.cls != KernelClass::compute && k.cls != KernelClass::communication) continue;
        const auto s = std::max(k.start, step.start_ns), e = std::min(k.end, step.end_ns);
        if (s >= e) continue;
        first = std::min(first, s);
        last = std::max(last, e);
        if (k.cls == KernelClass::compute) compute.push_back({s, e});
        if (k.cls == KernelClass::communication) {
            comm.push_back({s, e});
            if (isReceiveKernel(db.string(k.nameId))) r.bubble_ns += e - s;
        }
    }
    r.step_start_ns = step.start_ns == std::numeric_limits<std::int64_t>::min() ? (first <= last ? first : 0)
                                                                                 : step.start_ns;
    if (first > last) return r;
    const auto computeMerged = mergeIntervals(std::move(compute));
    const auto commMerged = mergeIntervals(std::move(comm));
    const std::int64_t e2e = last - first;
    r.computing_ns = totalLength(computeMerged);
    r.communication_ns = totalLength(commMerged);
    r.overlapped_ns = totalLength(intersect(computeMerged, commMerged));
    r.comm_not_overlapped_ns = r.communication_ns - r.overlapped_ns;
    r.free_ns = std::max<std::int64_t>(0, e2e - r.computing_ns - r.comm_not_overlapped_ns);
    r.stage_ns = e2e - r.bubble_ns;
    r.comm_not_overlapped_exclude_receive_ns = std::max<std::int64_t>(0, r.comm_not_overlapped_ns - r.bubble_ns);
    r.preparing_ns = step.start_ns == std::numeric_limits<std::int64_t>::min() ? 0 : first - step.start_ns;
    return r;
}

std::vector<StepBreakdownRow> storedClusterSteps(const ProfileDb& db) {
    std::vector<StepBreakdownRow> out;
    SqliteStatement q(db.handle(),
                      "SELECT step, type, idx, rank, computing_ns, communication_not_overlapped_ns, overlapped_ns, "
                      "communication_ns, free_ns, stage_ns, bubble_ns, communication_not_overlapped_exclude_receive_ns "
                      "FROM CLUSTER_STEP ORDER BY rowid");
    while (q.valid() && q.step() == SQLITE_ROW) {  // no table (a run stored before version 5): no rows
        StepBreakdownRow r;
        r.step = q.text(0);
        r.type = q.text(1);
        r.index = q.text(2);
        if (!q.isNull(3)) r.deviceName = "rank" + std::to_string(q.int64(3));
        r.computing_ns = q.int64(4);
        r.comm_not_overlapped_ns = q.int64(5);
        r.overlapped_ns = q.int64(6);
        r.communication_ns = q.int64(7);
        r.free_ns = q.int64(8);
        r.stage_ns = q.int64(9);
        r.bubble_ns = q.int64(10);
        r.comm_not_overlapped_exclude_receive_ns = q.int64(11);
        out.push_back(std::move(r));
    }
    return out;
}

std::vector<StepBreakdownRow> computeStepBreakdown(
    const ProfileDb& db, const std::map<std::int64_t, std::vector<DeviceKernel>>* preloaded) {
    std::vector<StepBreakdownRow> ranks;
    for (const auto& d : db.devices()) {
        std::vector<DeviceKernel> loaded;
        const auto it = preloaded ? preloaded->find(d.id) : decltype(preloaded->end()){};
        if (!preloaded || it == preloaded->end()) loaded = loadDeviceKernels(db, d.id);
        const auto& kernels = preloaded && it != preloaded->end() ? it->second : loaded;
        if (kernels.empty()) continue;
        for (const auto& step : stepWindowsFor(db, d.id)) {
            auto row = computeStepRow(kernels, step, db);
            row.device = d.id;
            row.deviceName = d.name;
            row.index = std::to_string(d.id);
            ranks.push_back(std::move(row));
        }
    }
    if (ranks.empty()) return storedClusterSteps(db);  // no timeline: Ascend's own cluster analysis, if imported
    // Stage rows: per step name, the maximum of each column over the ranks.
    std::vector<StepBreakdownRow> out;
    std::vector<std::string> stepOrder;
    for (const auto& r : ranks)
        if (std::find(stepOrder.begin(), stepOrder.end(), r.step) == stepOrder.end()) stepOrder.push_back(r.step);
    for (const auto& step : stepOrder) {
        StepBreakdownRow stage;
        stage.step = step;
        stage.type = "stage";
        stage.step_start_ns = std::numeric_limits<std::int64_t>::max();
        std::string index;
        int n = 0;
        for (const auto& r : ranks) {
            if (r.step != step) continue;
            out.push_back(r);
            index += (n++ ? ", " : "") + r.index;
            stage.step_start_ns = std::min(stage.step_start_ns, r.step_start_ns);
            stage.computing_ns = std::max(stage.computing_ns, r.computing_ns);
            stage.comm_not_overlapped_ns = std::max(stage.comm_not_overlapped_ns, r.comm_not_overlapped_ns);
            stage.overlapped_ns = std::max(stage.overlapped_ns, r.overlapped_ns);
            stage.communication_ns = std::max(stage.communication_ns, r.communication_ns);
            stage.free_ns = std::max(stage.free_ns, r.free_ns);
            stage.stage_ns = std::max(stage.stage_ns, r.stage_ns);
            stage.bubble_ns = std::max(stage.bubble_ns, r.bubble_ns);
            stage.comm_not_overlapped_exclude_receive_ns =
                std::max(stage.comm_not_overlapped_exclude_receive_ns, r.comm_not_overlapped_exclude_receive_ns);
            stage.preparing_ns = std::max(stage.preparing_ns, r.preparing_ns);
        }
        if (n > 1) {
            stage.index = "(" + index + ")";
            out.push_back(std::move(stage));
        }
    }
    return out;
}

}  // namespace npu::profiler
