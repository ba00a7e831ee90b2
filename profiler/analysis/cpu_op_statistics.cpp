#include "profiler/analysis/cpu_op_statistics.h"

#include "profiler/store/profile_db.h"
#include "profiler/store/sqlite_statement.h"

#include <algorithm>
#include <unordered_map>

namespace npu::profiler {

namespace {
struct Open {
    std::int64_t end = 0;
    std::int64_t dur = 0;
    std::int64_t children = 0;  // time of directly nested cpu_ops
    std::int32_t name = 0;
};
}  // namespace

std::vector<CpuOpRow> computeCpuOpStatistics(const ProfileDb& db, const std::string& category) {
    const auto& strings = db.strings();
    const auto cat = std::find(strings.begin(), strings.end(), category);
    if (cat == strings.end()) return {};
    const auto catId = static_cast<std::int64_t>(cat - strings.begin());

    std::unordered_map<std::int32_t, CpuOpRow> byName;
    auto close = [&](const Open& o) {
        CpuOpRow& r = byName[o.name];
        ++r.count;
        r.total_ns += o.dur;
        r.self_ns += std::max<std::int64_t>(0, o.dur - o.children);
        r.max_ns = std::max(r.max_ns, o.dur);
    };
    // Track by track in start order (longest first on ties, so a parent precedes the child
    // that starts with it); a stack of the open ops finds each op's direct parent op.
    SqliteStatement q(db.handle(),
                      "SELECT start_ns, dur_ns, name_id FROM TASK WHERE track_id = ? AND category_id = ? "
                      "ORDER BY start_ns, dur_ns DESC");
    for (const auto& t : db.tracks()) {
        if (t.kind != TrackKind::host_thread) continue;
        q.reset();
        q.bind(1, t.id);
        q.bind(2, catId);
        std::vector<Open> stack;
        while (q.step() == SQLITE_ROW) {
            const std::int64_t start = q.int64(0), dur = std::max<std::int64_t>(0, q.int64(1));
            while (!stack.empty() && stack.back().end <= start) {
                close(stack.back());
                stack.pop_back();
            }
            if (!stack.empty()) stack.back().children += std::min(dur, stack.back().end - start);
            stack.push_back({start + dur, dur, 0, static_cast<std::int32_t>(q.int64(2))});
        }
        for (auto it = stack.rbegin(); it != stack.rend(); ++it) close(*it);
    }
    std::vector<CpuOpRow> out;
    out.reserve(byName.size());
    for (auto& [id, r] : byName) {
        r.name = db.string(id);
        out.push_back(std::move(r));
    }
    std::sort(out.begin(), out.end(), [](const CpuOpRow& a, const CpuOpRow& b) {
        return a.self_ns != b.self_ns ? a.self_ns > b.self_ns : a.name < b.name;
    });
    return out;
}

}  // namespace npu::profiler
