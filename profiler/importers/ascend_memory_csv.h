#pragma once
// operator_memory.csv of an Ascend text export (ASCEND_PROFILER_OUTPUT): one allocation
// per row into the sink's per-operator allocation table. Sizes in KB and totals in MB
// as Ascend writes them; times in microseconds, at times with msprof's trailing tab
// (counted as a trailing_tab diagnostic and read without it); empty release times mean
// the block was still live when the capture stopped (empty_release_time).

#include "engine/core/expected.h"
#include "profiler/importers/import_diagnostics.h"
#include "profiler/store/trace_sink.h"

#include <filesystem>
#include <string>

namespace npu::profiler {

// Rows written; 0 when the file is absent. devicePrefix: "rank1 " in clusters.
Expected<std::int64_t> readOperatorMemoryCsv(const std::filesystem::path& outputDir, const std::string& devicePrefix,
                                             TraceSink& sink, ImportDiagnostics& diag);

}  // namespace npu::profiler
