// Issue 24 ("The GUI, second hour") in the views (the Timeline's are in
// test_views_second_hour_timeline): a new run's Summary starts at the top; the Query panel
// clears old results on an error, knows which column holds slice ids and lists the
// schema; the Passes Time column is not cut; FLOPs read in units. Each slot fails
// without its fix.
#include "engine/models/model_zoo.h"
#include "profiler/importers/trace_importer.h"
#include "profiler/store/profile_db.h"
#include "tests/unit/views/simulated_runs.h"
#include "profiler/store/synthetic_db.h"
#include "views/common/run_banner.h"
#include "views/compare/compare_view.h"
#include "views/common/units.h"
#include "views/graph/graph_display_model.h"
#include "views/graph/graph_node_details.h"
#include "views/graph/graph_view.h"
#include "views/passes/passes_model.h"
#include "views/passes/passes_view.h"
#include "views/project/project_tree_model.h"
#include "views/query/query_panel.h"
#include "views/query/schema_browser.h"
#include "views/summary/summary_view.h"
#include "views/tables/distinguishing_elide.h"
#include "views/tables/op_stats_view.h"
#include "views/tables/record_table_model.h"
#include "views/tables/share_bar_delegate.h"
#include "views/timeline/timeline_search_bar.h"
#include "views/timeline/timeline_view.h"
#include "views/timeline/timeline_widget.h"

#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QHeaderView>
#include <QPainter>
#include <QStandardItemModel>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QTest>

using namespace npu;
using namespace npu::views;
using npu::views::testing::openDb;

namespace {

bool runQuery(QueryPanel& panel, const QString& sql) {
    QSignalSpy done(&panel, &QueryPanel::finished);
    panel.setQuery(sql);
    panel.run();
    if (done.count() == 0 && !done.wait(30000)) return false;
    return done.at(0).at(0).toBool();
}

}  // namespace

class TestViewsSecondHour : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::filesystem::path m_a, m_b;

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_a = m_dir.filePath(QStringLiteral("a.npudb")).toStdString();
        m_b = m_dir.filePath(QStringLiteral("b.npudb")).toStdString();
        QVERIFY(profiler::writeSyntheticDb(m_a, 3000, 3, 5).ok());
        QVERIFY(profiler::writeSyntheticDb(m_b, 2000, 2, 9).ok());
    }

    // Minor: another run's Summary starts at its top, not where the last one was scrolled.
    void summaryScrollsBackToTheTop() {
        SummaryView view;
        view.resize(700, 260);  // small: the Run table scrolls
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setDatabase(openDb(m_a));
        // The page scrolls (its tables are as high as their rows, up to a screenful).
        QScrollBar* page = view.scrollArea()->verticalScrollBar();
        QTRY_VERIFY(page->maximum() > 0);
        page->setValue(page->maximum());
        QVERIFY(page->value() > 0);
        view.setDatabase(openDb(m_b));
        QTRY_VERIFY(page->maximum() > 0);
        QCOMPARE(page->value(), 0);
    }

    // Minor: an error clears the previous query's rows (they stayed under the error).
    void queryErrorClearsOldResults() {
        QueryPanel panel;
        panel.setDatabase(m_a);
        QVERIFY(runQuery(panel, QStringLiteral("SELECT id, start_ns FROM TASK ORDER BY start_ns LIMIT 7")));
        QCOMPARE(panel.results()->rowCount(), 7);
        QVERIFY(!runQuery(panel, QStringLiteral("SELECT nope FROM nowhere")));
        QVERIFY2(panel.status().contains(QStringLiteral("nowhere")), qPrintable(panel.status()));
        QCOMPARE(panel.results()->rowCount(), 0);
        QCOMPARE(panel.results()->columnCount(), 0);
        QCOMPARE(panel.sliceColumn(), -1);
        QPushButton* exportButton = nullptr;
        for (QPushButton* b : panel.findChildren<QPushButton*>())
            if (b->text().startsWith(QStringLiteral("Export"))) exportButton = b;
        QVERIFY(exportButton);
        QVERIFY(!exportButton->isEnabled());
    }

    // Minor: rows that carry a slice id ask for that slice on double-click; others do not.
    void queryRowsWithASliceIdJump() {
        QueryPanel panel;
        panel.resize(900, 600);
        panel.setDatabase(m_a);
        QSignalSpy jump(&panel, &QueryPanel::sliceActivated);
        QVERIFY(runQuery(panel, QStringLiteral("SELECT name_id, id FROM TASK ORDER BY start_ns LIMIT 5")));
        QCOMPARE(panel.sliceColumn(), 1);
        const qint64 second = panel.results()->index(1, 1).data().toString().toLongLong();
        emit panel.resultsTable()->doubleClicked(panel.resultsTable()->model()->index(1, 0));
        QCOMPARE(jump.count(), 1);
        QCOMPARE(jump.at(0).at(0).toLongLong(), second);
        // A named column wins wherever the rows come from.
        QVERIFY(runQuery(panel, QStringLiteral("SELECT t.id AS task_id, k.name_id FROM TRACK k JOIN TASK t ON t.track_id = k.id LIMIT 3")));
        QCOMPARE(panel.sliceColumn(), 0);
        // A track's id is not a slice's.
        QVERIFY(runQuery(panel, QStringLiteral("SELECT id FROM TRACK")));
        QCOMPARE(panel.sliceColumn(), -1);
        emit panel.resultsTable()->doubleClicked(panel.resultsTable()->model()->index(0, 0));
        QCOMPARE(jump.count(), 1);
    }

    // What a Perfetto user looked for: the tables, their columns and indexes beside the editor.
    void schemaBrowserListsTablesColumnsAndIndexes() {
        QueryPanel panel;
        QVERIFY(panel.schema()->tables().isEmpty());
        panel.setDatabase(m_a);
        const QStringList tables = panel.schema()->tables();
        for (const QString& t : {QStringLiteral("TASK"), QStringLiteral("TRACK"), QStringLiteral("STRING_IDS"), QStringLiteral("META_DATA")})
            QVERIFY2(tables.contains(t), qPrintable(tables.join(QStringLiteral(", "))));
        const QStringList columns = panel.schema()->columns(QStringLiteral("TASK"));
        QVERIFY2(columns.contains(QStringLiteral("start_ns INTEGER")), qPrintable(columns.join(QStringLiteral(", "))));
        QVERIFY2(columns.front().startsWith(QStringLiteral("id ")), qPrintable(columns.front()));  // declaration order
        const QStringList indexes = panel.schema()->indexes(QStringLiteral("TASK"));
        QVERIFY2(indexes.contains(QStringLiteral("TASK_TRACK_START (track_id, start_ns, depth, dur_ns, name_id, category_id)")),
                 qPrintable(indexes.join(QStringLiteral("; "))));
        panel.setDatabase({});
        QVERIFY(panel.schema()->tables().isEmpty());
    }

    // Major 2: on a cluster run the Passes headline and the Graph tab say what the graph
    // is of (one micro-batch of one rank, two of its layers), not "per step".
    void clusterGraphFiguresSayWhatTheyAreOf() {
        const QString scope = QStringLiteral("one micro-batch (2 sequences) of one rank, 2 of its 32 layers");
        PassesView passes;
        passes.setPasses({{"training-graph", 0, 10, 20, 10, 20, 1e9, 2e9, 1e12, 2e12, 1.0}}, 1, 192, scope);
        QVERIFY2(passes.headline().contains(QStringLiteral("on the graph simulated for ") + scope), qPrintable(passes.headline()));
        QVERIFY2(passes.headline().contains(QStringLiteral("192 kernels</b> in that graph")) && !passes.headline().contains(QStringLiteral("per step")),
                 qPrintable(passes.headline()));
        passes.setPasses({{"training-graph", 0, 10, 20, 10, 20, 1e9, 2e9, 1e12, 2e12, 1.0}}, 1, 192);
        QVERIFY(passes.headline().contains(QStringLiteral("192 kernels</b> per step")));
        views::GraphView graph;
        graph.setScope(scope);
        QVERIFY2(graph.scope().contains(scope), qPrintable(graph.scope()));
        graph.setGraph(nullptr);  // another model: the line goes
        QVERIFY(graph.scope().isEmpty());
    }

    // Small things: the Passes "Time" column was cut at the tab's right edge at 1280 px
    // (the Project dock open: about 920 px left for the table); it is shown whole.
    void passesTimeColumnIsNotCut() {
        PassesView view;
        view.resize(920, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        // The cluster sample's figures: 224 kernels, TFLOPs, GiB of HBM, a pass of 1.2 s.
        std::vector<engine::PassRecord> passes;
        for (const char* name : {"mixed-precision", "training-graph", "activation-checkpointing", "fusion-level-3"})
            passes.push_back({name, 3, 2890, 3180, 1150, 2240, 3.14e10, 2.09e11, 5.7e11, 1.71e12, 1234.567});
        view.setPasses(passes, 3, 224);
        QHeaderView* header = view.table()->horizontalHeader();
        const int time = PassesModel::Time;
        QTRY_VERIFY(header->sectionSize(time) > 0);
        // QTableView makes it protected; QAbstractItemView's is public.
        const int cells = static_cast<const QAbstractItemView*>(view.table())->sizeHintForColumn(time);
        QVERIFY2(header->sectionSize(time) >= cells,
                 qPrintable(QStringLiteral("Time %1 px, its cells need %2").arg(header->sectionSize(time)).arg(cells)));
        const int right = header->sectionViewportPosition(time) + header->sectionSize(time);
        QVERIFY2(right <= view.table()->viewport()->width(),
                 qPrintable(QStringLiteral("Time ends at %1 px of %2").arg(right).arg(view.table()->viewport()->width())));
    }

    // Small things: "8192 FLOP" with its space; a graph block's details in units.
    void flopsReadInUnits() {
        QCOMPARE(formatFlops(8192), QStringLiteral("8192 FLOP"));
        QCOMPARE(formatFlops(0), QStringLiteral("0 FLOP"));
        auto g = engine::buildZooModel("llama", {{"hidden", 256}, {"ffn", 512}, {"layers", 1}, {"heads", 4}, {"vocab", 1000}},
                                       engine::ZooShape{2, 64});
        QVERIFY(g.ok());
        DisplayItem block;
        block.block = true;
        block.label = QStringLiteral("layers.0");
        for (const auto& n : g->nodes()) block.nodes.push_back(n.id);
        const QString html = nodeDetailsHtml(*g, block);
        QVERIFY2(QRegularExpression(QStringLiteral("\\d [kMGTP]?FLOP")).match(html).hasMatch(), qPrintable(html));
        QVERIFY2(QRegularExpression(QStringLiteral("\\d (KiB|MiB|GiB|B)\\b")).match(html).hasMatch(), qPrintable(html));
        // No bare integer of seven or more digits (with or without separators).
        QVERIFY2(!QRegularExpression(QStringLiteral("\\d{1,3}(,\\d{3}){2,}|\\d{7,}")).match(html).hasMatch(), qPrintable(html));
    }

    // Summary nit: the share bar keeps left of the figure, never under its digits.
    void shareBarLeavesTheFigureReadable() {
        QStandardItemModel model(1, 1);
        model.setData(model.index(0, 0), QStringLiteral("100.0 %"));
        model.setData(model.index(0, 0), 1.0, Qt::UserRole + 7);
        model.setData(model.index(0, 0), int(Qt::AlignRight | Qt::AlignVCenter), Qt::TextAlignmentRole);
        ShareBarDelegate delegate(Qt::UserRole + 7);
        QStyleOptionViewItem option;
        option.font = QApplication::font();
        option.fontMetrics = QFontMetrics(option.font);
        const int textWidth = option.fontMetrics.horizontalAdvance(QStringLiteral("100.0 %"));
        QVERIFY(delegate.sizeHint(option, model.index(0, 0)).width() >= textWidth + ShareBarDelegate::kBarRoom);
        option.rect = QRect(0, 0, textWidth + ShareBarDelegate::kBarRoom + 12, 24);
        QImage image(option.rect.size(), QImage::Format_RGB32);
        image.fill(Qt::white);
        {
            QPainter painter(&image);
            delegate.paint(&painter, option, model.index(0, 0));
        }
        auto bluish = [&](int x0, int x1) {
            int n = 0;
            for (int x = x0; x < x1; ++x)
                for (int y = 0; y < image.height(); ++y) {
                    const QColor c = image.pixelColor(x, y);
                    n += c.blue() > c.red() + 60;
                }
            return n;
        };
        QVERIFY(bluish(0, 20) > 0);                                         // a full share draws a bar
        QCOMPARE(bluish(image.width() - textWidth - 4, image.width()), 0);  // but not under the figure
    }

    // Partial load of a cut trace: the run opens with a banner saying what is missing; a
    // complete run has none.
    // "What a Perfetto user expected": the Compare tab heads with the step-time delta, and
    // lists the kernels matched by name and order within the step, largest delta first.
    void compareHeadsWithTheStepDeltaAndMatchesKernels() {
        CompareView view;
        view.resize(1280, 720);
        view.setRuns(openDb(m_a), openDb(m_b));
        const QString headline = view.headline()->text();
        QVERIFY2(headline.contains(QStringLiteral("Step time")) && headline.contains(QStringLiteral(" · B ")) &&
                     headline.contains(QStringLiteral("kernels matched by name and order")),
                 qPrintable(headline));
        view.grouping()->setCurrentIndex(3);
        RecordTableModel* rows = view.deltaModel();
        QCOMPARE(rows->headerData(0, Qt::Horizontal, Qt::DisplayRole).toString(), QStringLiteral("Kernel"));
        QVERIFY(rows->rowCount() > 0);
        // Largest |delta| first: the sort key of the delta column never rises down the rows.
        qlonglong previous = std::numeric_limits<qlonglong>::max();
        for (int r = 0; r < rows->rowCount(); ++r) {
            const qlonglong key = rows->data(rows->index(r, 2), RecordTableModel::SortRole).toLongLong();
            QVERIFY(key <= previous);
            previous = key;
        }
        if (qEnvironmentVariableIsSet("NPU_SCREENSHOTS")) {  // NPU_SCREENSHOTS=DIR: the tab as a user sees it
            view.show();
            QTest::qWait(300);
            view.grab().save(qEnvironmentVariable("NPU_SCREENSHOTS") + QStringLiteral("/compare.png"));
        }
        view.setRuns(nullptr, nullptr);
        QVERIFY(view.headline()->text().isEmpty());
    }

    // "What a Perfetto / Insight user expected": undo/redo for Project-tree edits. An edit
    // is one command; undo puts the old value back (and removes a key the edit added),
    // redo applies it again, each through the checks and announced as an edit (the window
    // saves on projectEdited).
    void projectTreeEditsUndoAndRedo() {
        auto project = engine::loadProject(QFINDTESTDATA("../../data/projects/tiny-llama/project.json").toStdString());
        QVERIFY2(static_cast<bool>(project), project ? "" : project.message().c_str());
        ProjectTreeModel model;
        model.setProject(*project);
        QSignalSpy edited(&model, &ProjectTreeModel::projectEdited);
        QVERIFY(model.applyEdits({{"/training/batch", 4}, {"/optimizations/graph_level", 2}}));
        QCOMPARE(model.undoStack()->count(), 1);
        QVERIFY(model.undoStack()->undoText().contains(QStringLiteral("training.batch")));
        QCOMPARE(edited.count(), 1);
        QCOMPARE(edited.last().at(0).value<engine::Project>().training.batch, std::int64_t{4});

        model.undoStack()->undo();
        QCOMPARE(edited.count(), 2);
        const engine::Project undone = edited.last().at(0).value<engine::Project>();
        QCOMPARE(undone.training.batch, std::int64_t{2});
        QVERIFY2(!undone.optimizations.contains("graph_level"), "the key the edit added is gone again");

        model.undoStack()->redo();
        QCOMPARE(edited.count(), 3);
        QCOMPARE(edited.last().at(0).value<engine::Project>().training.batch, std::int64_t{4});
        // A refused edit is no command.
        QSignalSpy rejected(&model, &ProjectTreeModel::editRejected);
        QVERIFY(!model.applyEdits({{"/training/batch", -3}}));
        QCOMPARE(rejected.count(), 1);
        QCOMPARE(model.undoStack()->count(), 1);
        // Another project: a new history.
        engine::Project other = *project;
        other.file = "/elsewhere/project.json";
        model.setProject(other);
        QCOMPARE(model.undoStack()->count(), 0);
    }

    // Minor: the Operators Name column is sized to its names (it stayed 360 px at 1920), and
    // names of one family, cut, keep the part that tells them apart (middle elision made
    // them look identical).
    void operatorNamesKeepWhatTellsThemApart() {
        const QString a = QStringLiteral("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_kernel");
        const QString b = QStringLiteral("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize256x128x64_warpgroupsize1x1x1_execute_kernel");
        const auto shared = sharedPrefixLengths({a, b, QStringLiteral("elementwise")});
        QCOMPARE(shared[0], int(a.indexOf(QStringLiteral("128x128"))));
        QCOMPARE(shared[2], 0);
        const QFontMetrics fm(QApplication::font());
        const int width = fm.horizontalAdvance(a) / 3;
        const QString ea = distinguishingElide(a, shared[0], fm, width), eb = distinguishingElide(b, shared[1], fm, width);
        QVERIFY2(ea != eb, qPrintable(ea));
        QVERIFY(ea.contains(QStringLiteral("128x128")) && eb.contains(QStringLiteral("256x128")));
        QVERIFY(fm.horizontalAdvance(ea) <= width);
        QCOMPARE(fm.elidedText(a, Qt::ElideMiddle, width), fm.elidedText(b, Qt::ElideMiddle, width));  // the old look
        QCOMPARE(distinguishingElide(QStringLiteral("short"), 0, fm, width), QStringLiteral("short"));

        OpStatsView view;
        view.resize(1920, 600);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setDatabase(openDb(m_a));
        QTRY_VERIFY(view.table()->model()->rowCount() > 0);
        QHeaderView* header = view.table()->horizontalHeader();
        int others = 0;
        for (int c = 1; c < header->count() - 1; ++c) others += header->sectionSize(c);
        QVERIFY(header->sectionSize(0) >= 240);
        QVERIFY(header->sectionSize(0) <= view.table()->viewport()->width() - others - 120);
        // Narrower: the name gives way, the other columns keep their width.
        view.resize(1000, 600);
        QApplication::processEvents();
        QVERIFY(header->sectionSize(0) <= std::max(240, view.table()->viewport()->width() - others - 120));
    }

    void cutTraceShowsABanner() {
        const QString fixture = QFINDTESTDATA("../../data/traces/nesting.json");
        QFile in(fixture);
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QByteArray text = in.readAll();
        const QString cut = m_dir.filePath(QStringLiteral("cut.json"));
        QFile out(cut);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(text.left(1500));
        out.close();
        const auto cutDb = std::filesystem::path(m_dir.filePath(QStringLiteral("cut.npudb")).toStdString());
        auto imported = profiler::importTrace(cut.toStdString(), cutDb);
        QVERIFY2(imported.ok(), imported ? "" : imported.message().c_str());
        RunBanner banner;
        banner.setDatabase(openDb(cutDb).get());
        QVERIFY(!banner.isHidden());
        QVERIFY2(banner.text().contains(QStringLiteral("Incomplete trace")) && banner.text().contains(QStringLiteral("byte 1500")),
                 qPrintable(banner.text()));
        const auto fullDb = std::filesystem::path(m_dir.filePath(QStringLiteral("full.npudb")).toStdString());
        QVERIFY(profiler::importTrace(fixture.toStdString(), fullDb).ok());
        banner.setDatabase(openDb(fullDb).get());
        QVERIFY(banner.isHidden());
        banner.setDatabase(nullptr);
        QVERIFY(banner.isHidden());
        // --strict refuses the cut file and names the byte.
        profiler::ImportOptions strict;
        strict.refuseTruncated = true;
        auto refused = profiler::importTrace(cut.toStdString(), m_dir.filePath(QStringLiteral("strict.npudb")).toStdString(), strict);
        QVERIFY(!refused.ok());
        QVERIFY2(refused.message().find("byte 1500") != std::string::npos, refused.message().c_str());
    }
};

QTEST_MAIN(TestViewsSecondHour)
#include "test_views_second_hour.moc"
