// msprof-analyze's cluster analysis imported through the one entry point (importProfile),
// both forms: the 8-rank cluster_analysis.db (copied with SQL: ATTACH + INSERT ... SELECT)
// and the 16-rank cluster_analysis_output/ folder. Every expected count is computed here,
// independently of the importer: with SQL on the vendor's database (sqlite3 C API), and
// by reading the folder's csv/json files directly. The per-rank step breakdown must equal
// the source rows exactly (microseconds to integer nanoseconds). The synthetic cases run
// without the shared data.

#include "profiler/analysis/communication_summary.h"
#include "profiler/analysis/run_report.h"
#include "profiler/analysis/step_breakdown.h"
#include "profiler/importers/profile_import.h"
#include "profiler/store/profile_db.h"

#include "tests/unit/profiler/importers/import_memory_sink.h"
#include "tests/unit/profiler/importers/vendor_sql.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <cmath>
#include <fstream>

using namespace npu::profiler;
using namespace npu::profiler::testing;

namespace {

const std::filesystem::path kMsinsight = std::filesystem::path(NPU_SHARED_DATA_DIR) / "third_party/msinsight";
const std::filesystem::path kClusterDb = kMsinsight / "cluster_db_2024/cluster_analysis.db";
const std::filesystem::path kClusterDir = kMsinsight / "cluster_analysis_output";

std::int64_t usToNs(double us) { return static_cast<std::int64_t>(std::llround(us * 1e3)); }

nlohmann::json readJson(const std::filesystem::path& file) {
    std::ifstream in(file);
    return nlohmann::json::parse(in);
}

// Entries below two levels of a cluster json ({group: {step: {op: {...}}}}), "Total Op
// Info" left out: ops x ranks for cluster_communication.json, ops x links for the matrix.
std::int64_t clusterJsonEntries(const std::filesystem::path& file) {
    std::int64_t n = 0;
    const auto doc = readJson(file);  // named: items() of a temporary would read freed memory
    for (const auto& [group, steps] : doc.items())
        for (const auto& [step, ops] : steps.items())
            for (const auto& [op, entries] : ops.items())
                if (op != "Total Op Info") n += static_cast<std::int64_t>(entries.size());
    return n;
}

std::vector<std::string> csvLines(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) lines.push_back(line);
    return lines;
}

}  // namespace

class TestClusterAnalysisImport : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;


private slots:
    void clusterDatabaseStoresEveryTable() {
        if (!std::filesystem::exists(kClusterDb)) QSKIP("shared msinsight data (../shared/data/third_party) not present");
        QCOMPARE(detectProfile(kClusterDb).format, ProfileFormat::ascend_cluster_analysis);
        auto db = importAndOpen(kClusterDb, m_dir, "cluster_db.npudb");
        QVERIFY(db);
        const auto& src = kClusterDb;
        // Source figures, by SQL on the vendor's file: 9 step rows (8 ranks + 1 stage),
        // 336 ops, 1023 links, 3 groups, 650 link-type rows, 341 packet buckets.
        QCOMPARE(sqlCount(src, "SELECT COUNT(*) FROM ClusterStepTraceTime WHERE type = 'rank'"), std::int64_t(8));
        QCOMPARE(stored(*db, "SELECT COUNT(*) FROM CLUSTER_STEP"), sqlCount(src, "SELECT COUNT(*) FROM ClusterStepTraceTime"));
        QCOMPARE(stored(*db, "SELECT COUNT(*) FROM CLUSTER_STEP WHERE type = 'rank' AND rank IS NOT NULL"), std::int64_t(8));
        QCOMPARE(stored(*db, "SELECT COUNT(*) FROM COMM_OP"),
                 sqlCount(src, "SELECT COUNT(*) FROM ClusterCommAnalyzerTime WHERE hccl_op_name != 'Total Op Info'"));
        QCOMPARE(stored(*db, "SELECT COUNT(*) FROM COMM_OP"), std::int64_t(336));
        QCOMPARE(stored(*db, "SELECT COUNT(*) FROM COMM_MATRIX"),
                 sqlCount(src, "SELECT COUNT(*) FROM ClusterCommAnalyzerMatrix WHERE hccl_op_name != 'Total Op Info'"));
        QCOMPARE(stored(*db, "SELECT COUNT(*) FROM COMM_GROUP"), sqlCount(src, "SELECT COUNT(*) FROM CommunicationGroup"));
        QCOMPARE(stored(*db, "SELECT COUNT(*) FROM COMM_GROUP WHERE size = 8"), std::int64_t(3));
        QCOMPARE(stored(*db, "SELECT COUNT(*) FROM COMM_BANDWIDTH"),
                 sqlCount(src, "SELECT COUNT(*) FROM (SELECT DISTINCT step, rank_id, hccl_op_name, band_type FROM "
                               "ClusterCommAnalyzerBandwidth WHERE hccl_op_name != 'Total Op Info')"));
        QCOMPARE(stored(*db, "SELECT COUNT(*) FROM COMM_PACKET"),
                 sqlCount(src, "SELECT COUNT(*) FROM ClusterCommAnalyzerBandwidth WHERE hccl_op_name != 'Total Op Info' "
                               "AND count > 0"));
        QCOMPARE(db->meta("world_size"), std::string("8"));
        QCOMPARE(db->meta("ranks"), std::string("0,1,2,3,4,5,6,7"));
        QCOMPARE(db->meta("cluster"), std::string("true"));

        // The step breakdown equals ClusterStepTraceTime row by row, to the nanosecond.
        const auto want = sqlRows(src, "SELECT computing, communication_not_overlapped, overlapped, communication, free, "
                                       "stage, bubble, communication_not_overlapped_and_exclude_receive FROM "
                                       "ClusterStepTraceTime ORDER BY rowid");
        const auto rows = computeStepBreakdown(*db);
        QCOMPARE(rows.size(), want.size());
        for (size_t i = 0; i < rows.size(); ++i) {
            const auto& r = rows[i];
            const std::int64_t got[] = {r.computing_ns, r.comm_not_overlapped_ns, r.overlapped_ns, r.communication_ns,
                                        r.free_ns, r.stage_ns, r.bubble_ns, r.comm_not_overlapped_exclude_receive_ns};
            for (size_t c = 0; c < 8; ++c) QCOMPARE(got[c], usToNs(want[i][c]));
        }
        QCOMPARE(rows[0].computing_ns, std::int64_t(179587578));  // rank 0: 179587.578 us
        QCOMPARE(rows[0].deviceName, std::string("rank0"));
        QCOMPARE(rows[8].type, std::string("stage"));
        QCOMPARE(rows[8].index, std::string("(0,1,2,3,4,5,6,7)"));
        QCOMPARE(rows[8].free_ns, std::int64_t(1422823900));

        // The report: communication per rank (Ascend's Total Op Info ratio, 4 decimals) and links.
        const auto report = runReport(*db);
        QCOMPARE(report["step_breakdown"].size(), want.size());
        const auto& ranks = report["communication"]["ranks"];
        QCOMPARE(std::int64_t(ranks.size()), sqlCount(src, "SELECT COUNT(DISTINCT rank_id) FROM ClusterCommAnalyzerTime"));
        QCOMPARE(ranks[0]["ops"].get<std::int64_t>(),
                 sqlCount(src, "SELECT COUNT(*) FROM ClusterCommAnalyzerTime WHERE rank_id = 0 AND hccl_op_name != 'Total Op Info'"));
        const auto total = sqlRows(src, "SELECT wait_time_ratio FROM ClusterCommAnalyzerTime WHERE rank_id = 0 AND "
                                        "hccl_op_name = 'Total Op Info'");
        QCOMPARE(total.size(), size_t(1));
        QVERIFY2(std::abs(ranks[0]["wait_ratio"].get<double>() - total[0][0]) < 1e-4, ranks[0].dump().c_str());
        // Per op, Ascend's wait / (wait + transit) (the source leaves 0 on ops): an op with
        // wait 0.011861 ms and no transit waits the whole time.
        QCOMPARE(stored(*db, "SELECT COUNT(*) FROM COMM_OP WHERE rank = 0 AND op = 'hcom_broadcast__535_0_1' "
                             "AND transit_ns = 0 AND wait_ns = 11861 AND wait_ratio = 1"),
                 std::int64_t(1));
        QVERIFY(!report["communication"]["matrix"].empty());
        QCOMPARE(stored(*db, "SELECT COUNT(*) FROM COMM_MATRIX WHERE group_op LIKE '%-total@%'"),
                 sqlCount(src, "SELECT COUNT(*) FROM ClusterCommAnalyzerMatrix WHERE hccl_op_name LIKE '%-total'"));
    }

    void clusterOutputFolderStoresEveryFile() {
        if (!std::filesystem::exists(kClusterDir)) QSKIP("shared msinsight data (../shared/data/third_party) not present");
        QCOMPARE(detectProfile(kClusterDir).format, ProfileFormat::ascend_cluster_analysis);
        auto db = importAndOpen(kClusterDir, m_dir, "cluster_dir.npudb");
        QVERIFY(db);
        // cluster_step_trace_time.csv: a header, 16 rank rows, 2 stage rows.
        const auto lines = csvLines(kClusterDir / "cluster_step_trace_time.csv");
        QCOMPARE(lines.size(), size_t(19));
        QCOMPARE(stored(*db, "SELECT COUNT(*) FROM CLUSTER_STEP"), std::int64_t(lines.size() - 1));
        QCOMPARE(stored(*db, "SELECT COUNT(DISTINCT rank) FROM CLUSTER_STEP WHERE type = 'rank'"), std::int64_t(16));
        QCOMPARE(db->meta("world_size"), std::string("16"));
        QCOMPARE(db->meta("ranks"), std::string("0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15"));
        std::int64_t groups = 0;
        const auto groupDoc = readJson(kClusterDir / "communication_group.json");
        for (const auto& [type, list] : groupDoc.items())
            groups += static_cast<std::int64_t>(list.size());
        QCOMPARE(groups, std::int64_t(29));
        QCOMPARE(stored(*db, "SELECT COUNT(*) FROM COMM_GROUP"), groups);
        QCOMPARE(stored(*db, "SELECT COUNT(*) FROM COMM_GROUP WHERE type = 'p2p' AND size = 8"), std::int64_t(2));
        QCOMPARE(stored(*db, "SELECT COUNT(*) FROM COMM_OP"), clusterJsonEntries(kClusterDir / "cluster_communication.json"));
        QCOMPARE(stored(*db, "SELECT COUNT(*) FROM COMM_MATRIX"),
                 clusterJsonEntries(kClusterDir / "cluster_communication_matrix.json"));
        // Ops filed under a collective group's rank set are collective, under "p2p" p2p.
        QCOMPARE(stored(*db, "SELECT COUNT(*) FROM COMM_OP WHERE type NOT IN ('collective', 'p2p')"), std::int64_t(0));
        QVERIFY(stored(*db, "SELECT COUNT(*) FROM COMM_OP WHERE type = 'p2p' AND op LIKE 'hcom_send%'") > 0);

        // Row by row against the csv (the same order): rank 0's Computing 75174.57464453117 us.
        const auto rows = computeStepBreakdown(*db);
        QCOMPARE(rows.size(), lines.size() - 1);
        QCOMPARE(rows[0].computing_ns, std::int64_t(75174575));
        QCOMPARE(rows[0].comm_not_overlapped_ns, std::int64_t(146614020));
        QCOMPARE(rows[8].bubble_ns, std::int64_t(178320265));  // rank 8: 178320.2648359375 us
        QCOMPARE(rows[17].type, std::string("stage"));
        QCOMPARE(rows[17].index, std::string("(8, 9, 10, 11, 12, 13, 14, 15)"));
        QCOMPARE(rows[17].bubble_ns, std::int64_t(195498280));
        const auto report = runReport(*db);
        QCOMPARE(report["step_breakdown"].size(), lines.size() - 1);
        QVERIFY(!report["communication"]["ranks"].empty());
        QVERIFY(!report["communication"]["matrix"].empty());
    }

    // A database with only part of the tables and columns imports what is there and
    // says what is missing (diagnostics), without the shared data.
    void partialClusterDatabaseImportsWithDiagnostics() {
        const auto src = std::filesystem::path(m_dir.path().toStdString()) / "cluster_analysis.db";
        sqlite3* raw = nullptr;
        QCOMPARE(sqlite3_open(src.c_str(), &raw), SQLITE_OK);
        QCOMPARE(sqlite3_exec(raw,
                              "CREATE TABLE ClusterStepTraceTime(step TEXT, type TEXT, \"index\" TEXT, computing NUMERIC, "
                              "free NUMERIC);"
                              "INSERT INTO ClusterStepTraceTime VALUES('1', 'rank', '3', 12.5, 0.001);"
                              "INSERT INTO ClusterStepTraceTime VALUES('1', 'stage', '(3)', 12.5, 0.001);",
                              nullptr, nullptr, nullptr),
                 SQLITE_OK);
        sqlite3_close(raw);
        auto db = importAndOpen(src, m_dir, "partial.npudb");
        QVERIFY(db);
        const auto rows = computeStepBreakdown(*db);
        QCOMPARE(rows.size(), size_t(2));
        QCOMPARE(rows[0].computing_ns, std::int64_t(12500));
        QCOMPARE(rows[0].free_ns, std::int64_t(1));
        QCOMPARE(rows[0].deviceName, std::string("rank3"));
        QCOMPARE(db->meta("world_size"), std::string("1"));
        std::int64_t missingColumns = 0, missingTables = 0;
        for (const auto& d : db->diagnostics()) {
            if (d.kind == "missing_column") missingColumns = d.count;
            if (d.kind == "missing_table") missingTables = d.count;
        }
        QCOMPARE(missingColumns, std::int64_t(6));  // overlapped, communication, ... exclude_receive
        QCOMPARE(missingTables, std::int64_t(2));   // ClusterCommAnalyzerTime, CommunicationGroup
        // The source is untouched: still its two rows, no journal beside it.
        QCOMPARE(sqlCount(src, "SELECT COUNT(*) FROM ClusterStepTraceTime"), std::int64_t(2));
        QVERIFY(!std::filesystem::exists(src.string() + "-journal"));
    }

    // The folder form's odd rows are diagnostics, a broken file an error naming it.
    void folderFormOddRowsAndBrokenFiles() {
        const std::filesystem::path dir = std::filesystem::path(m_dir.path().toStdString()) / "cluster_analysis_output";
        std::filesystem::create_directories(dir);
        std::ofstream(dir / "cluster_step_trace_time.csv")
            << "Step,Type,Index,Computing,Communication(Not Overlapped),Overlapped,Communication,Free\n"
               "2,rank,0,1.5,2,0.5,2.5,3\n"
               "2,rank,x,1,1,1,1,1\n"                // rank not a number
               "2,rank,1,abc,1,1,1,1\n"              // Computing not a number
               "2,stage,\"(0, 1)\",1.5,2,0.5,2.5,3\n";
        std::ofstream(dir / "communication_group.json") << R"({"collective": [[0, 1], [0, "one"]], "p2p": [[1, 0]]})";
        auto db = importAndOpen(dir, m_dir, "odd.npudb");
        QVERIFY(db);
        const auto rows = computeStepBreakdown(*db);
        QCOMPARE(rows.size(), size_t(2));
        QCOMPARE(rows[0].computing_ns, std::int64_t(1500));
        QCOMPARE(rows[1].index, std::string("(0, 1)"));
        std::int64_t unreadable = 0;
        for (const auto& d : db->diagnostics())
            if (d.kind == "unreadable_number") unreadable = d.count;
        QCOMPARE(unreadable, std::int64_t(3));  // the two rows and the group with "one"
        QCOMPARE(stored(*db, "SELECT COUNT(*) FROM COMM_GROUP WHERE type = 'p2p' AND rank_set = '(1,0)' AND size = 2"),
                 std::int64_t(1));
        QCOMPARE(db->meta("ranks"), std::string("0,1"));

        std::ofstream(dir / "communication_group.json") << R"({"collective": [[0, 1])";
        const auto out = std::filesystem::path(m_dir.path().toStdString()) / "broken.npudb";
        const auto broken = importProfile(dir, out);
        QVERIFY(!broken.ok());
        QVERIFY2(broken.message().find("communication_group.json") != std::string::npos, broken.message().c_str());
        QVERIFY(!std::filesystem::exists(out));  // a failed import leaves nothing
    }

    // Each copy commits and detaches its source: the same alias serves the next source,
    // rows written through the sink before and after stay, and a bad statement is an
    // error naming the file.
    void writerCopiesSeveralSourcesInTurn() {
        const std::filesystem::path dir = m_dir.path().toStdString();
        const auto src = dir / "groups.db";
        sqlite3* raw = nullptr;
        QCOMPARE(sqlite3_open(src.c_str(), &raw), SQLITE_OK);
        QCOMPARE(sqlite3_exec(raw, "CREATE TABLE g(type TEXT, rank_set TEXT); INSERT INTO g VALUES('p2p', '(0,1)');",
                              nullptr, nullptr, nullptr),
                 SQLITE_OK);
        sqlite3_close(raw);
        auto writer = ProfileDbWriter::create(dir / "copies.npudb");
        QVERIFY(writer.ok());
        (*writer)->addStep(0, 10);
        const char* copy = "INSERT INTO COMM_GROUP SELECT type, rank_set, 2 FROM s.g;";
        QVERIFY((*writer)->copyFromSqlite(src, "s", copy).ok());
        (*writer)->addStep(10, 20);
        QVERIFY((*writer)->copyFromSqlite(src, "s", copy).ok());
        const auto bad = (*writer)->copyFromSqlite(src, "s", "INSERT INTO COMM_GROUP SELECT * FROM s.missing;");
        QVERIFY(!bad.ok());
        QVERIFY2(bad.message().find("groups.db") != std::string::npos, bad.message().c_str());
        QVERIFY(!(*writer)->copyFromSqlite(src, "s; DROP TABLE STEP", copy).ok());  // not a name
        QVERIFY((*writer)->commit().ok());
        QCOMPARE(sqlCount(dir / "copies.npudb", "SELECT COUNT(*) FROM COMM_GROUP"), std::int64_t(2));
        QCOMPARE(sqlCount(dir / "copies.npudb", "SELECT COUNT(*) FROM STEP"), std::int64_t(2));
    }

    // Copying with SQL needs a database to copy into: an in-memory sink refuses with a
    // message naming the file instead of dropping the tables silently.
    void sinkWithoutDatabaseRefusesSqlCopy() {
        testing::MemorySink sink;
        const auto s = sink.copyFromSqlite("/data/cluster_analysis.db", "cluster", "SELECT 1");
        QVERIFY(!s.ok());
        QVERIFY(s.message().find("/data/cluster_analysis.db") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestClusterAnalysisImport)
#include "test_cluster_analysis_import.moc"
