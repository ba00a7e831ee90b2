// Run > Search Parallel Strategies…: the dialog runs engine::searchStrategies off the GUI
// thread with a progress bar, cancels with partial results, and Apply writes the chosen
// strategy into the project through the Project explorer's edit path (applyEdits).

#include "views/charts/qcustomplot_include.h"  // first: QCustomPlot needs Qt's foreach

#include "engine/planner/strategy_search.h"
#include "engine/parallel/parallel_config.h"
#include "engine/project/parallel_settings.h"
#include "engine/project/project.h"
#include "tests/unit/engine/sample_projects.h"
#include "views/charts/strategy_scatter.h"
#include "views/dialogs/strategy_search_dialog.h"
#include "views/project/project_tree_model.h"

#include <QImage>
#include <QProgressBar>
#include <QTemporaryDir>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

#include <set>

using namespace npu;

using engine::testing::smallCluster;

class TestStrategySearchDialog : public QObject {
    Q_OBJECT
private slots:
    void searchesRanksAndApplies() {
        views::StrategySearchDialog dialog(smallCluster());
        QSignalSpy done(&dialog, &views::StrategySearchDialog::finished);
        QVERIFY(!dialog.applyButton()->isEnabled());
        dialog.start();
        QVERIFY(dialog.running());
        QVERIFY(done.wait(120000));
        QVERIFY2(dialog.result().has_value(), qPrintable(dialog.statusText()));
        const engine::StrategySearchResult& r = *dialog.result();
        QVERIFY(!r.cancelled);
        QVERIFY(r.feasibleCount > 0);
        QCOMPARE(dialog.progressBar()->value(), 1000);
        // Every strategy is a row, the ranked ones first, the best selected.
        QCOMPARE(dialog.table()->rowCount(), static_cast<int>(r.strategies.size()));
        QCOMPARE(dialog.table()->item(0, 0)->text(), QStringLiteral("1"));
        QCOMPARE(dialog.table()->currentRow(), 0);
        // The schedule has its column: named for each pipelined strategy, empty without stages.
        QCOMPARE(dialog.table()->horizontalHeaderItem(4)->text(), QStringLiteral("Schedule"));
        for (int row = 0; row < dialog.table()->rowCount(); ++row) {
            const engine::StrategyConfig& c = r.strategies[static_cast<std::size_t>(row)].config;
            const QString shown = dialog.table()->item(row, 4)->text();
            QCOMPARE(shown, c.pipelineStages > 1 ? QString::fromStdString(c.scheduleName()) : QString());
            if (c.schedule == "interleaved" && c.pipelineStages > 1) QCOMPARE(shown, QStringLiteral("interleaved ×%1").arg(c.virtualStages));
        }
        QVERIFY(dialog.applyButton()->isEnabled());
        // A row that does not fit cannot be selected.
        if (r.feasibleCount < dialog.table()->rowCount())
            QVERIFY(!(dialog.table()->item(r.feasibleCount, 1)->flags() & Qt::ItemIsSelectable));

        // Apply: the window connects the signal to the explorer model's edit path; so here.
        views::ProjectTreeModel model;
        engine::Project project = smallCluster();
        model.setProject(project);
        QSignalSpy edited(&model, &views::ProjectTreeModel::projectEdited);
        QSignalSpy rejected(&model, &views::ProjectTreeModel::editRejected);
        connect(&dialog, &views::StrategySearchDialog::applyRequested, &model,
                [&model](const engine::StrategyConfig& c) { model.applyEdits(engine::strategyEdits(c)); });
        dialog.table()->selectRow(1);
        QTest::mouseClick(dialog.applyButton(), Qt::LeftButton);
        QCOMPARE(rejected.count(), 0);
        QCOMPARE(edited.count(), 1);
        const auto applied = edited.front().front().value<engine::Project>();
        const engine::StrategyConfig& want = r.strategies[1].config;
        auto cfg = engine::parallelConfigOf(applied);
        QVERIFY(cfg.ok());
        QCOMPARE(cfg->dataParallel, want.dataParallel);
        QCOMPARE(cfg->tensorParallel, want.tensorParallel);
        QCOMPARE(cfg->pipelineStages, want.pipelineStages);
        QCOMPARE(cfg->microBatches, want.microBatches);
        QCOMPARE(cfg->zeroStage, want.zeroStage);
        QCOMPARE(applied.training.activation_checkpointing, want.activationCheckpointing);
    }

    // The chart: every simulated strategy a point, a series per value of the colour
    // dimension, the Pareto front; a click on a point that fits selects its row, a row
    // selected rings its point; the chart saves as PNG.
    void chartPlotsSelectsAndSaves() {
        views::StrategySearchDialog dialog(smallCluster());
        dialog.resize(1280, 720);
        dialog.show();
        QSignalSpy done(&dialog, &views::StrategySearchDialog::finished);
        dialog.start();
        QVERIFY(done.wait(120000));
        QVERIFY(dialog.result().has_value());
        const engine::StrategySearchResult& r = *dialog.result();
        views::StrategyScatter* chart = dialog.chart();
        QCOMPARE(static_cast<int>(chart->plotted().size()), r.simulations);
        // Legend: one entry per TP degree simulated, and the front.
        std::set<int> tps;
        for (std::size_t i : chart->plotted()) tps.insert(r.strategies[i].config.tensorParallel);
        QStringList names = chart->legendNames();
        QVERIFY2(names.contains(QStringLiteral("Pareto front")), qPrintable(names.join(QLatin1Char(','))));
        for (int tp : tps) QVERIFY2(names.contains(QStringLiteral("TP %1").arg(tp)), qPrintable(names.join(QLatin1Char(','))));
        chart->setColourBy(views::StrategyScatter::ColourBy::zero_stage);
        names = chart->legendNames();
        QVERIFY2(std::any_of(names.begin(), names.end(), [](const QString& n) { return n.startsWith(QStringLiteral("ZeRO-")); }),
                 qPrintable(names.join(QLatin1Char(','))));
        // The front: fits, and nothing that fits is both faster and smaller.
        const auto front = engine::paretoFront(r);
        QVERIFY(!front.empty());
        for (std::size_t f : front) {
            QVERIFY(r.strategies[f].feasible());
            for (const engine::StrategyTrial& t : r.strategies)
                QVERIFY(!(t.feasible() && t.tokens_per_s > r.strategies[f].tokens_per_s && t.peak_bytes < r.strategies[f].peak_bytes));
        }
        // The best is selected and ringed; clicking another point that fits selects its row.
        QCOMPARE(chart->selected(), std::optional<std::size_t>(0));
        std::size_t other = 0;
        for (std::size_t i : chart->plotted())
            if (i != 0 && r.strategies[i].feasible() && chart->strategyAt(chart->pixelOf(i)) == i) other = i;
        QVERIFY2(other > 0, "no second strategy that fits is reachable on the chart");
        QTest::mouseClick(chart->plot(), Qt::LeftButton, {}, chart->pixelOf(other).toPoint());
        QCOMPARE(dialog.table()->currentRow(), static_cast<int>(other));
        QCOMPARE(chart->selected(), std::optional<std::size_t>(other));
        dialog.table()->selectRow(0);
        QCOMPARE(chart->selected(), std::optional<std::size_t>(0));
        // Saved as PNG at the chart's size.
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("strategies.png"));
        QVERIFY(dialog.saveChartButton()->isEnabled());
        QVERIFY(dialog.saveChart(png));
        QImage image(png);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() > 100 && image.height() > 100);
        if (const QByteArray dirOut = qgetenv("NPU_SCREENSHOTS"); !dirOut.isEmpty())
            dialog.grab().save(QString::fromLocal8Bit(dirOut) + QStringLiteral("/strategy-search-1280.png"));
    }

    void cancelKeepsPartialResults() {
        views::StrategySearchDialog dialog(smallCluster());
        QSignalSpy done(&dialog, &views::StrategySearchDialog::finished);
        dialog.start();
        // Cancelled at once, before the search (tens of simulations) can finish however fast
        // the machine: it stops after the simulation under way and keeps what it has.
        QVERIFY(dialog.running());
        dialog.cancel();
        QVERIFY(done.count() == 1 || done.wait(60000));
        QVERIFY(dialog.result().has_value());
        QVERIFY(dialog.result()->cancelled);
        QVERIFY(dialog.statusText().startsWith(QStringLiteral("Cancelled")));
        QVERIFY(dialog.result()->simulations < 40);
        QCOMPARE(dialog.table()->rowCount(), static_cast<int>(dialog.result()->strategies.size()));
    }

    void notAClusterSaysSo() {
        engine::Project p = smallCluster();
        p.cluster = nlohmann::json::object();
        p.parallel = nlohmann::json::object();
        views::StrategySearchDialog dialog(p);
        QSignalSpy done(&dialog, &views::StrategySearchDialog::finished);
        dialog.start();
        QVERIFY(done.wait(60000));
        QVERIFY(!dialog.result().has_value());
        QVERIFY(dialog.statusText().contains(QStringLiteral("cluster")));
        QVERIFY(!dialog.apply());
    }
};

QTEST_MAIN(TestStrategySearchDialog)
#include "test_strategy_search_dialog.moc"
