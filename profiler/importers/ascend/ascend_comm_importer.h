#pragma once
// Ascend's communication analysis of one rank, as torch_npu writes it beside a capture:
// ASCEND_PROFILER_OUTPUT/communication.json + communication_matrix.json (text exports)
// or analysis.db (CommAnalyzerTime / CommAnalyzerBandwidth / CommAnalyzerMatrix, the
// database exports). Times in the files are milliseconds (start in microseconds); they
// are stored in integer nanoseconds. The "Total Op Info" summary entry is not an op and
// is skipped (its figures are the sums of the ops').

#include "base/expected.h"
#include "profiler/importers/common/import_diagnostics.h"
#include "profiler/store/comm_records.h"
#include "profiler/store/trace_sink.h"

#include <nlohmann/json.hpp>

#include <filesystem>

namespace npu::profiler {

// One of Ascend's json analysis files, whole (they are small: one entry per op); the
// error names the file and the byte where the JSON stops making sense.
Expected<nlohmann::json> readAnalysisJson(const std::filesystem::path& file);

// communication.json and communication_matrix.json in `outputDir` (either may be
// absent: nothing is added). Malformed JSON is an error naming the file.
Status readCommunicationJson(const std::filesystem::path& outputDir, std::int64_t rank, CommunicationData& out,
                             ImportDiagnostics& diag);

// One communication_matrix.json: each "src-dst" link of each op with its transport type.
Status readCommunicationMatrixJson(const std::filesystem::path& file, CommunicationData& out, ImportDiagnostics& diag);

// analysis.db's CommAnalyzer* tables, copied by SQLite itself into the sink's COMM_*
// tables (TraceSink::copyFromSqlite: attached, one INSERT ... SELECT per table).
Status copyCommunicationAnalysisDb(const std::filesystem::path& analysisDb, std::int64_t rank, TraceSink& sink,
                                   ImportDiagnostics& diag);

// cluster_communication.json and cluster_communication_matrix.json of msprof-analyze's
// cluster_analysis_output folder, every rank of the cluster at once (either file may be
// absent). Op type comes from the json's grouping: "p2p", else a collective group's rank
// set. The rest of the folder and cluster_analysis.db: ascend_cluster_importer.h.
Status readClusterCommunicationJson(const std::filesystem::path& folder, CommunicationData& out, ImportDiagnostics& diag);

}  // namespace npu::profiler
