#include "engine/parallel/collective_traffic.h"

#include <map>

namespace npu::engine {

namespace {

using Traffic = std::map<std::pair<int, int>, double>;

void add(Traffic& t, int src, int dst, double bytes) {
    if (src != dst && bytes > 0) t[{src, dst}] += bytes;
}

// Bus-volume factor of a ring for one kind (collective_cost's flat shape).
double ringVolume(CollectiveKind kind, int n) {
    const double f = (n - 1.0) / n;
    switch (kind) {
    case CollectiveKind::all_reduce: return 2 * f;
    case CollectiveKind::broadcast: return 1;
    default: return f;
    }
}

void ring(Traffic& t, CollectiveKind kind, double bytes, const std::vector<int>& m) {
    const int n = static_cast<int>(m.size());
    if (n < 2) return;
    for (int i = 0; i < n; ++i) add(t, m[static_cast<std::size_t>(i)], m[static_cast<std::size_t>((i + 1) % n)], ringVolume(kind, n) * bytes);
}

void halvingDoubling(Traffic& t, CollectiveKind kind, double bytes, const std::vector<int>& m) {
    int p = 1;
    while (p * 2 <= static_cast<int>(m.size())) p *= 2;
    // Reduce-scatter and all-gather each exchange payload/2^k with the partner n/2^k away;
    // all-reduce does both.
    const double phases = kind == CollectiveKind::all_reduce ? 2 : 1;
    for (int d = p / 2, k = 1; d >= 1; d /= 2, ++k)
        for (int i = 0; i < p; ++i) add(t, m[static_cast<std::size_t>(i)], m[static_cast<std::size_t>(i ^ d)], phases * bytes / (1 << k));
}

void doubleBinaryTree(Traffic& t, double bytes, const std::vector<int>& m) {
    const int n = static_cast<int>(m.size());
    for (int mirror = 0; mirror < 2; ++mirror)
        for (int i = 1; i < n; ++i) {
            const int parent = (i - 1) / 2;
            const int a = mirror ? n - 1 - i : i, b = mirror ? n - 1 - parent : parent;
            add(t, m[static_cast<std::size_t>(a)], m[static_cast<std::size_t>(b)], bytes / 2);  // reduce up
            add(t, m[static_cast<std::size_t>(b)], m[static_cast<std::size_t>(a)], bytes / 2);  // broadcast down
        }
}

}  // namespace

std::vector<PairTraffic> collectiveTraffic(CollectiveKind kind, CollectiveAlgorithm algorithm, double bytes,
                                           const std::vector<int>& members, const std::function<int(int)>& nodeOf) {
    Traffic t;
    const int n = static_cast<int>(members.size());
    if (n >= 2 && bytes > 0) {
        const bool reduction = kind == CollectiveKind::all_reduce || kind == CollectiveKind::reduce_scatter || kind == CollectiveKind::all_gather;
        std::map<int, std::vector<int>> byNode;
        for (int r : members) byNode[nodeOf(r)].push_back(r);
        const std::size_t k = byNode.begin()->second.size();
        bool even = true;
        for (const auto& [node, rs] : byNode) even = even && rs.size() == k;
        if (kind == CollectiveKind::all_to_all) {
            for (int a : members)
                for (int b : members) add(t, a, b, bytes / n);
        } else if (kind == CollectiveKind::send_recv) {
            add(t, members.front(), members.back(), bytes);
        } else if (algorithm == CollectiveAlgorithm::hierarchical && reduction && byNode.size() > 1 && k > 1 && even) {
            for (const auto& [node, rs] : byNode) {
                if (kind != CollectiveKind::all_gather) ring(t, CollectiveKind::reduce_scatter, bytes, rs);
                if (kind != CollectiveKind::reduce_scatter) ring(t, CollectiveKind::all_gather, bytes, rs);
            }
            for (std::size_t place = 0; place < k; ++place) {
                std::vector<int> across;
                for (const auto& [node, rs] : byNode) across.push_back(rs[place]);
                ring(t, kind, bytes / static_cast<double>(k), across);
            }
        } else if (algorithm == CollectiveAlgorithm::halving_doubling && reduction) {
            halvingDoubling(t, kind, bytes, members);
        } else if (algorithm == CollectiveAlgorithm::tree && reduction) {
            if (kind == CollectiveKind::all_reduce) doubleBinaryTree(t, bytes, members);
            else halvingDoubling(t, kind, bytes, members);
        } else {
            ring(t, kind, bytes, members);
        }
    }
    std::vector<PairTraffic> out;
    for (const auto& [pair, b] : t) out.push_back({pair.first, pair.second, b});
    return out;
}

}  // namespace npu::engine
