// Run > Search Parallel Strategies…: the dialog runs engine::searchStrategies off the GUI
// thread with a progress bar, cancels with partial results, and Apply writes the chosen
// strategy into the project through the Project explorer's edit path (applyEdits).

#include "engine/planner/strategy_search.h"
#include "engine/parallel/parallel_config.h"
#include "engine/project/parallel_settings.h"
#include "engine/project/project.h"
#include "tests/unit/engine/sample_projects.h"
#include "views/dialogs/strategy_search_dialog.h"
#include "views/project/project_tree_model.h"

#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

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
