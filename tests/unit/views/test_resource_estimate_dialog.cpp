// Run > Estimate Resources…: the dialog runs engine::estimateResources off the GUI
// thread and shows the same figures the --batch --estimate report has.

#include "engine/project/project.h"
#include "views/dialogs/resource_estimate_dialog.h"

#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

#include <cmath>

using namespace npu;

class TestResourceEstimateDialog : public QObject {
    Q_OBJECT
private slots:
    void estimatesTheTinyProject() {
        auto project = engine::loadProject(QFINDTESTDATA("../../data/projects/tiny-llama/project.json").toStdString());
        QVERIFY2(static_cast<bool>(project), project ? "" : project.message().c_str());
        views::ResourceEstimateDialog dialog(*project);
        dialog.setTokens(QStringLiteral("2e9"));
        dialog.setDevicesMax(4);
        QSignalSpy done(&dialog, &views::ResourceEstimateDialog::finished);
        dialog.start();
        QVERIFY(dialog.running());
        QVERIFY(done.wait(120000));
        QVERIFY2(dialog.estimate().has_value(), qPrintable(dialog.errorText()));
        const engine::ResourceEstimate& e = *dialog.estimate();
        QVERIFY(e.fits);
        QCOMPARE(e.devices, 1);
        QVERIFY(e.step_time_ms > 0);
        QCOMPARE(e.seconds_for_tokens, std::ceil(2e9 / e.tokens_per_step) * e.step_time_ms / 1e3);
        // One row per device count tried, the fitting one first.
        QCOMPARE(dialog.trialsTable()->rowCount(), static_cast<int>(e.trials.size()));
        QVERIFY(dialog.trialsTable()->rowCount() >= 1);
        QCOMPARE(dialog.trialsTable()->item(0, 1)->text(), QStringLiteral("yes"));
    }

    void badTokensAreNamed() {
        auto project = engine::loadProject(QFINDTESTDATA("../../data/projects/tiny-llama/project.json").toStdString());
        QVERIFY(static_cast<bool>(project));
        views::ResourceEstimateDialog dialog(*project);
        dialog.setTokens(QStringLiteral("many"));
        dialog.start();
        QVERIFY(!dialog.running());
        QVERIFY(!dialog.estimate().has_value());
        QVERIFY2(dialog.errorText().contains(QStringLiteral("expected a positive number")), qPrintable(dialog.errorText()));
    }
};

QTEST_MAIN(TestResourceEstimateDialog)
#include "test_resource_estimate_dialog.moc"
