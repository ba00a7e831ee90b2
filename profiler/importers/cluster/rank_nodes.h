#pragma once
// Which node (host) each rank of an imported multi-rank run ran on, from what its files
// record, so that device names lead with the node ("node 1 · rank9 GPU 0") and the
// timeline lists a node's ranks together, as it does for simulated clusters. In order:
//   1. host names, when every rank has one: Kineto's top-level "host_name" (trace_meta),
//      torch_npu's output folder {hostname}_{pid}_{timestamp}_ascend_pt, the HOST_INFO
//      table of its .db (hostUid, as two machines may share a hostname);
//   2. Kineto, rank / GPUs per host (deviceProperties) when distributedInfo.world_size
//      is known (torchrun numbers ranks node by node);
//   3. the transport types of Ascend's communication_matrix.json (or msprof-analyze's
//      cluster matrix), when every rank is in one of its links: HCCS, PCIE, SIO and LOCAL join two ranks on one node, RDMA
//      separates them;
//   4. nothing recorded: all ranks on one node, said by the nodes_assumed diagnostic.
// On one node the names keep their plain "rank<R> " prefix, as simulated runs do.

#include "profiler/importers/common/import_diagnostics.h"
#include "profiler/store/comm_records.h"

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace npu::profiler {

struct RankNodeEvidence {
    int rank = 0;
    std::string host;          // "" when the files name none
    int nodeByRankOrder = -1;  // rule 2, -1 when it does not apply
};

struct RankLink {
    int a = 0, b = 0;
    bool sameNode = false;
};

struct NodePlacement {
    std::map<int, int> nodeOfRank;
    int nodes = 1;
    std::string basis;  // what the nodes were derived from, for META_DATA and the diagnostic
    std::map<int, std::string> hostOfNode;  // rule 1 only: the timeline's node headers name the host
    // "node 1 · rank9 " on several nodes, "rank9 " on one: what a rank's device names start with.
    std::string devicePrefix(int rank) const;
};

NodePlacement placeRanksOnNodes(const std::vector<RankNodeEvidence>& ranks, const std::vector<RankLink>& links);

// The host of a torch_npu capture from its {hostname}_{pid}_{timestamp}_ascend_pt folder
// (the file's own folder or an ancestor up to three levels up); "" when renamed.
std::string hostFromAscendFolder(const std::filesystem::path& file);

// The host a torch_npu/msprof database records (HOST_INFO: "uid <hostUid> (<hostName>)"); "" without.
std::string hostOfAscendDb(const std::filesystem::path& db);

// Same-node and cross-node links of Ascend matrix rows (their transport types).
std::vector<RankLink> linksOfMatrix(const std::vector<CommMatrixRecord>& matrix);

// Same-node and cross-node links of communication_matrix.json beside a capture (none
// when absent or unreadable: it is evidence, not data this pass must have).
std::vector<RankLink> linksBesideCapture(const std::filesystem::path& capture);

// META_DATA "nodes" ({"basis": ..., "node_of_rank": {"0": 0, ...}}, "host_of_node": {"0":
// "hostA"} when hosts placed them; read back by profiler/store/device_nodes.h) and, when nothing
// recorded the hosts of several ranks, the nodes_assumed diagnostic.
void reportPlacement(const NodePlacement& placement, TraceSink& sink, ImportDiagnostics& diag);

}  // namespace npu::profiler
