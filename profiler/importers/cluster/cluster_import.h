#pragma once
// A folder of per-rank traces (one file per rank, the layout Holistic Trace Analysis
// and MindStudio Insight read) imported as one cluster run: files are parsed in
// parallel into per-file builders, one thread writes them in rank-file order, and
// each rank's devices are named "rank<N> GPU 0", "rank<N> CPU", ...

#include "base/expected.h"
#include "base/progress.h"
#include "profiler/importers/common/import_summary.h"
#include "profiler/store/trace_sink.h"

#include <filesystem>
#include <vector>

namespace npu::profiler {

// Trace files under folder (up to three levels deep), in natural name order.
std::vector<std::filesystem::path> findRankTraces(const std::filesystem::path& folder);
// The number after "rank" in the file name (rank-3.json.gz, rank_3, worker_rank3), or -1.
int rankFromFileName(const std::filesystem::path& file);

Expected<ImportSummary> importFolder(const std::filesystem::path& folder, TraceSink& sink, const ImportOptions& options,
                                     const Progress& progress);

}  // namespace npu::profiler
