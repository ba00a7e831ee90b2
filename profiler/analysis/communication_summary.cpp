#include "profiler/analysis/communication_summary.h"

#include "profiler/store/profile_db.h"
#include "profiler/store/sqlite_statement.h"

namespace npu::profiler {

std::vector<CommRankSummary> communicationByRank(const ProfileDb& db) {
    std::vector<CommRankSummary> out;
    SqliteStatement q(db.handle(), "SELECT rank, COUNT(*), SUM(elapse_ns), SUM(transit_ns), SUM(wait_ns), "
                                   "SUM(synchronization_ns), SUM(idle_ns) FROM COMM_OP GROUP BY rank ORDER BY rank");
    while (q.valid() && q.step() == SQLITE_ROW) {
        CommRankSummary r;
        r.rank = q.int64(0);
        r.ops = q.int64(1);
        r.elapse_ns = q.int64(2);
        r.transit_ns = q.int64(3);
        r.wait_ns = q.int64(4);
        r.synchronization_ns = q.int64(5);
        r.idle_ns = q.int64(6);
        const double t = double(r.transit_ns);
        r.wait_ratio = r.wait_ns + t > 0 ? double(r.wait_ns) / (double(r.wait_ns) + t) : 0;
        r.synchronization_ratio =
            r.synchronization_ns + t > 0 ? double(r.synchronization_ns) / (double(r.synchronization_ns) + t) : 0;
        out.push_back(r);
    }
    return out;
}

std::vector<CommOpRecord> loadCommOps(const ProfileDb& db) {
    std::vector<CommOpRecord> out;
    SqliteStatement q(db.handle(), "SELECT rank, step, type, op, group_name, start_ns, elapse_ns, transit_ns, wait_ns, "
                                   "synchronization_ns, idle_ns, wait_ratio, synchronization_ratio FROM COMM_OP "
                                   "ORDER BY rank, start_ns");
    while (q.valid() && q.step() == SQLITE_ROW)
        out.push_back({q.int64(0), q.text(1), q.text(2), q.text(3), q.text(4), q.int64(5), q.int64(6), q.int64(7), q.int64(8),
                       q.int64(9), q.int64(10), q.real(11), q.real(12)});
    return out;
}

std::vector<CommLinkSummary> communicationMatrix(const ProfileDb& db) {
    std::vector<CommLinkSummary> out;
    // A link listed by both of its ranks' files counts once (one row per group op and link).
    SqliteStatement q(
        db.handle(),
        "WITH m AS (SELECT DISTINCT step, group_op, src_rank, dst_rank, transport, size_mb, time_ns FROM COMM_MATRIX "
        "           WHERE (SELECT COUNT(*) FROM COMM_MATRIX WHERE group_op LIKE '%-total%') = 0 "
        "              OR group_op LIKE '%-total%') "
        "SELECT src_rank, dst_rank, transport, SUM(size_mb), SUM(time_ns) FROM m "
        "GROUP BY src_rank, dst_rank, transport ORDER BY src_rank, dst_rank, transport");
    while (q.valid() && q.step() == SQLITE_ROW) {
        CommLinkSummary l;
        l.src = q.int64(0);
        l.dst = q.int64(1);
        l.transport = q.text(2);
        l.size_mb = q.real(3);
        l.time_ns = q.int64(4);
        l.bandwidth_gbps = l.time_ns > 0 ? l.size_mb / (double(l.time_ns) / 1e6) : 0;
        out.push_back(std::move(l));
    }
    return out;
}

std::vector<CommGroupSummary> communicationGroups(const ProfileDb& db) {
    std::vector<CommGroupSummary> out;
    SqliteStatement q(db.handle(), "SELECT type, rank_set, size FROM COMM_GROUP ORDER BY rowid");
    while (q.valid() && q.step() == SQLITE_ROW) out.push_back({q.text(0), q.text(1), q.int64(2)});
    return out;
}

}  // namespace npu::profiler
