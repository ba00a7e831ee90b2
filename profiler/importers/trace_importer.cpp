#include "profiler/importers/trace_importer.h"

#include "profiler/importers/memory_snapshot/memory_snapshot_importer.h"
#include "profiler/importers/memory_snapshot/memory_snapshot_reader.h"
#include "profiler/importers/profile_import.h"
#include "profiler/store/profile_db.h"

namespace npu::profiler {

Expected<ImportSummary> importTrace(const std::filesystem::path& traceOrFolder, const std::filesystem::path& outDb,
                                    const ImportOptions& options, const Progress& progress) {
    if (looksLikeMemorySnapshot(traceOrFolder)) return importMemorySnapshot(traceOrFolder, outDb, progress);
    return importProfile(traceOrFolder, outDb, options, progress);
}

bool looksLikeTrace(const std::filesystem::path& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) return detectProfile(path).format != ProfileFormat::unknown;
    const std::string name = path.filename().string();
    for (const char* ext : {".json", ".json.gz", ".db", ".sqlite", ".sqlite3"})
        if (name.ends_with(ext)) return true;
    return false;
}

}  // namespace npu::profiler
