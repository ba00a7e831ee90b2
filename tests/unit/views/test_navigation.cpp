// Issue 8, the navigation profiling engineers miss: the SQL query panel (read-only, off
// the GUI thread, cancellable, CSV export, the docs/queries examples) and the Host tab
// (CPU op self/total, launches per op, launch delay and queue length per stream).
#include "profiler/importers/trace_importer.h"
#include "profiler/store/profile_db.h"
#include "profiler/store/synthetic_db.h"
#include "views/query/query_panel.h"
#include "views/tables/host_analysis_view.h"
#include "views/tables/record_table_model.h"

#include <QComboBox>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace npu;
using namespace npu::views;

class TestNavigation : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::filesystem::path m_db;

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_db = m_dir.filePath(QStringLiteral("synthetic.npudb")).toStdString();
        QVERIFY(profiler::writeSyntheticDb(m_db, 200000, 4, 3).ok());
    }

    void queryRunsOffTheGuiThreadAndExports() {
        QueryPanel panel;
        panel.setDatabase(m_db);
        QVERIFY(panel.examples()->count() >= 5);  // docs/queries/*.sql, compiled in
        QSignalSpy done(&panel, &QueryPanel::finished);
        panel.setQuery(QStringLiteral("SELECT count(*) AS n FROM TASK"));
        panel.run();
        QVERIFY(panel.isRunning() || done.count() == 1);  // returns at once; the query runs on the pool
        QVERIFY(done.count() == 1 || done.wait(30000));
        QCOMPARE(done.at(0).at(0).toBool(), true);
        QCOMPARE(panel.results()->rowCount(), 1);
        QCOMPARE(panel.results()->index(0, 0).data().toString(), QStringLiteral("200000"));
        const QString csv = m_dir.filePath(QStringLiteral("q.csv"));
        QVERIFY(panel.exportCsv(csv));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("n\r\n200000\r\n"));  // RFC 4180 line ends
    }

    void everyExampleRuns() {
        QueryPanel panel;
        panel.setDatabase(m_db);
        for (int i = 1; i < panel.examples()->count(); ++i) {
            QSignalSpy done(&panel, &QueryPanel::finished);
            panel.setQuery(panel.examples()->itemData(i).toString());
            panel.run();
            QVERIFY(done.count() == 1 || done.wait(30000));
            QVERIFY2(done.at(0).at(0).toBool(), qPrintable(panel.examples()->itemText(i) + QStringLiteral(": ") + panel.status()));
        }
    }

    void queryIsReadOnly() {
        QueryPanel panel;
        panel.setDatabase(m_db);
        QSignalSpy done(&panel, &QueryPanel::finished);
        panel.setQuery(QStringLiteral("DELETE FROM TASK"));
        panel.run();
        QVERIFY(done.count() == 1 || done.wait(30000));
        QCOMPARE(done.at(0).at(0).toBool(), false);
        QVERIFY2(panel.status().contains(QStringLiteral("read-only")), qPrintable(panel.status()));
        auto db = profiler::ProfileDb::open(m_db);
        QVERIFY(db.ok());
        QCOMPARE((*db)->sliceCount(), std::int64_t(200000));
    }

    void queryCancels() {
        QueryPanel panel;
        panel.setDatabase(m_db);
        QSignalSpy done(&panel, &QueryPanel::finished);
        // A cross join of 200k x 200k rows: minutes unless cancelled.
        panel.setQuery(QStringLiteral("SELECT count(*) FROM TASK a, TASK b WHERE a.dur_ns + b.dur_ns = -1"));
        panel.run();
        QTest::qWait(200);
        QVERIFY(panel.isRunning());
        panel.cancel();
        QVERIFY(done.wait(10000));
        QCOMPARE(done.at(0).at(0).toBool(), false);
        QVERIFY2(panel.status().contains(QStringLiteral("cancelled")), qPrintable(panel.status()));
    }

    void hostTabOfAnImportedTrace() {
        const QString trace = QFINDTESTDATA("../../data/traces/resnet50_amp_bf16_b64_h200.json.gz");
        const auto out = std::filesystem::path(m_dir.filePath(QStringLiteral("resnet.npudb")).toStdString());
        QVERIFY(profiler::importTrace(trace.toStdString(), out).ok());
        HostAnalysisView view;
        QSignalSpy computed(&view, &HostAnalysisView::computed);
        view.setDatabase(out);
        QVERIFY(computed.wait(60000));
        QVERIFY(view.cpuOps()->rowCount() > 50);
        QVERIFY(view.opKernels()->rowCount() > 10);
        QCOMPARE(view.streams()->rowCount(), 1);
        QCOMPARE(view.cpuOps()->headerData(3, Qt::Horizontal, Qt::DisplayRole).toString(), QStringLiteral("Self"));
    }
};

QTEST_MAIN(TestNavigation)
#include "test_navigation.moc"
