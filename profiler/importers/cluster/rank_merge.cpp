#include "profiler/importers/cluster/rank_merge.h"

#include "profiler/importers/cluster/imported_rank.h"
#include "profiler/importers/common/sqlite_source.h"
#include "profiler/store/profile_db.h"
#include "profiler/store/sqlite_statement.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <map>

namespace npu::profiler {

namespace {

struct Shard {
    std::filesystem::path file;
    std::unique_ptr<SqliteSource> db;
    ImportedRank rank;
};

std::string metaValue(const SqliteSource& db, std::string_view key) {
    SqliteStatement st(db.handle(), "SELECT value FROM META_DATA WHERE name = ?1");
    if (!st.valid()) return {};
    st.bind(1, key);
    return st.step() == SQLITE_ROW ? st.text(0) : std::string();
}

Expected<Shard> openShard(const std::filesystem::path& file) {
    auto db = SqliteSource::open(file);
    if (!db) return db.error();
    const std::string evidence = (*db)->hasTable("META_DATA") ? metaValue(**db, "rank_evidence") : std::string();
    if (evidence.empty())
        return makeError(file.string() + ": not an import of rank traces (its META_DATA has no rank_evidence); expected "
                         "the output of npustudio --batch --import RANK_FOLDER --out R.npudb");
    auto ranks = parseRankEvidence(evidence);
    if (!ranks) return makeError(file.string() + ": " + ranks.message());
    if (ranks->size() != 1)
        return makeError(file.string() + ": holds " + std::to_string(ranks->size()) +
                         " ranks; --merge takes one rank per file (import each rank's folder alone)");
    return Shard{file, std::move(db.value()), std::move(ranks->front())};
}

int worldSizeOf(const ImportedRank& r) {
    const auto j = nlohmann::json::parse(r.distributedInfo, nullptr, false);
    if (j.is_object() && j.contains("world_size") && j["world_size"].is_number_integer()) return j["world_size"].get<int>();
    return -1;
}

// Diagnostics the cluster plan makes again over all ranks: a shard's own say nothing of the others.
bool plannedDiagnostic(DiagnosticKind kind) {
    return kind == DiagnosticKind::rank_not_aligned || kind == DiagnosticKind::ranks_aligned ||
           kind == DiagnosticKind::duplicate_rank || kind == DiagnosticKind::nodes_assumed;
}

// A text literal for SQL, quoted by SQLite itself ('it''s').
std::string sqlQuoted(const std::string& s) {
    char* quoted = sqlite3_mprintf("%Q", s.c_str());
    std::string out = quoted ? quoted : "''";
    sqlite3_free(quoted);
    return out;
}

// One shard's rows into the sink in id order, renamed and moved by `shift`: the ids the
// sink gives are the ones a single import writing this rank here gives.
Status replayShard(const Shard& shard, const std::string& prefix, std::int64_t shift, bool steps, TraceSink& sink,
                   ImportDiagnostics& diagnostics, const Progress& progress) {
    sqlite3* db = shard.db->handle();
    const std::string& oldPrefix = shard.rank.devicePrefix;
    auto failed = [&](std::string_view what) {
        return makeError(shard.file.string() + ": cannot read " + std::string(what) + ": " + sqlite3_errmsg(db));
    };
    std::vector<std::int64_t> devices, tracks, tasks;
    SqliteStatement dev(db, "SELECT d.id, n.value, d.kind FROM DEVICE d LEFT JOIN STRING_IDS n ON n.id = d.name_id ORDER BY d.id");
    if (!dev.valid()) return failed("DEVICE");
    while (dev.step() == SQLITE_ROW) {
        std::string name = dev.text(1);
        if (name.starts_with(oldPrefix)) name.erase(0, oldPrefix.size());
        devices.resize(static_cast<std::size_t>(dev.int64(0)) + 1, -1);
        devices[static_cast<std::size_t>(dev.int64(0))] = sink.addDevice(prefix + name, dev.text(2));
    }
    auto mapped = [](const std::vector<std::int64_t>& ids, std::int64_t id) {
        return id >= 0 && static_cast<std::size_t>(id) < ids.size() ? ids[static_cast<std::size_t>(id)] : -1;
    };
    SqliteStatement trk(db, "SELECT t.id, t.device_id, t.parent_id, t.kind, n.value, t.sort_index FROM TRACK t "
                            "LEFT JOIN STRING_IDS n ON n.id = t.name_id ORDER BY t.id");
    if (!trk.valid()) return failed("TRACK");
    while (trk.step() == SQLITE_ROW) {
        tracks.resize(static_cast<std::size_t>(trk.int64(0)) + 1, -1);
        tracks[static_cast<std::size_t>(trk.int64(0))] =
            sink.addTrack(mapped(devices, trk.int64(1)), mapped(tracks, trk.int64(2)), parseTrackKind(trk.text(3)), trk.text(4),
                          static_cast<int>(trk.int64(5)));
    }
    SqliteStatement task(db, "SELECT t.id, t.track_id, t.start_ns, t.dur_ns, t.depth, n.value, c.value, a.json FROM TASK t "
                             "LEFT JOIN STRING_IDS n ON n.id = t.name_id LEFT JOIN STRING_IDS c ON c.id = t.category_id "
                             "LEFT JOIN ARGS a ON a.id = t.args_id ORDER BY t.id");
    if (!task.valid()) return failed("TASK");
    auto view = [&](int col) {
        const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(task.get(), col));
        return p ? std::string_view(p, static_cast<std::size_t>(sqlite3_column_bytes(task.get(), col))) : std::string_view();
    };
    for (std::int64_t n = 0; task.step() == SQLITE_ROW; ++n) {
        const auto id = static_cast<std::size_t>(task.int64(0));
        tasks.resize(id + 1, -1);
        tasks[id] = sink.addSlice(mapped(tracks, task.int64(1)), task.int64(2) + shift, task.int64(3), static_cast<int>(task.int64(4)),
                                  view(5), view(6), view(7));
        if ((n & 0xFFFF) == 0xFFFF && progress.cancelled()) return cancelledError("merge cancelled");
    }
    SqliteStatement ctr(db, "SELECT track_id, ts_ns, value FROM COUNTER ORDER BY rowid");
    if (!ctr.valid()) return failed("COUNTER");
    while (ctr.step() == SQLITE_ROW) sink.addCounter(mapped(tracks, ctr.int64(0)), ctr.int64(1) + shift, ctr.real(2));
    SqliteStatement flow(db, "SELECT f.from_task, f.to_task, k.value FROM FLOW f LEFT JOIN STRING_IDS k ON k.id = f.kind_id ORDER BY f.id");
    if (!flow.valid()) return failed("FLOW");
    while (flow.step() == SQLITE_ROW) sink.addFlow(mapped(tasks, flow.int64(0)), mapped(tasks, flow.int64(1)), flow.text(2));
    if (steps) {
        SqliteStatement step(db, "SELECT start_ns, end_ns FROM STEP ORDER BY id");
        if (!step.valid()) return failed("STEP");
        while (step.step() == SQLITE_ROW) sink.addStep(step.int64(0) + shift, step.int64(1) + shift);
    }
    SqliteStatement diag(db, "SELECT k.value, d.count, d.example FROM DIAGNOSTIC d LEFT JOIN STRING_IDS k ON k.id = d.kind_id ORDER BY d.rowid");
    if (!diag.valid()) return failed("DIAGNOSTIC");
    while (diag.step() == SQLITE_ROW) {
        const DiagnosticInfo* info = findDiagnostic(diag.text(0));
        if (info && !plannedDiagnostic(info->kind)) diagnostics.add(info->kind, diag.int64(1), diag.text(2));
    }
    return {};
}

// Ascend's tables beside a rank's trace (communication analysis, per-operator memory):
// copied by SQL, the operator rows' device names renamed like the devices.
Status copySideTables(const Shard& shard, const std::string& prefix, TraceSink& sink) {
    std::string sql;
    for (const char* table : {"COMM_OP", "COMM_BANDWIDTH", "COMM_PACKET", "COMM_MATRIX"})
        if (shard.db->hasTable(table) && shard.db->scalar(std::string("SELECT count(*) FROM ") + table) > 0)
            sql += std::string("INSERT INTO main.") + table + " SELECT * FROM shard." + table + ";";
    if (shard.db->hasTable("OP_MEMORY_ALLOC") && shard.db->scalar("SELECT count(*) FROM OP_MEMORY_ALLOC") > 0) {
        const std::string old = sqlQuoted(shard.rank.devicePrefix);
        sql += "INSERT INTO main.OP_MEMORY_ALLOC SELECT CASE WHEN substr(device, 1, length(" + old + ")) = " + old + " THEN " +
               sqlQuoted(prefix) + " || substr(device, length(" + old + ") + 1) ELSE device END, op, size_bytes, alloc_ns, "
               "release_ns, active_release_ns, duration_ns, stream, alloc_total_allocated_mb, alloc_total_reserved_mb "
               "FROM shard.OP_MEMORY_ALLOC;";
    }
    if (sql.empty()) return {};
    return sink.copyFromSqlite(shard.file, "shard", sql);
}

}  // namespace

bool isRankImportDb(const std::filesystem::path& file) {
    if (file.extension() != ".npudb") return false;
    auto db = SqliteSource::open(file);
    return db && (*db)->hasTable("META_DATA") && !metaValue(**db, "rank_evidence").empty();
}

Expected<ImportSummary> mergeRankDatabases(const std::vector<std::filesystem::path>& files, TraceSink& sink,
                                           const ImportOptions& options, const Progress& progress) {
    const auto started = std::chrono::steady_clock::now();
    if (files.empty()) return makeError("--merge needs the one-rank .npudb files to merge");
    std::vector<Shard> shards;
    for (const auto& f : files) {
        auto shard = openShard(f);
        if (!shard) return shard.error();
        shards.push_back(std::move(shard.value()));
    }
    // Rank order stands for the file order a single import of the folder reads them in.
    std::stable_sort(shards.begin(), shards.end(), [](const Shard& a, const Shard& b) { return a.rank.rank < b.rank.rank; });
    for (std::size_t i = 1; i < shards.size(); ++i)
        if (shards[i].rank.rank == shards[i - 1].rank.rank)
            return makeError(shards[i - 1].file.string() + " and " + shards[i].file.string() + " both hold rank " +
                             std::to_string(shards[i].rank.rank) + "; expected one file per rank");
    if (const int world = worldSizeOf(shards.front().rank); world > 0)
        for (const Shard& s : shards)
            if (const int other = worldSizeOf(s.rank); other > 0 && other != world)
                return makeError("the ranks come from different jobs: " + shards.front().file.string() + " has distributedInfo.world_size " +
                                 std::to_string(world) + ", " + s.file.string() + " has " + std::to_string(other) +
                                 "; expected one job's ranks");
    std::vector<ImportedRank> ranks;
    for (const Shard& s : shards) ranks.push_back(s.rank);
    ImportDiagnostics diagnostics;
    ClusterPlan plan = planCluster(ranks, options.alignRanksAtStepStart, diagnostics);
    ImportSummary summary;
    for (std::size_t i = 0; i < plan.writeOrder.size(); ++i) {
        const std::size_t k = plan.writeOrder[i];
        const Shard& shard = shards[k];
        ImportedRank& rank = ranks[k];
        const std::string prefix = plan.placement.devicePrefix(rank.rank);
        progress(double(i) / double(shards.size()), "merging " + shard.file.filename().string());
        // The plan's shift less what the shard's own import already applied.
        if (auto s = replayShard(shard, prefix, rank.shiftNs - shard.rank.shiftNs, k == 0, sink, diagnostics, progress); !s)
            return s.error();
        rank.devicePrefix = prefix;
        summary.rankDevicePrefix[rank.rank] = prefix;
        summary.addCounts(rank.counts);
    }
    for (std::size_t k = 0; k < shards.size(); ++k)
        if (auto s = copySideTables(shards[k], ranks[k].devicePrefix, sink); !s) return s.error();
    finishCluster(plan, ranks, sink, diagnostics);
    sink.setMeta("event_count", std::to_string(summary.events));
    summary.diagnostics = diagnostics.total();
    summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    progress(1.0, "merged");
    return summary;
}

Expected<ImportSummary> mergeRankDatabases(const std::vector<std::filesystem::path>& shards, const std::filesystem::path& outDb,
                                           const ImportOptions& options, const Progress& progress) {
    auto writer = ProfileDbWriter::create(outDb);
    if (!writer) return writer.error();
    auto summary = mergeRankDatabases(shards, **writer, options, progress);
    if (!summary) return summary;
    if (auto s = (*writer)->commit(); !s) return s.error();
    summary->db = outDb;
    return summary;
}

}  // namespace npu::profiler
