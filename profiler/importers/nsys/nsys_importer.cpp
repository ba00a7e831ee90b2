#include "profiler/importers/nsys/nsys_importer.h"

#include "profiler/importers/common/import_diagnostics.h"
#include "profiler/importers/common/slice_stacker.h"
#include "profiler/importers/common/sqlite_source.h"
#include "profiler/store/sqlite_statement.h"

#include <map>
#include <unordered_map>

namespace npu::profiler {
namespace {

// Nsight packs ids: globalPid = pid << 24, globalTid = globalPid + tid.
std::int64_t nsysPidOf(std::int64_t globalId) { return globalId >> 24; }
std::int64_t nsysTidOf(std::int64_t globalTid) { return globalTid & 0xffffff; }
// Correlation ids are unique within a process.
std::int64_t flowKey(std::int64_t pid, std::int64_t correlation) { return (pid << 32) ^ (correlation & 0xffffffffLL); }

constexpr const char* kKernel = "CUPTI_ACTIVITY_KIND_KERNEL";
constexpr const char* kMemcpy = "CUPTI_ACTIVITY_KIND_MEMCPY";
constexpr const char* kMemset = "CUPTI_ACTIVITY_KIND_MEMSET";
constexpr const char* kRuntime = "CUPTI_ACTIVITY_KIND_RUNTIME";

class NsysReader {
public:
    NsysReader(const SqliteSource& src, TraceSink& sink, ImportDiagnostics& diag, const Progress& progress)
        : m_src(src), m_sink(sink), m_diag(diag), m_progress(progress) {}

    Expected<ImportSummary> run() {
        writeMeta();
        m_cpu = m_sink.addDevice("CPU", "cpu");
        ++m_summary.devices;
        if (auto s = runtimeCalls(); !s) return s.error();
        m_progress(0.3, "reading NVTX ranges");
        if (auto s = nvtxRanges(); !s) return s.error();
        m_progress(0.5, "reading kernels");
        if (auto s = deviceWork(); !s) return s.error();
        m_summary.diagnostics = m_diag.total();
        return m_summary;
    }

private:
    const SqliteSource& m_src;
    TraceSink& m_sink;
    ImportDiagnostics& m_diag;
    const Progress& m_progress;
    ImportSummary m_summary;
    std::int64_t m_cpu = -1;
    int m_hostTracks = 0;
    std::unordered_map<std::int64_t, std::int64_t> m_launches;  // flowKey -> runtime slice

    std::string col(const char* table, const char* alias, std::initializer_list<std::string_view> names) const {
        return m_src.col(table, alias, names, m_diag);
    }
    Status queryError(const char* table) const {
        return makeError(m_src.path().string() + ": reading " + table + ": " + sqlite3_errmsg(m_src.handle()));
    }

    void writeMeta() {
        m_sink.setMeta("source", "nsys");
        m_sink.setMeta("trace_file", m_src.path().string());
        if (m_src.hasTable("META_DATA_EXPORT")) {
            SqliteStatement q(m_src.handle(), "SELECT name, value FROM META_DATA_EXPORT");
            while (q.step() == SQLITE_ROW) m_sink.setMeta("nsys." + q.text(0), q.text(1));
        }
        if (m_src.hasTable("TARGET_INFO_GPU")) {
            const char* T = "TARGET_INFO_GPU";
            SqliteStatement q(m_src.handle(),
                              "SELECT json_group_array(json_object('id', " + col(T, "g", {"id"}) + ", 'name', " +
                                  col(T, "g", {"name"}) + ", 'totalGlobalMem', " + col(T, "g", {"totalMemory"}) +
                                  ", 'numSms', " + col(T, "g", {"smCount"}) + ", 'computeMajor', " +
                                  col(T, "g", {"computeMajor"}) + ", 'computeMinor', " + col(T, "g", {"computeMinor"}) +
                                  ", 'clockRate', " + col(T, "g", {"clockRate"}) + ", 'memoryBandwidth', " +
                                  col(T, "g", {"memoryBandwidth"}) + ", 'busLocation', " + col(T, "g", {"busLocation"}) +
                                  ")), (SELECT name FROM TARGET_INFO_GPU LIMIT 1) FROM TARGET_INFO_GPU g");
            if (q.valid() && q.step() == SQLITE_ROW) {
                m_sink.setMeta("deviceProperties", q.text(0));
                if (!q.isNull(1)) m_sink.setMeta("device", q.text(1));
            }
        }
    }

    std::string threadName(std::int64_t globalTid, const std::string& fallback) const {
        if (!m_src.hasTable("ThreadNames")) return fallback;
        SqliteStatement q(m_src.handle(), "SELECT s.value FROM ThreadNames t JOIN StringIds s ON s.id = t.nameId "
                                          "WHERE t.globalTid = ? LIMIT 1");
        q.bind(1, globalTid);
        return q.step() == SQLITE_ROW ? q.text(0) + " " + std::to_string(nsysTidOf(globalTid)) : fallback;
    }

    Status runtimeCalls() {
        if (!m_src.hasTable(kRuntime)) {
            m_diag.add(DiagnosticKind::missing_table, [&] { return m_src.path().filename().string() + ": no " + kRuntime; });
            return {};
        }
        const std::string sql = "SELECT r.start, r.\"end\", r.globalTid, s.value, r.correlationId FROM " +
                                std::string(kRuntime) + " r LEFT JOIN StringIds s ON s.id = " +
                                col(kRuntime, "r", {"nameId"}) + " ORDER BY r.globalTid, r.start, r.\"end\" DESC";
        SqliteStatement q(m_src.handle(), sql);
        if (!q.valid()) return queryError(kRuntime);
        SliceStacker stacker(m_sink);
        int rc;
        while ((rc = q.step()) == SQLITE_ROW) {
            const auto thread = q.int64(2);
            stacker.enter({thread, 0}, [&] {
                return m_sink.addTrack(m_cpu, -1, TrackKind::host_thread,
                                       threadName(thread, "Thread " + std::to_string(nsysTidOf(thread))), m_hostTracks++);
            });
            const std::string name = q.isNull(3) ? std::string("cuda runtime") : q.text(3);
            const auto slice = stacker.add(q.int64(0), q.int64(1), name, "cuda_runtime",
                                           "{\"correlation\":" + std::to_string(q.int64(4)) + "}");
            ++m_summary.slices;
            ++m_summary.events;
            m_launches.emplace(flowKey(nsysPidOf(thread), q.int64(4)), slice);
        }
        return rc == SQLITE_DONE ? Status{} : queryError(kRuntime);
    }

    Status nvtxRanges() {
        const char* T = "NVTX_EVENTS";
        if (!m_src.hasTable(T)) return {};
        // 59 NvtxPushPopRange, 60 NvtxStartEndRange (ENUM_NSYS_EVENT_TYPE); marks (34) have no extent.
        const std::string text = m_src.hasColumn(T, "textId")
                                     ? "COALESCE(n.text, (SELECT value FROM StringIds WHERE id = n.textId))"
                                     : "n.text";
        const std::string sql = "SELECT n.start, n.\"end\", n.globalTid, " + text + " FROM NVTX_EVENTS n WHERE " +
                                col(T, "n", {"eventType"}) +
                                " IN (59, 60) AND n.\"end\" IS NOT NULL ORDER BY n.globalTid, n.start, n.\"end\" DESC";
        SqliteStatement q(m_src.handle(), sql);
        if (!q.valid()) return queryError(T);
        SliceStacker stacker(m_sink);
        int rc;
        while ((rc = q.step()) == SQLITE_ROW) {
            const auto thread = q.int64(2);
            stacker.enter({thread, 0}, [&] {
                return m_sink.addTrack(m_cpu, -1, TrackKind::host_thread, "NVTX " + std::to_string(nsysTidOf(thread)),
                                       m_hostTracks++);
            });
            stacker.add(q.int64(0), q.int64(1), q.isNull(3) ? "nvtx" : q.text(3), "user_annotation");
            ++m_summary.slices;
            ++m_summary.events;
        }
        return rc == SQLITE_DONE ? Status{} : queryError(T);
    }

    // Kernels, copies and sets of every device in one ordered pass.
    Status deviceWork() {
        std::vector<std::string> parts;
        if (m_src.hasTable(kKernel)) {
            const std::string name = m_src.hasColumn(kKernel, "demangledName")
                                         ? "COALESCE((SELECT value FROM StringIds WHERE id = k.demangledName), "
                                           "(SELECT value FROM StringIds WHERE id = " + col(kKernel, "k", {"shortName"}) + "))"
                                         : "(SELECT value FROM StringIds WHERE id = " + col(kKernel, "k", {"shortName", "name"}) + ")";
            parts.push_back("SELECT k.start, k.\"end\", k.deviceId, k.streamId, k.globalPid, k.correlationId, " + name +
                            " AS name, 'kernel' AS cat, json_object('grid', json_array(" + col(kKernel, "k", {"gridX"}) +
                            ", " + col(kKernel, "k", {"gridY"}) + ", " + col(kKernel, "k", {"gridZ"}) +
                            "), 'block', json_array(" + col(kKernel, "k", {"blockX"}) + ", " + col(kKernel, "k", {"blockY"}) +
                            ", " + col(kKernel, "k", {"blockZ"}) + "), 'registers per thread', " +
                            col(kKernel, "k", {"registersPerThread"}) + ", 'shared memory', " +
                            col(kKernel, "k", {"staticSharedMemory"}) + " + " + col(kKernel, "k", {"dynamicSharedMemory"}) +
                            ", 'correlation', k.correlationId, 'stream', k.streamId, 'device', k.deviceId) AS args FROM " +
                            kKernel + " k");
        }
        if (m_src.hasTable(kMemcpy)) {
            const std::string kind = m_src.hasTable("ENUM_CUDA_MEMCPY_OPER")
                                         ? "COALESCE((SELECT label FROM ENUM_CUDA_MEMCPY_OPER WHERE id = m.copyKind), m.copyKind)"
                                         : col(kMemcpy, "m", {"copyKind"});
            parts.push_back("SELECT m.start, m.\"end\", m.deviceId, m.streamId, m.globalPid, m.correlationId, 'Memcpy ' || " +
                            kind + ", 'gpu_memcpy', json_object('bytes', " + col(kMemcpy, "m", {"bytes"}) +
                            ", 'correlation', m.correlationId, 'stream', m.streamId, 'device', m.deviceId) FROM " + kMemcpy +
                            " m");
        }
        if (m_src.hasTable(kMemset))
            parts.push_back("SELECT m.start, m.\"end\", m.deviceId, m.streamId, m.globalPid, m.correlationId, 'Memset', "
                            "'gpu_memset', json_object('bytes', " + col(kMemset, "m", {"bytes"}) +
                            ", 'value', " + col(kMemset, "m", {"value"}) +
                            ", 'correlation', m.correlationId, 'stream', m.streamId, 'device', m.deviceId) FROM " + kMemset +
                            " m");
        if (parts.empty()) {
            m_diag.add(DiagnosticKind::missing_table,
                       [&] { return m_src.path().filename().string() + ": no CUPTI kernel, memcpy or memset table"; });
            return {};
        }
        std::string all;
        for (const auto& p : parts) all += (all.empty() ? "" : " UNION ALL ") + p;
        // Track kinds from a small aggregate first: a stream of mostly NCCL kernels is comm.
        std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> tracks;
        std::map<std::int64_t, std::int64_t> devices;
        {
            SqliteStatement q(m_src.handle(), "SELECT deviceId, streamId, SUM(cat = 'kernel' AND name LIKE 'nccl%'), "
                                              "SUM(cat = 'kernel' AND name NOT LIKE 'nccl%'), COUNT(*) FROM (" + all +
                                                  ") GROUP BY 1, 2 ORDER BY 1, 2");
            if (!q.valid()) return queryError(kKernel);
            while (q.step() == SQLITE_ROW) {
                auto [it, added] = devices.try_emplace(q.int64(0), -1);
                if (added) {
                    it->second = m_sink.addDevice("GPU " + std::to_string(q.int64(0)), "gpu");
                    ++m_summary.devices;
                }
                const auto comm = q.int64(2), other = q.int64(3);
                const auto kind = comm > 0 && comm >= other ? TrackKind::comm
                                  : other > 0               ? TrackKind::compute
                                                            : TrackKind::memcpy;
                tracks[{q.int64(0), q.int64(1)}] =
                    m_sink.addTrack(it->second, -1, kind, "Stream " + std::to_string(q.int64(1)), static_cast<int>(q.int64(1)));
            }
        }
        SqliteStatement q(m_src.handle(), all + " ORDER BY 3, 4, 1, 2 DESC");
        if (!q.valid()) return queryError(kKernel);
        SliceStacker stacker(m_sink);
        int rc;
        std::int64_t unmatched = 0;
        while ((rc = q.step()) == SQLITE_ROW) {
            const SliceStacker::TrackKey key{q.int64(2), q.int64(3)};
            stacker.enter(key, [&] { return tracks.at(key); });
            const auto slice =
                stacker.add(q.int64(0), q.int64(1), q.isNull(6) ? "kernel" : q.text(6), q.text(7), q.text(8));
            ++m_summary.slices;
            ++m_summary.events;
            if (auto it = m_launches.find(flowKey(nsysPidOf(q.int64(4)), q.int64(5))); it != m_launches.end()) {
                m_sink.addFlow(it->second, slice, "ac2g");
                ++m_summary.flows;
            } else {
                ++unmatched;
            }
            if ((m_summary.slices & 0xffff) == 0 && m_progress.cancelled()) return cancelledError("import cancelled");
        }
        if (unmatched > 0)
            m_diag.add(DiagnosticKind::unmatched_correlation, unmatched,
                       std::to_string(unmatched) + " device activities have no CUDA runtime call with their correlationId");
        return rc == SQLITE_DONE ? Status{} : queryError(kKernel);
    }
};

}  // namespace

bool looksLikeNsysSource(const SqliteSource& src) {
    return src.hasTable("StringIds") &&
           (src.hasTable(kKernel) || src.hasTable(kRuntime) || src.hasTable("TARGET_INFO_GPU") || src.hasTable("NVTX_EVENTS"));
}

Expected<ImportSummary> importNsysInto(const std::filesystem::path& file, TraceSink& sink, const Progress& progress) {
    auto src = SqliteSource::open(file);
    if (!src) return src.error();
    if (!looksLikeNsysSource(**src))
        return makeError(file.string() + ": not an Nsight Systems SQLite export (expected StringIds and "
                                         "CUPTI_ACTIVITY_KIND_* tables)");
    ImportDiagnostics diag;
    NsysReader reader(**src, sink, diag, progress);
    auto summary = reader.run();
    if (!summary) return summary;
    diag.writeTo(sink);
    summary->diagnostics = diag.total();
    return summary;
}

}  // namespace npu::profiler
