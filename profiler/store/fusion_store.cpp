#include "profiler/store/fusion_store.h"

#include "base/gzip_codec.h"
#include "profiler/store/profile_db.h"
#include "profiler/store/sqlite_statement.h"

namespace npu::profiler {

Status writeFusionRecords(sqlite3* db, const engine::SimulationResult& result) {
    SqliteStatement ins(db, "INSERT INTO PASS_STATS(id, name, level, nodes_before, nodes_after, kernels_before, kernels_after, "
                            "bytes_before, bytes_after, flops_before, flops_after, ms) VALUES(?,?,?,?,?,?,?,?,?,?,?,?)");
    if (!ins.valid()) return makeError(std::string("PASS_STATS: ") + sqlite3_errmsg(db));
    std::int64_t id = 0;
    for (const auto& p : result.passes)
        if (ins.execRow(id++, p.name, p.level, p.nodes_before, p.nodes_after, p.kernels_before, p.kernels_after, p.bytes_before,
                        p.bytes_after, p.flops_before, p.flops_after, p.ms) != SQLITE_DONE)
            return makeError(std::string("PASS_STATS: ") + sqlite3_errmsg(db));
    SqliteStatement graph(db, "INSERT OR REPLACE INTO RUN_GRAPH(name, format, data) VALUES(?, 'npuom-graph-json+gzip', ?)");
    if (!graph.valid()) return makeError(std::string("RUN_GRAPH: ") + sqlite3_errmsg(db));
    for (const auto& [name, text] : {std::pair<const char*, const std::string*>{kGraphBeforeFusion, &result.graph_before_fusion},
                                     {kGraphAfterFusion, &result.graph_after_fusion}}) {
        if (text->empty()) continue;
        auto packed = gzipCompress(*text);
        if (!packed) return packed.error();
        graph.bind(1, std::string_view(name));
        sqlite3_bind_blob(graph.get(), 2, packed->data(), static_cast<int>(packed->size()), SQLITE_TRANSIENT);
        if (graph.exec() != SQLITE_DONE) return makeError(std::string("RUN_GRAPH: ") + sqlite3_errmsg(db));
    }
    return {};
}

std::vector<engine::PassRecord> readPassStats(const ProfileDb& db) {
    std::vector<engine::PassRecord> rows;
    SqliteStatement q(db.handle(), "SELECT name, level, nodes_before, nodes_after, kernels_before, kernels_after, bytes_before, "
                                   "bytes_after, flops_before, flops_after, ms FROM PASS_STATS ORDER BY id");
    if (!q.valid()) return rows;
    while (q.step() == SQLITE_ROW) {
        engine::PassRecord r;
        r.name = reinterpret_cast<const char*>(sqlite3_column_text(q.get(), 0));
        r.level = static_cast<int>(q.int64(1));
        r.nodes_before = static_cast<int>(q.int64(2));
        r.nodes_after = static_cast<int>(q.int64(3));
        r.kernels_before = static_cast<int>(q.int64(4));
        r.kernels_after = static_cast<int>(q.int64(5));
        r.bytes_before = q.real(6);
        r.bytes_after = q.real(7);
        r.flops_before = q.real(8);
        r.flops_after = q.real(9);
        r.ms = q.real(10);
        rows.push_back(std::move(r));
    }
    return rows;
}

Expected<std::string> readRunGraph(const ProfileDb& db, const std::string& name) {
    SqliteStatement q(db.handle(), "SELECT data FROM RUN_GRAPH WHERE name = ?");
    if (!q.valid()) return std::string{};
    q.bind(1, std::string_view(name));
    if (q.step() != SQLITE_ROW) return std::string{};
    const auto* data = static_cast<const char*>(sqlite3_column_blob(q.get(), 0));
    const int size = sqlite3_column_bytes(q.get(), 0);
    auto text = gzipDecompress(std::string_view(data ? data : "", static_cast<std::size_t>(size)));
    if (!text) return makeError(db.path().string() + ": RUN_GRAPH '" + name + "': " + text.message());
    return *text;
}

}  // namespace npu::profiler
