// What-if in the project tree: editing optimizations.graph_level predicts the step time
// and peak memory of the edited project in the background (through the GUI's run
// function) and shows them under the key, before any re-run. Level 3 fuses kernels, so
// its predicted step must differ from level 0's.

#include "app/main_window.h"
#include "app/what_if.h"
#include "views/project/project_explorer.h"
#include "views/project/project_tree_model.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace npu;

class TestWhatIf : public QObject {
    Q_OBJECT

    // The small LLaMA, shrunk so a prediction takes a moment, in a folder of its own.
    static QString smallProject(const QTemporaryDir& dir) {
        auto p = engine::loadProject(std::filesystem::path(NPU_SOURCE_DIR) / "projects/llama-small-h200/project.json");
        if (!p) return {};
        nlohmann::json j = engine::projectToJson(*p);
        j["training"]["batch"] = 1;
        j["training"]["seq"] = 64;
        j["model"]["config"]["layers"] = 2;
        j["runs"] = nlohmann::json::array();
        const QString file = dir.filePath(QStringLiteral("project.json"));
        std::ofstream(file.toStdString()) << j.dump(2);
        return file;
    }

private slots:
    void predictRunReadsFigures() {
        QTemporaryDir dir;
        auto p = engine::loadProject(smallProject(dir).toStdString());
        QVERIFY(p.ok());
        p->optimizations["graph_level"] = 0;
        const app::WhatIfFigures eager = app::predictRun(*p);
        QVERIFY2(eager.ok, qPrintable(eager.error));
        p->optimizations["graph_level"] = 3;
        const app::WhatIfFigures fused = app::predictRun(*p);
        QVERIFY2(fused.ok, qPrintable(fused.error));
        QVERIFY(eager.stepMs > 0 && fused.stepMs > 0 && eager.peakBytes > 0 && fused.peakBytes > 0);
        QVERIFY2(fused.stepMs < eager.stepMs, qPrintable(QStringLiteral("%1 vs %2 ms").arg(fused.stepMs).arg(eager.stepMs)));
    }

    void editingGraphLevelShowsAPrediction() {
        QTemporaryDir dir;
        const QString file = smallProject(dir);
        app::MainWindow w;
        w.setShowDialogs(false);
        QVERIFY(w.openProject(file, false));
        auto* model = w.explorer()->model();
        const QString key = QStringLiteral("/optimizations/graph_level");
        QVERIFY2(model->findKey(key).isValid(), "graph_level is listed even when project.json does not set it");

        QStringList notes;
        connect(w.whatIf(), &app::WhatIfPredictor::predicted, this,
                [&](const QString& label, const app::WhatIfFigures& f) {
                    QVERIFY2(f.ok, qPrintable(f.error));
                    notes << label + QStringLiteral(" ") + QString::number(f.stepMs, 'g', 12);
                });
        QSignalSpy predicted(w.whatIf(), &app::WhatIfPredictor::predicted);
        for (const char* level : {"3", "0"}) {
            QVERIFY(model->setData(model->findKey(key), QString::fromLatin1(level)));
            QVERIFY(predicted.wait(120000));
            QCoreApplication::processEvents();  // the queued tree rebuild
            const QModelIndex note = model->findNote(key);
            QVERIFY(note.isValid());
            QVERIFY2(note.siblingAtColumn(0).data().toString().contains(QStringLiteral("graph_level %1 predicts").arg(QLatin1String(level))),
                     qPrintable(note.siblingAtColumn(0).data().toString()));
            QVERIFY2(note.data().toString().contains(QStringLiteral(" ms · ")), qPrintable(note.data().toString()));
        }
        QCOMPARE(notes.size(), 2);
        QVERIFY(notes[0].startsWith(QStringLiteral("graph_level 3 ")));
        QVERIFY(notes[1].startsWith(QStringLiteral("graph_level 0 ")));
        QVERIFY2(notes[0].section(QLatin1Char(' '), 2) != notes[1].section(QLatin1Char(' '), 2), qPrintable(notes.join(QStringLiteral("; "))));
        QCOMPARE(w.project()->optimizations.value("graph_level", -1), 0);
    }
};

QTEST_MAIN(TestWhatIf)
#include "test_what_if.moc"
