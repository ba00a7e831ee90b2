#pragma once
// The report's JSON of a cluster run (docs/report-format.md: "cluster", "ranks",
// "bubble_fraction", "collectives"), written by the batch report and stored with the run.

#include "engine/cluster/cluster_summary.h"

#include <nlohmann/json.hpp>

namespace npu::engine {

// Adds the keys to report (nothing when the run is not a cluster run).
void addClusterReport(nlohmann::json& report, const ClusterSummary& cluster);

}  // namespace npu::engine
