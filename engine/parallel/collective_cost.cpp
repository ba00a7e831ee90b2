#include "engine/parallel/collective_cost.h"

#include <algorithm>
#include <cmath>

namespace npu::engine {

std::string_view collectiveKindName(CollectiveKind k) {
    switch (k) {
    case CollectiveKind::all_reduce: return "all_reduce";
    case CollectiveKind::reduce_scatter: return "reduce_scatter";
    case CollectiveKind::all_gather: return "all_gather";
    case CollectiveKind::broadcast: return "broadcast";
    case CollectiveKind::send_recv: return "send_recv";
    case CollectiveKind::all_to_all: return "all_to_all";
    }
    return "all_reduce";
}

std::string_view collectiveAlgorithmName(CollectiveAlgorithm a) {
    switch (a) {
    case CollectiveAlgorithm::ring: return "ring";
    case CollectiveAlgorithm::halving_doubling: return "halving_doubling";
    case CollectiveAlgorithm::tree: return "tree";
    case CollectiveAlgorithm::hierarchical: return "hierarchical";
    }
    return "ring";
}

bool parseCollectiveAlgorithm(std::string_view name, CollectiveAlgorithm& out) {
    for (auto a : {CollectiveAlgorithm::ring, CollectiveAlgorithm::halving_doubling, CollectiveAlgorithm::tree,
                   CollectiveAlgorithm::hierarchical})
        if (collectiveAlgorithmName(a) == name) {
            out = a;
            return true;
        }
    return false;
}

GroupPlacement placeGroup(const ClusterSpec& cluster, int ranks, int stride) {
    GroupPlacement g;
    g.ranks = std::max(ranks, 1);
    stride = std::max(stride, 1);
    const int perNode = cluster.devicesPerNode;
    // Ranks r*stride for r in [0, ranks): how many share a node.
    g.ranksPerNode = stride >= perNode ? 1 : std::min(g.ranks, std::max(perNode / stride, 1));
    g.nodes = (g.ranks + g.ranksPerNode - 1) / g.ranksPerNode;
    // Groups with a stride inside a node run side by side and share its NICs.
    g.sharersPerNic = std::min(stride, perNode);
    return g;
}

double busBandwidthFactor(CollectiveKind kind, int ranks) {
    if (ranks < 2) return 1;
    const double n = ranks;
    switch (kind) {
    case CollectiveKind::all_reduce: return 2 * (n - 1) / n;
    case CollectiveKind::reduce_scatter:
    case CollectiveKind::all_gather:
    case CollectiveKind::all_to_all: return (n - 1) / n;
    case CollectiveKind::broadcast:
    case CollectiveKind::send_recv: return 1;
    }
    return 1;
}

namespace {

// Steps and wire-volume factor of a flat algorithm over n ranks for one collective kind.
struct Shape {
    double steps = 0;       // sequential latency steps
    double volume = 0;      // bytes each rank moves, as a fraction of the payload
};

Shape flatShape(CollectiveKind kind, CollectiveAlgorithm algo, int n) {
    const double nn = n, f = (nn - 1) / nn, lg = std::ceil(std::log2(nn));
    switch (kind) {
    case CollectiveKind::all_reduce:
        if (algo == CollectiveAlgorithm::ring) return {2 * (nn - 1), 2 * f};
        if (algo == CollectiveAlgorithm::halving_doubling) return {2 * lg, 2 * f};  // Rabenseifner
        return {2 * lg, 2};  // pipelined double binary tree: full bandwidth, log latency
    case CollectiveKind::reduce_scatter:
    case CollectiveKind::all_gather:
        if (algo == CollectiveAlgorithm::ring) return {nn - 1, f};
        return {lg, f};
    case CollectiveKind::broadcast: return {algo == CollectiveAlgorithm::ring ? nn - 1 : lg, 1};
    case CollectiveKind::send_recv: return {1, 1};
    case CollectiveKind::all_to_all: return {nn - 1, f};
    }
    return {};
}

CollectiveCost flat(CollectiveKind kind, CollectiveAlgorithm algo, double bytes, int n, const LinkSpec& link, double bandwidth) {
    CollectiveCost c;
    const Shape s = flatShape(kind, algo, n);
    c.wireBytes = s.volume * bytes;
    c.latencyNs = s.steps * link.latencyNs;
    c.transferNs = bandwidth > 0 ? c.wireBytes / bandwidth * 1e9 : 0;
    c.timeNs = c.latencyNs + c.transferNs;
    return c;
}

}  // namespace

CollectiveCost collectiveCost(CollectiveKind kind, CollectiveAlgorithm algorithm, double bytes, const GroupPlacement& g,
                              const ClusterSpec& cluster) {
    CollectiveCost c;
    if (g.ranks <= 1 || bytes <= 0) return c;
    // One device's share of the node's NICs when every rank of the node talks across nodes.
    const double interPerRank = cluster.nodeInterBandwidth() / std::max(g.ranksPerNode * g.sharersPerNic, 1);
    // A ring over a ring topology uses one direction of each hop; over a switch or full
    // mesh every device has its own port bandwidth either way.
    const double intraBw = cluster.intra.bandwidth;
    if (g.nodes <= 1) {
        c = flat(kind, algorithm == CollectiveAlgorithm::hierarchical ? CollectiveAlgorithm::ring : algorithm, bytes, g.ranks,
                 cluster.intra, intraBw);
        c.link = "intra";
    } else if (algorithm != CollectiveAlgorithm::hierarchical || g.ranksPerNode <= 1 ||
               (kind != CollectiveKind::all_reduce && kind != CollectiveKind::reduce_scatter && kind != CollectiveKind::all_gather)) {
        // A flat algorithm across nodes runs at the slowest hop: the network.
        LinkSpec slow = cluster.inter;
        const double bw = std::min(intraBw > 0 ? intraBw : interPerRank, interPerRank);
        c = flat(kind, algorithm == CollectiveAlgorithm::hierarchical ? CollectiveAlgorithm::ring : algorithm, bytes, g.ranks, slow, bw);
        c.link = g.ranksPerNode > 1 ? "intra+inter" : "inter";
    } else {
        // HCCL/NCCL hierarchical: intra reduce-scatter, inter all-reduce of the shard,
        // intra all-gather (all-reduce); reduce-scatter/all-gather take the matching halves.
        const double shard = bytes / g.ranksPerNode;
        CollectiveCost rs = flat(CollectiveKind::reduce_scatter, CollectiveAlgorithm::ring, bytes, g.ranksPerNode, cluster.intra, intraBw);
        // Every rank of a node runs its shard's inter-node step at once: they share the NICs.
        CollectiveCost mid = flat(kind, CollectiveAlgorithm::ring, shard, g.nodes, cluster.inter, interPerRank);
        CollectiveCost ag = flat(CollectiveKind::all_gather, CollectiveAlgorithm::ring, bytes, g.ranksPerNode, cluster.intra, intraBw);
        c.latencyNs = mid.latencyNs;
        c.transferNs = mid.transferNs;
        c.wireBytes = mid.wireBytes;
        if (kind != CollectiveKind::all_gather) {
            c.latencyNs += rs.latencyNs;
            c.transferNs += rs.transferNs;
            c.wireBytes += rs.wireBytes;
        }
        if (kind != CollectiveKind::reduce_scatter) {
            c.latencyNs += ag.latencyNs;
            c.transferNs += ag.transferNs;
            c.wireBytes += ag.wireBytes;
        }
        c.timeNs = c.latencyNs + c.transferNs;
        c.link = "intra+inter";
    }
    c.busBytes = bytes * busBandwidthFactor(kind, g.ranks);
    if (c.timeNs > 0) {
        c.algBandwidth = bytes / (c.timeNs * 1e-9);
        c.busBandwidth = c.busBytes / (c.timeNs * 1e-9);
    }
    return c;
}

CollectiveCost withBandwidthFactor(CollectiveCost cost, double factor) {
    if (factor <= 0 || factor == 1 || cost.timeNs <= 0) return cost;
    cost.transferNs /= factor;
    cost.timeNs = cost.latencyNs + cost.transferNs;
    const double scale = cost.timeNs > 0 ? (cost.latencyNs + cost.transferNs * factor) / cost.timeNs : 0;
    cost.algBandwidth *= scale;
    cost.busBandwidth *= scale;
    return cost;
}

}  // namespace npu::engine
