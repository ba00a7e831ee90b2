// Rank classes (profiler/store/rank_classes.h): a cluster run written with each class's
// tasks once reads back, through every reader, exactly as the same run written with every
// rank in full; a slowed rank makes its own class; a version-6 file is upgraded.
#include "profiler/exporters/chrome_trace_exporter.h"
#include "profiler/analysis/op_statistics.h"
#include "profiler/store/profile_db.h"
#include "profiler/store/simulation_writer.h"
#include "profiler/store/slice_dtypes.h"
#include "profiler/store/sql_query.h"
#include "profiler/store/sqlite_statement.h"
#include "profiler/store/track_summary.h"
#include "profiler/store/track_window.h"
#include "tests/unit/engine/sample_projects.h"

#include <sqlite3.h>

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <sstream>

using namespace npu;
using namespace npu::profiler;
namespace fs = std::filesystem;

namespace {

// DP 2 x TP 2 x PP 2 on 8 devices: two stages, four ranks each doing the same work.
engine::Project clusterProject(const nlohmann::json& slowRanks = nullptr) {
    auto doc = engine::testing::smallClusterDoc();
    doc["parallel"] = {{"data_parallel", 2}, {"tensor_parallel", 2}, {"pipeline_stages", 2}, {"micro_batches", 4}};
    if (!slowRanks.is_null()) doc["cluster"]["slow_ranks"] = slowRanks;
    return engine::testing::parsedProject(doc, "classes.json");
}

// Every row of a query, as text, in the query's order.
std::vector<std::string> rows(const ProfileDb& db, const std::string& sql) {
    std::vector<std::string> out;
    SqliteStatement q(db.handle(), sql);
    if (!q.valid()) qFatal("%s: %s", sql.c_str(), sqlite3_errmsg(db.handle()));
    const int n = sqlite3_column_count(q.get());
    while (q.step() == SQLITE_ROW) {
        std::string r;
        for (int c = 0; c < n; ++c) r += q.text(c) + "|";
        out.push_back(std::move(r));
    }
    return out;
}

std::string fileText(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

class TestRankClasses : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    fs::path m_classes, m_full;
    std::unique_ptr<ProfileDb> m_a, m_b;  // with classes, in full

    fs::path path(const char* name) const { return fs::path(m_dir.path().toStdString()) / name; }

private slots:
    void initTestCase() {
        const auto result = engine::testing::simulateOrFail(clusterProject());
        QCOMPARE(result.devices.size(), std::size_t(8));
        m_classes = path("classes.npudb");
        m_full = path("full.npudb");
        SimulationRunInfo info{"classes", "", "run"};
        QVERIFY(writeSimulation(result, info, m_classes));
        info.rankClasses = false;
        QVERIFY(writeSimulation(result, info, m_full));
        auto a = ProfileDb::open(m_classes), b = ProfileDb::open(m_full);
        QVERIFY(a && b);
        m_a = std::move(*a);
        m_b = std::move(*b);
    }

    void eachStageIsOneClass() {
        // Stage 0's first rank and stage 1's first rank are stored; the other six alias them.
        QCOMPARE(m_a->rankClasses().ranks.size(), std::size_t(6));
        QVERIFY(m_b->rankClasses().empty());
        for (const auto& r : m_a->rankClasses().ranks) QCOMPARE(r.offsetNs, std::int64_t(0));
        const auto stored = rows(*m_a, "SELECT count(*) FROM main.TASK");
        const auto all = rows(*m_b, "SELECT count(*) FROM main.TASK");
        QVERIFY2(std::stoll(stored[0]) * 3 < std::stoll(all[0]), (stored[0] + " of " + all[0]).c_str());
    }

    // The views make every aliased rank read as if stored: the same ids, tracks, times,
    // names, op info, counters, summaries and flows as the full file, row for row.
    void everyTableReadsBackAsTheFullWrite() {
        for (const char* sql : {"SELECT * FROM DEVICE ORDER BY id", "SELECT * FROM TRACK ORDER BY id",
                                "SELECT * FROM TASK ORDER BY id", "SELECT * FROM OP_INFO ORDER BY task_id",
                                "SELECT * FROM COUNTER ORDER BY track_id, ts_ns, value",
                                "SELECT * FROM TRACK_SUMMARY ORDER BY track_id",
                                "SELECT * FROM TRACK_DENSITY ORDER BY track_id, depth, bucket",
                                "SELECT from_task, to_task, kind_id FROM FLOW ORDER BY 1, 2, 3",
                                "SELECT * FROM MEMORY_BLOCK ORDER BY device_id, alloc_ns, addr",
                                "SELECT name, value FROM META_DATA WHERE name <> 'run' ORDER BY name"}) {
            const auto a = rows(*m_a, sql), b = rows(*m_b, sql);
            QVERIFY2(!b.empty(), sql);
            QCOMPARE(a.size(), b.size());
            QVERIFY2(a == b, sql);
        }
    }

    void readersSeeEveryRank() {
        // A slice of an aliased rank, by id, and the dtypes the timeline colours by.
        const auto& alias = m_a->rankClasses().ranks.back();
        for (std::int64_t id : {alias.firstTask, alias.firstTask + alias.taskCount / 2, alias.firstTask + alias.taskCount - 1}) {
            auto sa = m_a->slice(id), sb = m_b->slice(id);
            QVERIFY(sa && sb);
            QCOMPARE(sa->track, sb->track);
            QCOMPARE(sa->start_ns, sb->start_ns);
            QCOMPARE(sa->name, sb->name);
            QCOMPARE(sa->args_json, sb->args_json);
            QCOMPARE(sa->opType, sb->opType);
            QCOMPARE(sa->flops, sb->flops);
        }
        for (const auto& t : m_b->tracks()) {
            const auto slices = m_b->trackSlices(t.id);
            QCOMPARE(m_a->trackSlices(t.id).id, slices.id);
            QCOMPARE(sliceDTypeIds(*m_a, t.id, slices.id), sliceDTypeIds(*m_b, t.id, slices.id));
            QCOMPARE(m_a->counter(t.id).value, m_b->counter(t.id).value);
        }
        // The timeline's windows (through the class track's index, moved by the offset).
        const auto summaries = readTrackSummaries(*m_a);
        QVERIFY(summaries.present);
        const DensityGrid grid{summaries.t0, summaries.bucketNs};
        const auto [lo, hi] = m_b->timeRange();
        for (const auto& t : summaries.tracks)
            for (const auto& [w0, w1] : {std::pair{lo, hi}, std::pair{lo + (hi - lo) / 3, lo + (hi - lo) / 2}})
                QCOMPARE(trackSlicesInWindow(*m_a, t, grid, w0, w1).id, trackSlicesInWindow(*m_b, t, grid, w0, w1).id);
        std::vector<std::int64_t> ids;
        for (std::int64_t id = 0; id < m_b->sliceCount(); id += 97) ids.push_back(id);
        QCOMPARE(sliceDTypeIdsOf(*m_a, ids), sliceDTypeIdsOf(*m_b, ids));
        // Operator statistics over every rank (each class track read once, counted per rank),
        // whole run and a range.
        for (const bool ranged : {false, true}) {
            OpStatOptions o;
            o.grouping = OpGrouping::byType;
            if (ranged) o.range = std::pair{lo + (hi - lo) / 4, lo + (hi - lo) / 2};
            const auto sa = computeOpStatistics(*m_a, o), sb = computeOpStatistics(*m_b, o);
            QVERIFY(!sb.rows.empty());
            QCOMPARE(sa.rows.size(), sb.rows.size());
            QCOMPARE(sa.reference_ns, sb.reference_ns);
            for (std::size_t i = 0; i < sa.rows.size(); ++i) {
                QCOMPARE(sa.rows[i].key, sb.rows[i].key);
                QCOMPARE(sa.rows[i].count, sb.rows[i].count);
                QCOMPARE(sa.rows[i].total_ns, sb.rows[i].total_ns);
                QCOMPARE(sa.rows[i].min_ns, sb.rows[i].min_ns);
                QCOMPARE(sa.rows[i].dtype, sb.rows[i].dtype);
            }
        }
        // The Query tab's own connection.
        auto qa = runReadOnlyQuery(m_classes, "SELECT count(*), sum(dur_ns) FROM TASK t JOIN TRACK k ON k.id = t.track_id WHERE k.device_id = 7");
        auto qb = runReadOnlyQuery(m_full, "SELECT count(*), sum(dur_ns) FROM TASK t JOIN TRACK k ON k.id = t.track_id WHERE k.device_id = 7");
        QVERIFY(qa && qb);
        QCOMPARE(qa->table.rows, qb->table.rows);
        QVERIFY(qa->table.rows[0][0] != "0");
    }

    // Chrome/CSV export writes each rank's real events.
    void exportWritesEveryRank() {
        auto ea = exportChromeTrace(*m_a, path("a.json")), eb = exportChromeTrace(*m_b, path("b.json"));
        QVERIFY(ea && eb);
        QCOMPARE(ea->slices, eb->slices);
        QCOMPARE(fileText(path("a.json")), fileText(path("b.json")));
    }

    void aSlowedRankMakesItsOwnClass() {
        const auto result = engine::testing::simulateOrFail(clusterProject(nlohmann::json::array({{{"rank", 1}, {"compute_factor", 1.3}}})));
        const fs::path db = path("slow.npudb");
        QVERIFY(writeSimulation(result, {"slow", "", "run"}, db));
        auto opened = ProfileDb::open(db);
        QVERIFY(opened);
        const auto& classes = (*opened)->rankClasses();
        QVERIFY(!classes.empty());  // the ranks of the other replica still share
        for (const auto& r : classes.ranks) QVERIFY2(r.device != 1, "the slowed rank is stored in full");
        // Rank 1's tasks are its own: longer than rank 0's kernels.
        const auto slow = rows(**opened, "SELECT sum(t.dur_ns) FROM TASK t JOIN TRACK k ON k.id = t.track_id "
                                         "WHERE k.device_id = 1 AND k.kind = 'compute'");
        const auto normal = rows(**opened, "SELECT sum(t.dur_ns) FROM TASK t JOIN TRACK k ON k.id = t.track_id "
                                           "WHERE k.device_id = 0 AND k.kind = 'compute'");
        QVERIFY(std::stoll(slow[0]) > std::stoll(normal[0]));
    }

    // A class shared at a time shift: the alias's slices, counters, summaries and windows
    // are the class's, moved by the offset.
    void aShiftedAliasReadsShifted() {
        const fs::path file = path("shifted.npudb");
        {
            auto w = ProfileDbWriter::create(file);
            QVERIFY(w);
            const auto dev = (*w)->addDevice("rank 0", "npu");
            const auto track = (*w)->addTrack(dev, -1, TrackKind::compute, "Compute", 0);
            const auto mem = (*w)->addTrack(dev, -1, TrackKind::counter, "Memory", 1);
            for (int i = 0; i < 100; ++i) (*w)->addSlice(track, i * 1000, 600, 0, "k" + std::to_string(i % 3), "matmul");
            (*w)->addCounter(mem, 0, 5);
            (*w)->addCounter(mem, 50000, 7);
            QCOMPARE((*w)->addDeviceAlias("rank 1", "npu", dev, 250000), std::int64_t(1));
            QCOMPARE((*w)->addDeviceAlias("rank 2", "npu", 1, 0), std::int64_t(-1));  // an alias is no class
            QVERIFY((*w)->commit());
        }
        auto db = ProfileDb::open(file);
        QVERIFY(db);
        QCOMPARE((*db)->sliceCount(), std::int64_t(200));
        QCOMPARE((*db)->timeRange().second, std::int64_t(250000 + 99 * 1000 + 600));
        const auto tracks = (*db)->tracks();
        QCOMPARE(tracks.size(), std::size_t(4));  // rank 2 was refused before any row was written
        const auto a = (*db)->trackSlices(0), b = (*db)->trackSlices(2);
        QCOMPARE(b.size(), std::size_t(100));
        for (std::size_t i = 0; i < a.size(); ++i) {
            QCOMPARE(b.start_ns[i], a.start_ns[i] + 250000);
            QCOMPARE(b.id[i], a.id[i] + 100);
            QCOMPARE(b.nameId[i], a.nameId[i]);
        }
        QCOMPARE((*db)->counter(3).ts_ns, (std::vector<std::int64_t>{250000, 300000}));
        auto s = (*db)->slice(150);
        QVERIFY(s);
        QCOMPARE(s->track, std::int64_t(2));
        QCOMPARE(s->start_ns, std::int64_t(250000 + 50 * 1000));
        QCOMPARE(rows(**db, "SELECT count(*), min(start_ns) FROM TASK WHERE track_id = 2"), std::vector<std::string>{"100|250000|"});
        const auto summaries = readTrackSummaries(**db);
        QCOMPARE(summaries.tracks.size(), std::size_t(2));
        QCOMPARE(summaries.tracks[1].startNs, std::int64_t(250000));
        QCOMPARE(summaries.tracks[1].sliceCount, std::int64_t(100));
        const DensityGrid grid{summaries.t0, summaries.bucketNs};
        const auto window = trackSlicesInWindow(**db, summaries.tracks[1], grid, 300000, 310000);
        QVERIFY(!window.id.empty());
        for (std::size_t i = 0; i < window.size(); ++i) {
            QVERIFY(window.start_ns[i] + window.dur_ns[i] > 300000);
            QVERIFY(window.start_ns[i] < 310000);
        }
        QCOMPARE(window.size(), std::size_t(10));
    }

    // A version-6 file (no rank class tables) opens and is upgraded to 7, every rank stored.
    void version6FilesAreUpgraded() {
        const fs::path old = path("v6.npudb");
        fs::copy_file(m_full, old);
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(old.c_str(), &db), SQLITE_OK);
        QCOMPARE(sqlite3_exec(db, "DROP TABLE RANK_CLASS; DROP TABLE TRACK_ALIAS; "
                                  "UPDATE META_DATA SET value = '6' WHERE name = 'schema_version'",
                              nullptr, nullptr, nullptr),
                 SQLITE_OK);
        sqlite3_close(db);
        auto opened = ProfileDb::open(old);
        QVERIFY(opened);
        QCOMPARE((*opened)->meta("schema_version"), std::to_string(kSchemaVersion));
        QVERIFY((*opened)->rankClasses().empty());
        QCOMPARE(rows(**opened, "SELECT count(*) FROM RANK_CLASS"), std::vector<std::string>{"0|"});
        QCOMPARE(rows(**opened, "SELECT count(*) FROM TASK"), rows(*m_b, "SELECT count(*) FROM TASK"));
    }
};

QTEST_GUILESS_MAIN(TestRankClasses)
#include "test_rank_classes.moc"
