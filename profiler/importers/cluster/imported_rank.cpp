#include "profiler/importers/cluster/imported_rank.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <numeric>

namespace npu::profiler {

using nlohmann::json;

std::string rankEvidenceJson(const std::vector<ImportedRank>& ranks) {
    json out = json::array();
    for (const ImportedRank& r : ranks) {
        json links = json::array();
        for (const RankLink& l : r.links) links.push_back({l.a, l.b, l.sameNode});
        out.push_back({{"rank", r.rank},
                       {"file", r.file},
                       {"device_prefix", r.devicePrefix},
                       {"host", r.host},
                       {"node_by_rank_order", r.nodeByRankOrder},
                       {"links", std::move(links)},
                       {"first_step_ns", r.firstStepNs},
                       {"shift_ns", r.shiftNs},
                       {"source", r.source},
                       {"distributed_info", r.distributedInfo},
                       {"device_properties", r.deviceProperties},
                       {"device_name", r.deviceName},
                       {"counts", {r.counts.events, r.counts.slices, r.counts.instants, r.counts.counters, r.counts.flows,
                                   r.counts.devices}}});
    }
    return out.dump();
}

Expected<std::vector<ImportedRank>> parseRankEvidence(std::string_view text) {
    const json j = json::parse(text, nullptr, false);
    if (!j.is_array()) return makeError("META_DATA rank_evidence: expected a JSON array of ranks");
    std::vector<ImportedRank> ranks;
    for (std::size_t i = 0; i < j.size(); ++i) {
        const json& r = j[i];
        const std::string where = "META_DATA rank_evidence[" + std::to_string(i) + "]";
        try {
            ImportedRank rank;
            rank.rank = r.at("rank").get<int>();
            rank.file = r.at("file").get<std::string>();
            rank.devicePrefix = r.at("device_prefix").get<std::string>();
            rank.host = r.at("host").get<std::string>();
            rank.nodeByRankOrder = r.at("node_by_rank_order").get<int>();
            for (const json& l : r.at("links")) rank.links.push_back({l.at(0).get<int>(), l.at(1).get<int>(), l.at(2).get<bool>()});
            rank.firstStepNs = r.at("first_step_ns").get<std::int64_t>();
            rank.shiftNs = r.at("shift_ns").get<std::int64_t>();
            rank.source = r.at("source").get<std::string>();
            rank.distributedInfo = r.at("distributed_info").get<std::string>();
            rank.deviceProperties = r.at("device_properties").get<std::string>();
            rank.deviceName = r.at("device_name").get<std::string>();
            const json& c = r.at("counts");
            ImportSummary& n = rank.counts;
            std::int64_t* counts[] = {&n.events, &n.slices, &n.instants, &n.counters, &n.flows, &n.devices};
            for (std::size_t k = 0; k < std::size(counts); ++k) *counts[k] = c.at(k).get<std::int64_t>();
            ranks.push_back(std::move(rank));
        } catch (const json::exception& e) {
            return makeError(where + ": " + e.what());
        }
    }
    return ranks;
}

ClusterPlan planCluster(std::vector<ImportedRank>& ranks, bool alignAtStepStart, ImportDiagnostics& diagnostics) {
    ClusterPlan plan;
    std::int64_t referenceNs = -1;
    for (ImportedRank& r : ranks) {
        r.shiftNs = 0;
        if (!alignAtStepStart) continue;
        if (r.firstStepNs < 0) {
            diagnostics.add(DiagnosticKind::rank_not_aligned, 1, r.file + " (rank " + std::to_string(r.rank) + ") has no ProfilerStep; not shifted");
            continue;
        }
        if (referenceNs < 0) {
            referenceNs = r.firstStepNs;
            plan.referenceRank = r.rank;
            continue;
        }
        r.shiftNs = referenceNs - r.firstStepNs;
        char ms[48];
        std::snprintf(ms, sizeof ms, "%+.6f ms", static_cast<double>(r.shiftNs) / 1e6);
        ++plan.shifted;
        if (plan.shifted <= 32) plan.shifts += std::string(plan.shifts.empty() ? "" : ", ") + "rank " + std::to_string(r.rank) + " " + ms;
        else if (plan.shifted == 33) plan.shifts += ", ...";
    }
    // What the files say about each rank's host: all ranks are known before any is
    // written, as a rank's node number depends on the others'.
    std::vector<RankNodeEvidence> evidence;
    std::vector<RankLink> links;
    for (const ImportedRank& r : ranks) {
        evidence.push_back({r.rank, r.host, r.nodeByRankOrder});
        links.insert(links.end(), r.links.begin(), r.links.end());
    }
    plan.placement = placeRanksOnNodes(evidence, links);
    // Written node by node, as device ids give the timeline's order (ranks of one host
    // need not be neighbours in file order).
    plan.writeOrder.resize(ranks.size());
    std::iota(plan.writeOrder.begin(), plan.writeOrder.end(), std::size_t{0});
    std::stable_sort(plan.writeOrder.begin(), plan.writeOrder.end(), [&](std::size_t a, std::size_t b) {
        return plan.placement.nodeOfRank.at(ranks[a].rank) < plan.placement.nodeOfRank.at(ranks[b].rank);
    });
    return plan;
}

namespace {

void writeClusterMeta(const std::vector<ImportedRank>& ranks, TraceSink& sink) {
    if (ranks.empty()) return;
    sink.setMeta("source", ranks.front().source);
    sink.setMeta("cluster", "true");
    sink.setMeta("ranks", std::to_string(ranks.size()));
    auto infos = json::array();
    auto names = json::array();
    int worldSize = 0;
    for (const ImportedRank& r : ranks) {
        names.push_back({{"rank", r.rank}, {"file", r.file}});
        if (r.distributedInfo.empty()) continue;
        auto j = json::parse(r.distributedInfo, nullptr, false);
        if (j.is_discarded()) continue;
        if (j.is_object() && j.contains("world_size") && j["world_size"].is_number_integer())
            worldSize = std::max(worldSize, j["world_size"].get<int>());
        infos.push_back(std::move(j));
    }
    sink.setMeta("trace_files", names.dump());
    if (!infos.empty()) sink.setMeta("distributedInfo", infos.dump());
    sink.setMeta("world_size", std::to_string(worldSize > 0 ? worldSize : static_cast<int>(ranks.size())));
    if (!ranks.front().deviceProperties.empty()) sink.setMeta("deviceProperties", ranks.front().deviceProperties);
    if (!ranks.front().deviceName.empty()) sink.setMeta("device", ranks.front().deviceName);
    sink.setMeta("rank_evidence", rankEvidenceJson(ranks));
}

}  // namespace

void finishCluster(const ClusterPlan& plan, const std::vector<ImportedRank>& ranks, TraceSink& sink,
                   ImportDiagnostics& diagnostics) {
    if (plan.shifted > 0)
        diagnostics.add(DiagnosticKind::ranks_aligned, plan.shifted,
                        "first ProfilerStep aligned with rank " + std::to_string(plan.referenceRank) + "'s: " + plan.shifts);
    writeClusterMeta(ranks, sink);
    reportPlacement(plan.placement, sink, diagnostics);
    diagnostics.writeTo(sink);
}

}  // namespace npu::profiler
