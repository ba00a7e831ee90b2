// Issue 8 through the main window (offscreen): the defects a new user hit in the first
// hour that involve more than one view. Each slot fails without its fix.
#include "app/job_runner.h"
#include "app/main_window.h"
#include "engine/onnx/onnx_importer.h"
#include "engine/models/model_zoo.h"
#include "engine/npuom/offline_model.h"
#include "profiler/store/profile_db.h"
#include "profiler/store/synthetic_db.h"
#include "views/dialogs/new_project_dialog.h"
#include "views/graph/graph_view.h"
#include "views/log/output_panel.h"
#include "views/charts/memory_chart.h"
#include "views/charts/memory_map.h"
#include "views/project/project_explorer.h"
#include "views/query/query_panel.h"
#include "views/tables/host_analysis_view.h"
#include "views/project/project_tree_model.h"
#include "views/summary/summary_view.h"
#include "views/tables/op_stats_view.h"
#include "views/timeline/timeline_view.h"
#include "views/timeline/timeline_widget.h"
#include "tests/unit/views/layout_checks.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using npu::app::MainWindow;

namespace {

QString copyProject(const QString& dir, const QByteArray& replaceFrom = {}, const QByteArray& replaceTo = {}) {
    QDir().mkpath(dir);
    QFile in(QFINDTESTDATA("../data/projects/tiny-llama/project.json"));
    if (!in.open(QIODevice::ReadOnly)) qFatal("tiny-llama project missing");
    QByteArray text = in.readAll();
    if (!replaceFrom.isEmpty()) text.replace(replaceFrom, replaceTo);
    QFile out(dir + QStringLiteral("/project.json"));
    if (!out.open(QIODevice::WriteOnly)) qFatal("cannot write project");
    out.write(text);
    return out.fileName();
}

}  // namespace

class TestGuiFirstHour : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;

private slots:
    void initTestCase() {
        QVERIFY(m_tmp.isValid());
        QCoreApplication::setOrganizationName(QStringLiteral("NPU Studio Tests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_gui_first_hour"));
    }

    // 2. With a project open, a converted model stays in the Graph tab (the tab switch
    // that shows it rebuilt the project's graph over it).
    void convertedModelStaysInGraphTab() {
        auto bert = npu::engine::buildZooModel("bert", {{"hidden", 64}, {"layers", 1}, {"heads", 2}, {"vocab", 100}, {"max_seq", 32}},
                                               npu::engine::ZooShape{1, 16});
        QVERIFY(bert.ok());
        const size_t bertNodes = bert->nodes().size();
        npu::engine::ConversionResult converted{std::move(bert).value(), {}};
        const QString npuom = m_tmp.filePath(QStringLiteral("bert.npuom"));
        QVERIFY(npu::engine::saveOfflineModel(converted, npuom.toStdString()).ok());

        MainWindow w;
        w.setShowDialogs(false);
        QVERIFY(w.openProject(copyProject(m_tmp.filePath(QStringLiteral("graph"))), false));
        w.tabs()->setCurrentWidget(w.graphView());  // builds the project's graph
        QTRY_VERIFY_WITH_TIMEOUT(w.graphView()->graph() != nullptr, 30000);
        QVERIFY(w.graphView()->graph()->nodes().size() != bertNodes);
        QVERIFY(w.showGraphFile(npuom));
        QCOMPARE(w.graphView()->graph()->nodes().size(), bertNodes);
        w.tabs()->setCurrentIndex(0);
        w.tabs()->setCurrentWidget(w.graphView());
        QTest::qWait(300);
        QCOMPARE(w.graphView()->graph()->nodes().size(), bertNodes);
    }

    // 3. The dialog refuses, inline, what the model builder would refuse later.
    void newProjectValidatesInline() {
        npu::views::NewProjectDialog d;
        d.setLocation(m_tmp.filePath(QStringLiteral("new")));
        d.setName(QStringLiteral("p"));
        d.applyPreset(QStringLiteral("llama-small"));
        QTRY_VERIFY(d.okEnabled());
        QSpinBox* heads = nullptr;
        for (QSpinBox* s : d.findChildren<QSpinBox*>())
            if (s->toolTip() == QStringLiteral("Attention heads")) heads = s;
        QVERIFY(heads);
        heads->setValue(15);
        QTRY_VERIFY(!d.okEnabled());
        QVERIFY2(d.errorText().contains(QStringLiteral("heads")), qPrintable(d.errorText()));
        QVERIFY(!d.writeProject().ok());
        heads->setValue(16);
        QTRY_VERIFY(d.okEnabled());
        QSpinBox* seq = nullptr;
        for (QSpinBox* s : d.findChildren<QSpinBox*>())
            if (s->toolTip().startsWith(QStringLiteral("Sequence length"))) seq = s;
        QVERIFY(seq);
        seq->setValue(8192);  // above the preset's max_seq 4096
        QTRY_VERIFY(!d.okEnabled());
        QVERIFY2(d.errorText().contains(QStringLiteral("max_seq")), qPrintable(d.errorText()));
    }

    // 3 and 7. A simulated run shows its key figures; opening another project whose
    // simulation fails leaves nothing of the previous one in the title or the graph.
    void failedProjectLeavesNoStaleRun() {
        MainWindow w;
        w.setShowDialogs(false);
        QSignalSpy done(w.jobs(), &npu::app::JobRunner::finished);
        QVERIFY(w.openProject(copyProject(m_tmp.filePath(QStringLiteral("good")))));
        QVERIFY(done.wait(120000));
        QVERIFY(w.database());
        const QString runFile = QString::fromStdString(w.database()->path().filename().string());
        QVERIFY(w.windowTitle().contains(runFile));
        // 7: MFU and samples/s as figures, not inside a JSON row.
        const QString headline = w.summary()->headlineText();
        QVERIFY2(headline.contains(QStringLiteral("MFU")) && headline.contains(QStringLiteral("samples/s")), qPrintable(headline));
        w.tabs()->setCurrentWidget(w.graphView());
        QTRY_VERIFY_WITH_TIMEOUT(w.graphView()->itemCount() > 0, 30000);

        const QString bad = copyProject(m_tmp.filePath(QStringLiteral("bad")), "\"heads\": 4, \"kv_heads\": 4", "\"heads\": 3, \"kv_heads\": 3");
        done.clear();
        QVERIFY(w.openProject(bad));
        if (w.jobs()->busy()) QVERIFY(done.wait(120000));
        QVERIFY2(!w.windowTitle().contains(runFile), qPrintable(w.windowTitle()));
        QVERIFY(!w.database());
        QVERIFY(w.graphView()->graph() == nullptr || w.graphView()->itemCount() == 0);
    }

    // 3. Project values edit in place: a valid edit is saved (atomically, by the project
    // writer), an invalid one is refused with the reason and the file keeps its value.
    void projectValuesEditInPlace() {
        const QString file = copyProject(m_tmp.filePath(QStringLiteral("edit")));
        MainWindow w;
        w.setShowDialogs(false);
        QVERIFY(w.openProject(file, false));
        auto* model = w.explorer()->model();
        const QModelIndex batch = model->findKey(QStringLiteral("/training/batch"));
        QVERIFY(batch.isValid());
        QVERIFY(batch.flags() & Qt::ItemIsEditable);
        QVERIFY(model->setData(batch, QStringLiteral("4")));
        QCOMPARE(w.project()->training.batch, std::int64_t(4));
        QVERIFY(npu::engine::loadProject(file.toStdString())->training.batch == 4);
        QSignalSpy rejected(model, &npu::views::ProjectTreeModel::editRejected);
        QTRY_VERIFY(model->findKey(QStringLiteral("/model/config/heads")).isValid());
        QVERIFY(!model->setData(model->findKey(QStringLiteral("/model/config/heads")), QStringLiteral("3")));
        QCOMPARE(rejected.count(), 1);
        QVERIFY2(rejected.at(0).at(0).toString().contains(QStringLiteral("heads")), qPrintable(rejected.at(0).at(0).toString()));
        QVERIFY(npu::engine::loadProject(file.toStdString())->model.config.at("heads") == 4);
    }

    // 5. A double-click on an operator row shows its slices in the timeline.
    void operatorRowOpensTimeline() {
        const QString db = m_tmp.filePath(QStringLiteral("ops.npudb"));
        QVERIFY(npu::profiler::writeSyntheticDb(db.toStdString(), 5000, 3, 11).ok());
        MainWindow w;
        w.setShowDialogs(false);
        w.resize(1200, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openDatabase(db));
        w.tabs()->setCurrentWidget(w.operators());
        QTableView* table = w.operators()->table();
        QTRY_VERIFY(table->isVisible());
        QTest::qWait(100);
        const QModelIndex first = w.operators()->proxy()->index(0, 0);
        QVERIFY(first.isValid());
        table->scrollTo(first);
        emit table->doubleClicked(first);  // what the view emits on a double-click
        QCOMPARE(w.tabs()->currentWidget(), static_cast<QWidget*>(w.timelineView()));
        QVERIFY(w.timelineView()->matchCount() > 0);
        QVERIFY(w.timeline()->selectedSlice() >= 0);
    }

    // 7. "imported … 9430 slices" then "Opened … 9432 slices": one count.
    void importAndOpenCountTheSameSlices() {
        const QString trace = m_tmp.filePath(QStringLiteral("nesting.json"));
        QVERIFY(QFile::copy(QFINDTESTDATA("../data/traces/nesting.json"), trace));
        MainWindow w;
        w.setShowDialogs(false);
        QSignalSpy done(w.jobs(), &npu::app::JobRunner::finished);
        QVERIFY(w.openPath(trace));
        QVERIFY(done.wait(60000));
        QVERIFY(w.database());
        const QString log = w.output()->toPlainText();
        const auto imported = QRegularExpression(QStringLiteral("imported \\d+ events \\((\\d+) slices")).match(log);
        const auto opened = QRegularExpression(QStringLiteral("Opened .*: (\\d+) slices")).match(log);
        QVERIFY2(imported.hasMatch() && opened.hasMatch(), qPrintable(log));
        QCOMPARE(imported.captured(1), opened.captured(1));
    }

    // A memory snapshot has no slices: it opens on the Memory tab, its map drawn.
    void memorySnapshotOpensOnItsMemory() {
        const QString file = m_tmp.filePath(QStringLiteral("snapshot.json"));
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(R"({"segments": [{"address": 1048576000, "total_size": 20971520, "allocated_size": 4194304, "stream": 0,
                      "segment_type": "large", "blocks": [{"size": 4194304, "state": "active_allocated"},
                                                          {"size": 16777216, "state": "inactive"}]}],
                      "device_traces": [[{"action": "alloc", "addr": 1052770304, "size": 8388608},
                                         {"action": "free_completed", "addr": 1052770304, "size": 8388608}]]})");
        out.close();
        MainWindow w;
        w.setShowDialogs(false);
        QSignalSpy done(w.jobs(), &npu::app::JobRunner::finished);
        QVERIFY(w.openPath(file));
        QVERIFY(done.wait(60000));
        QVERIFY(w.database());
        QCOMPARE(w.tabs()->currentWidget(), static_cast<QWidget*>(w.memory()));
        QCOMPARE(w.memory()->memoryMap()->blockCount(), 2);  // the block live at the start and the 8 MiB one
    }

    // Issue 24: a simulated run's tabs (Passes, Graph and the rest) are readable at the
    // default size and at a laptop's 1280x720: no key widget squashed, no header cut.
    void simulatedRunIsReadable_data() { npu::views::testing::addWindowSizes(QSize(1600, 1000)); }

    void simulatedRunIsReadable() {
        QFETCH(QSize, size);
        MainWindow w;
        w.setShowDialogs(false);
        QVERIFY(npu::views::testing::showAt(w, size));
        QSignalSpy done(w.jobs(), &npu::app::JobRunner::finished);
        QVERIFY(w.openProject(copyProject(m_tmp.filePath(QStringLiteral("readable-%1").arg(size.width())))));
        QVERIFY(done.wait(120000));
        QVERIFY2(w.database(), qPrintable(w.output()->toPlainText()));
        QCOMPARE(w.size(), size);
        const QStringList problems = npu::views::testing::problemsInEveryTab(w.tabs(), QSize(160, 80));
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QStringLiteral("\n"))));
    }

    // 9. File menu: one mnemonic per entry; File > Open Folder… exists.
    void fileMenuMnemonicsAndOpenFolder() {
        MainWindow w;
        QMenu* file = nullptr;
        for (QAction* a : w.menuBar()->actions())
            if (a->menu() && a->text() == QStringLiteral("&File")) file = a->menu();
        QVERIFY(file);
        QSet<QChar> keys;
        bool openFolder = false;
        for (QAction* a : file->actions()) {
            if (a->isSeparator()) continue;
            const QString t = a->text();
            openFolder = openFolder || t.startsWith(QStringLiteral("Open &Folder"));
            const int amp = int(t.indexOf(QLatin1Char('&')));
            if (amp < 0 || amp + 1 >= t.size()) continue;
            const QChar key = t.at(amp + 1).toLower();
            QVERIFY2(!keys.contains(key), qPrintable(QStringLiteral("mnemonic %1 used twice (%2)").arg(key).arg(t)));
            keys.insert(key);
        }
        QVERIFY(openFolder);
    }
};

QTEST_MAIN(TestGuiFirstHour)
#include "test_gui_first_hour.moc"
