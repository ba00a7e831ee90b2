#pragma once
// The report's JSON of a cluster run (docs/report-format.md: "cluster", "ranks",
// "bubble_fraction", "collectives"), written by the batch report and stored with the run.

#include "engine/result/cluster_summary.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace npu::engine {

// Adds the keys to report (nothing when the run is not a cluster run).
void addClusterReport(nlohmann::json& report, const ClusterSummary& cluster);

// The report's "advice" read back (an opened run's META_DATA cluster_report); entries of
// the wrong shape are skipped, so a damaged key shows less advice, never a crash.
std::vector<CommunicationAdvice> readCommunicationAdvice(const nlohmann::json& report);

// "communication.bucket_size_mb: 12.5, parallel.tensor_parallel: 4" (the console and the
// Diagnostics tab show a change this way).
std::string describeChange(const nlohmann::json& change);

}  // namespace npu::engine
