#include "profiler/importers/ascend/ascend_db_reader.h"

#include "profiler/importers/common/slice_stacker.h"
#include "profiler/store/sqlite_statement.h"

namespace npu::profiler::ascend_db {
namespace {

// globalTid = pid << 32 | tid (torch_npu and msprof).
std::int64_t ascendTidOf(std::int64_t globalTid) { return globalTid & 0xffffffffLL; }

std::string textOr(const SqliteStatement& q, int col, std::string_view fallback) {
    std::string s = q.text(col);
    return s.empty() ? std::string(fallback) : s;
}

}  // namespace

// One host thread's ranges per track, nested by the slice stacker; the query orders by
// thread, start, longer first. PYTORCH_API's connectionId is a key into
// CONNECTION_IDS (one op launches several tasks); CANN_API's is the task's own.
Status AscendDbReader::hostRanges(const char* table, const char* prefix, const char* category,
                                  std::unordered_map<std::int64_t, std::int64_t>& flows) {
    if (!m_src.hasTable(table)) {
        if (std::string_view(table) == "CANN_API")
            m_diag.add(DiagnosticKind::missing_table, [&] { return m_src.path().filename().string() + ": no " + table; });
        return {};
    }
    const bool pytorch = std::string_view(table) == "PYTORCH_API";
    const bool viaIds = pytorch && m_src.hasTable("CONNECTION_IDS");
    std::string sql = "SELECT CAST(a.startNs AS INTEGER) AS s, CAST(a.endNs AS INTEGER) AS e, a.globalTid, n.value, ";
    sql += viaIds ? "c.connectionId, " : "a.connectionId, ";
    sql += "a.rowid, ";
    if (pytorch) {
        sql += "json_object('Sequence number', " + name(table, "a", {"sequenceNumber"}) +
               ", 'Fwd thread id', " + name(table, "a", {"fwdThreadId"}) +
               ", 'Input Dims', (SELECT value FROM STRING_IDS WHERE id = " + name(table, "a", {"inputShapes"}) +
               "), 'Input type', (SELECT value FROM STRING_IDS WHERE id = " + name(table, "a", {"inputDtypes"}) +
               "), 'Api type', (SELECT name FROM ENUM_API_TYPE WHERE id = a.type))";
    } else {
        sql += "json_object('Api type', (SELECT name FROM ENUM_API_TYPE WHERE id = a.type), 'connection_id', "
               "a.connectionId)";
    }
    sql += std::string(" FROM ") + table + " a LEFT JOIN STRING_IDS n ON n.id = a.name";
    if (viaIds) sql += " LEFT JOIN CONNECTION_IDS c ON c.id = a.connectionId";
    sql += " ORDER BY a.globalTid, s, e DESC, a.rowid";
    if (!m_src.hasTable("ENUM_API_TYPE")) {
        // msprof databases of some versions lack the enum: keep the raw type.
        const auto pos = sql.find("(SELECT name FROM ENUM_API_TYPE WHERE id = a.type)");
        if (pos != std::string::npos) sql.replace(pos, 50, "a.type");
    }
    SqliteStatement q(m_src.handle(), sql);
    if (!q.valid()) return queryError(table, m_src.handle());
    std::int64_t lastRow = -1, slice = -1;
    SliceStacker stacker(m_sink);
    int rc;
    while ((rc = q.step()) == SQLITE_ROW) {
        const auto row = q.int64(5);
        if (row != lastRow) {  // CONNECTION_IDS repeats a range once per connection
            lastRow = row;
            const auto tid = q.int64(2);
            stacker.enter({tid, 0}, [&] {
                return m_sink.addTrack(m_cpu, -1, TrackKind::host_thread,
                                       std::string(prefix) + " " + std::to_string(ascendTidOf(tid)),
                                       static_cast<int>(m_hostTracks++));
            });
            if (q.int64(1) < q.int64(0))
                m_diag.add(DiagnosticKind::negative_duration, [&] {
                    return std::string(table) + " row " + std::to_string(row) + " ends before it starts; duration 0";
                });
            slice = stacker.add(q.int64(0), q.int64(1), textOr(q, 3, "?"), category, q.text(6));
            ++m_stats.hostRanges;
        }
        if (!q.isNull(4)) flows.emplace(q.int64(4), slice);
    }
    return rc == SQLITE_DONE ? Status{} : queryError(table, m_src.handle());
}

Status AscendDbReader::tasks() {
    const bool compute = m_src.hasTable("COMPUTE_TASK_INFO"), hccl = m_src.hasTable("COMMUNICATION_TASK_INFO");
    const std::string hcclIds = hccl ? "(SELECT DISTINCT globalTaskId AS id FROM COMMUNICATION_TASK_INFO)"
                                     : "(SELECT NULL AS id WHERE 0)";
    // Stream kinds first (a small GROUP BY): a stream that mostly runs HCCL tasks is comm.
    std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> tracks;
    {
        SqliteStatement q(m_src.handle(), "SELECT t.deviceId, t.streamId, COUNT(*), COUNT(h.id) FROM TASK t LEFT JOIN " +
                                              hcclIds + " h ON h.id = t.globalTaskId GROUP BY 1, 2 ORDER BY 1, 2");
        if (!q.valid()) return queryError("TASK", m_src.handle());
        while (q.step() == SQLITE_ROW) {
            const auto device = npuDevice(q.int64(0));
            const auto kind = 2 * q.int64(3) >= q.int64(2) ? TrackKind::comm : TrackKind::compute;
            tracks[{q.int64(0), q.int64(1)}] = m_sink.addTrack(device, -1, kind, "Stream " + std::to_string(q.int64(1)),
                                                               static_cast<int>(q.int64(1)));
        }
    }
    auto str = [](const std::string& idExpr) { return "(SELECT value FROM STRING_IDS WHERE id = " + idExpr + ")"; };
    auto enumName = [&](const char* table, const std::string& idExpr) {
        return m_src.hasTable(table) ? "COALESCE((SELECT name FROM " + std::string(table) + " WHERE id = " + idExpr +
                                           "), " + idExpr + ")"
                                     : idExpr;
    };
    std::string computeArgs = "NULL", hcclArgs = "NULL";
    if (compute) {
        const char* T = "COMPUTE_TASK_INFO";
        computeArgs = "json_object('Task Type', tt.value, 'Op Type', " + str(name(T, "c", {"opType"})) +
                      ", 'Block Dim', " + name(T, "c", {"blockDim", "block_dim"}) + ", 'Mix Block Dim', " +
                      name(T, "c", {"mixBlockDim", "mix_block_dim"}) + ", 'Input Shapes', " +
                      str(name(T, "c", {"inputShapes"})) + ", 'Input Data Types', " +
                      str(name(T, "c", {"inputDataTypes"})) + ", 'Input Formats', " +
                      str(name(T, "c", {"inputFormats"})) + ", 'Output Shapes', " +
                      str(name(T, "c", {"outputShapes"})) + ", 'Output Data Types', " +
                      str(name(T, "c", {"outputDataTypes"})) + ", 'Output Formats', " +
                      str(name(T, "c", {"outputFormats"})) +
                      ", 'Stream Id', t.streamId, 'Task Id', t.taskId, 'connection_id', t.connectionId)";
    }
    if (hccl) {
        const char* T = "COMMUNICATION_TASK_INFO";
        hcclArgs = "json_object('Task Type', tt.value, 'HCCL Task', " + str(name(T, "h", {"taskType"})) +
                   ", 'Op Name', " + str("h.name") + ", 'Plane Id', " + name(T, "h", {"planeId"}) +
                   ", 'src rank', " + name(T, "h", {"srcRank"}) + ", 'dst rank', " + name(T, "h", {"dstRank"}) +
                   ", 'size(Byte)', " + name(T, "h", {"size"}) + ", 'transport type', " +
                   enumName("ENUM_HCCL_TRANSPORT_TYPE", name(T, "h", {"transportType"})) + ", 'link type', " +
                   enumName("ENUM_HCCL_LINK_TYPE", name(T, "h", {"linkType"})) + ", 'data type', " +
                   enumName("ENUM_HCCL_DATA_TYPE", name(T, "h", {"dataType"})) +
                   ", 'Stream Id', t.streamId, 'Task Id', t.taskId, 'connection_id', t.connectionId)";
    }
    // Tasks with COMPUTE_TASK_INFO are kernels (Ascend's Computing); HCCL tasks are
    // communication ("comm"); the rest (event record/wait, MEMCPY_ASYNC, profiling
    // markers, kernels the op table does not name) are runtime tasks, not Computing.
    std::string sql =
        "SELECT t.startNs, t.endNs, t.deviceId, t.streamId, t.connectionId, "
        "CASE WHEN c.globalTaskId IS NOT NULL THEN COALESCE(cn.value, tt.value) "
        "     WHEN h.globalTaskId IS NOT NULL THEN tt.value ELSE tt.value END, "
        "CASE WHEN c.globalTaskId IS NOT NULL THEN 'kernel' WHEN h.globalTaskId IS NOT NULL THEN 'comm' "
        "     ELSE 'ascend_runtime' END, "
        "CASE WHEN c.globalTaskId IS NOT NULL THEN " + computeArgs + " WHEN h.globalTaskId IS NOT NULL THEN " +
        hcclArgs + " ELSE json_object('Task Type', tt.value, 'Stream Id', t.streamId, 'Task Id', t.taskId, "
        "'connection_id', t.connectionId) END "
        "FROM TASK t LEFT JOIN STRING_IDS tt ON tt.id = t.taskType ";
    sql += compute ? "LEFT JOIN COMPUTE_TASK_INFO c ON c.globalTaskId = t.globalTaskId "
                     "LEFT JOIN STRING_IDS cn ON cn.id = c.name "
                   : "LEFT JOIN (SELECT NULL AS globalTaskId WHERE 0) c ON 0 LEFT JOIN (SELECT NULL AS value WHERE 0) cn ON 0 ";
    sql += hccl ? "LEFT JOIN (SELECT * FROM COMMUNICATION_TASK_INFO GROUP BY globalTaskId) h ON h.globalTaskId = t.globalTaskId "
                : "LEFT JOIN (SELECT NULL AS globalTaskId WHERE 0) h ON 0 ";
    sql += "ORDER BY t.deviceId, t.streamId, t.startNs, t.endNs DESC";
    SqliteStatement q(m_src.handle(), sql);
    if (!q.valid()) return queryError("TASK", m_src.handle());
    SliceStacker stacker(m_sink);
    int rc;
    while ((rc = q.step()) == SQLITE_ROW) {
        const SliceStacker::TrackKey key{q.int64(2), q.int64(3)};
        stacker.enter(key, [&] { return tracks.at(key); });
        const std::string category = q.text(6);
        const auto slice = stacker.add(q.int64(0), q.int64(1), textOr(q, 5, "task"), category, q.text(7));
        ++m_stats.tasks;
        if (category == "kernel") ++m_stats.computeTasks;
        if (category == "comm") ++m_stats.commTasks;
        if (!q.isNull(4)) {
            const auto conn = q.int64(4);
            if (auto it = m_cannFlows.find(conn); it != m_cannFlows.end()) {
                m_sink.addFlow(it->second, slice, "HostToDevice");
                ++m_stats.flows;
            }
            if (auto it = m_pytorchFlows.find(conn); it != m_pytorchFlows.end()) {
                m_sink.addFlow(it->second, slice, "async_npu");
                ++m_stats.flows;
            }
        }
        if ((m_stats.tasks & 0xffff) == 0 && m_progress.cancelled()) return cancelledError("import cancelled");
    }
    return rc == SQLITE_DONE ? Status{} : queryError("TASK", m_src.handle());
}

Status AscendDbReader::communicationOps() {
    const char* T = "COMMUNICATION_OP";
    if (!m_src.hasTable(T)) return {};
    const std::int64_t device = npuDevice(m_npu.empty() ? 0 : m_npu.begin()->first);
    auto str = [](const std::string& idExpr) { return "(SELECT value FROM STRING_IDS WHERE id = " + idExpr + ")"; };
    const std::string dataType = m_src.hasTable("ENUM_HCCL_DATA_TYPE")
                                     ? "COALESCE((SELECT name FROM ENUM_HCCL_DATA_TYPE WHERE id = " +
                                           name(T, "o", {"dataType"}) + "), " + name(T, "o", {"dataType"}) + ")"
                                     : name(T, "o", {"dataType"});
    const std::string sql =
        "SELECT o.startNs, o.endNs, n.value, o.groupName, g.value, o.connectionId, json_object('group', g.value, "
        "'op type', " + str(name(T, "o", {"opType"})) + ", 'data type', " + dataType + ", 'alg type', " +
        str(name(T, "o", {"algType"})) + ", 'count', " + name(T, "o", {"count"}) + ", 'relay', " +
        name(T, "o", {"relay"}) + ", 'retry', " + name(T, "o", {"retry"}) +
        ", 'op id', o.opId, 'connection_id', o.connectionId) "
        "FROM COMMUNICATION_OP o LEFT JOIN STRING_IDS n ON n.id = o.opName LEFT JOIN STRING_IDS g ON g.id = o.groupName "
        "ORDER BY o.groupName, o.startNs, o.endNs DESC";
    SqliteStatement q(m_src.handle(), sql);
    if (!q.valid()) return queryError(T, m_src.handle());
    int groups = 0;
    SliceStacker stacker(m_sink);
    int rc;
    while ((rc = q.step()) == SQLITE_ROW) {
        stacker.enter({q.int64(3), 0}, [&] {
            const auto track = m_sink.addTrack(device, -1, TrackKind::comm,
                                               "Group " + std::to_string(groups) + " Communication", 10000 + groups);
            ++groups;
            return track;
        });
        const auto slice = stacker.add(q.int64(0), q.int64(1), textOr(q, 2, "hcom"), "comm", q.text(6));
        ++m_stats.commOps;
        if (!q.isNull(5))
            if (auto it = m_cannFlows.find(q.int64(5)); it != m_cannFlows.end()) {
                m_sink.addFlow(it->second, slice, "HostToDevice");
                ++m_stats.flows;
            }
    }
    return rc == SQLITE_DONE ? Status{} : queryError(T, m_src.handle());
}

}  // namespace npu::profiler::ascend_db
