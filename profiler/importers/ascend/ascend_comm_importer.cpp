#include "profiler/importers/ascend/ascend_comm_importer.h"

#include "profiler/importers/ascend/ascend_sql.h"
#include "profiler/importers/common/sqlite_source.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <optional>

namespace npu::profiler {
namespace {

using nlohmann::json;

std::int64_t msToNs(double ms) { return static_cast<std::int64_t>(std::llround(ms * 1e6)); }

double jsonNumber(const json& j, const char* key) {
    const auto it = j.find(key);
    if (it == j.end()) return 0;
    if (it->is_number()) return it->get<double>();
    if (it->is_string()) {  // msprof writes some numbers as text, at times with a trailing tab
        try {
            return std::stod(it->get<std::string>());
        } catch (const std::exception&) {
        }
    }
    return 0;
}

// "hcom_allReduce__586_0_1@17522688603477080586" -> op, group
std::pair<std::string, std::string> splitOpKey(const std::string& key) {
    const auto at = key.rfind('@');
    return at == std::string::npos ? std::pair{key, std::string()} : std::pair{key.substr(0, at), key.substr(at + 1)};
}

CommOpRecord opFromTimeInfo(const json& time, std::int64_t rank, const std::string& step, const std::string& type,
                            const std::string& key) {
    const auto [name, group] = splitOpKey(key);
    CommOpRecord r;
    r.rank = rank;
    r.step = step;
    r.type = type;
    r.op = name;
    r.group = group;
    r.start_ns = static_cast<std::int64_t>(std::llround(jsonNumber(time, "Start Timestamp(us)") * 1e3));
    r.elapse_ns = msToNs(jsonNumber(time, "Elapse Time(ms)"));
    r.transit_ns = msToNs(jsonNumber(time, "Transit Time(ms)"));
    r.wait_ns = msToNs(jsonNumber(time, "Wait Time(ms)"));
    r.synchronization_ns = msToNs(jsonNumber(time, "Synchronization Time(ms)"));
    r.idle_ns = msToNs(jsonNumber(time, "Idle Time(ms)"));
    r.wait_ratio = jsonNumber(time, "Wait Time Ratio");
    r.synchronization_ratio = jsonNumber(time, "Synchronization Time Ratio");
    return r;
}

// One "Communication Bandwidth Info" entry (per link type) of an op.
CommBandwidthRecord bandwidthFromInfo(const json& bw, std::int64_t rank, const std::string& step, const std::string& type,
                                      const std::string& op, const std::string& transport) {
    return {rank, step, type, op, transport, jsonNumber(bw, "Transit Size(MB)"), msToNs(jsonNumber(bw, "Transit Time(ms)")),
            jsonNumber(bw, "Bandwidth(GB/s)"), jsonNumber(bw, "Large Packet Ratio")};
}

// One "src-dst" link of a communication matrix (per rank or the cluster's): its ranks,
// transport and transit figures; nullopt (with a diagnostic) when the key is not two ranks.
std::optional<CommMatrixRecord> linkRecord(const std::filesystem::path& file, const std::string& pair, const json& link,
                                           ImportDiagnostics& diag) {
    if (!link.is_object()) return std::nullopt;
    const auto dash = pair.find('-');
    CommMatrixRecord m;
    try {
        m.src_rank = std::stoll(pair.substr(0, dash));
        m.dst_rank = std::stoll(pair.substr(dash + 1));
    } catch (const std::exception&) {
        diag.add(DiagnosticKind::unreadable_number,
                 [&file, pair] { return file.filename().string() + ": link \"" + pair + "\" is not \"src-dst\""; });
        return std::nullopt;
    }
    m.transport = link.value("Transport Type", std::string());
    m.size_mb = jsonNumber(link, "Transit Size(MB)");
    m.time_ns = msToNs(jsonNumber(link, "Transit Time(ms)"));
    m.bandwidth_gbps = jsonNumber(link, "Bandwidth(GB/s)");
    return m;
}

// msprof-analyze files a cluster's ops under "p2p" or under their collective group's
// rank set; the op type stored is "p2p" | "collective" as in the per-rank files.
std::string clusterOpType(const std::string& groupKey) { return groupKey == "p2p" ? "p2p" : "collective"; }

}  // namespace

Expected<json> readAnalysisJson(const std::filesystem::path& file) {
    std::ifstream in(file);
    if (!in) return makeError(file.string() + ": cannot open");
    try {
        return json::parse(in);
    } catch (const json::parse_error& e) {
        return makeError(file.string() + ": byte " + std::to_string(e.byte) + ": not valid JSON (" + e.what() + ")");
    }
}

Status readCommunicationMatrixJson(const std::filesystem::path& file, CommunicationData& out, ImportDiagnostics& diag) {
    auto doc = readAnalysisJson(file);
    if (!doc) return doc.error();
    if (!doc->is_object()) return makeError(file.string() + ": expected an object of steps");
    for (const auto& [step, byType] : doc->items()) {
        if (!byType.is_object()) continue;
        for (const auto& [type, groups] : byType.items()) {
            if (!groups.is_object()) continue;
            for (const auto& [groupOp, links] : groups.items()) {
                if (!links.is_object()) continue;
                for (const auto& [pair, link] : links.items()) {
                    auto m = linkRecord(file, pair, link, diag);
                    if (!m) continue;
                    m->step = step;
                    m->type = type;
                    m->group_op = groupOp;
                    m->op = link.value("Op Name", std::string());
                    out.matrix.push_back(std::move(*m));
                }
            }
        }
    }
    return {};
}

Status readCommunicationJson(const std::filesystem::path& dir, std::int64_t rank, CommunicationData& out,
                             ImportDiagnostics& diag) {
    std::error_code ec;
    if (const auto file = dir / "communication.json"; std::filesystem::exists(file, ec)) {
        auto doc = readAnalysisJson(file);
        if (!doc) return doc.error();
        if (!doc->is_object()) return makeError(file.string() + ": expected an object of steps");
        for (const auto& [step, byType] : doc->items()) {
            if (!byType.is_object()) continue;
            for (const auto& [type, ops] : byType.items()) {
                if (!ops.is_object()) continue;
                for (const auto& [key, op] : ops.items()) {
                    if (key == "Total Op Info" || !op.is_object()) continue;
                    out.ops.push_back(opFromTimeInfo(op.value("Communication Time Info", json::object()), rank, step, type, key));
                    const std::string name = out.ops.back().op;
                    // Named: iterating items() of the temporary value() returns would read freed memory.
                    const json bandwidth = op.value("Communication Bandwidth Info", json::object());
                    for (const auto& [transport, bw] : bandwidth.items()) {
                        if (!bw.is_object()) continue;
                        out.bandwidth.push_back(bandwidthFromInfo(bw, rank, step, type, name, transport));
                        const json sizes = bw.value("Size Distribution", json::object());
                        for (const auto& [size, bucket] : sizes.items()) {
                            CommPacketRecord p;
                            p.rank = rank;
                            p.step = step;
                            p.type = type;
                            p.op = name;
                            p.transport = transport;
                            try {
                                p.packet_size_mb = std::stod(size);
                            } catch (const std::exception&) {
                                diag.add(DiagnosticKind::unreadable_number, [&, size = std::string(size)] {
                                    return file.filename().string() + ": packet size \"" + size + "\" of " + name;
                                });
                                continue;
                            }
                            if (bucket.is_array() && bucket.size() >= 2 && bucket[0].is_number() && bucket[1].is_number()) {
                                p.count = bucket[0].get<std::int64_t>();
                                p.time_ns = msToNs(bucket[1].get<double>());
                            }
                            out.packets.push_back(std::move(p));
                        }
                    }
                }
            }
        }
    }
    if (const auto file = dir / "communication_matrix.json"; std::filesystem::exists(file, ec))
        return readCommunicationMatrixJson(file, out, diag);
    return {};
}

Status copyCommunicationAnalysisDb(const std::filesystem::path& file, std::int64_t rank, TraceSink& sink,
                                   ImportDiagnostics& diag) {
    auto src = SqliteSource::open(file);
    if (!src) return src.error();
    const SqliteSource& db = **src;
    const std::string r = std::to_string(rank);
    std::string sql;
    if (db.hasTable("CommAnalyzerTime")) {
        const auto c = [&](std::initializer_list<std::string_view> names) { return db.col("CommAnalyzerTime", "t", names, diag); };
        const std::string transit = c({"transit_time"}), wait = c({"wait_time"}), sync = c({"synchronization_time"});
        sql += "INSERT INTO COMM_OP SELECT " + r + ", t.step, t.type, t.hccl_op_name, t.group_name, " +
               ascendNsSql(c({"start_timestamp"}), "1e3") + ", " + ascendNsSql(c({"elapse_time", "elapsed_time"}), "1e6") +
               ", " + ascendNsSql(transit, "1e6") + ", " + ascendNsSql(wait, "1e6") + ", " + ascendNsSql(sync, "1e6") +
               ", " + ascendNsSql(c({"idle_time"}), "1e6") + ", " + ascendRatioSql(wait, transit) + ", " +
               ascendRatioSql(sync, transit) + " FROM analysis.CommAnalyzerTime AS t WHERE t.hccl_op_name != 'Total Op Info';\n";
    } else {
        diag.add(DiagnosticKind::missing_table, [&] { return file.filename().string() + ": no CommAnalyzerTime"; });
    }
    if (db.hasTable("CommAnalyzerBandwidth")) {
        // One row per (op, transport, packet size): the bandwidth figures repeat on each.
        sql += "INSERT INTO COMM_BANDWIDTH SELECT " + r + ", t.step, t.type, t.hccl_op_name, t.transport_type, "
               "t.transit_size, " + ascendNsSql("t.transit_time", "1e6") + ", t.bandwidth, t.large_packet_ratio "
               "FROM analysis.CommAnalyzerBandwidth AS t WHERE t.hccl_op_name != 'Total Op Info' AND " +
               firstOfRunSql("analysis.CommAnalyzerBandwidth", {"step", "hccl_op_name", "transport_type"}) + ";\n" +
               "INSERT INTO COMM_PACKET SELECT " + r + ", t.step, t.type, t.hccl_op_name, t.transport_type, "
               "t.package_size, CAST(t.count AS INTEGER), " + ascendNsSql("t.total_duration", "1e6") +
               " FROM analysis.CommAnalyzerBandwidth AS t WHERE t.hccl_op_name != 'Total Op Info' "
               "AND CAST(t.count AS INTEGER) > 0;\n";
    }
    if (db.hasTable("CommAnalyzerMatrix"))
        sql += "INSERT INTO COMM_MATRIX SELECT t.step, t.type, t.hccl_op_name, t.op_name, CAST(t.src_rank AS INTEGER), "
               "CAST(t.dst_rank AS INTEGER), t.transport_type, t.transit_size, " + ascendNsSql("t.transit_time", "1e6") +
               ", t.bandwidth FROM analysis.CommAnalyzerMatrix AS t;\n";
    return sql.empty() ? Status{} : sink.copyFromSqlite(file, "analysis", sql);
}

Status readClusterCommunicationJson(const std::filesystem::path& dir, CommunicationData& out, ImportDiagnostics& diag) {
    std::error_code ec;
    if (const auto file = dir / "cluster_communication.json"; std::filesystem::exists(file, ec)) {
        auto doc = readAnalysisJson(file);
        if (!doc) return doc.error();
        // group -> step -> op@group -> rank -> {Communication Time Info, Communication Bandwidth Info}, where
        // group is "p2p" or a collective group's rank set "(0, 1, ...)"
        for (const auto& [groupKey, steps] : doc->items()) {
            const std::string type = clusterOpType(groupKey);
            for (const auto& [step, ops] : steps.items())
                for (const auto& [key, ranks] : ops.items()) {
                    if (key == "Total Op Info" || !ranks.is_object()) continue;
                    for (const auto& [rankText, info] : ranks.items()) {
                        if (!info.is_object()) continue;  // value() below needs an object
                        std::int64_t rank = 0;
                        try {
                            rank = std::stoll(rankText);
                        } catch (const std::exception&) {
                            diag.add(DiagnosticKind::unreadable_number,
                                     [&, rankText = std::string(rankText), key = std::string(key)] { return file.filename().string() + ": rank \"" + rankText + "\" of " + key; });
                            continue;
                        }
                        out.ops.push_back(opFromTimeInfo(info.value("Communication Time Info", json::object()), rank, step, type, key));
                        const json bandwidth = info.value("Communication Bandwidth Info", json::object());
                        for (const auto& [transport, bw] : bandwidth.items())
                            if (bw.is_object()) out.bandwidth.push_back(bandwidthFromInfo(bw, rank, step, type, out.ops.back().op, transport));
                    }
                }
        }
    }
    if (const auto file = dir / "cluster_communication_matrix.json"; std::filesystem::exists(file, ec)) {
        auto doc = readAnalysisJson(file);
        if (!doc) return doc.error();
        for (const auto& [groupKey, steps] : doc->items()) {
            const std::string type = clusterOpType(groupKey);
            for (const auto& [step, ops] : steps.items())
                for (const auto& [key, links] : ops.items()) {
                    if (key == "Total Op Info" || !links.is_object()) continue;
                    for (const auto& [pair, link] : links.items()) {
                        auto m = linkRecord(file, pair, link, diag);
                        if (!m) continue;
                        m->step = step;
                        m->type = type;
                        m->group_op = key;
                        m->op = splitOpKey(key).first;
                        out.matrix.push_back(std::move(*m));
                    }
                }
        }
    }
    return {};
}

}  // namespace npu::profiler
