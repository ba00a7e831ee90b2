#pragma once
// The reader behind importAscendDb (ascend_db_importer.h), one method per table: the
// entry point, metadata, steps, memory tables and odd-row counts are in
// ascend_db_importer.cpp; the tables that become slices and flows (PYTORCH_API,
// CANN_API, TASK, COMMUNICATION_OP) in ascend_db_slices.cpp.

#include "profiler/importers/ascend/ascend_db_importer.h"
#include "profiler/importers/common/sqlite_source.h"

#include <initializer_list>
#include <cstdint>
#include <map>
#include <string_view>
#include <unordered_map>

namespace npu::profiler::ascend_db {

class AscendDbReader {
public:
    AscendDbReader(const SqliteSource& src, TraceSink& sink, ImportDiagnostics& diag, const AscendDbOptions& o,
                   const Progress& progress)
        : m_src(src), m_sink(sink), m_diag(diag), m_options(o), m_progress(progress) {}

    Expected<AscendDbStats> run();

private:
    const SqliteSource& m_src;
    TraceSink& m_sink;
    ImportDiagnostics& m_diag;
    const AscendDbOptions& m_options;
    const Progress& m_progress;
    AscendDbStats m_stats;
    std::int64_t m_cpu = -1;
    std::int64_t m_hostTracks = 0;
    std::map<std::int64_t, std::int64_t> m_npu;  // deviceId -> device row
    // connectionId -> host slice, for flows to the tasks launched.
    std::unordered_map<std::int64_t, std::int64_t> m_pytorchFlows, m_cannFlows;

    std::string name(const char* table, const char* alias, std::initializer_list<std::string_view> cols) const;
    Status queryError(const char* table, sqlite3* db) const;
    std::int64_t npuDevice(std::int64_t deviceId);
    void writeMeta();

    // ascend_db_slices.cpp: host ranges, tasks and collectives as slices, with their flows
    Status hostRanges(const char* table, const char* prefix, const char* category,
                      std::unordered_map<std::int64_t, std::int64_t>& flows);
    Status tasks();
    Status communicationOps();

    // ascend_db_importer.cpp: memory counters, per-operator allocations, steps, odd rows
    Status memoryRecords();
    Status opMemory();
    void steps();
    void oddRows();
};

}  // namespace npu::profiler::ascend_db
