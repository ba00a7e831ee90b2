#include "profiler/importers/trace_import_into.h"

#include "profiler/importers/chrome_json/trace_file_reader.h"
#include "profiler/importers/chrome_json/trace_meta.h"
#include "profiler/importers/cluster/cluster_import.h"
#include "profiler/importers/profile_import.h"

#include <atomic>
#include <chrono>

namespace npu::profiler {

namespace {

Expected<ImportSummary> importFile(const std::filesystem::path& file, TraceSink& sink, const ImportOptions& options,
                                   const Progress& progress) {
    std::error_code ec;
    const double total = std::max<double>(1.0, static_cast<double>(std::filesystem::file_size(file, ec)));
    std::uint64_t consumed = 0;
    ReadOptions read;
    read.cancel = progress.cancel;
    read.keepEventsBeforeCut = !options.refuseTruncated;
    read.onBytes = [&](std::uint64_t delta) {
        consumed += delta;
        progress(kTraceReadShare * std::min(1.0, double(consumed) / total), "reading trace");
    };
    auto builder = readTraceFile(file, read);
    if (!builder) return builder.error();
    TraceBuilder& b = **builder;
    writeSingleTraceMeta(b, file, sink);
    auto stats = b.writeTo(sink, TraceEmitOptions{}, progress, kTraceReadShare, 1.0);
    if (!stats) return stats.error();
    b.diagnostics().writeTo(sink);
    ImportSummary s = b.emittedCounts(*stats);
    s.diagnostics = b.diagnostics().total();
    return s;
}

}  // namespace

Expected<ImportSummary> importTraceInto(const std::filesystem::path& traceOrFolder, TraceSink& sink,
                                        const ImportOptions& options, const Progress& progress) {
    return importProfileInto(traceOrFolder, sink, options, progress);
}

Expected<ImportSummary> importChromeTraceInto(const std::filesystem::path& traceOrFolder, TraceSink& sink,
                                              const ImportOptions& options, const Progress& progress) {
    const auto started = std::chrono::steady_clock::now();
    std::error_code ec;
    if (!std::filesystem::exists(traceOrFolder, ec))
        return makeError(traceOrFolder.string() + ": no such file or folder");
    auto result = std::filesystem::is_directory(traceOrFolder, ec) ? importFolder(traceOrFolder, sink, options, progress)
                                                                    : importFile(traceOrFolder, sink, options, progress);
    if (!result) return result;
    // The run report's `events`: trace events read, not rows stored (metadata, flow
    // and [memory] events make no slice).
    sink.setMeta("event_count", std::to_string(result->events));
    result->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return result;
}

}  // namespace npu::profiler
