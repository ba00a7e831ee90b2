// Issue 9: the loss scale of a multi-step fp16 run as a chart in the Summary tab, the
// skipped steps marked. The points must be the scale each step used (GradScaler's state
// machine, pinned step by step in test_loss_scale_run) read back from the .npudb.
#include "views/charts/qcustomplot_include.h"  // first: see there

#include "engine/driver/simulate_project.h"
#include "tests/unit/engine/sample_projects.h"
#include "profiler/store/loss_scale_store.h"
#include "profiler/store/profile_db.h"
#include "profiler/store/simulation_writer.h"
#include "views/charts/loss_scale_chart.h"
#include "views/summary/summary_view.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace npu;

namespace {

engine::Project fp16Run(const std::string& precision) { return engine::testing::lossScaledLlama(precision); }

}  // namespace

class TestLossScaleChart : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    std::shared_ptr<const profiler::ProfileDb> simulated(const std::string& precision) {
        auto r = engine::simulateProject(fp16Run(precision), {});
        if (!r.ok()) qFatal("%s", r.message().c_str());
        const auto path = std::filesystem::path(m_dir.path().toStdString()) / (precision + ".npudb");
        if (!profiler::writeSimulation(*r, {"ls", "ls.json", "run"}, path).ok()) qFatal("write failed");
        auto db = profiler::ProfileDb::open(path);
        if (!db.ok()) qFatal("open failed");
        return std::shared_ptr<const profiler::ProfileDb>(std::move(*db));
    }

private slots:
    void stepsReadBackFromTheCounters() {
        const auto db = simulated("fp16-amp");
        const auto rows = profiler::readLossScaleSteps(*db);
        QCOMPARE(int(rows.size()), 6);
        const double scales[] = {1024, 1024, 512, 512, 1024, 512};
        for (int s = 0; s < 6; ++s) {
            QCOMPARE(rows[s].step, s);
            QCOMPARE(rows[s].scale, scales[s]);
            QCOMPARE(rows[s].skipped, s == 1 || s == 4);
        }
    }

    void summaryShowsTheChartWithSkippedStepsMarked() {
        views::SummaryView view;
        view.resize(900, 900);
        view.show();
        view.setDatabase(simulated("fp16-amp"));
        views::LossScaleChart* chart = view.lossScaleChart();
        QVERIFY(chart->isVisibleTo(&view));
        QCOMPARE(chart->stepCount(), 6);
        QCOMPARE(chart->skippedCount(), 2);
        QCOMPARE(chart->plot()->graphCount(), 2);
        const QCPGraph* skipped = chart->plot()->graph(1);
        QCOMPARE(skipped->data()->size(), 2);
        QCOMPARE(skipped->data()->at(0)->key, 1.0);
        QCOMPARE(skipped->data()->at(0)->value, 1024.0);
        QCOMPARE(skipped->data()->at(1)->key, 4.0);
        QCOMPARE(chart->plot()->yAxis->scaleType(), QCPAxis::stLogarithmic);

        // A bf16 run has no loss scaling: the chart goes away, nothing stale stays.
        view.setDatabase(simulated("bf16-o2"));
        QVERIFY(!chart->isVisibleTo(&view));
        QCOMPARE(chart->stepCount(), 0);
        QCOMPARE(chart->plot()->graphCount(), 0);
    }
};

QTEST_MAIN(TestLossScaleChart)
#include "test_loss_scale_chart.moc"
