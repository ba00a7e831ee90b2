#pragma once
// What a multi-rank import needs to know about each rank beyond its events: its number,
// the evidence of its node, its first step (clock alignment), its file's metadata and
// counts. One list of these drives both ways a cluster database is built, so they give
// the same file:
//   - importFolder, which reads every rank's trace itself;
//   - mergeRankDatabases (rank_merge.h), which joins one-rank imports made elsewhere
//     (`--import RANK_FOLDER --out R_k.npudb` on any machine, then `--merge R_*.npudb`).
// The list is stored as META_DATA "rank_evidence" so a one-rank import carries it to
// the merge.

#include "base/expected.h"
#include "profiler/importers/cluster/rank_nodes.h"
#include "profiler/importers/common/import_diagnostics.h"
#include "profiler/importers/common/import_summary.h"

#include <cstdint>
#include <string>
#include <vector>

namespace npu::profiler {

struct ImportedRank {
    int rank = 0;
    std::string file;          // the trace's file name, as META_DATA trace_files lists it
    std::string devicePrefix;  // what its devices' names start with where it was written
    std::string host;          // rank_nodes.h rule 1, "" when the file names none
    int nodeByRankOrder = -1;  // rule 2
    std::vector<RankLink> links;      // rule 3: links its capture folder records
    std::int64_t firstStepNs = -1;    // its first ProfilerStep's start on its own clock, -1 without
    std::int64_t shiftNs = 0;         // what alignment added to its times
    std::string source;               // kineto | ascend | chrome
    std::string distributedInfo;      // the trace's top-level JSON, "" without
    std::string deviceProperties;
    std::string deviceName;           // deviceProperties[0].name
    ImportSummary counts;             // events through devices
};

// META_DATA "rank_evidence": the list as a JSON array, and back (an error names what is wrong).
std::string rankEvidenceJson(const std::vector<ImportedRank>& ranks);
Expected<std::vector<ImportedRank>> parseRankEvidence(std::string_view json);

// How the ranks (in file order) are written: each one's clock shift (when aligning at the
// first ProfilerStep: onto the first rank that has one), the nodes they ran on, and the
// order they are written in (node by node, file order within a node).
struct ClusterPlan {
    NodePlacement placement;
    std::vector<std::size_t> writeOrder;
    int referenceRank = -1;
    std::int64_t shifted = 0;
    std::string shifts;  // "rank 1 +0.250000 ms, ..." for the ranks_aligned diagnostic
};
// Sets each rank's shiftNs; ranks without a step are said by rank_not_aligned.
ClusterPlan planCluster(std::vector<ImportedRank>& ranks, bool alignAtStepStart, ImportDiagnostics& diagnostics);

// After every rank is written: the ranks_aligned diagnostic, the cluster's META_DATA
// (source, cluster, ranks, trace_files, distributedInfo, world_size, deviceProperties,
// device, nodes, rank_evidence) and the diagnostics.
void finishCluster(const ClusterPlan& plan, const std::vector<ImportedRank>& ranks, TraceSink& sink,
                   ImportDiagnostics& diagnostics);

}  // namespace npu::profiler
