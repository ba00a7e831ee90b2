// The GUI offscreen: the main window opens a database and shows it in every view, runs
// a simulation in the background and records it, survives bad files.

#include "app/job_runner.h"
#include "app/main_window.h"
#include "profiler/store/profile_db.h"
#include "profiler/store/synthetic_db.h"
#include "views/charts/memory_chart.h"
#include "views/log/output_panel.h"
#include "views/project/project_explorer.h"
#include "views/project/project_tree_model.h"
#include "views/summary/summary_view.h"
#include "views/tables/diagnostics_view.h"
#include "views/tables/op_stats_model.h"
#include "views/tables/op_stats_view.h"
#include "views/tables/record_table_model.h"
#include "views/timeline/timeline_widget.h"
#include "tests/unit/views/layout_checks.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using npu::app::MainWindow;

class TestGuiSmoke : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    QString m_db;

private slots:
    void initTestCase() {
        QVERIFY(m_tmp.isValid());
        QCoreApplication::setOrganizationName(QStringLiteral("NPU Studio Tests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_gui_smoke"));
        m_db = m_tmp.filePath(QStringLiteral("synthetic.npudb"));
        QVERIFY(npu::profiler::writeSyntheticDb(m_db.toStdString(), 20000, 4, 7).ok());
    }

    // At the default size and at a laptop's 1280x720 (issue 24).
    void opensDatabaseInEveryView_data() { npu::views::testing::addWindowSizes(QSize(1400, 900)); }

    void opensDatabaseInEveryView() {
        QFETCH(QSize, size);
        MainWindow w;
        w.setShowDialogs(false);
        QVERIFY(npu::views::testing::showAt(w, size));
        QVERIFY(w.openDatabase(m_db));
        QVERIFY(w.database());
        QVERIFY(w.timeline()->itemCount() > 0);
        QCOMPARE(qint64(w.timeline()->itemCount()), w.database()->sliceCount());

        auto* ops = w.operators()->model();
        QVERIFY(ops->rowCount() > 0);
        QAbstractItemModelTester opsTester(ops, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(w.operators()->proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        // Sorted by total time, descending, by default.
        auto* proxy = w.operators()->proxy();
        const qlonglong first = proxy->index(0, npu::views::OpStatsModel::Total).data(Qt::UserRole).toLongLong();
        const qlonglong second = proxy->index(1, npu::views::OpStatsModel::Total).data(Qt::UserRole).toLongLong();
        QVERIFY(first >= second);
        w.operators()->setGrouping(npu::profiler::OpGrouping::byCategory);
        QVERIFY(ops->rowCount() > 0);
        QCOMPARE(ops->headerData(0, Qt::Horizontal, Qt::DisplayRole).toString(), QStringLiteral("Category"));

        QVERIFY(w.memory()->seriesCount() > 0);
        QVERIFY(w.memory()->pointCount() > 0);
        QVERIFY(w.memory()->peakBytes() > 0);

        QVERIFY(w.summary()->metaModel()->rowCount() > 0);
        QAbstractItemModelTester metaTester(w.summary()->metaModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(w.summary()->deviceModel()->rowCount() > 0);

        // Paint every tab once, offscreen; each is readable at this size: its tables,
        // charts and timeline not squashed, no column header cut.
        const QStringList problems = npu::views::testing::problemsInEveryTab(w.tabs(), QSize(160, 80));
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QStringLiteral("\n"))));
        QVERIFY(w.recentFiles().contains(QFileInfo(m_db).absoluteFilePath()));
        QVERIFY(w.explorer()->model()->findRun(QFileInfo(m_db).absoluteFilePath()).isValid());

        const QString csv = m_tmp.filePath(QStringLiteral("ops.csv"));
        QVERIFY(w.exportCsvTo(csv));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.readAll().count('\n') >= 2);
        QVERIFY(w.exportChromeTo(m_tmp.filePath(QStringLiteral("trace.json"))));
    }

    void badFilesKeepTheAppRunning() {
        MainWindow w;
        w.setShowDialogs(false);
        const QString junk = m_tmp.filePath(QStringLiteral("junk.npudb"));
        QFile f(junk);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("this is not sqlite");
        f.close();
        QVERIFY(!w.openPath(junk));
        QVERIFY(!w.openPath(m_tmp.filePath(QStringLiteral("missing.json"))));
        QVERIFY(!w.openProject(QFINDTESTDATA("../data/projects/bad-type/project.json")));
        QCOMPARE(w.output()->errorCount(), 3);
        QVERIFY(w.output()->toPlainText().contains(QStringLiteral("training.batch")));
        QVERIFY(!w.database());
        QVERIFY(w.openDatabase(m_db));  // still works afterwards
    }

    void importsATraceInTheBackground() {
        const QString trace = m_tmp.filePath(QStringLiteral("nesting.json"));
        QVERIFY(QFile::copy(QFINDTESTDATA("../data/traces/nesting.json"), trace));
        MainWindow w;
        w.setShowDialogs(false);
        QSignalSpy done(w.jobs(), &npu::app::JobRunner::finished);
        QVERIFY(w.openPath(trace));
        QVERIFY(done.wait(60000));
        QVERIFY2(w.database(), qPrintable(w.output()->toPlainText()));
        QVERIFY(QFile::exists(m_tmp.filePath(QStringLiteral("nesting.npudb"))));
        QVERIFY(w.timeline()->itemCount() > 0);
        QVERIFY(w.tabs()->isTabVisible(w.tabs()->indexOf(w.diagnostics())));
    }

    void simulatesAProjectInTheBackground() {
        const QString dir = m_tmp.filePath(QStringLiteral("sim"));
        QVERIFY(QDir().mkpath(dir));
        const QString project = dir + QStringLiteral("/project.json");
        QVERIFY(QFile::copy(QFINDTESTDATA("../data/projects/tiny-llama/project.json"), project));
        MainWindow w;
        w.setShowDialogs(false);
        QSignalSpy done(w.jobs(), &npu::app::JobRunner::finished);
        // No runs yet: opening the project simulates it.
        QVERIFY(w.openProject(project));
        QVERIFY(w.project().has_value());
        QVERIFY(w.jobs()->busy());
        QVERIFY(done.wait(120000));
        QVERIFY2(w.database(), qPrintable(w.output()->toPlainText()));
        QCOMPARE(QString::fromStdString(w.database()->meta("source")), QStringLiteral("simulated"));
        QVERIFY(w.timeline()->itemCount() > 0);
        QCOMPARE(w.project()->runs.size(), size_t(1));
        QFile pf(QFileInfo(project).absolutePath() + QStringLiteral("/runs/runs.json"));  // the run list; project.json is not rewritten
        QVERIFY(pf.open(QIODevice::ReadOnly));
        QCOMPARE(QJsonDocument::fromJson(pf.readAll()).object().value(QStringLiteral("runs")).toArray().size(), 1);
        QVERIFY(w.explorer()->model()->runsIndex().isValid());
        QCOMPARE(w.explorer()->model()->rowCount(w.explorer()->model()->runsIndex()), 1);
    }

    void cancelStopsASimulation() {
        const QString dir = m_tmp.filePath(QStringLiteral("cancel"));
        QVERIFY(QDir().mkpath(dir));
        const QString project = dir + QStringLiteral("/project.json");
        QVERIFY(QFile::copy(QFINDTESTDATA("../data/projects/tiny-llama/project.json"), project));
        MainWindow w;
        w.setShowDialogs(false);
        QVERIFY(w.openProject(project, false));
        QVERIFY(!w.jobs()->busy());
        QSignalSpy done(w.jobs(), &npu::app::JobRunner::finished);
        QVERIFY(w.simulate());
        w.jobs()->cancel();
        QVERIFY(done.wait(120000));
        const auto result = done.takeFirst().at(0).value<npu::app::JobResult>();
        // A tiny project may finish before the cancel lands; either way nothing half-done.
        if (result.outcome == npu::app::JobResult::Outcome::cancelled) QVERIFY(!w.database());
        else QCOMPARE(int(result.outcome), int(npu::app::JobResult::Outcome::ok));
        QVERIFY(!w.jobs()->busy());
    }

    void comparesTwoRuns() {
        const QString b = m_tmp.filePath(QStringLiteral("synthetic-b.npudb"));
        QVERIFY(npu::profiler::writeSyntheticDb(b.toStdString(), 15000, 4, 11).ok());
        MainWindow w;
        w.setShowDialogs(false);
        w.resize(1400, 900);
        QVERIFY(w.compareRuns(m_db, b));
        QVERIFY(w.compareView());
        QVERIFY(!w.grab().isNull());
    }
};

QTEST_MAIN(TestGuiSmoke)
#include "test_gui_smoke.moc"
