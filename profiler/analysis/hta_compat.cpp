#include "profiler/analysis/hta_compat.h"

#include "profiler/store/profile_db.h"
#include "profiler/store/sqlite_statement.h"

#include <algorithm>
#include <tuple>
#include <unordered_set>

namespace npu::profiler {

HtaKernelFilter htaKernelFilter(const ProfileDb& db) {
    HtaKernelFilter f;
    const auto steps = db.steps();
    if (steps.size() < 2) return f;
    f.active = true;
    for (const auto& s : steps) f.lastStepStart = std::max(f.lastStepStart, s.start_ns);
    return f;
}

void applyHtaKernelFilter(const ProfileDb& db, std::int64_t device, HtaKernelFilter& filter,
                          std::vector<DeviceKernel>& kernels) {
    if (!filter.active || kernels.empty()) return;
    // HTA joins kernels to CPU events on the "correlation" arg (Kineto writes it on the
    // runtime launch and on its kernel; not every launch has an ac2g flow event). The
    // correlations of host events that start before the last step:
    std::unordered_set<std::int64_t> launched;
    SqliteStatement host(db.handle(),
                         "SELECT json_extract(a.json, '$.correlation') FROM TASK h JOIN ARGS a ON a.id = h.args_id "
                         "WHERE h.track_id = ?1 AND h.start_ns < ?2 AND json_valid(a.json) "
                         "AND json_type(a.json, '$.correlation') = 'integer'");
    for (const auto& t : db.tracks()) {
        if (isDeviceTrack(t.kind)) continue;
        host.reset();
        host.bind(1, t.id);
        host.bind(2, filter.lastStepStart);
        while (host.step() == SQLITE_ROW) launched.insert(host.int64(0));
    }
    // The kernels HTA keeps, as (start, end, name): their correlation was launched in
    // time, or (sources without correlation args: Ascend, Nsight) a flow from a host
    // event that starts before the last step reaches them. Matching by value keeps
    // loadDeviceKernels free of the join.
    std::vector<std::tuple<std::int64_t, std::int64_t, std::int32_t>> kept;
    SqliteStatement q(db.handle(),
                      "SELECT t.start_ns, t.start_ns + MAX(t.dur_ns, 0), t.name_id, "
                      "(SELECT CASE WHEN json_valid(a.json) THEN json_extract(a.json, '$.correlation') END "
                      " FROM ARGS a WHERE a.id = t.args_id), "
                      "EXISTS (SELECT 1 FROM FLOW f JOIN TASK h ON h.id = f.from_task WHERE f.to_task = t.id AND h.start_ns < ?2) "
                      "FROM TASK t WHERE t.track_id = ?1");
    for (const auto& t : db.tracks()) {
        if (!isDeviceTrack(t.kind) || (device >= 0 && t.device != device)) continue;
        q.reset();
        q.bind(1, t.id);
        q.bind(2, filter.lastStepStart);
        while (q.step() == SQLITE_ROW) {
            const bool correlated = !q.isNull(3) && launched.count(q.int64(3)) > 0;
            if (correlated || q.int64(4) != 0)
                kept.emplace_back(q.int64(0), q.int64(1), static_cast<std::int32_t>(q.int64(2)));
        }
    }
    std::sort(kept.begin(), kept.end());
    const auto before = static_cast<std::int64_t>(kernels.size());
    std::erase_if(kernels, [&kept](const DeviceKernel& k) {
        return !std::binary_search(kept.begin(), kept.end(), std::make_tuple(k.start, k.end, k.nameId));
    });
    filter.dropped += before - static_cast<std::int64_t>(kernels.size());
}

}  // namespace npu::profiler
