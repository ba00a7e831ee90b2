#include "profiler/importers/cluster/rank_nodes.h"

#include "profiler/importers/ascend/ascend_comm_importer.h"
#include "profiler/importers/common/sqlite_source.h"
#include "profiler/store/sqlite_statement.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <set>
#include <tuple>

namespace npu::profiler {

namespace {

// HCCL's transport types (communication_matrix.json "Transport Type"): RDMA leaves the
// node over its NICs; HCCS and SIO are the chip-to-chip links inside a node, PCIE its
// host bus, LOCAL a rank to itself. -1 for a type that says nothing about placement.
int sameNodeOfTransport(const std::string& t) {
    if (t == "RDMA" || t == "ROCE") return 0;
    if (t == "HCCS" || t == "PCIE" || t == "SIO" || t == "LOCAL" || t == "SDMA") return 1;
    return -1;
}

// Rule 1 and 2 share this: a key per rank, nodes numbered by first appearance in rank order.
template <typename Key>
NodePlacement numberByKey(const std::vector<RankNodeEvidence>& ranks, Key key, std::string basis) {
    NodePlacement p;
    p.basis = std::move(basis);
    std::map<decltype(key(ranks.front())), int> nodeOfKey;
    for (const auto& r : ranks) {
        const auto [it, added] = nodeOfKey.emplace(key(r), static_cast<int>(nodeOfKey.size()));
        p.nodeOfRank[r.rank] = it->second;
    }
    p.nodes = static_cast<int>(nodeOfKey.size());
    return p;
}

}  // namespace

std::string NodePlacement::devicePrefix(int rank) const {
    const auto it = nodeOfRank.find(rank);
    const std::string plain = "rank" + std::to_string(rank) + " ";
    return nodes > 1 && it != nodeOfRank.end() ? "node " + std::to_string(it->second) + " · " + plain : plain;
}

NodePlacement placeRanksOnNodes(const std::vector<RankNodeEvidence>& input, const std::vector<RankLink>& links) {
    std::vector<RankNodeEvidence> ranks = input;
    std::sort(ranks.begin(), ranks.end(), [](const auto& a, const auto& b) { return a.rank < b.rank; });
    if (ranks.empty()) return {};
    if (std::all_of(ranks.begin(), ranks.end(), [](const auto& r) { return !r.host.empty(); })) {
        NodePlacement p = numberByKey(ranks, [](const RankNodeEvidence& r) { return r.host; }, "host names");
        for (const auto& r : ranks) p.hostOfNode.emplace(p.nodeOfRank[r.rank], r.host);
        return p;
    }
    if (std::all_of(ranks.begin(), ranks.end(), [](const auto& r) { return r.nodeByRankOrder >= 0; }))
        return numberByKey(ranks, [](const RankNodeEvidence& r) { return r.nodeByRankOrder; },
                           "rank / GPUs per host (deviceProperties, distributedInfo.world_size)");

    // Rule 3: components of the same-node links, over every rank the links name.
    std::map<int, int> parent;
    const auto find = [&](int x) {
        parent.emplace(x, x);
        while (parent[x] != x) x = parent[x] = parent[parent[x]];
        return x;
    };
    std::set<int> linked;
    for (const auto& l : links) {
        linked.insert({l.a, l.b});
        const int a = find(l.a), b = find(l.b);
        if (l.sameNode && a != b) parent[std::max(a, b)] = std::min(a, b);
    }
    if (!links.empty() && std::all_of(ranks.begin(), ranks.end(), [&](const auto& r) { return linked.count(r.rank) > 0; }))
        return numberByKey(ranks, [&](const RankNodeEvidence& r) { return find(r.rank); },
                           "communication matrix transport types (HCCS/PCIE/SIO within a node, RDMA across)");

    return numberByKey(ranks, [](const RankNodeEvidence&) { return 0; }, "assumed: one host");
}

std::string hostFromAscendFolder(const std::filesystem::path& file) {
    auto dir = file.parent_path();
    for (int up = 0; up < 3 && !dir.empty() && dir != dir.parent_path(); ++up, dir = dir.parent_path()) {
        const std::string name = dir.filename().string();
        if (!name.ends_with("_ascend_pt")) continue;
        // {hostname}_{pid}_{timestamp}_ascend_pt: two runs of digits before the suffix.
        std::string rest = name.substr(0, name.size() - std::string_view("_ascend_pt").size());
        for (int field = 0; field < 2; ++field) {
            const auto us = rest.rfind('_');
            if (us == std::string::npos || us + 1 == rest.size() ||
                !std::all_of(rest.begin() + static_cast<std::ptrdiff_t>(us) + 1, rest.end(), [](unsigned char c) { return std::isdigit(c); }))
                return {};
            rest.resize(us);
        }
        return rest;
    }
    return {};
}

std::string hostOfAscendDb(const std::filesystem::path& db) {
    auto src = SqliteSource::open(db);
    if (!src || !(*src)->hasTable("HOST_INFO")) return {};
    SqliteStatement q((*src)->handle(), "SELECT CAST(hostUid AS TEXT), hostName FROM HOST_INFO LIMIT 1");
    if (!q.valid() || q.step() != SQLITE_ROW) return {};
    const std::string uid(q.text(0)), name(q.text(1));
    return uid.empty() && name.empty() ? std::string() : "uid " + uid + " (" + name + ")";
}

std::vector<RankLink> linksOfMatrix(const std::vector<CommMatrixRecord>& matrix) {
    std::vector<RankLink> out;
    std::set<std::tuple<int, int, bool>> seen;
    for (const auto& m : matrix) {
        const int same = sameNodeOfTransport(m.transport);
        if (same < 0) continue;
        if (seen.emplace(static_cast<int>(m.src_rank), static_cast<int>(m.dst_rank), same == 1).second)
            out.push_back({static_cast<int>(m.src_rank), static_cast<int>(m.dst_rank), same == 1});
    }
    return out;
}

std::vector<RankLink> linksBesideCapture(const std::filesystem::path& capture) {
    std::error_code ec;
    const auto file = capture.parent_path() / "communication_matrix.json";
    if (!std::filesystem::exists(file, ec)) return {};
    CommunicationData data;
    ImportDiagnostics ignored;  // the communication import reads this file again and reports on it
    if (!readCommunicationMatrixJson(file, data, ignored)) return {};
    return linksOfMatrix(data.matrix);
}

void reportPlacement(const NodePlacement& placement, TraceSink& sink, ImportDiagnostics& diag) {
    nlohmann::json byRank = nlohmann::json::object();
    for (const auto& [rank, node] : placement.nodeOfRank) byRank[std::to_string(rank)] = node;
    nlohmann::json meta{{"basis", placement.basis}, {"count", placement.nodes}, {"node_of_rank", byRank}};
    for (const auto& [node, host] : placement.hostOfNode) meta["host_of_node"][std::to_string(node)] = host;
    sink.setMeta("nodes", meta.dump());
    if (placement.nodeOfRank.size() > 1 && placement.basis.starts_with("assumed"))
        diag.add(DiagnosticKind::nodes_assumed, static_cast<std::int64_t>(placement.nodeOfRank.size()),
                 "no file records the host of its rank (no host_name, hostname folder, HOST_INFO, deviceProperties "
                 "with world_size, or communication_matrix.json); " +
                     std::to_string(placement.nodeOfRank.size()) + " ranks listed as one node");
}

}  // namespace npu::profiler
