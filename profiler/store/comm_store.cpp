#include "profiler/store/comm_store.h"

#include "profiler/store/sqlite_statement.h"

#include <optional>

namespace npu::profiler {
namespace {

// Every row through one prepared statement; the first failure names the table.
template <class Rows, class Exec>
Status insertRows(sqlite3* db, const char* table, const char* sql, const Rows& rows, Exec exec) {
    SqliteStatement st(db, sql);
    if (!st.valid()) return makeError(std::string(table) + ": " + sqlite3_errmsg(db));
    for (const auto& r : rows)
        if (exec(st, r) != SQLITE_DONE) return makeError(std::string(table) + ": " + sqlite3_errmsg(db));
    return {};
}

}  // namespace

Status writeCommunication(sqlite3* db, const CommunicationData& c) {
    if (auto s = insertRows(db, "COMM_OP", "INSERT INTO COMM_OP VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)", c.ops,
                            [](SqliteStatement& st, const CommOpRecord& r) {
                                return st.execRow(r.rank, r.step, r.type, r.op, r.group, r.start_ns, r.elapse_ns, r.transit_ns,
                                                  r.wait_ns, r.synchronization_ns, r.idle_ns, r.wait_ratio,
                                                  r.synchronization_ratio);
                            });
        !s)
        return s;
    if (auto s = insertRows(db, "COMM_BANDWIDTH", "INSERT INTO COMM_BANDWIDTH VALUES(?,?,?,?,?,?,?,?,?)", c.bandwidth,
                            [](SqliteStatement& st, const CommBandwidthRecord& r) {
                                return st.execRow(r.rank, r.step, r.type, r.op, r.transport, r.size_mb, r.time_ns,
                                                  r.bandwidth_gbps, r.large_packet_ratio);
                            });
        !s)
        return s;
    if (auto s = insertRows(db, "COMM_PACKET", "INSERT INTO COMM_PACKET VALUES(?,?,?,?,?,?,?,?)", c.packets,
                            [](SqliteStatement& st, const CommPacketRecord& r) {
                                return st.execRow(r.rank, r.step, r.type, r.op, r.transport, r.packet_size_mb, r.count,
                                                  r.time_ns);
                            });
        !s)
        return s;
    if (auto s = insertRows(db, "COMM_MATRIX", "INSERT INTO COMM_MATRIX VALUES(?,?,?,?,?,?,?,?,?,?)", c.matrix,
                            [](SqliteStatement& st, const CommMatrixRecord& r) {
                                return st.execRow(r.step, r.type, r.group_op, r.op, r.src_rank, r.dst_rank, r.transport,
                                                  r.size_mb, r.time_ns, r.bandwidth_gbps);
                            });
        !s)
        return s;
    if (auto s = insertRows(db, "CLUSTER_STEP", "INSERT INTO CLUSTER_STEP VALUES(?,?,?,?,?,?,?,?,?,?,?,?)", c.steps,
                            [](SqliteStatement& st, const ClusterStepRecord& r) {
                                const auto rank = r.rank < 0 ? std::nullopt : std::optional<std::int64_t>(r.rank);
                                return st.execRow(r.step, r.type, r.index, rank, r.computing_ns,
                                                  r.communication_not_overlapped_ns, r.overlapped_ns, r.communication_ns,
                                                  r.free_ns, r.stage_ns, r.bubble_ns,
                                                  r.communication_not_overlapped_exclude_receive_ns);
                            });
        !s)
        return s;
    return insertRows(db, "COMM_GROUP", "INSERT INTO COMM_GROUP VALUES(?,?,?)", c.groups,
                      [](SqliteStatement& st, const CommGroupRecord& r) {
                          return st.execRow(r.type, formatRankSet(r.ranks), static_cast<std::int64_t>(r.ranks.size()));
                      });
}

std::string formatRankSet(const std::vector<std::int64_t>& ranks) {
    std::string out = "(";
    for (size_t i = 0; i < ranks.size(); ++i) out += (i ? "," : "") + std::to_string(ranks[i]);
    return out + ")";
}

}  // namespace npu::profiler
