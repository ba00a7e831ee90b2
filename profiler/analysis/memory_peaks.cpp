#include "profiler/analysis/memory_peaks.h"

#include "profiler/analysis/memory_counter.h"
#include "profiler/store/profile_db.h"
#include "profiler/store/sqlite_statement.h"

#include <map>

namespace npu::profiler {
std::vector<MemoryPeak> computeMemoryPeaks(const ProfileDb& db) {
    std::map<std::int64_t, MemoryPeak> peaks;
    SqliteStatement q(db.handle(), "SELECT ts_ns, value FROM COUNTER WHERE track_id = ? ORDER BY value DESC, ts_ns LIMIT 1");
    std::map<std::int64_t, std::string> deviceNames;
    for (const auto& d : db.devices()) deviceNames[d.id] = d.name;
    for (const auto& t : db.tracks()) {
        if (t.kind != TrackKind::counter) continue;
        const MemoryCounter counter = classifyMemoryCounter(t.name);
        const auto kind = counter.kind;
        if (kind != MemoryCounterKind::allocated && kind != MemoryCounterKind::reserved) continue;
        q.reset();
        q.bind(1, t.id);
        if (q.step() != SQLITE_ROW) continue;
        auto& p = peaks[t.device];
        p.device = t.device;
        p.deviceName = deviceNames[t.device];
        const double v = q.real(1) * counter.bytesPerUnit;
        if (kind == MemoryCounterKind::allocated && (!p.hasAllocated || v > p.peak_allocated_bytes)) {
            p.peak_allocated_bytes = v;
            p.peak_allocated_ts_ns = q.int64(0);
            p.hasAllocated = true;
        } else if (kind == MemoryCounterKind::reserved && (!p.hasReserved || v > p.peak_reserved_bytes)) {
            p.peak_reserved_bytes = v;
            p.hasReserved = true;
        }
    }
    std::vector<MemoryPeak> out;
    for (auto& [id, p] : peaks) out.push_back(std::move(p));
    return out;
}

}  // namespace npu::profiler
