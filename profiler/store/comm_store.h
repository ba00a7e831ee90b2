#pragma once
// Ascend's communication analysis stored with a run (COMM_OP, COMM_BANDWIDTH,
// COMM_PACKET, COMM_MATRIX, CLUSTER_STEP, COMM_GROUP; docs/npudb-schema.md). Read back by
// profiler/analysis/communication_summary.

#include "base/expected.h"
#include "profiler/store/comm_records.h"

struct sqlite3;

namespace npu::profiler {

// Inside the writer's open transaction; the error names the table.
Status writeCommunication(sqlite3* db, const CommunicationData& data);

// COMM_GROUP.rank_set as msprof-analyze's cluster_analysis.db writes it: "(0,1,2,3)",
// ranks in the source's order.
std::string formatRankSet(const std::vector<std::int64_t>& ranks);

}  // namespace npu::profiler
