// The Memory tab's what-if row and the Diagnostics tab's out-of-memory view, driven
// through the main window on a shrunk LLaMA: after a simulation, showing the Memory tab
// re-simulates each memory setting's other choices in the background and labels them;
// setting a combination predicts it; a run that does not fit a small device opens its
// Diagnostics tab with the failing op and the re-simulated advice.

#include "app/main_window.h"
#include "app/what_if.h"
#include "profiler/store/profile_db.h"
#include "views/charts/memory_chart.h"
#include "views/charts/memory_what_if_bar.h"
#include "views/tables/diagnostics_view.h"
#include "views/tables/oom_panel.h"
#include "views/tables/record_table_model.h"

#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <map>

using namespace npu;

class TestMemoryWhatIf : public QObject {
    Q_OBJECT

    static QString smallProject(const QTemporaryDir& dir, const std::string& device = "h200") {
        auto p = engine::loadProject(std::filesystem::path(NPU_SOURCE_DIR) / "projects/llama-small-h200/project.json");
        if (!p) return {};
        nlohmann::json j = engine::projectToJson(*p);
        j["training"]["batch"] = 2;
        j["training"]["seq"] = 256;
        j["model"]["config"]["layers"] = 2;
        j["device"] = device;
        j["runs"] = nlohmann::json::array();
        const QString file = dir.filePath(QStringLiteral("project.json"));
        std::ofstream(file.toStdString()) << j.dump(2);
        return file;
    }

    static bool simulate(app::MainWindow& w) {
        QSignalSpy done(w.jobs(), &app::JobRunner::finished);
        return w.simulate() && done.wait(300000) && w.database();
    }

private slots:
    void rowPredictsEachChoiceAndCombinations() {
        QTemporaryDir dir;
        app::MainWindow w;
        w.setShowDialogs(false);
        QVERIFY(w.openProject(smallProject(dir), false));
        QVERIFY(simulate(w));
        views::MemoryWhatIfBar* bar = w.memory()->whatIfBar();
        QVERIFY(!bar->isHidden());
        QCOMPARE(bar->baseline().checkpointing, QStringLiteral("none"));
        const double runPeak = QString::fromStdString(w.database()->meta("peak_bytes")).toDouble();
        const double runStep = QString::fromStdString(w.database()->meta("step_time_ms")).toDouble();

        std::map<QString, app::WhatIfFigures> figures;
        connect(w.memoryWhatIfChoices(), &app::WhatIfPredictor::predicted, this,
                [&](const QString& choice, const app::WhatIfFigures& f) { figures[choice] = f; });
        QSignalSpy all(w.memoryWhatIfChoices(), &app::WhatIfPredictor::allPredicted);
        QVERIFY(!w.memoryWhatIfChoices()->busy());  // nothing runs before the tab is shown
        w.tabs()->setCurrentWidget(w.memory());
        QVERIFY(all.wait(600000));
        // No data parallelism: no ZeRO choices. The rest, each alone.
        for (const char* c : {"checkpointing=selective", "checkpointing=full", "offload_optimizer=1", "offload_activations=1",
                              "allocator=buddy", "allocator=static"}) {
            const QString choice = QString::fromLatin1(c);
            QVERIFY2(figures.count(choice) && figures[choice].ok, c);
            QVERIFY2(!bar->choiceText(choice).isEmpty() && bar->choiceText(choice) != QStringLiteral("failed"), c);
            QVERIFY(figures[choice].reservedBytes >= figures[choice].peakBytes);
        }
        QVERIFY(figures.count(QStringLiteral("zero=1")) == 0);
        // Recomputation and offload trade step time for memory.
        QVERIFY(figures[QStringLiteral("checkpointing=full")].peakBytes < runPeak);
        QVERIFY(figures[QStringLiteral("checkpointing=full")].stepMs > runStep);
        QVERIFY(figures[QStringLiteral("offload_activations=1")].peakBytes < runPeak);
        QVERIFY(figures[QStringLiteral("offload_activations=1")].stepMs > runStep);
        QVERIFY(figures[QStringLiteral("offload_optimizer=1")].peakBytes < runPeak);

        // A combination of two: predicted on the right.
        QSignalSpy combo(w.memoryWhatIfCombination(), &app::WhatIfPredictor::predicted);
        views::MemoryWhatIfSettings s = bar->settings();
        s.checkpointing = QStringLiteral("full");
        s.offloadActivations = true;
        bar->setSettings(s);
        QCOMPARE(bar->predictionText(), QStringLiteral("predicting…"));
        QVERIFY(combo.wait(300000));
        const auto both = combo.takeFirst().at(1).value<app::WhatIfFigures>();
        QVERIFY2(both.ok, qPrintable(both.error));
        QVERIFY(both.peakBytes <= figures[QStringLiteral("checkpointing=full")].peakBytes);
        QVERIFY2(bar->predictionText().startsWith(QStringLiteral("predicted")), qPrintable(bar->predictionText()));
        QVERIFY(!w.tabs()->isTabVisible(w.tabs()->indexOf(w.diagnostics())));  // it fits: no diagnostics
    }

    // Issue 24 Major 3: on a cluster run the ZeRO choices start from the run's own
    // parallel.zero_stage and each re-simulates the cluster (they differ, in order).
    void zeroChoicesActOnTheClusterRun() {
        QTemporaryDir dir;
        const QString file = smallProject(dir);
        auto p = engine::loadProject(file.toStdString());
        QVERIFY(p.ok());
        nlohmann::json j = engine::projectToJson(*p);
        j["training"]["batch"] = 4;
        j["parallel"] = {{"data_parallel", 2}, {"micro_batches", 2}, {"zero_stage", 1}};
        std::ofstream(file.toStdString()) << j.dump(2);
        app::MainWindow w;
        w.setShowDialogs(false);
        QVERIFY(w.openProject(file, false));
        QVERIFY(simulate(w));
        QVERIFY(!w.database()->meta("cluster_report").empty());  // a cluster run
        views::MemoryWhatIfBar* bar = w.memory()->whatIfBar();
        QVERIFY(!bar->isHidden());
        QCOMPARE(bar->baseline().zeroStage, 1);
        const double runPeak = QString::fromStdString(w.database()->meta("peak_bytes")).toDouble();
        std::map<QString, app::WhatIfFigures> figures;
        connect(w.memoryWhatIfChoices(), &app::WhatIfPredictor::predicted, this,
                [&](const QString& choice, const app::WhatIfFigures& f) { figures[choice] = f; });
        QSignalSpy all(w.memoryWhatIfChoices(), &app::WhatIfPredictor::allPredicted);
        w.tabs()->setCurrentWidget(w.memory());
        QVERIFY(all.wait(600000));
        for (const char* c : {"zero=0", "zero=2", "zero=3"}) QVERIFY2(figures.count(QString::fromLatin1(c)) && figures[QString::fromLatin1(c)].ok, c);
        QVERIFY(figures.count(QStringLiteral("zero=1")) == 0);  // the run's own
        QVERIFY2(figures[QStringLiteral("zero=0")].peakBytes > runPeak, "ZeRO-0 keeps every optimizer state");
        QVERIFY2(figures[QStringLiteral("zero=2")].peakBytes < runPeak, "ZeRO-2 shards the gradients too");
        QVERIFY2(figures[QStringLiteral("zero=3")].peakBytes < figures[QStringLiteral("zero=2")].peakBytes, "ZeRO-3 shards the weights too");
    }

    void outOfMemoryRunShowsItsDiagnostics() {
        QTemporaryDir dir;
        std::ifstream in(std::filesystem::path(NPU_SOURCE_DIR) / "resources/devices/h200.json");
        nlohmann::json device = nlohmann::json::parse(in);
        device["hbm"]["bytes"]["value"] = 1.0e9;  // the shrunk model's states alone need ~1.5 GB
        const std::string devFile = dir.filePath(QStringLiteral("small-h200.json")).toStdString();
        std::ofstream(devFile) << device.dump();
        app::MainWindow w;
        w.setShowDialogs(false);
        QVERIFY(w.openProject(smallProject(dir, devFile), false));
        QVERIFY(simulate(w));
        QCOMPARE(w.database()->meta("status"), std::string("oom"));
        QVERIFY(w.tabs()->isTabVisible(w.tabs()->indexOf(w.diagnostics())));
        QVERIFY(w.diagnostics()->hasOom());
        views::OomPanel* oom = w.diagnostics()->oomPanel();
        QVERIFY2(oom->headline().contains(QStringLiteral("Out of memory")), qPrintable(oom->headline()));
        QVERIFY(oom->tensorsModel()->rowCount() > 0);
        QVERIFY(oom->adviceModel()->rowCount() >= 3);
        QCOMPARE(oom->adviceModel()->cell(0, 0).display.toString(), QStringLiteral("memory_optimizer"));
        QCOMPARE(oom->adviceModel()->cell(oom->adviceModel()->rowCount() - 1, 1).display.toString(),
                 QStringLiteral("training.offload_activations: false -> true"));
    }
};

QTEST_MAIN(TestMemoryWhatIf)
#include "test_memory_what_if.moc"
