// Run > Estimate Resources…: the dialog runs engine::estimateResources off the GUI
// thread and shows the same figures the --batch --estimate report has.

#include "views/charts/qcustomplot_include.h"

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
        // One row per device count: every power of two up to the maximum, not only the
        // fewest that fit (issue 24: step time, days and cost against device count).
        QCOMPARE(dialog.trialsTable()->rowCount(), static_cast<int>(e.trials.size()));
        QCOMPARE(dialog.trialsTable()->rowCount(), 3);  // 1, 2, 4
        QCOMPARE(dialog.trialsTable()->item(0, 1)->text(), QStringLiteral("yes"));
        int fitting = 0;
        for (const engine::DeviceCountTrial& t : e.trials) {
            QCOMPARE(t.devices, 1 << (&t - e.trials.data()));
            if (!t.fits) continue;
            ++fitting;
            QVERIFY(t.seconds_for_tokens > 0);
            QCOMPARE(t.device_hours, t.seconds_for_tokens * t.devices / 3600);
        }
        QCOMPARE(e.trials.front().seconds_for_tokens, e.seconds_for_tokens);
        // The chart: days and device-hours of each count that fits.
        QCOMPARE(dialog.chart()->graphCount(), 2);
        QCOMPARE(dialog.chart()->graph(0)->data()->size(), fitting);
        QCOMPARE(dialog.trialsTable()->item(0, 6)->text(), QStringLiteral("—"));  // no price: no cost
        dialog.setPricePerDeviceHour(2.5);
        QCOMPARE(dialog.trialsTable()->item(0, 6)->text(), QString::number(e.trials.front().device_hours * 2.5, 'f', 2));
        if (qEnvironmentVariableIsSet("NPU_SCREENSHOTS")) {  // NPU_SCREENSHOTS=DIR: the dialog as a user sees it
            dialog.show();
            QTest::qWait(100);
            dialog.grab().save(qEnvironmentVariable("NPU_SCREENSHOTS") + QStringLiteral("/estimate.png"));
        }
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
