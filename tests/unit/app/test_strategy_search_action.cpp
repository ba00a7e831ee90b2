// Run > Search Parallel Strategies… through the main window: the dialog searches the open
// cluster project, a cancelled search keeps what it found, and Apply writes the chosen
// strategy into the project, which the window saves (the explorer's edit path).

#include "app/main_window.h"
#include "engine/planner/strategy_search.h"
#include "engine/parallel/parallel_config.h"
#include "engine/project/parallel_settings.h"
#include "tests/unit/engine/sample_projects.h"
#include "views/dialogs/strategy_search_dialog.h"

#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <fstream>

using namespace npu;

class TestStrategySearchAction : public QObject {
    Q_OBJECT

    static QString clusterProject(const QTemporaryDir& dir) {
        nlohmann::json doc = engine::testing::smallClusterDoc();
        doc["runs"] = nlohmann::json::array();
        const QString file = dir.filePath(QStringLiteral("project.json"));
        std::ofstream(file.toStdString()) << doc.dump(2);
        return file;
    }

private slots:
    void searchCancelAndApply() {
        QTemporaryDir dir;
        const QString file = clusterProject(dir);
        app::MainWindow window;
        window.setShowDialogs(false);
        QVERIFY(window.openProject(file, false));

        // Cancel right away: finished follows with what was simulated (possibly nothing).
        views::StrategySearchDialog* first = window.searchStrategies();
        QVERIFY(first);
        QSignalSpy firstDone(first, &views::StrategySearchDialog::finished);
        first->start();
        first->cancel();
        QVERIFY(firstDone.wait(60000));
        QVERIFY(first->result().has_value());
        QVERIFY(first->result()->cancelled);
        QVERIFY(first->statusText().startsWith(QStringLiteral("Cancelled")));
        first->close();

        views::StrategySearchDialog* dialog = window.searchStrategies();
        QSignalSpy done(dialog, &views::StrategySearchDialog::finished);
        dialog->start();
        QVERIFY(done.wait(120000));
        QVERIFY(dialog->result().has_value() && dialog->result()->feasibleCount > 1);
        // Apply the second-ranked strategy (the first may be the project's own).
        dialog->table()->selectRow(1);
        const engine::StrategyConfig want = dialog->result()->strategies[1].config;
        QTest::mouseClick(dialog->applyButton(), Qt::LeftButton);
        QVERIFY(window.project().has_value());
        auto cfg = engine::parallelConfigOf(*window.project());
        QVERIFY(cfg.ok());
        QCOMPARE(cfg->dataParallel, want.dataParallel);
        QCOMPARE(cfg->tensorParallel, want.tensorParallel);
        QCOMPARE(cfg->pipelineStages, want.pipelineStages);
        QCOMPARE(cfg->microBatches, want.microBatches);
        QCOMPARE(cfg->zeroStage, want.zeroStage);
        QCOMPARE(window.project()->training.activation_checkpointing, want.activationCheckpointing);
        // Saved: the file on disk has the strategy.
        auto saved = engine::loadProject(file.toStdString());
        QVERIFY2(saved.ok(), saved.ok() ? "" : saved.message().c_str());
        QCOMPARE(saved->parallel.value("data_parallel", 0), want.dataParallel);
        QCOMPARE(saved->parallel.value("micro_batches", 0), want.microBatches);
        QCOMPARE(saved->training.activation_checkpointing, want.activationCheckpointing);

        // Another project opened meanwhile: Apply from the old dialog leaves it alone.
        QTemporaryDir other;
        const QString otherFile = clusterProject(other);
        QVERIFY(window.openProject(otherFile, false));
        int differing = 0;  // a strategy unlike the file's (DP 8, one micro-batch)
        while (differing < dialog->result()->feasibleCount &&
               dialog->result()->strategies[static_cast<std::size_t>(differing)].config.dataParallel == 8 &&
               dialog->result()->strategies[static_cast<std::size_t>(differing)].config.microBatches == 1)
            ++differing;
        QVERIFY(differing < dialog->result()->feasibleCount);
        dialog->table()->selectRow(differing);
        QVERIFY(dialog->apply());
        QCOMPARE(window.project()->parallel.value("data_parallel", 0), 8);
        QCOMPARE(window.project()->parallel.value("micro_batches", 0), 1);
        QCOMPARE(engine::loadProject(otherFile.toStdString())->parallel.value("data_parallel", 0), 8);
    }
};

QTEST_MAIN(TestStrategySearchAction)
#include "test_strategy_search_action.moc"
