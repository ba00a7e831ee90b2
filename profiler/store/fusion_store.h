#pragma once
// What graph fusion did in a simulated run, stored with it: the per-pass statistics
// (PASS_STATS) and the graph before and after fusion (RUN_GRAPH, engine/npuom graph
// JSON gzip-compressed) so an opened run can show its Passes panel and Graph tab.
// Documented in docs/npudb-schema.md.

#include "base/expected.h"
#include "engine/result/simulation_result.h"

#include <string>
#include <vector>

struct sqlite3;

namespace npu::profiler {

class ProfileDb;

inline constexpr const char* kGraphBeforeFusion = "before_fusion";
inline constexpr const char* kGraphAfterFusion = "after_fusion";

// Inside the writer's open transaction (ProfileDbWriter::handle()).
Status writeFusionRecords(sqlite3* db, const engine::SimulationResult& result);

// Empty for runs without passes (imports, files written before schema 2).
std::vector<engine::PassRecord> readPassStats(const ProfileDb& db);
// The graph JSON text stored under `name` (kGraphBeforeFusion/kGraphAfterFusion);
// empty when the run stored none; an error when the stored blob does not decompress.
Expected<std::string> readRunGraph(const ProfileDb& db, const std::string& name);

}  // namespace npu::profiler
