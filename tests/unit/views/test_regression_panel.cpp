// The Regression panel: a suite report's rows with the failures first, the model's
// contract, and a case's run handed to the Compare view with its baseline run.

#include "regression/suite_report.h"
#include "views/regression/regression_panel.h"
#include "views/regression/suite_report_model.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace npu;
using regression::CaseResult;
using regression::CaseStatus;
using regression::MetricResult;
using regression::Verdict;

class TestRegressionPanel : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;

    QString touch(const QString& name) {
        QFile f(m_tmp.filePath(name));
        f.open(QIODevice::WriteOnly);
        return f.fileName();
    }

    QString writeReport() {
        auto metric = [](const char* path, Verdict v, double base, double now) {
            MetricResult m;
            m.metric = m.path = path;
            m.verdict = v;
            m.baseline = base;
            m.now = now;
            return m;
        };
        CaseResult ok;
        ok.index = 0;
        ok.name = "fine";
        ok.kind = "project";
        ok.db = touch(QStringLiteral("fine.npudb")).toStdString();
        ok.baselineDb = touch(QStringLiteral("fine-base.npudb")).toStdString();
        ok.metrics = {metric("step_time_ms", Verdict::pass, 10, 10)};
        CaseResult slow = ok;
        slow.index = 1;
        slow.name = "slow";
        slow.status = CaseStatus::fail;
        slow.metrics = {metric("mfu", Verdict::pass, 0.4, 0.4), metric("step_time_ms", Verdict::regression, 10, 12)};
        CaseResult broken;
        broken.index = 2;
        broken.name = "broken";
        broken.kind = "import";
        broken.status = CaseStatus::error;
        broken.error = "trace.json: not a trace";
        CaseResult convert;
        convert.index = 3;
        convert.name = "convert";
        convert.kind = "convert";
        convert.db = touch(QStringLiteral("m.npuom")).toStdString();
        convert.metrics = {metric("forward_macs", Verdict::pass, 5, 5)};
        regression::SuiteReport report{"ci.json", "b.json", {}, {ok, slow, broken, convert}};
        const QString file = m_tmp.filePath(QStringLiteral("report.json"));
        QFile f(file);
        f.open(QIODevice::WriteOnly);
        f.write(QByteArray::fromStdString(regression::suiteReportToJson(report).dump(2)));
        return file;
    }

private slots:
    void failuresFirstAndModelContract() {
        views::RegressionPanel panel;
        QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(panel.openReport(writeReport()), QString());
        const auto* m = panel.model();
        QCOMPARE(m->rowCount(), 5);  // broken (its own line), slow x2, fine, convert
        auto cell = [&](int row, int col) { return m->data(m->index(row, col)).toString(); };
        QCOMPARE(cell(0, 0), QStringLiteral("broken"));
        QVERIFY(cell(0, 5).contains(QStringLiteral("not a trace")));
        QCOMPARE(cell(1, 0), QStringLiteral("slow"));
        QCOMPARE(cell(1, 1), QStringLiteral("step_time_ms"));  // the failing metric before the passing one
        QCOMPARE(cell(1, 4), QStringLiteral("+2 (+20.00 %)"));
        QCOMPARE(cell(2, 1), QStringLiteral("mfu"));
        QCOMPARE(cell(3, 0), QStringLiteral("fine"));
        QCOMPARE(cell(4, 0), QStringLiteral("convert"));
        QVERIFY(m->data(m->index(1, 0), Qt::ForegroundRole).isValid());
        QVERIFY(!m->data(m->index(3, 0), Qt::ForegroundRole).isValid());
    }

    void comparesACaseWithItsBaselineRun() {
        views::RegressionPanel panel;
        QCOMPARE(panel.openReport(writeReport()), QString());
        QSignalSpy spy(&panel, &views::RegressionPanel::compareRequested);
        panel.table()->selectRow(0);  // broken: no run
        QVERIFY(!panel.compareSelected());
        panel.table()->selectRow(4);  // convert: no timeline
        QVERIFY(!panel.compareSelected());
        QCOMPARE(spy.count(), 0);
        panel.table()->selectRow(1);
        QVERIFY(panel.compareSelected());
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toString(), m_tmp.filePath(QStringLiteral("fine-base.npudb")));
        QCOMPARE(spy.at(0).at(1).toString(), m_tmp.filePath(QStringLiteral("fine.npudb")));
    }

    void badReportIsAnError() {
        views::RegressionPanel panel;
        const QString file = m_tmp.filePath(QStringLiteral("bad.json"));
        QFile f(file);
        f.open(QIODevice::WriteOnly);
        f.write(R"({"format": "npustudio-suite-report", "version": 5, "cases": []})");
        f.close();
        const QString problem = panel.openReport(file);
        QVERIFY2(problem.contains(QStringLiteral("version 5 is newer")), qPrintable(problem));
        QCOMPARE(panel.model()->rowCount(), 0);
    }
};

QTEST_MAIN(TestRegressionPanel)
#include "test_regression_panel.moc"
