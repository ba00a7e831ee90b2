#pragma once
// importTrace without the database: parses a trace file or a folder of per-rank traces
// and emits it into any TraceSink (the .npudb writer, or an in-memory sink in tests).

#include "profiler/importers/trace_importer.h"
#include "profiler/store/trace_sink.h"

namespace npu::profiler {

// Any format importProfileInto detects (profile_import.h); kept under the name callers use.
Expected<ImportSummary> importTraceInto(const std::filesystem::path& traceOrFolder, TraceSink& sink,
                                        const ImportOptions& options = {}, const Progress& progress = {});
// Chrome Trace Event Format only: one file, or a folder of per-rank trace files.
Expected<ImportSummary> importChromeTraceInto(const std::filesystem::path& traceOrFolder, TraceSink& sink,
                                              const ImportOptions& options = {}, const Progress& progress = {});

}  // namespace npu::profiler
