#pragma once
// What a run's passes did taken together, as PassRecords the Passes panel and reports
// can show beside the per-pass rows: "Fusion passes" (the graph_level passes, which run
// after the pipeline's level-0 passes — precision, training graph, checkpointing — when
// any ran) and "Total" (every pass): the graph before the first and after the last, the
// passes' times summed; level -1.

#include "engine/result/simulation_result.h"

#include <vector>

namespace npu::engine {

std::vector<PassRecord> passSummaries(const std::vector<PassRecord>& passes);

}  // namespace npu::engine
