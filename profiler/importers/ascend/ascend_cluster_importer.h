#pragma once
// msprof-analyze's cluster analysis, every rank of the cluster at once, in either form:
//   cluster_analysis.db: ClusterStepTraceTime, ClusterCommAnalyzerTime / Bandwidth /
//     Matrix, CommunicationGroup. Copied with SQL alone (TraceSink::copyFromSqlite: the
//     file is attached, one INSERT ... SELECT per table in the .npudb's transaction), so
//     a database of any size imports in bounded memory.
//   cluster_analysis_output/: cluster_step_trace_time.csv, cluster_communication.json,
//     cluster_communication_matrix.json, communication_group.json (small text files,
//     parsed here).
// Both land in the same tables: CLUSTER_STEP (the step breakdown per step and rank as
// Ascend computed it, microseconds stored as integer nanoseconds), COMM_OP, COMM_BANDWIDTH,
// COMM_PACKET, COMM_MATRIX, COMM_GROUP. "Total Op Info" entries are sums, not ops, and are
// left out. Op type: "p2p" for send/receive ops (the database) or ops filed under "p2p"
// (the json), else "collective". There is no timeline: the analysis has none.

#include "base/expected.h"
#include "profiler/importers/common/import_diagnostics.h"
#include "profiler/importers/common/sqlite_source.h"
#include "profiler/store/trace_sink.h"

#include <filesystem>

namespace npu::profiler {

bool isClusterAnalysisDb(const SqliteSource& db);
// A cluster_analysis.db or a folder holding any of the cluster_analysis_output files.
bool looksLikeClusterAnalysis(const std::filesystem::path& fileOrFolder);

// Imports into `sink` and sets its META_DATA: source "ascend_cluster_analysis",
// trace_file, cluster "true", ranks (every rank the analysis names: step rows, ops, links
// and groups, comma-separated, ascending) and world_size (their number). Returns the
// number of source rows read (the run's event count).
Expected<std::int64_t> importClusterAnalysis(const std::filesystem::path& fileOrFolder, TraceSink& sink,
                                             ImportDiagnostics& diag);

}  // namespace npu::profiler
