#include "engine/result/cluster_summary_json.h"

namespace npu::engine {

void addClusterReport(nlohmann::json& r, const ClusterSummary& c) {
    if (!c.present) return;
    r["cluster"] = {{"nodes", c.nodes},
                    {"devices_per_node", c.devices_per_node},
                    {"devices", c.nodes * c.devices_per_node},
                    {"data_parallel", c.data_parallel},
                    {"tensor_parallel", c.tensor_parallel},
                    {"pipeline_stages", c.pipeline_stages},
                    {"sequence_parallel", c.sequence_parallel},
                    {"micro_batches", c.micro_batches},
                    {"micro_batch_size", c.micro_batch_size},
                    {"schedule", c.schedule},
                    {"zero_stage", c.zero_stage},
                    {"notes", c.notes}};
    nlohmann::json ranks = nlohmann::json::array();
    for (const auto& k : c.ranks)
        ranks.push_back({{"rank", k.rank},
                         {"node", k.node},
                         {"stage", k.stage},
                         {"represents", k.represents},
                         {"computing_ms", k.computing_ms},
                         {"communication_ms", k.communication_ms},
                         {"overlapped_ms", k.overlapped_ms},
                         {"communication_not_overlapped_ms", k.communication_not_overlapped_ms},
                         {"free_ms", k.free_ms},
                         {"bubble_ms", k.bubble_ms},
                         {"comm_ratio", k.comm_ratio}});
    r["ranks"] = std::move(ranks);
    r["bubble_fraction"] = c.bubble_fraction;
    auto collective = [](const CollectiveSummary& k) {
        return nlohmann::json{{"kind", k.kind},
                              {"group", k.group},
                              {"algorithm", k.algorithm},
                              {"link", k.link},
                              {"count", k.count},
                              {"bytes", k.bytes},
                              {"time_ms", k.time_ms},
                              {"transit_ms", k.transit_ms},
                              {"wait_ms", k.wait_ms},
                              {"synchronization_ms", k.synchronization_ms},
                              {"wait_ratio", k.wait_ratio},
                              {"achieved_GBps", k.achieved_GBps},
                              {"bus_GBps", k.bus_GBps}};
    };
    nlohmann::json collectives = nlohmann::json::array();
    for (const auto& k : c.collectives) collectives.push_back(collective(k));
    r["collectives"] = std::move(collectives);
    // Per rank (as Ascend's communication.json): the waits differ between ranks.
    nlohmann::json perRank = nlohmann::json::array();
    for (const auto& rank : c.ranks)
        for (const auto& k : rank.collectives) {
            perRank.push_back(collective(k));
            perRank.back()["rank"] = rank.rank;
        }
    r["rank_collectives"] = std::move(perRank);
    nlohmann::json matrix = nlohmann::json::array();
    for (const auto& l : c.links)
        matrix.push_back({{"src", l.src}, {"dst", l.dst}, {"link", l.link}, {"bytes", l.bytes}, {"time_ms", l.time_ms},
                          {"bandwidth_GBps", l.time_ms > 0 ? l.bytes / 1e6 / l.time_ms : 0.0}});
    r["comm_matrix"] = std::move(matrix);
    // The communication playbook's re-simulated changes, best first (empty below 30 %).
    nlohmann::json advice = nlohmann::json::array();
    for (const auto& a : c.advice)
        advice.push_back({{"action", a.action},
                          {"change", a.change},
                          {"reason", a.reason},
                          {"predicted_step_time_ms", a.predicted_step_time_ms},
                          {"predicted_comm_ratio", a.predicted_comm_ratio}});
    r["advice"] = std::move(advice);
}

std::vector<CommunicationAdvice> readCommunicationAdvice(const nlohmann::json& report) {
    std::vector<CommunicationAdvice> out;
    if (!report.is_object()) return out;
    auto it = report.find("advice");
    if (it == report.end() || !it->is_array()) return out;
    for (const auto& a : *it) {
        if (!a.is_object()) continue;
        try {
            CommunicationAdvice c;
            c.action = a.value("action", std::string());
            c.change = a.value("change", nlohmann::json::object());
            c.reason = a.value("reason", std::string());
            c.predicted_step_time_ms = a.value("predicted_step_time_ms", 0.0);
            c.predicted_comm_ratio = a.value("predicted_comm_ratio", 0.0);
            out.push_back(std::move(c));
        } catch (const nlohmann::json::exception&) {
            // a field of the wrong type: skip the entry
        }
    }
    return out;
}

std::string describeChange(const nlohmann::json& change) {
    std::string out;
    if (!change.is_object()) return change.dump();
    for (const auto& [key, value] : change.items()) out += (out.empty() ? "" : ", ") + key + ": " + value.dump();
    return out;
}

}  // namespace npu::engine
