#pragma once
// Per-rank and per-link communication figures from the COMM_* tables (Ascend's own
// communication analysis, imported with the capture): what `--report` prints as
// communication.ranks[] and communication.matrix[].
//   rank rows: every collective and p2p op of the rank summed; wait_ratio is Ascend's
//              wait / (wait + transit) over those sums
//   links:     src -> dst per transport, from the "*-total" group entries when the
//              matrix has them (Ascend's per-group totals), else summed over its entries;
//              bandwidth = size / time (MB/ms = GB/s, Ascend's units)

#include "profiler/store/comm_records.h"

#include <cstdint>
#include <string>
#include <vector>

namespace npu::profiler {

class ProfileDb;

struct CommRankSummary {
    std::int64_t rank = 0;
    std::int64_t ops = 0;
    std::int64_t elapse_ns = 0, transit_ns = 0, wait_ns = 0, synchronization_ns = 0, idle_ns = 0;
    double wait_ratio = 0, synchronization_ratio = 0;
};

struct CommLinkSummary {
    std::int64_t src = 0, dst = 0;
    std::string transport;
    double size_mb = 0;
    std::int64_t time_ns = 0;
    double bandwidth_gbps = 0;
};

std::vector<CommRankSummary> communicationByRank(const ProfileDb& db);
// Every stored op row, by rank then start.
std::vector<CommOpRecord> loadCommOps(const ProfileDb& db);
std::vector<CommLinkSummary> communicationMatrix(const ProfileDb& db);

// COMM_GROUP as stored (msprof-analyze's communication groups; empty otherwise).
struct CommGroupSummary {
    std::string type, rankSet;  // "collective" | "p2p"; "(0,1,2,3)"
    std::int64_t size = 0;
};
std::vector<CommGroupSummary> communicationGroups(const ProfileDb& db);

}  // namespace npu::profiler
