// The Communication tab over a simulated cluster run (projects/llama-7b-cluster), the
// shared two-rank Ascend text capture and the two HTA Kineto ranks: the bars hold the
// figures the report prints (the simulator's `ranks`, read from the run summary; the
// report's step_breakdown rows, from profiler::runReport), the highlighted rank is the one
// with the largest computing + communication not overlapped, and the highlighted link the
// slowest of the report's communication.matrix (simulated: of the simulator's
// comm_matrix, peers by each collective's algorithm). A one-device run shows the empty state.

#include "engine/project/project.h"
#include "profiler/analysis/run_report.h"
#include "profiler/importers/profile_import.h"
#include "runner/runs/simulation_run.h"
#include "profiler/store/profile_db.h"
#include "views/communication/collectives_model.h"
#include "views/communication/comm_matrix_chart.h"
#include "views/communication/communication_tab.h"
#include "views/communication/rank_breakdown_chart.h"
#include "views/summary/summary_view.h"
#include "views/tables/record_table_model.h"
#include "tests/unit/engine/sample_projects.h"
#include "tests/unit/views/simulated_runs.h"

#include <QAbstractItemModelTester>
#include <QHeaderView>
#include <QLabel>
#include <QStackedWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <map>

using namespace npu;
using views::testing::openDb;
using views::RankBreakdownChart;

namespace {

bool near(double a, double b) { return std::abs(a - b) <= 1e-6 * std::max(1.0, std::abs(b)); }

// The bars of index i against one rank's figures (ms).
void checkBar(const RankBreakdownChart& c, int i, double computing, double overlapped, double notOverlapped, double free,
              double bubble, double ratio, bool bubbleInComm) {
    QVERIFY2(near(c.segmentValue(RankBreakdownChart::Computing, i) + c.segmentValue(RankBreakdownChart::Overlapped, i), computing),
             qPrintable(QStringLiteral("bar %1 computing").arg(i)));
    QVERIFY(near(c.segmentValue(RankBreakdownChart::Overlapped, i), overlapped));
    QVERIFY(near(c.segmentValue(RankBreakdownChart::CommunicationNotOverlapped, i) + (bubbleInComm ? bubble : 0), notOverlapped));
    QVERIFY(near(c.segmentValue(RankBreakdownChart::Free, i), free));
    QVERIFY(near(c.segmentValue(RankBreakdownChart::Bubble, i), bubble));
    QVERIFY(near(c.ratioValue(i), ratio));
}

}  // namespace

class TestCommunicationTab : public QObject {
    Q_OBJECT
private slots:
    void simulatedCluster_data() {
        QTest::addColumn<int>("dp");
        QTest::addColumn<int>("tp");
        QTest::addColumn<int>("pp");
        QTest::newRow("sample: dp2 tp4") << 2 << 4 << 1;  // projects/llama-7b-cluster as written
        QTest::newRow("dp2 tp2 pp2") << 2 << 2 << 2;
    }

    void simulatedCluster() {
        QFETCH(int, dp);
        QFETCH(int, tp);
        QFETCH(int, pp);
        auto project = engine::loadProject(std::filesystem::path(NPU_SOURCE_DIR) / "projects/llama-7b-cluster/project.json");
        QVERIFY2(project.ok(), project.ok() ? "" : project.message().c_str());
        project->parallel["data_parallel"] = dp;
        project->parallel["tensor_parallel"] = tp;
        project->parallel["pipeline_stages"] = pp;
        QTemporaryDir dir;
        const auto run = views::testing::simulateInto(*project, dir);
        QVERIFY2(run.outcome == runner::SimulationRun::Outcome::ok, run.error.c_str());
        const auto& cluster = run.summary.sim.cluster;  // what `--report` prints as ranks / collectives
        QVERIFY(cluster.present);
        QCOMPARE(cluster.ranks.size(), std::size_t(8));

        views::CommunicationTab tab;
        tab.setDatabase(openDb(run.summary.db));
        QTRY_VERIFY_WITH_TIMEOUT(tab.hasCommunication(), 30000);  // past kBackgroundAnalysisSlices: computed in a worker
        QCOMPARE(tab.overview().source, std::string("simulated"));
        QCOMPARE(tab.overview().ranks.size(), cluster.ranks.size());
        std::int64_t slowest = -1;
        double busiest = -1, idlest = -1;
        for (std::size_t i = 0; i < cluster.ranks.size(); ++i) {
            const auto& r = cluster.ranks[i];
            QCOMPARE(tab.overview().ranks[i].rank, std::int64_t(r.rank));
            checkBar(*tab.rankChart(), int(i), r.computing_ms, r.overlapped_ms, r.communication_not_overlapped_ms, r.free_ms,
                     r.bubble_ms, r.comm_ratio, false);
            const double busy = r.computing_ms + r.communication_not_overlapped_ms;
            if (busy > busiest) busiest = busy, slowest = r.rank;
            if (idlest < 0 || busy < idlest) idlest = busy;
        }
        if (pp == 1) {  // identical ranks: none is slower
            QVERIFY(busiest - idlest <= 1e-3 * busiest);
            QCOMPARE(tab.rankChart()->highlightedRank(), std::int64_t(-1));
        } else {  // the stages differ (the last one has the loss head and waits less)
            QVERIFY(busiest - idlest > 1e-3 * busiest);
            QCOMPARE(tab.rankChart()->highlightedRank(), slowest);
            // The slower stage's ranks are all boxed: they do the same work.
            QCOMPARE(tab.overview().slowestRanks.size(), std::size_t(dp * tp));
            for (const int i : tab.overview().slowestRanks) QCOMPARE(cluster.ranks[std::size_t(i)].stage, cluster.ranks[0].stage + (slowest >= dp * tp ? 1 : 0));
            double bubble = 0;
            for (const auto& r : cluster.ranks) bubble += r.bubble_ms;
            QVERIFY(bubble > 0);
        }

        // Matrix: the simulator's (engine/cluster/comm_matrix), one node of 8, so all
        // intra-node. TP collectives run on a ring of tp (rank = (stage*dp + d)*tp + t):
        // rank 0 sends 2(n-1)/n of each all-reduce's payload, (n-1)/n of each
        // reduce-scatter's / all-gather's, to rank 1 and nothing to rank 2; stage 0's
        // pipeline sends go to rank dp*tp.
        auto* matrix = tab.matrixChart();
        matrix->setMetric(views::CommMatrixChart::TransitSize);
        QCOMPARE(tab.overview().links.size(), cluster.links.size());
        for (const auto& l : cluster.links) QVERIFY(near(matrix->cellValue(l.src, l.dst), l.bytes / 1e6));
        double tpRing = 0, ppSent = 0;
        for (const auto& c : cluster.ranks.front().collectives) {
            if (c.group == "tp") tpRing += c.bytes * (c.kind == "all_reduce" ? 2.0 : 1.0) * (tp - 1) / tp;
            if (c.group == "pp" && c.kind == "send_recv") ppSent += c.bytes;
        }
        QVERIFY(tpRing > 0);
        QVERIFY2(near(matrix->cellValue(0, 1), tpRing / 1e6), qPrintable(QStringLiteral("%1 vs %2").arg(matrix->cellValue(0, 1)).arg(tpRing / 1e6)));
        if (tp == 4) QVERIFY(std::isnan(matrix->cellValue(0, 2)));  // not ring neighbours in a tp ring of 4
        if (pp > 1) QVERIFY(near(matrix->cellValue(0, dp * tp), ppSent / 1e6));
        matrix->setMetric(views::CommMatrixChart::Bandwidth);
        double lowest = -1;
        for (const auto& l : cluster.links)
            if (l.src != l.dst && (lowest < 0 || l.bytes / 1e6 / l.time_ms < lowest)) lowest = l.bytes / 1e6 / l.time_ms;
        const auto [src, dst] = matrix->highlightedLink();
        QVERIFY(src >= 0 && src != dst);
        QVERIFY(near(matrix->cellValue(src, dst), lowest));
        // Collectives: per rank and kind (their waits differ between ranks). Ranks doing
        // identical work do not wait for each other; pipeline receives wait through the
        // bubble (Ascend's definition).
        std::size_t perRank = 0;
        for (const auto& r : cluster.ranks) perRank += r.collectives.size();
        QCOMPARE(tab.collectivesModel()->rowCount(), int(perRank));
        double recvWait = 0;
        for (const auto& r : tab.collectivesModel()->rows()) {
            if (r.name == "recv") recvWait += r.wait_ms;
            else QCOMPARE(r.wait_ms, 0.0);
        }
        QCOMPARE(recvWait > 0, pp > 1);
    }

    void simulatedSlowRankIsPointedAt() {
        // Rank 1 of the sample computes 1.2x slower: its TP partners (0, 2, 3) reach each
        // TP collective first and wait in it, replica 1 (4..7) waits at the gradient
        // buckets. The waits show per rank, and taking them off the ranks' busy time
        // leaves rank 1 the slowest, though rank 0 looks as busy.
        auto project = engine::loadProject(std::filesystem::path(NPU_SOURCE_DIR) / "projects/llama-7b-cluster/project.json");
        QVERIFY(project.ok());
        project->cluster["slow_ranks"] = {{{"rank", 1}, {"compute_factor", 1.2}}};
        QTemporaryDir dir;
        runner::SimulationRunOptions o;
        o.dir = dir.path().toStdString();
        o.record = false;
        const auto run = runner::runSimulation(*project, o);
        QVERIFY2(run.outcome == runner::SimulationRun::Outcome::ok, run.error.c_str());
        views::CommunicationTab tab;
        tab.setDatabase(openDb(run.summary.db));
        QTRY_COMPARE_WITH_TIMEOUT(tab.rankChart()->highlightedRank(), std::int64_t(1), 30000);
        std::map<std::int64_t, double> waited;
        for (const auto& r : tab.collectivesModel()->rows()) {
            waited[r.rank] += r.wait_ms;
            QVERIFY(near(r.wait_ratio, r.wait_ms + r.transit_ms > 0 ? r.wait_ms / (r.wait_ms + r.transit_ms) : 0));
            QVERIFY(near(r.elapse_ms, r.wait_ms + r.transit_ms));
        }
        QVERIFY2(waited[1] < 1e-3, qPrintable(QString::number(waited[1])));  // ns roundings at most
        for (std::int64_t r : {0, 2, 3, 4, 5, 6, 7}) QVERIFY2(waited[r] > 100, qPrintable(QStringLiteral("rank %1 waited %2 ms").arg(r).arg(waited[r])));
    }

    void ascendTwoRanks() {
        const auto set = std::filesystem::path(NPU_SHARED_DATA_DIR) / "third_party/msinsight/pt_text_level1";
        if (!std::filesystem::exists(set)) QSKIP("shared data third_party/msinsight/pt_text_level1 not present");
        QTemporaryDir dir;
        const auto out = std::filesystem::path(dir.path().toStdString()) / "two.npudb";
        QVERIFY(profiler::importProfile(set, out).ok());
        const auto db = openDb(out);
        const auto report = profiler::runReport(*db, 0);
        // The report's rank rows summed over the steps, by device.
        struct Sums {
            double computing = 0, overlapped = 0, notOverlapped = 0, communication = 0, free = 0, bubble = 0;
        };
        std::map<std::int64_t, Sums> byDevice;
        for (const auto& r : report["step_breakdown"]) {
            if (r["type"] != "rank") continue;
            auto& s = byDevice[r["device"].get<std::int64_t>()];
            s.computing += r["computing_us"].get<double>() / 1e3;
            s.overlapped += r["overlapped_us"].get<double>() / 1e3;
            s.notOverlapped += r["communication_not_overlapped_us"].get<double>() / 1e3;
            s.communication += r["communication_us"].get<double>() / 1e3;
            s.free += r["free_us"].get<double>() / 1e3;
            s.bubble += r["bubble_us"].get<double>() / 1e3;
        }
        QCOMPARE(byDevice.size(), std::size_t(2));

        views::CommunicationTab tab;
        tab.setDatabase(db);
        QCOMPARE(tab.overview().source, std::string("ascend"));
        QCOMPARE(tab.overview().ranks.size(), std::size_t(2));
        // The one the others wait on: own work = computing + communication (not
        // overlapped) - the rank's wait in the report's communication.ranks. Rank 0 waits
        // 5.9 ms for rank 1, which waits 0.2 ms: rank 1, though rank 0 looks busier.
        std::map<std::int64_t, double> waitOfRank;
        for (const auto& r : report["communication"]["ranks"]) waitOfRank[r["rank"].get<std::int64_t>()] = r["wait_ms"].get<double>();
        int i = 0, slowest = -1;
        double busiest = -1;
        for (const auto& [device, s] : byDevice) {  // devices in rank order: rank i is the i-th
            checkBar(*tab.rankChart(), i, s.computing, s.overlapped, s.notOverlapped, s.free, s.bubble,
                     s.computing > 0 ? s.communication / s.computing : 0, true);
            const double own = s.computing + s.notOverlapped - waitOfRank[i];
            if (own > busiest) busiest = own, slowest = i;
            ++i;
        }
        QCOMPARE(slowest, 1);
        QCOMPARE(tab.rankChart()->highlightedRank(), std::int64_t(slowest));

        // The slowest link: the lowest bandwidth of the report's matrix between two ranks.
        double lowest = -1;
        std::pair<std::int64_t, std::int64_t> link{-1, -1};
        for (const auto& l : report["communication"]["matrix"]) {
            const auto s = l["src"].get<std::int64_t>(), d = l["dst"].get<std::int64_t>();
            if (s == d || l["time_ms"].get<double>() <= 0) continue;
            if (lowest < 0 || l["bandwidth_gbps"].get<double>() < lowest) lowest = l["bandwidth_gbps"].get<double>(), link = {s, d};
        }
        QVERIFY(link.first >= 0);
        QCOMPARE(tab.matrixChart()->highlightedLink(), link);
        QCOMPARE(tab.overview().links.size(), std::size_t(16));  // 8 links from each rank
        // Link types: each rank's copy to itself is another type than its links to the others.
        tab.matrixChart()->setMetric(views::CommMatrixChart::LinkType);
        QVERIFY(tab.matrixChart()->cellValue(0, 0) != tab.matrixChart()->cellValue(0, 1));
        QCOMPARE(tab.matrixChart()->cellValue(0, 1), tab.matrixChart()->cellValue(1, 7));

        // Collectives: 4 all-reduces on each rank, wait ratio = wait / (wait + transit).
        auto* model = tab.collectivesModel();
        QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model->rowCount(), 8);
        for (const auto& r : model->rows()) {
            QVERIFY(near(r.wait_ratio, r.wait_ms + r.transit_ms > 0 ? r.wait_ms / (r.wait_ms + r.transit_ms) : 0));
            QVERIFY(!r.bandwidth_gbps.empty());
        }
        // The table sorts numerically by the column whose header shows the indicator.
        auto* table = tab.collectivesTable();
        QCOMPARE(table->horizontalHeader()->sortIndicatorOrder(), Qt::AscendingOrder);
        table->sortByColumn(views::CollectivesModel::Elapse, Qt::DescendingOrder);
        for (int row = 1; row < table->model()->rowCount(); ++row)
            QVERIFY(table->model()->index(row - 1, views::CollectivesModel::Elapse).data(views::CollectivesModel::SortRole).toDouble() >=
                    table->model()->index(row, views::CollectivesModel::Elapse).data(views::CollectivesModel::SortRole).toDouble());

        // One step: the bars hold that step's rows.
        if (!tab.overview().steps.empty() && !tab.overview().steps.front().empty()) {
            const std::string step = tab.overview().steps.front();
            tab.setStep(QString::fromStdString(step));
            i = 0;
            for (const auto& r : report["step_breakdown"])
                if (r["type"] == "rank" && r["step"] == step)
                    QVERIFY(near(tab.rankChart()->segmentValue(RankBreakdownChart::Overlapped, i++), r["overlapped_us"].get<double>() / 1e3));
            QCOMPARE(i, 2);
        }
    }

    void htaTwoKinetoRanks() {
        const auto hta = std::filesystem::path(NPU_SHARED_DATA_DIR) / "third_party/hta";
        if (!std::filesystem::exists(hta / "sampled_rank-0.json.gz")) QSKIP("shared data third_party/hta/sampled_rank-*.json.gz not present");
        QTemporaryDir dir;
        const auto folder = std::filesystem::path(dir.path().toStdString()) / "ranks";
        std::filesystem::create_directories(folder);
        for (const char* f : {"sampled_rank-0.json.gz", "sampled_rank-1.json.gz"}) std::filesystem::create_symlink(hta / f, folder / f);
        const auto out = std::filesystem::path(dir.path().toStdString()) / "hta.npudb";
        const auto imported = profiler::importProfile(folder, out);
        QVERIFY2(imported.ok(), imported.ok() ? "" : imported.message().c_str());
        const auto db = openDb(out);
        views::CommunicationTab tab;
        tab.setDatabase(db);
        QCOMPARE(tab.overview().source, std::string("trace"));
        QCOMPARE(tab.overview().ranks.size(), std::size_t(2));
        QVERIFY(tab.hasCommunication());
        QVERIFY(tab.overview().links.empty());
        QCOMPARE(tab.matrixChart()->highlightedLink(), std::make_pair(std::int64_t(-1), std::int64_t(-1)));
        QVERIFY(tab.collectivesModel()->rowCount() > 0);
        // Each call waits at most until the latest rank starts it: wait + transit = elapsed.
        std::map<std::int64_t, double> waitOfRank;
        for (const auto& r : tab.collectivesModel()->rows()) {
            QVERIFY(near(r.wait_ms + r.transit_ms, r.elapse_ms));
            waitOfRank[r.rank] += r.wait_ms;
        }
        // The highlighted rank has the most own work: the report's rank rows less its waits.
        const auto report = profiler::runReport(*db, 0);
        std::map<std::int64_t, double> own;
        for (const auto& r : report["step_breakdown"])
            if (r["type"] == "rank")
                own[r["device_name"].get<std::string>().find("rank1") == 0 ? 1 : 0] +=
                    (r["computing_us"].get<double>() + r["communication_not_overlapped_us"].get<double>()) / 1e3;
        QCOMPARE(own.size(), std::size_t(2));
        const std::int64_t expected = own[1] - waitOfRank[1] > own[0] - waitOfRank[0] ? 1 : 0;
        QCOMPARE(tab.rankChart()->highlightedRank(), expected);
    }

    // A damaged META cluster_report (wrong types, zero degrees) is not believed: the
    // figures come from the rank devices and the note says why; nothing crashes.
    void damagedClusterReport_data() {
        QTest::addColumn<QString>("report");
        QTest::addColumn<bool>("believed");
        QTest::newRow("ranks not objects") << QStringLiteral(R"({"ranks":[1,2]})") << false;
        QTest::newRow("rank a string") << QStringLiteral(R"({"ranks":[{"rank":"zero"}]})") << false;
        QTest::newRow("zero degrees") << QStringLiteral(
            R"({"ranks":[{"rank":0},{"rank":1}],"cluster":{"data_parallel":0,"tensor_parallel":0},"collectives":[{"group":"tp","time_ms":1}]})")
                                      << true;
        QTest::newRow("not json") << QStringLiteral("{ranks") << false;
        QTest::newRow("shape of wrong types") << QStringLiteral(
            R"({"ranks":[1],"cluster":{"devices":"8","sequence_parallel":"yes","schedule":3,"micro_batches":4,"notes":"x"},"bubble_fraction":"a"})")
                                              << false;
    }

    void damagedClusterReport() {
        QFETCH(QString, report);
        QFETCH(bool, believed);
        QTemporaryDir dir;
        const auto path = std::filesystem::path(dir.path().toStdString()) / "bad.npudb";
        {
            auto w = profiler::ProfileDbWriter::create(path);
            QVERIFY(w.ok());
            (*w)->setMeta("source", "simulated");
            (*w)->setMeta("cluster_report", report.toStdString());
            const auto d = (*w)->addDevice("rank 0", "npu");
            const auto t = (*w)->addTrack(d, -1, profiler::TrackKind::compute, "Compute", 0);
            (*w)->addSlice(t, 0, 1000, 0, "matmul", "matmul", "{}");
            QVERIFY((*w)->commit().ok());
        }
        views::CommunicationTab tab;
        tab.setDatabase(openDb(path));
        QVERIFY(!tab.overview().ranks.empty());
        QCOMPARE(tab.overview().collectives.empty(), !believed);  // believed: the report's one collective
        views::SummaryView summary;  // its shape rows and headline skip what they cannot read
        summary.setDatabase(openDb(path));
        QVERIFY(summary.headlineText().contains(QStringLiteral("bad.npudb")));
        if (!believed)
            QVERIFY(!tab.overview().notes.empty() && tab.overview().notes.front().find("cluster_report unreadable") != std::string::npos);
    }

    // msprof-analyze's cluster_analysis.db: ops of 8 ranks, their links and the 3 groups its
    // CommunicationGroup lists (sqlite3: SELECT COUNT(*) FROM CommunicationGroup), shown
    // beside the collectives table.
    void clusterAnalysisGroups() {
        const auto file = std::filesystem::path(NPU_SHARED_DATA_DIR) / "third_party/msinsight/cluster_db_2024/cluster_analysis.db";
        if (!std::filesystem::exists(file)) QSKIP("shared data third_party/msinsight/cluster_db_2024 not present");
        QTemporaryDir dir;
        const auto out = std::filesystem::path(dir.path().toStdString()) / "cluster.npudb";
        QVERIFY(profiler::importProfile(file, out).ok());
        views::CommunicationTab tab;
        tab.setDatabase(openDb(out));
        QVERIFY(tab.hasCommunication());
        QCOMPARE(tab.groupsModel()->rowCount(), 3);
        QCOMPARE(tab.groupsModel()->index(0, 2).data().toString(), QStringLiteral("(0,1,2,3,4,5,6,7)"));
        QCOMPARE(tab.groupsModel()->index(0, 1).data().toLongLong(), 8LL);
        QCOMPARE(tab.groupsModel()->index(2, 0).data().toString(), QStringLiteral("p2p"));
        QVERIFY(tab.headline().contains(QStringLiteral("3 communication group(s)")));
        QAbstractItemModelTester tester(tab.groupsModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    }

    void singleDeviceIsEmpty() {
        engine::Project p = engine::testing::smallLlama();  // one device
        QTemporaryDir dir;
        const auto run = views::testing::simulateInto(p, dir);
        QVERIFY2(run.outcome == runner::SimulationRun::Outcome::ok, run.error.c_str());
        views::CommunicationTab tab;
        tab.setDatabase(openDb(run.summary.db));
        QVERIFY(!tab.hasCommunication());
        auto* stack = tab.findChild<QStackedWidget*>();
        QVERIFY(stack);
        auto* label = qobject_cast<QLabel*>(stack->currentWidget());
        QVERIFY(label);
        QVERIFY(label->text().startsWith(QStringLiteral("No communication in this run")));
    }
};

QTEST_MAIN(TestCommunicationTab)
#include "test_communication_tab.moc"
