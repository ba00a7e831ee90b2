// Large runs (views/common/large_run.h: past kLargeRunSlices) keep the window live: the
// Operators tab computes its statistics off the GUI thread and says so meanwhile.
#include "profiler/analysis/op_statistics.h"
#include "profiler/store/profile_db.h"
#include "profiler/store/synthetic_db.h"
#include "tests/unit/views/simulated_runs.h"
#include "views/common/large_run.h"
#include "views/tables/op_stats_model.h"
#include "views/tables/op_stats_view.h"

#include <QLabel>
#include <QTemporaryDir>
#include <QtTest>

using namespace npu;
using namespace npu::views;
using npu::views::testing::openDb;

class TestLargeRunViews : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    // A large run's Operators statistics run off the GUI thread: the tab says it is
    // computing, then shows what the analysis gives; a range set meanwhile wins.
    void largeRunOperatorsComputeOffTheGuiThread() {
        const std::filesystem::path big = m_dir.filePath(QStringLiteral("large.npudb")).toStdString();
        QVERIFY(profiler::writeSyntheticDb(big, kLargeRunSlices + 50'000, 4, 3).ok());
        auto db = openDb(big);
        QVERIFY(db->sliceCount() > kLargeRunSlices);
        OpStatsView view;
        view.setDatabase(db);
        QVERIFY(view.computing());
        QVERIFY2(view.infoLabel()->text().startsWith(QStringLiteral("Computing operator statistics")),
                 qPrintable(view.infoLabel()->text()));
        QCOMPARE(view.model()->rowCount(), 0);
        const auto [t0, t1] = db->timeRange();
        const std::pair<qint64, qint64> range{t0 + (t1 - t0) / 4, t0 + (t1 - t0) / 2};
        view.setRange(range);  // while the whole run's statistics are still computing
        QTRY_VERIFY_WITH_TIMEOUT(!view.computing(), 60000);
        profiler::OpStatOptions o;
        o.grouping = profiler::OpGrouping::byName;
        o.range = range;
        const auto expected = profiler::computeOpStatistics(*db, o);
        QCOMPARE(view.model()->statistics().reference_ns, expected.reference_ns);
        QCOMPARE(view.model()->rowCount(), static_cast<int>(expected.rows.size()));
        QVERIFY(view.infoLabel()->text().startsWith(QStringLiteral("range ")));
    }

};

QTEST_MAIN(TestLargeRunViews)
#include "test_large_run_views.moc"
