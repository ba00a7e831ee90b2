#pragma once
// Ascend's communication analysis of one rank, as torch_npu writes it beside a capture:
// ASCEND_PROFILER_OUTPUT/communication.json + communication_matrix.json (text exports)
// or analysis.db (CommAnalyzerTime / CommAnalyzerBandwidth / CommAnalyzerMatrix, the
// database exports). Times in the files are milliseconds (start in microseconds); they
// are stored in integer nanoseconds. The "Total Op Info" summary entry is not an op and
// is skipped (its figures are the sums of the ops').

#include "engine/core/expected.h"
#include "profiler/importers/import_diagnostics.h"
#include "profiler/store/comm_records.h"

#include <filesystem>

namespace npu::profiler {

// communication.json and communication_matrix.json in `outputDir` (either may be
// absent: nothing is added). Malformed JSON is an error naming the file.
Status readCommunicationJson(const std::filesystem::path& outputDir, std::int64_t rank, CommunicationData& out,
                             ImportDiagnostics& diag);

// analysis.db's CommAnalyzer* tables.
Status readCommunicationAnalysisDb(const std::filesystem::path& analysisDb, std::int64_t rank, CommunicationData& out,
                                   ImportDiagnostics& diag);

// msprof-analyze's cluster outputs, every rank of the cluster at once: cluster_analysis.db
// (ClusterCommAnalyzerTime / Bandwidth / Matrix) or the cluster_analysis_output folder
// (cluster_communication.json, cluster_communication_matrix.json). Op type (collective
// or p2p) comes from the json's grouping, and for the database from the op name
// (hcom_send / hcom_receive are p2p).
bool looksLikeClusterAnalysis(const std::filesystem::path& fileOrFolder);
Status readClusterAnalysis(const std::filesystem::path& fileOrFolder, CommunicationData& out, ImportDiagnostics& diag);

}  // namespace npu::profiler
