#pragma once
// The memory csv files of an Ascend text export (ASCEND_PROFILER_OUTPUT), read through
// AscendCsv. Sizes in KB and totals in MB (binary: 1 MB = 1024 KB = 1 MiB) as Ascend
// writes them; times in epoch microseconds; empty release times in operator_memory.csv
// mean the block was still live when the capture stopped (empty_release_time).

#include "base/expected.h"
#include "profiler/importers/common/import_diagnostics.h"
#include "profiler/store/trace_sink.h"

#include <filesystem>
#include <string>

namespace npu::profiler {

// Rows written; 0 when the file is absent. devicePrefix: "rank1 " in clusters.
Expected<std::int64_t> readOperatorMemoryCsv(const std::filesystem::path& outputDir, const std::string& devicePrefix,
                                             TraceSink& sink, ImportDiagnostics& diag);

// memory_record.csv: per component (APP, PTA, GE, PTA+GE, ...) the Total Allocated,
// Reserved and Active MB over time, as counter tracks "<component> Total Allocated" in
// bytes on the device the trace import named "<prefix>NPU <n>". Samples written; 0 when
// the file is absent.
Expected<std::int64_t> readMemoryRecordCsv(const std::filesystem::path& outputDir, const std::string& devicePrefix,
                                           TraceSink& sink, ImportDiagnostics& diag);

}  // namespace npu::profiler
