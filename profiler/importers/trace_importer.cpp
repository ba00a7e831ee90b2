#include "profiler/importers/trace_importer.h"

#include "profiler/analysis/kernel_category_sink.h"
#include "profiler/importers/cluster_import.h"
#include "profiler/importers/trace_file_reader.h"
#include "profiler/importers/trace_import_into.h"
#include "profiler/store/profile_db.h"

namespace npu::profiler {

Expected<ImportSummary> importTrace(const std::filesystem::path& traceOrFolder, const std::filesystem::path& outDb,
                                    const ImportOptions& options, const Progress& progress) {
    // The writer builds a temporary file and renames it on commit: a failed or
    // cancelled import leaves nothing at outDb.
    auto writer = ProfileDbWriter::create(outDb);
    if (!writer) return writer.error();
    KernelCategorySink categorised(**writer);  // measured kernels grouped like simulated ops
    auto summary = importTraceInto(traceOrFolder, categorised, options, progress);
    if (!summary) return summary;
    progress(1.0, "building indexes");
    if (auto s = (*writer)->commit(); !s) return s.error();
    summary->db = outDb;
    return summary;
}

bool looksLikeTrace(const std::filesystem::path& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) return !findRankTraces(path).empty();
    const std::string name = path.filename().string();
    return name.ends_with(".json") || name.ends_with(".json.gz");
}

}  // namespace npu::profiler
