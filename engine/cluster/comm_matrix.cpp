#include "engine/cluster/comm_matrix.h"

#include "engine/parallel/collective_traffic.h"

#include <map>
#include <set>

namespace npu::engine {

namespace {

bool parseKind(const std::string& name, CollectiveKind& out) {
    for (auto k : {CollectiveKind::all_reduce, CollectiveKind::reduce_scatter, CollectiveKind::all_gather, CollectiveKind::broadcast,
                   CollectiveKind::send_recv, CollectiveKind::all_to_all})
        if (collectiveKindName(k) == name) {
            out = k;
            return true;
        }
    return false;
}

}  // namespace

std::vector<CommLink> communicationMatrix(const ClusterSetup& setup, const std::vector<RankTimeSplit>& ranks) {
    const ParallelConfig& par = setup.parallel;
    const int D = par.dataParallel, T = par.tensorParallel, P = par.pipelineStages;
    std::set<int> listed;
    for (const auto& r : ranks) listed.insert(r.rank);
    std::map<std::pair<int, int>, CommLink> links;
    const auto nodeOf = [&](int r) { return setup.nodeOf(r); };
    for (const RankTimeSplit& rank : ranks) {
        const int r = rank.rank, t = r % T, d = (r / T) % D, s = r / (T * D);
        for (const CollectiveSummary& c : rank.collectives) {
            CollectiveKind kind{};
            if (!parseKind(c.kind, kind) || c.transit_ms <= 0) continue;
            std::vector<PairTraffic> mine;
            GroupPlacement placement = setup.ppPair();
            if (c.group == "pp") {
                std::vector<int> peers;
                if (s + 1 < P) peers.push_back(r + D * T);
                if (s > 0) peers.push_back(r - D * T);
                for (int peer : peers) mine.push_back({r, peer, c.bytes / static_cast<double>(peers.size())});
            } else {
                std::vector<int> members;
                if (c.group == "tp")
                    for (int i = 0; i < T; ++i) members.push_back(setup.rankOf(s, d, i));
                else
                    for (int i = 0; i < D; ++i) members.push_back(setup.rankOf(s, i, t));
                placement = c.group == "tp" ? setup.tpGroup() : setup.dpGroup();
                CollectiveAlgorithm algorithm = CollectiveAlgorithm::ring;
                parseCollectiveAlgorithm(c.algorithm, algorithm);
                for (const PairTraffic& p : collectiveTraffic(kind, algorithm, c.bytes, members, nodeOf))
                    if (p.src == r) mine.push_back(p);
            }
            // Share the transit time by bytes over each peer's link bandwidth.
            const double interBw = setup.cluster.nodeInterBandwidth() / std::max(placement.ranksPerNode * placement.sharersPerNic, 1);
            const double intraBw = setup.cluster.intra.bandwidth > 0 ? setup.cluster.intra.bandwidth : interBw;
            auto weight = [&](const PairTraffic& p) {
                const double bw = nodeOf(p.src) == nodeOf(p.dst) ? intraBw : interBw;
                return bw > 0 ? p.bytes / bw : p.bytes;
            };
            double total = 0;
            for (const auto& p : mine) total += weight(p);
            for (const auto& p : mine) {
                if (!listed.count(p.dst) || total <= 0) continue;
                CommLink& l = links[{p.src, p.dst}];
                l.src = p.src;
                l.dst = p.dst;
                l.link = nodeOf(p.src) == nodeOf(p.dst) ? "intra" : "inter";
                l.bytes += p.bytes;
                l.time_ms += c.transit_ms * weight(p) / total;
            }
        }
    }
    std::vector<CommLink> out;
    for (auto& [key, l] : links) out.push_back(std::move(l));
    return out;
}

}  // namespace npu::engine
