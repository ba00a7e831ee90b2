// Run > Compare with Measured Run…: the dialog built for a simulated run and the shared
// LLaMA trace shows the same figures as `--against` (profiler::compareWithMeasured):
// a row per category, the major groups, and the measured step's busy/idle time.
#include "app/measured_comparison_action.h"
#include "profiler/analysis/measured_comparison.h"
#include "runner/runs/simulation_run.h"
#include "profiler/store/profile_db.h"
#include "views/compare/measured_comparison_dialog.h"

#include <QLabel>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace npu;

class TestMeasuredComparisonDialog : public QObject {
    Q_OBJECT
private slots:
    void handBuiltComparison() {
        profiler::MeasuredComparison c;
        c.step = {30'000'000, 29'000'000, 40'000'000, 32'000'000, 8'000'000};
        profiler::MeasuredCategoryRow matmul;
        matmul.category = engine::OpCategory::matmul;
        matmul.name = "matmul";
        matmul.simulated_count = 10;
        matmul.measured_count = 12;
        matmul.simulated_ns = 12'000'000;
        matmul.measured_ns = 10'000'000;
        c.categories = {matmul};
        c.majorGroups = {matmul};
        views::MeasuredComparisonDialog d(c, QStringLiteral("sim.npudb"), QStringLiteral("trace.json.gz"));
        QCOMPARE(d.categoryTable()->rowCount(), 2);  // matmul and the total row
        QCOMPARE(d.categoryTable()->item(0, 0)->text(), QStringLiteral("matmul"));
        QCOMPARE(d.categoryTable()->item(0, 5)->text(), QStringLiteral("+20.0 %"));
        // Issue 24 Minor: a headline and a total row.
        QCOMPARE(d.categoryTable()->item(1, 0)->text(), QStringLiteral("Total"));
        QCOMPARE(d.categoryTable()->item(1, 3)->text(), QStringLiteral("12.0 ms"));
        QCOMPARE(d.majorTable()->rowCount(), 1);  // the groups cover only some ops: no total
        QVERIFY2(d.headline()->text().contains(QStringLiteral("simulated <b>30.0 ms</b> vs measured <b>40.0 ms</b>: <b>-25.0 %</b>")),
                 qPrintable(d.headline()->text()));
        QVERIFY(d.stepLabel()->text().contains(QStringLiteral("idle 8.00 ms")));
    }

    void llamaTrace() {
        const std::filesystem::path trace = NPU_SHARED_DATA_DIR "/traces/llama_small_amp_bf16_b8s1024_h200.json.gz";
        if (!std::filesystem::exists(trace)) QSKIP("../shared/data/traces/llama_small_amp_bf16_b8s1024_h200.json.gz is absent");
        QTemporaryDir dir;
        auto project = engine::loadProject(std::filesystem::path(NPU_SOURCE_DIR) / "projects/llama-small-h200/project.json");
        QVERIFY(project.ok());
        runner::SimulationRunOptions o;
        o.dir = dir.path().toStdString();
        o.record = false;
        const auto run = runner::runSimulation(*project, o);
        QVERIFY(run.outcome == runner::SimulationRun::Outcome::ok);
        auto sim = profiler::ProfileDb::open(run.summary.db);
        QVERIFY(sim.ok());
        QString error;
        std::unique_ptr<views::MeasuredComparisonDialog> d(
            app::makeMeasuredComparisonDialog(nullptr, **sim, QString::fromStdString(trace.string()), &error));
        QVERIFY2(d, qPrintable(error));
        QVERIFY(std::filesystem::exists(dir.filePath(QStringLiteral("measured-llama_small_amp_bf16_b8s1024_h200.npudb")).toStdString()));
        QVERIFY(d->categoryTable()->rowCount() >= 8);  // seven categories at least and the total
        QCOMPARE(d->categoryTable()->item(d->categoryTable()->rowCount() - 1, 0)->text(), QStringLiteral("Total"));
        QVERIFY2(d->headline()->text().contains(QStringLiteral("measured <b>47.2")), qPrintable(d->headline()->text()));
        QCOMPARE(d->majorTable()->rowCount(), 4);  // matmul, attention, optimizer, memory_bound
        QCOMPARE(d->majorTable()->item(0, 2)->text(), QStringLiteral("172"));
        QVERIFY2(d->stepLabel()->text().contains(QStringLiteral("measured 47.2")), qPrintable(d->stepLabel()->text()));

        QVERIFY(!app::makeMeasuredComparisonDialog(nullptr, **sim, dir.filePath(QStringLiteral("none.json")), &error));
        QVERIFY(error.contains(QStringLiteral("none.json")));
    }
};

QTEST_MAIN(TestMeasuredComparisonDialog)
#include "test_measured_comparison_dialog.moc"
