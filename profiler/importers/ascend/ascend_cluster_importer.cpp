#include "profiler/importers/ascend/ascend_cluster_importer.h"

#include "profiler/importers/ascend/ascend_comm_importer.h"
#include "profiler/importers/ascend/ascend_csv.h"
#include "profiler/importers/ascend/ascend_sql.h"
#include "profiler/importers/cluster/rank_nodes.h"
#include "profiler/store/sqlite_statement.h"

#include <charconv>
#include <set>

namespace npu::profiler {
namespace {

namespace fs = std::filesystem;

constexpr const char* kStepCsv = "cluster_step_trace_time.csv";
constexpr const char* kGroupJson = "communication_group.json";

// The database names no op type: send and receive ops are point-to-point.
std::string clusterOpTypeSql(const std::string& opColumn) {
    return "CASE WHEN instr(" + opColumn + ", 'send') > 0 OR instr(" + opColumn +
           ", 'receive') > 0 THEN 'p2p' ELSE 'collective' END";
}

// One INSERT ... SELECT per .npudb table from the attached database ("cluster"). Columns
// that newer or older msprof-analyze versions spell differently go through col().
std::string clusterCopySql(const SqliteSource& src, ImportDiagnostics& diag) {
    std::string sql;
    const auto missing = [&](const char* table) {
        diag.add(DiagnosticKind::missing_table, [&] { return src.path().filename().string() + ": no " + table; });
    };
    if (src.hasTable("ClusterStepTraceTime")) {
        const auto us = [&](std::initializer_list<std::string_view> names) {
            return ascendNsSql(src.col("ClusterStepTraceTime", "t", names, diag), "1e3");
        };
        sql += "INSERT INTO CLUSTER_STEP SELECT t.step, t.type, t.\"index\", "
               "CASE WHEN t.type = 'rank' THEN CAST(t.\"index\" AS INTEGER) END, " +
               us({"computing"}) + ", " + us({"communication_not_overlapped"}) + ", " + us({"overlapped"}) + ", " +
               us({"communication"}) + ", " + us({"free"}) + ", " + us({"stage"}) + ", " + us({"bubble"}) + ", " +
               us({"communication_not_overlapped_and_exclude_receive"}) + " FROM cluster.ClusterStepTraceTime AS t;\n";
    } else {
        missing("ClusterStepTraceTime");
    }
    if (src.hasTable("ClusterCommAnalyzerTime")) {
        const auto c = [&](std::initializer_list<std::string_view> names) {
            return src.col("ClusterCommAnalyzerTime", "t", names, diag);
        };
        const auto ms = [&](std::initializer_list<std::string_view> names) { return ascendNsSql(c(names), "1e6"); };
        // msprof-analyze fills the ratios of its "Total Op Info" rows only (0 on every op):
        // Ascend's definitions, as for the per-rank analysis.db.
        const std::string transit = c({"transit_time"}), wait = c({"wait_time"}), sync = c({"synchronization_time"});
        sql += "INSERT INTO COMM_OP SELECT t.rank_id, t.step, " + clusterOpTypeSql("t.hccl_op_name") +
               ", t.hccl_op_name, t.group_name, " + ascendNsSql(c({"start_timestamp"}), "1e3") + ", " +
               ms({"elapsed_time", "elapse_time"}) + ", " + ascendNsSql(transit, "1e6") + ", " +
               ascendNsSql(wait, "1e6") + ", " + ascendNsSql(sync, "1e6") + ", " + ms({"idle_time"}) + ", " +
               ascendRatioSql(wait, transit) + ", " + ascendRatioSql(sync, transit) +
               " FROM cluster.ClusterCommAnalyzerTime AS t WHERE t.hccl_op_name != 'Total Op Info';\n";
    } else {
        missing("ClusterCommAnalyzerTime");
    }
    if (src.hasTable("ClusterCommAnalyzerBandwidth")) {
        // One row per (op, link type, packet size), an op's rows together; the link's
        // figures repeat on each: COMM_BANDWIDTH takes the first row of each op and link type.
        const std::string type = clusterOpTypeSql("t.hccl_op_name");
        sql += "INSERT INTO COMM_BANDWIDTH SELECT t.rank_id, t.step, " + type +
               ", t.hccl_op_name, t.band_type, t.transit_size, " + ascendNsSql("t.transit_time", "1e6") +
               ", t.bandwidth, t.large_packet_ratio FROM cluster.ClusterCommAnalyzerBandwidth AS t "
               "WHERE t.hccl_op_name != 'Total Op Info' AND " +
               firstOfRunSql("cluster.ClusterCommAnalyzerBandwidth", {"step", "rank_id", "hccl_op_name", "band_type"}) +
               ";\n"
               "INSERT INTO COMM_PACKET SELECT t.rank_id, t.step, " +
               type + ", t.hccl_op_name, t.band_type, t.package_size, CAST(t.count AS INTEGER), " +
               ascendNsSql("t.total_duration", "1e6") +
               " FROM cluster.ClusterCommAnalyzerBandwidth AS t "
               "WHERE t.hccl_op_name != 'Total Op Info' AND CAST(t.count AS INTEGER) > 0;\n";
    }
    if (src.hasTable("ClusterCommAnalyzerMatrix")) {
        // group_op as the per-rank files key it: "allreduce-total@<group>".
        sql += "INSERT INTO COMM_MATRIX SELECT t.step, " + clusterOpTypeSql("t.op_name") +
               ", CASE WHEN coalesce(t.group_name, '') = '' THEN t.hccl_op_name "
               "ELSE t.hccl_op_name || '@' || t.group_name END, t.op_name, CAST(t.src_rank AS INTEGER), "
               "CAST(t.dst_rank AS INTEGER), t.transport_type, t.transit_size, " +
               ascendNsSql("t.transit_time", "1e6") +
               ", t.bandwidth FROM cluster.ClusterCommAnalyzerMatrix AS t WHERE t.hccl_op_name != 'Total Op Info';\n";
    }
    if (src.hasTable("CommunicationGroup")) {
        sql += "INSERT INTO COMM_GROUP SELECT t.type, replace(t.rank_set, ' ', ''), CASE WHEN trim(t.rank_set, '() ') = '' "
               "THEN 0 ELSE length(t.rank_set) - length(replace(t.rank_set, ',', '')) + 1 END "
               "FROM cluster.CommunicationGroup AS t;\n";
    } else {
        missing("CommunicationGroup");
    }
    return sql;
}

// Every rank the database names, and the rows read, from the source itself.
std::pair<std::set<std::int64_t>, std::int64_t> clusterDbRanks(const SqliteSource& src) {
    std::vector<std::string> parts;
    std::int64_t rows = 0;
    const auto table = [&](const char* name, std::string rankSql) {
        if (!src.hasTable(name)) return;
        parts.push_back(std::move(rankSql));
        rows += src.scalar(std::string("SELECT count(*) FROM ") + name);
    };
    table("ClusterStepTraceTime", "SELECT CAST(\"index\" AS INTEGER) FROM ClusterStepTraceTime WHERE type = 'rank'");
    table("ClusterCommAnalyzerTime", "SELECT rank_id FROM ClusterCommAnalyzerTime");
    table("ClusterCommAnalyzerMatrix", "SELECT CAST(src_rank AS INTEGER) FROM ClusterCommAnalyzerMatrix UNION "
                                       "SELECT CAST(dst_rank AS INTEGER) FROM ClusterCommAnalyzerMatrix");
    table("CommunicationGroup", "SELECT j.value FROM CommunicationGroup, "
                                "json_each('[' || trim(rank_set, '() ') || ']') AS j");
    table("ClusterCommAnalyzerBandwidth", "SELECT rank_id FROM ClusterCommAnalyzerBandwidth");
    std::set<std::int64_t> ranks;
    for (const auto& part : parts) {  // one query each: a malformed rank set loses only its own table's ranks
        SqliteStatement q(src.handle(), part);
        while (q.valid() && q.step() == SQLITE_ROW)
            if (!q.isNull(0)) ranks.insert(q.int64(0));
    }
    return {ranks, rows};
}

Status readClusterStepCsv(const fs::path& file, CommunicationData& out, ImportDiagnostics& diag) {
    auto csv = AscendCsv::open(file, {"Step", "Type", "Index", "Computing", "Communication(Not Overlapped)", "Overlapped",
                                      "Communication", "Free"},
                               diag);
    if (!csv) return csv.error();
    while (csv->next()) {
        ClusterStepRecord r;
        r.step = csv->cell("Step");
        r.type = csv->cell("Type");
        r.index = csv->cell("Index");
        if (r.type == "rank") {
            const auto [end, ec] = std::from_chars(r.index.data(), r.index.data() + r.index.size(), r.rank);
            if (ec != std::errc() || end != r.index.data() + r.index.size()) {
                diag.add(DiagnosticKind::unreadable_number, [&] { return csv->where() + ", Index = \"" + r.index + "\""; });
                continue;
            }
        }
        if (csv->number("Computing", 1e3, r.computing_ns) &&
            csv->number("Communication(Not Overlapped)", 1e3, r.communication_not_overlapped_ns) &&
            csv->number("Overlapped", 1e3, r.overlapped_ns) && csv->number("Communication", 1e3, r.communication_ns) &&
            csv->number("Free", 1e3, r.free_ns) && csv->number("Stage", 1e3, r.stage_ns) &&
            csv->number("Bubble", 1e3, r.bubble_ns) &&
            csv->number("Communication(Not Overlapped and Exclude Receive)", 1e3,
                        r.communication_not_overlapped_exclude_receive_ns))
            out.steps.push_back(std::move(r));
    }
    return {};
}

// {"collective": [[0, 1, ...], [0, 8], ...], "p2p": [[...], ...]}
Status readCommunicationGroupJson(const fs::path& file, CommunicationData& out, ImportDiagnostics& diag) {
    auto doc = readAnalysisJson(file);
    if (!doc) return doc.error();
    if (!doc->is_object()) return makeError(file.string() + ": expected an object of group types");
    for (auto it = doc->begin(); it != doc->end(); ++it) {
        // Named references, not structured bindings: clang 14 (the fuzz build) cannot capture a binding in a lambda.
        const std::string& type = it.key();
        const nlohmann::json& groups = it.value();
        if (!groups.is_array()) return makeError(file.string() + ": \"" + type + "\" is not an array of rank lists");
        for (const auto& group : groups) {
            CommGroupRecord g{type, {}};
            bool ok = group.is_array();
            for (size_t i = 0; ok && i < group.size(); ++i) {
                ok = group[i].is_number_integer();
                if (ok) g.ranks.push_back(group[i].get<std::int64_t>());
            }
            if (ok) out.groups.push_back(std::move(g));
            else
                diag.add(DiagnosticKind::unreadable_number,
                         [&] { return file.filename().string() + ": a \"" + type + "\" group " + group.dump() + " is not a list of ranks"; });
        }
    }
    return {};
}

std::set<std::int64_t> ranksOf(const CommunicationData& d) {
    std::set<std::int64_t> ranks;
    for (const auto& s : d.steps)
        if (s.rank >= 0) ranks.insert(s.rank);
    for (const auto& o : d.ops) ranks.insert(o.rank);
    for (const auto& m : d.matrix) ranks.insert({m.src_rank, m.dst_rank});
    for (const auto& g : d.groups) ranks.insert(g.ranks.begin(), g.ranks.end());
    return ranks;
}

// ClusterCommAnalyzerMatrix's links by transport type, for the node placement.
std::vector<RankLink> clusterDbLinks(const SqliteSource& db) {
    if (!db.hasTable("ClusterCommAnalyzerMatrix")) return {};
    std::vector<CommMatrixRecord> rows;
    SqliteStatement q(db.handle(), "SELECT DISTINCT CAST(src_rank AS INTEGER), CAST(dst_rank AS INTEGER), transport_type "
                                   "FROM ClusterCommAnalyzerMatrix");
    while (q.valid() && q.step() == SQLITE_ROW) {
        CommMatrixRecord m;
        m.src_rank = q.int64(0);
        m.dst_rank = q.int64(1);
        m.transport = std::string(q.text(2));
        rows.push_back(std::move(m));
    }
    return linksOfMatrix(rows);
}

}  // namespace

bool isClusterAnalysisDb(const SqliteSource& db) {
    return db.hasTable("ClusterCommAnalyzerTime") || db.hasTable("ClusterStepTraceTime");
}

bool looksLikeClusterAnalysis(const fs::path& path) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        for (const char* name : {"cluster_communication.json", "cluster_communication_matrix.json", kStepCsv, kGroupJson})
            if (fs::exists(path / name, ec)) return true;
        return false;
    }
    auto src = SqliteSource::open(path);
    return src && isClusterAnalysisDb(**src);
}

Expected<std::int64_t> importClusterAnalysis(const fs::path& path, TraceSink& sink, ImportDiagnostics& diag) {
    std::set<std::int64_t> ranks;
    std::vector<RankLink> links;
    std::int64_t rows = 0;
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        CommunicationData data;
        if (auto s = readClusterCommunicationJson(path, data, diag); !s) return s.error();
        if (fs::exists(path / kStepCsv, ec))
            if (auto s = readClusterStepCsv(path / kStepCsv, data, diag); !s) return s.error();
        if (fs::exists(path / kGroupJson, ec))
            if (auto s = readCommunicationGroupJson(path / kGroupJson, data, diag); !s) return s.error();
        ranks = ranksOf(data);
        links = linksOfMatrix(data.matrix);
        rows = static_cast<std::int64_t>(data.steps.size() + data.ops.size() + data.matrix.size() + data.groups.size());
        sink.addCommunication(data);
    } else {
        auto src = SqliteSource::open(path);
        if (!src) return src.error();
        if (auto s = sink.copyFromSqlite(path, "cluster", clusterCopySql(**src, diag)); !s) return s.error();
        std::tie(ranks, rows) = clusterDbRanks(**src);
        links = clusterDbLinks(**src);
    }
    std::string list;
    for (const auto r : ranks) list += (list.empty() ? "" : ",") + std::to_string(r);
    sink.setMeta("source", "ascend_cluster_analysis");
    sink.setMeta("trace_file", path.string());
    sink.setMeta("cluster", "true");
    sink.setMeta("ranks", list);
    sink.setMeta("world_size", std::to_string(ranks.size()));
    // No timeline here, but the nodes the matrix implies are kept for the communication views.
    std::vector<RankNodeEvidence> evidence;
    for (const auto r : ranks) evidence.push_back({static_cast<int>(r), {}, -1});
    if (evidence.size() > 1) reportPlacement(placeRanksOnNodes(evidence, links), sink, diag);
    return rows;
}

}  // namespace npu::profiler
