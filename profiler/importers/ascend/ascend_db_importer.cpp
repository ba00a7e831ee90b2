#include "profiler/importers/ascend/ascend_db_importer.h"

#include "profiler/importers/ascend/ascend_db_reader.h"
#include "profiler/store/sqlite_statement.h"

namespace npu::profiler {
namespace ascend_db {

Expected<AscendDbStats> AscendDbReader::run() {
    writeMeta();
    m_cpu = m_sink.addDevice(m_options.devicePrefix + "CPU", "cpu");
    ++m_stats.devices;
    if (auto s = hostRanges("PYTORCH_API", "Python", "cpu_op", m_pytorchFlows); !s) return s.error();
    if (m_progress.cancelled()) return cancelledError("import cancelled");
    if (auto s = hostRanges("CANN_API", "CANN", "cann_api", m_cannFlows); !s) return s.error();
    m_progress(0.4, "reading tasks");
    if (auto s = tasks(); !s) return s.error();
    if (m_progress.cancelled()) return cancelledError("import cancelled");
    m_progress(0.7, "reading communication ops");
    if (auto s = communicationOps(); !s) return s.error();
    m_progress(0.8, "reading memory records");
    if (auto s = memoryRecords(); !s) return s.error();
    if (auto s = opMemory(); !s) return s.error();
    steps();
    oddRows();
    return m_stats;
}

std::string AscendDbReader::name(const char* table, const char* alias, std::initializer_list<std::string_view> cols) const {
    return m_src.col(table, alias, cols, m_diag);
}

Status AscendDbReader::queryError(const char* table, sqlite3* db) const {
    return makeError(m_src.path().string() + ": reading " + table + ": " + sqlite3_errmsg(db));
}

std::int64_t AscendDbReader::npuDevice(std::int64_t deviceId) {
    auto it = m_npu.find(deviceId);
    if (it != m_npu.end()) return it->second;
    ++m_stats.devices;
    return m_npu[deviceId] = m_sink.addDevice(m_options.devicePrefix + "NPU " + std::to_string(deviceId), "npu");
}

void AscendDbReader::writeMeta() {
    const bool torch = m_src.hasTable("PYTORCH_API");
    m_sink.setMeta("source", torch ? "ascend_pt_db" : "msprof_db");
    m_sink.setMeta("trace_file", m_src.path().string());
    if (m_src.hasTable("META_DATA")) {
        SqliteStatement q(m_src.handle(), "SELECT name, value FROM META_DATA");
        while (q.step() == SQLITE_ROW) m_sink.setMeta("ascend." + q.text(0), q.text(1));
    }
    if (m_src.hasTable("NPU_INFO")) {
        SqliteStatement q(m_src.handle(), "SELECT name FROM NPU_INFO LIMIT 1");
        if (q.step() == SQLITE_ROW) m_sink.setMeta("device", q.text(0));
    }
    if (m_src.hasTable("RANK_DEVICE_MAP")) {
        SqliteStatement q(m_src.handle(), "SELECT rankId FROM RANK_DEVICE_MAP LIMIT 1");
        if (q.step() == SQLITE_ROW) m_sink.setMeta("rank", std::to_string(q.int64(0)));
    }
}

// Counter tracks per device and component: "PTA Total Allocated", ... The names end
// like Kineto's [memory] counters, so the memory peaks read them the same way.
Status AscendDbReader::memoryRecords() {
    const char* T = "MEMORY_RECORD";
    if (!m_src.hasTable(T)) return {};
    const std::string sql = "SELECT " + name(T, "m", {"deviceId"}) + ", COALESCE(n.value, m.component), " +
                            name(T, "m", {"timestamp"}) + ", " + name(T, "m", {"totalAllocated"}) + ", " +
                            name(T, "m", {"totalReserved"}) + ", " + name(T, "m", {"totalActive"}) +
                            " FROM MEMORY_RECORD m LEFT JOIN STRING_IDS n ON n.id = m.component ORDER BY 1, 2, 3";
    SqliteStatement q(m_src.handle(), sql);
    if (!q.valid()) return queryError(T, m_src.handle());
    std::pair<std::int64_t, std::string> current{-1, {}};
    std::int64_t tracks[3] = {-1, -1, -1};
    static constexpr const char* kSeries[3] = {"Total Allocated", "Total Reserved", "Total Active"};
    int rc;
    while ((rc = q.step()) == SQLITE_ROW) {
        std::pair<std::int64_t, std::string> key{q.isNull(0) ? 0 : q.int64(0), q.text(1)};
        if (key != current) {
            current = key;
            const auto device = npuDevice(key.first);
            for (int i = 0; i < 3; ++i)
                tracks[i] = m_sink.addTrack(device, -1, TrackKind::counter, key.second + " " + kSeries[i],
                                            20000 + static_cast<int>(m_stats.counters % 1000) + i);
        }
        ++m_stats.memoryRecords;
        for (int i = 0; i < 3; ++i) {
            if (q.isNull(3 + i)) continue;
            m_sink.addCounter(tracks[i], q.int64(2), q.real(3 + i));
            ++m_stats.counters;
        }
    }
    return rc == SQLITE_DONE ? Status{} : queryError(T, m_src.handle());
}

// OP_MEMORY: one allocation per row into OP_MEMORY_ALLOC (names through STRING_IDS).
Status AscendDbReader::opMemory() {
    const char* T = "OP_MEMORY";
    if (!m_src.hasTable(T)) return {};
    auto orNull = [&](std::initializer_list<std::string_view> cols) {
        const std::string c = name(T, "m", cols);
        return "CASE WHEN " + c + " IS NULL OR " + c + " = '' THEN -1 ELSE CAST(" + c + " AS INTEGER) END";
    };
    const std::string sql = "SELECT " + name(T, "m", {"deviceId"}) + ", COALESCE(n.value, m.name), " +
                            name(T, "m", {"size"}) + ", " + name(T, "m", {"allocationTime"}) + ", " +
                            orNull({"releaseTime"}) + ", " + orNull({"activeReleaseTime"}) + ", " +
                            orNull({"duration"}) + ", " + name(T, "m", {"streamPtr"}) + ", " +
                            name(T, "m", {"allocationTotalAllocated"}) + ", " + name(T, "m", {"allocationTotalReserved"}) +
                            " FROM OP_MEMORY m LEFT JOIN STRING_IDS n ON n.id = m.name ORDER BY 4";
    SqliteStatement q(m_src.handle(), sql);
    if (!q.valid()) return queryError(T, m_src.handle());
    int rc;
    while ((rc = q.step()) == SQLITE_ROW) {
        OpAllocationRecord r;
        r.device = m_options.devicePrefix + "NPU:" + std::to_string(q.int64(0));
        r.op = q.text(1);
        r.size_bytes = q.int64(2);
        r.alloc_ns = q.int64(3);
        r.release_ns = q.int64(4);
        r.active_release_ns = q.int64(5);
        r.duration_ns = q.int64(6);
        r.stream = q.int64(7);
        // torch_npu stores the totals in bytes here (MB in operator_memory.csv).
        r.alloc_total_allocated_mb = q.real(8) / (1024.0 * 1024.0);
        r.alloc_total_reserved_mb = q.real(9) / (1024.0 * 1024.0);
        m_sink.addOpAllocation(r);
        ++m_stats.opAllocations;
    }
    return rc == SQLITE_DONE ? Status{} : queryError(T, m_src.handle());
}

void AscendDbReader::steps() {
    if (!m_options.writeSteps || !m_src.hasTable("STEP_TIME")) return;
    SqliteStatement q(m_src.handle(), "SELECT startNs, endNs FROM STEP_TIME ORDER BY startNs");
    while (q.step() == SQLITE_ROW) {
        m_sink.addStep(q.int64(0), q.int64(1));
        ++m_stats.steps;
    }
}

// Rows that are legal but odd, counted with one query each.
void AscendDbReader::oddRows() {
    const std::string file = m_src.path().filename().string();
    auto count = [&](DiagnosticKind kind, const char* table, const std::string& where, const std::string& what) {
        if (!m_src.hasTable(table)) return;
        const auto n = m_src.scalar(std::string("SELECT COUNT(*) FROM ") + table + " WHERE " + where);
        m_diag.add(kind, n, file + ": " + std::to_string(n) + " " + table + " rows " + what);
    };
    if (m_src.hasColumn("OP_MEMORY", "size"))
        count(DiagnosticKind::negative_size, "OP_MEMORY", "size < 0", "with a negative size");
    if (m_src.hasColumn("OP_MEMORY", "releaseTime"))
        count(DiagnosticKind::empty_release_time, "OP_MEMORY", "releaseTime IS NULL OR releaseTime = ''",
              "without a release time");
    // 65534/65535 are the enums' own N/A and INVALID_TYPE entries; other ids missing
    // from the ENUM_* table are unknown.
    for (auto [column, table] : {std::pair{"transportType", "ENUM_HCCL_TRANSPORT_TYPE"},
                                 {"linkType", "ENUM_HCCL_LINK_TYPE"}, {"rdmaType", "ENUM_HCCL_RDMA_TYPE"},
                                 {"dataType", "ENUM_HCCL_DATA_TYPE"}}) {
        if (!m_src.hasTable(table) || !m_src.hasColumn("COMMUNICATION_TASK_INFO", column)) continue;
        count(DiagnosticKind::unknown_enum_value, "COMMUNICATION_TASK_INFO",
              std::string(column) + " NOT IN (SELECT id FROM " + table + ")",
              std::string("whose ") + column + " is not in " + table);
    }
}

}  // namespace ascend_db

bool looksLikeAscendDb(const std::filesystem::path& file) {
    auto src = SqliteSource::open(file);
    return src && (*src)->hasTable("TASK") && (*src)->hasTable("STRING_IDS");
}

Expected<AscendDbStats> importAscendDb(const std::filesystem::path& file, TraceSink& sink, ImportDiagnostics& diag,
                                       const AscendDbOptions& options, const Progress& progress) {
    auto src = SqliteSource::open(file);
    if (!src) return src.error();
    if (!(*src)->hasTable("TASK") || !(*src)->hasTable("STRING_IDS"))
        return makeError(file.string() +
                         ": not an Ascend profiler database (expected the TASK and STRING_IDS tables of "
                         "ascend_pytorch_profiler_N.db or msprof_N.db)");
    ascend_db::AscendDbReader reader(**src, sink, diag, options, progress);
    return reader.run();
}

}  // namespace npu::profiler
