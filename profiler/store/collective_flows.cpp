#include "profiler/store/collective_flows.h"

#include "profiler/store/profile_db_writer_rows.h"
#include "profiler/store/rank_classes.h"
#include "profiler/store/rank_device_name.h"
#include "profiler/store/sqlite_statement.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace npu::profiler {

namespace {

struct Degrees {
    std::int64_t dp = 1, tp = 1, pp = 1;
    bool simulated = false;
};

Degrees degreesOf(sqlite3* db) {
    Degrees d;
    SqliteStatement q(db, "SELECT value FROM META_DATA WHERE name = 'cluster_report'");
    if (!q.valid() || q.step() != SQLITE_ROW) return d;
    const auto r = nlohmann::json::parse(q.text(0), nullptr, false);
    if (!r.is_object() || !r.contains("cluster") || !r["cluster"].is_object()) return d;
    const auto& c = r["cluster"];
    const auto degree = [&](const char* key) {
        const auto it = c.find(key);
        return it != c.end() && it->is_number_integer() ? std::max<std::int64_t>(1, it->get<std::int64_t>()) : std::int64_t{1};
    };
    d.dp = degree("data_parallel");
    d.tp = degree("tensor_parallel");
    d.pp = degree("pipeline_stages");
    d.simulated = true;
    return d;
}

// The group a simulated collective belongs to on `rank`, by its stream; "" for none.
std::string simulatedGroup(const std::string& track, std::int64_t rank, const Degrees& d) {
    if (track == "TP collectives") return "tp " + std::to_string(rank / d.tp);
    if (track == "DP gradients") return "dp " + std::to_string(rank / (d.dp * d.tp)) + "." + std::to_string(rank % d.tp);
    return {};
}

// A simulated pipeline transfer's slice, "send activations mb 3" on the "PP send" stream
// or "recv activations mb 3" on "PP recv": (is a send, "activations mb 3"); "" for others.
std::pair<bool, std::string> pipelineTransfer(const std::string& track, const std::string& name) {
    if (track == "PP send" && name.rfind("send ", 0) == 0) return {true, name.substr(5)};
    if (track == "PP recv" && name.rfind("recv ", 0) == 0) return {false, name.substr(5)};
    return {false, {}};
}

// The rank a simulated send of `what` goes to: the same data- and tensor-parallel
// coordinates on the next stage (activations) or the previous one (gradients); the
// interleaved schedule's last stage sends its activations to the first (its next chunk),
// the first its gradients to the last.
std::int64_t pipelinePeer(std::int64_t rank, const std::string& what, const Degrees& d) {
    const std::int64_t inStage = d.dp * d.tp, stage = rank / inStage;
    const std::int64_t next = (stage + (what.rfind("gradients", 0) == 0 ? d.pp - 1 : 1)) % d.pp;
    return next * inStage + rank % inStage;
}

std::string processGroup(const std::string& args) {
    if (args.find("Process Group Name") == std::string::npos) return {};
    const auto a = nlohmann::json::parse(args, nullptr, false);
    if (!a.is_object()) return {};
    const auto it = a.find("Process Group Name");
    return it == a.end() ? std::string() : it->is_string() ? it->get<std::string>() : it->dump();
}

}  // namespace

Expected<std::int64_t> linkCollectivesAcrossRanks(sqlite3* db) {
    // Ranks of the run's devices; fewer than two: nothing to link.
    std::map<std::int64_t, std::int64_t> rankOfDevice;
    {
        SqliteStatement q(db, "SELECT d.id, s.value FROM DEVICE d JOIN STRING_IDS s ON s.id = d.name_id");
        while (q.valid() && q.step() == SQLITE_ROW)
            if (const auto r = rankInDeviceName(q.text(1)); r >= 0) rankOfDevice[q.int64(0)] = r;
    }
    std::vector<std::int64_t> ranks;
    for (const auto& [device, rank] : rankOfDevice) ranks.push_back(rank);
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    if (ranks.size() < 2) return std::int64_t{0};
    const Degrees degrees = degreesOf(db);

    // The communication names and categories (few strings), then each rank device's
    // compute/comm tracks through the (track, start) covering index: no scan of TASK.
    std::set<std::int64_t> commNames;
    std::int64_t commCategory = -1, annotation = -1;
    {
        SqliteStatement q(db, "SELECT id, value FROM STRING_IDS WHERE value LIKE 'nccl%' OR value LIKE 'hccl%' OR value LIKE 'hcom%' "
                              "OR value IN ('comm', 'gpu_user_annotation')");
        while (q.valid() && q.step() == SQLITE_ROW) {
            const std::string v = q.text(1);
            if (v == "comm") commCategory = q.int64(0);
            else if (v == "gpu_user_annotation") annotation = q.int64(0);
            else commNames.insert(q.int64(0));
        }
    }
    SqliteStatement stringQ(db, "SELECT value FROM STRING_IDS WHERE id = ?");
    std::map<std::int64_t, std::string> texts;
    const auto textOf = [&](std::int64_t id) -> const std::string& {
        auto it = texts.find(id);
        if (it != texts.end()) return it->second;
        stringQ.reset();
        stringQ.bind(1, id);
        return texts[id] = stringQ.step() == SQLITE_ROW ? stringQ.text(0) : std::string();
    };
    // (group, name) -> rank -> (start, slice id).
    using ByRank = std::map<std::int64_t, std::vector<std::pair<std::int64_t, std::int64_t>>>;
    std::map<std::pair<std::string, std::string>, ByRank> instances;
    std::map<std::string, ByRank> sends, receives;  // simulated pipeline transfers by "activations mb 3"
    SqliteStatement tracks(db, "SELECT id, device_id, name_id FROM TRACK WHERE kind IN ('compute', 'comm')");
    // Index columns only (the rowid is in the index): the table is read for matches alone.
    // The stored rows: an aliased rank's track (rank classes) reads its class track's,
    // its ids and starts shifted.
    const RankClasses classes = readRankClasses(db);
    SqliteStatement slices(db, "SELECT id, start_ns, name_id, category_id FROM main.TASK WHERE track_id = ?");
    SqliteStatement args(db, "SELECT a.json FROM main.TASK t JOIN ARGS a ON a.id = t.args_id WHERE t.id = ?");
    if (!tracks.valid() || !slices.valid() || !args.valid() || !stringQ.valid())
        return makeError(std::string("linking collectives: ") + sqlite3_errmsg(db));
    while (tracks.step() == SQLITE_ROW) {
        const auto it = rankOfDevice.find(tracks.int64(1));
        if (it == rankOfDevice.end()) continue;
        std::string simGroup;
        const std::string& track = textOf(tracks.int64(2));
        const bool pipeline = degrees.simulated && (track == "PP send" || track == "PP recv");
        if (degrees.simulated && !pipeline && (simGroup = simulatedGroup(track, it->second, degrees)).empty()) continue;
        const StoredTrack stored = storedTrackOf(classes, tracks.int64(0));
        // This track's instance lists by name id: one map lookup per slice instead of
        // building and comparing (group, name) strings (353k slices on 64 ranks).
        std::map<std::int64_t, std::vector<std::pair<std::int64_t, std::int64_t>>*> listOfName;
        slices.reset();
        slices.bind(1, stored.track);
        while (slices.step() == SQLITE_ROW) {
            const std::int64_t name = slices.int64(2), category = slices.int64(3);
            if (category == annotation || (category != commCategory && !commNames.count(name))) continue;
            const std::int64_t id = slices.int64(0) + stored.taskIdShift, start = slices.int64(1) + stored.offsetNs;
            if (pipeline) {
                const auto [send, what] = pipelineTransfer(track, textOf(name));
                if (!what.empty()) (send ? sends : receives)[what][it->second].push_back({start, id});
                continue;
            }
            if (degrees.simulated) {  // the group is the track's: the same list for every slice of a name
                auto& list = listOfName[name];
                if (!list) list = &instances[{simGroup, textOf(name)}][it->second];
                list->push_back({start, id});
                continue;
            }
            std::string group;
            args.reset();
            args.bind(1, slices.int64(0));  // the stored slice's args (an alias's are its class's)
            if (args.step() == SQLITE_ROW) group = processGroup(args.text(0));
            instances[{group, textOf(name)}][it->second].push_back({start, id});
        }
    }
    if (instances.empty() && sends.empty()) return std::int64_t{0};

    const auto kindId = [&](const char* kind) -> Expected<std::int64_t> {
        const std::string k = kind;
        if (SqliteStatement(db, "INSERT OR IGNORE INTO STRING_IDS(id, value) SELECT COALESCE(MAX(id), -1) + 1, '" + k +
                                    "' FROM STRING_IDS WHERE NOT EXISTS (SELECT 1 FROM STRING_IDS WHERE value = '" + k + "')")
                .exec() != SQLITE_DONE)
            return makeError(std::string("linking collectives: ") + sqlite3_errmsg(db));
        SqliteStatement q(db, "SELECT id FROM STRING_IDS WHERE value = '" + k + "'");
        if (!q.valid() || q.step() != SQLITE_ROW) return makeError("linking collectives: no string id for '" + k + "'");
        return q.int64(0);
    };
    // Flows are inserted kRowBatch to a statement, as the writer inserts its rows.
    constexpr int kRowsPerInsert = writer_rows::kRowBatch;
    constexpr std::string_view kHead = "INSERT INTO FLOW(from_task, to_task, kind_id)", kRow = "(?,?,?)";
    SqliteStatement ins(db, writer_rows::multiRowInsert(kHead, kRow, 1)), insBatch(db, writer_rows::multiRowInsert(kHead, kRow, kRowsPerInsert));
    if (!ins.valid() || !insBatch.valid()) return makeError(std::string("linking collectives: ") + sqlite3_errmsg(db));
    std::int64_t added = 0;
    std::vector<std::int64_t> pending;  // (from, to, kind) of flows not yet inserted
    const auto flush = [&](bool all) -> Status {
        std::size_t at = 0;
        for (; pending.size() - at >= 3 * kRowsPerInsert; at += 3 * kRowsPerInsert) {
            for (int v = 0; v < 3 * kRowsPerInsert; ++v) insBatch.bind(v + 1, pending[at + static_cast<std::size_t>(v)]);
            if (insBatch.exec() != SQLITE_DONE) return makeError(std::string("linking collectives: ") + sqlite3_errmsg(db));
        }
        for (; all && at < pending.size(); at += 3)
            if (ins.execRow(pending[at], pending[at + 1], pending[at + 2]) != SQLITE_DONE)
                return makeError(std::string("linking collectives: ") + sqlite3_errmsg(db));
        pending.erase(pending.begin(), pending.begin() + static_cast<std::ptrdiff_t>(at));
        return {};
    };
    const auto link = [&](std::int64_t from, std::int64_t to, std::int64_t kind) -> Expected<std::int64_t> {
        pending.insert(pending.end(), {from, to, kind});
        if (pending.size() >= 3 * kRowsPerInsert)
            if (auto s = flush(false); !s) return s.error();
        return ++added;
    };
    // Each pipeline send to its receive: the i-th send of a micro-batch's activations (or
    // gradients) on a rank, in time order, is the i-th receive of it on its peer (the
    // interleaved schedule sends a micro-batch once per model chunk, in chunk order).
    if (!sends.empty()) {
        const auto p2p = kindId("p2p");
        if (!p2p) return p2p.error();
        for (auto& [what, byRank] : sends)
            for (auto& [rank, out] : byRank) {
                const auto to = receives.find(what);
                if (to == receives.end()) continue;
                const auto peer = to->second.find(pipelinePeer(rank, what, degrees));
                if (peer == to->second.end()) continue;  // the peer's rank is not stored (symmetry)
                std::sort(out.begin(), out.end());
                std::sort(peer->second.begin(), peer->second.end());
                for (std::size_t i = 0; i < std::min(out.size(), peer->second.size()); ++i)
                    if (auto ok = link(out[i].second, peer->second[i].second, *p2p); !ok) return ok.error();
            }
    }
    if (instances.empty()) {
        if (auto s = flush(true); !s) return s.error();
        return added;
    }
    const auto collective = kindId("collective");
    if (!collective) return collective.error();
    const std::int64_t kind = *collective;
    for (const auto& [key, byRank] : instances) {
        if (byRank.size() < 2) continue;
        // The i-th instance on each rank (in time order), chained in rank order.
        std::map<std::int64_t, std::vector<std::pair<std::int64_t, std::int64_t>>> sorted = byRank;
        for (auto& [rank, v] : sorted) std::sort(v.begin(), v.end());
        for (auto a = sorted.begin(), b = std::next(a); b != sorted.end(); ++a, ++b)
            for (std::size_t i = 0; i < std::min(a->second.size(), b->second.size()); ++i)
                if (auto ok = link(a->second[i].second, b->second[i].second, kind); !ok) return ok.error();
    }
    if (auto s = flush(true); !s) return s.error();
    return added;
}

}  // namespace npu::profiler
