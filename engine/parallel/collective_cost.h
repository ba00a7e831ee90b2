#pragma once
// Time of one collective by the alpha-beta model of its algorithm on the cluster's links.
// Bandwidth terms use the data each rank moves under that algorithm (a ring all-reduce
// 2(n-1)/n of the buffer, a pipelined tree 2); latency terms count the algorithm's
// sequential steps. The bus bandwidth reported is nccl-tests' (doc/PERFORMANCE.md): the
// algorithm bandwidth times a factor of the collective and the group size only, whatever
// the algorithm, so figures compare with nccl-tests runs and with measured traces. Hierarchical all-reduce follows HCCL's order:
// reduce-scatter inside each node, all-reduce of each rank's shard across nodes (the NICs
// of a node shared by its ranks), all-gather inside each node.

#include "engine/parallel/cluster_spec.h"

#include <cstdint>
#include <string>
#include <vector>

namespace npu::engine {

enum class CollectiveKind { all_reduce, reduce_scatter, all_gather, broadcast, send_recv, all_to_all };
enum class CollectiveAlgorithm { ring, halving_doubling, tree, hierarchical };

std::string_view collectiveKindName(CollectiveKind k);
std::string_view collectiveAlgorithmName(CollectiveAlgorithm a);
// "ring" | "halving_doubling" | "tree" | "hierarchical"; false for anything else.
bool parseCollectiveAlgorithm(std::string_view name, CollectiveAlgorithm& out);

// The ranks of one communication group as the cluster places them: how many nodes it
// spans and how many of its ranks sit in each node (groups are laid out node-major, as
// Megatron orders TP inside a node, then DP/PP across).
struct GroupPlacement {
    int ranks = 1;
    int nodes = 1;            // nodes the group spans
    int ranksPerNode = 1;     // ranks of the group inside one node
    int sharersPerNic = 1;    // groups running the same collective at once over a node's NICs
};

GroupPlacement placeGroup(const ClusterSpec& cluster, int ranks, int stride);

// nccl-tests' busbw / algbw for a collective over `ranks` ranks: 2(n-1)/n for all-reduce,
// (n-1)/n for reduce-scatter, all-gather and all-to-all, 1 for broadcast and send/recv
// (and for a group of one).
double busBandwidthFactor(CollectiveKind kind, int ranks);

struct CollectiveCost {
    double timeNs = 0;
    double latencyNs = 0;       // the alpha part
    double transferNs = 0;      // the beta part
    double wireBytes = 0;       // bytes each rank moves under the algorithm (the transfer term)
    double busBytes = 0;        // the buffer x busBandwidthFactor (nccl-tests' bus volume)
    double algBandwidth = 0;    // bytes / time (nccl-tests algbw)
    double busBandwidth = 0;    // busBytes / time (nccl-tests busbw)
    std::string link;           // "intra" | "inter" | "intra+inter"
};

// bytes: the payload of the collective per rank (the buffer each rank holds, as
// nccl-tests' size). A group of one rank costs nothing.
CollectiveCost collectiveCost(CollectiveKind kind, CollectiveAlgorithm algorithm, double bytes, const GroupPlacement& group,
                              const ClusterSpec& cluster);

// The same collective on links running at factor x their bandwidth (a slow-link what-if):
// the transfer stretches by 1/factor, the latency stays.
CollectiveCost withBandwidthFactor(CollectiveCost cost, double factor);

}  // namespace npu::engine
