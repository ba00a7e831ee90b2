// Issue 8, the first hour of a profiling engineer, view by view (offscreen): each slot
// reproduces one reported defect and fails without its fix. MainWindow-level defects are
// in tests/integration/test_gui_first_hour.cpp.
#include "views/charts/qcustomplot_include.h"  // first: see there

#include "engine/ir/graph.h"
#include "engine/models/model_zoo.h"
#include "profiler/importers/trace_importer.h"
#include "profiler/store/profile_db.h"
#include "profiler/store/synthetic_db.h"
#include "views/charts/memory_chart.h"
#include "views/compare/compare_view.h"
#include "views/graph/graph_display_model.h"
#include "views/graph/graph_node_details.h"
#include "views/graph/graph_view.h"
#include "views/log/output_panel.h"
#include "views/summary/json_table.h"
#include "views/tables/op_stats_model.h"
#include "views/tables/op_stats_view.h"
#include "views/timeline/slice_label.h"
#include "views/timeline/timeline_details_panel.h"
#include "views/timeline/timeline_search_bar.h"
#include "views/timeline/timeline_view.h"
#include "views/timeline/timeline_widget.h"
#include "tests/unit/views/simulated_runs.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace npu;
using views::testing::openDb;
using namespace npu::views;

namespace {

// A run with the given slices on one compute track of one device ("npu0").
struct SliceSpec {
    std::int64_t start, dur;
    int depth;
    const char* name;
    const char* args = "";
};
std::shared_ptr<const profiler::ProfileDb> writeDb(const QString& file, const std::vector<SliceSpec>& slices,
                                                   const char* source = "simulated") {
    auto writer = profiler::ProfileDbWriter::create(file.toStdString());
    if (!writer) qFatal("cannot create db: %s", writer.message().c_str());
    auto& w = **writer;
    w.setMeta("source", source);
    const auto dev = w.addDevice("npu0", "npu");
    const auto track = w.addTrack(dev, -1, profiler::TrackKind::compute, "compute stream", 0);
    for (const auto& s : slices) w.addSlice(track, s.start, s.dur, s.depth, s.name, "matmul", s.args);
    if (auto st = w.commit(); !st) qFatal("commit failed: %s", st.message().c_str());
    return openDb(file.toStdString());
}

}  // namespace

class TestViewsFirstHour : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::shared_ptr<const profiler::ProfileDb> m_resnet;  // tests/data ResNet-50 trace, imported once

    std::shared_ptr<const profiler::ProfileDb> resnet() {
        if (m_resnet) return m_resnet;
        const QString trace = QFINDTESTDATA("../../data/traces/resnet50_amp_bf16_b64_h200.json.gz");
        const auto out = std::filesystem::path(m_dir.filePath(QStringLiteral("resnet.npudb")).toStdString());
        auto imported = profiler::importTrace(trace.toStdString(), out);
        if (!imported) qFatal("import failed: %s", imported.message().c_str());
        m_resnet = openDb(out);
        return m_resnet;
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // 1. Compare: both timelines on one axis from the start (a 60 ms run A against a
    // 35 ms run B drew both over the same width until a zoom).
    void compareSharesOneAxis() {
        auto a = writeDb(m_dir.filePath(QStringLiteral("a.npudb")), {{0, 60'000'000, 0, "long"}});
        auto b = writeDb(m_dir.filePath(QStringLiteral("b.npudb")), {{0, 35'000'000, 0, "short"}});
        CompareView view;
        view.resize(1200, 800);
        view.show();
        view.setRuns(a, b);
        QCOMPARE(view.timelineA()->viewRange(), view.timelineB()->viewRange());
        QVERIFY(view.timelineB()->viewRange().second >= 60'000'000);
        // Zooming one keeps the other on the same window.
        view.timelineA()->setViewRange(10'000'000, 20'000'000);
        QCOMPARE(view.timelineB()->viewRange(), (QPair<qint64, qint64>(10'000'000, 20'000'000)));
    }

    // 1. A simulated run against a measured one opens grouped by category.
    void compareSimulatedWithMeasuredGroupsByCategory() {
        auto a = writeDb(m_dir.filePath(QStringLiteral("m.npudb")), {{0, 1000, 0, "nvjet_x"}}, "kineto");
        auto b = writeDb(m_dir.filePath(QStringLiteral("s.npudb")), {{0, 1000, 0, "layers.0.q_proj"}}, "simulated");
        CompareView view;
        view.setRuns(a, b);
        QCOMPARE(view.deltaModel()->rowCount(), 1);  // one category, "matmul", on both sides
        QCOMPARE(view.deltaModel()->index(0, 0).data().toString(), QStringLiteral("matmul"));
    }

    // 4. The graph canvas started ~50 px wide, the details pane taking the rest.
    void graphCanvasGetsTheWidth() {
        GraphView view;
        view.resize(1200, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        auto* split = view.findChild<QSplitter*>();
        QVERIFY(split);
        QVERIFY2(split->sizes().at(0) > 600, qPrintable(QStringLiteral("canvas %1 px").arg(split->sizes().at(0))));
    }

    // 7. "MACs 0" for a Linear with 47 GFLOPs; the dtype an op runs in is shown.
    void nodeDetailsShowMacsAndDtype() {
        auto g = engine::buildZooModel("llama", {{"hidden", 256}, {"ffn", 512}, {"layers", 1}, {"heads", 4}, {"vocab", 1000}},
                                       engine::ZooShape{2, 64});
        QVERIFY(g.ok());
        const engine::Graph& graph = *g;
        int linear = -1;
        for (const auto& n : graph.nodes())
            if (n.kind == engine::OpKind::Linear) linear = n.id;
        QVERIFY(linear >= 0);
        DisplayItem item;
        item.nodes = {linear};
        const QString html = nodeDetailsHtml(graph, item);
        QVERIFY2(!html.contains(QStringLiteral("MACs 0<")), qPrintable(html));
        QVERIFY(html.contains(QStringLiteral("runs in")));
    }

    // 5. Operators: CPU ops of an imported trace are listed for the CPU device, the row
    // counter follows the filter, a row has a context menu that links to the timeline.
    void operatorsListCpuOpsAndCountFilteredRows() {
        auto db = resnet();
        OpStatsView view;
        view.setDatabase(db);
        QComboBox* device = view.deviceCombo();
        int cpu = -1, everything = -1;
        for (int i = 0; i < device->count(); ++i) {
            if (device->itemText(i).contains(QStringLiteral("CPU"), Qt::CaseInsensitive)) cpu = i;
            if (device->itemData(i).toLongLong() == OpStatsView::kEverything && device->itemData(i).isValid()) everything = i;
        }
        QVERIFY(cpu >= 0);
        const int kernelRows = view.model()->rowCount();
        device->setCurrentIndex(cpu);
        QVERIFY2(view.model()->rowCount() > 50, qPrintable(QString::number(view.model()->rowCount())));
        QVERIFY(everything >= 0);
        device->setCurrentIndex(everything);
        QVERIFY(view.model()->rowCount() > kernelRows);

        device->setCurrentIndex(0);
        view.setFilterText(QStringLiteral("batch_norm"));
        const int shown = view.proxy()->rowCount();
        QVERIFY(shown > 0 && shown < view.model()->rowCount());
        QVERIFY2(view.infoLabel()->text().startsWith(QStringLiteral("%1 of %2 rows").arg(shown).arg(view.model()->rowCount())),
                 qPrintable(view.infoLabel()->text()));

        QSignalSpy activated(&view, &OpStatsView::rowActivated);
        std::unique_ptr<QMenu> menu(view.contextMenuFor(view.proxy()->index(0, 0)));
        QAction* show = nullptr;
        for (QAction* a : menu->actions())
            if (a->text() == QStringLiteral("Show in Timeline")) show = a;
        QVERIFY(show);
        show->trigger();
        QCOMPARE(activated.count(), 1);
        QVERIFY(activated.at(0).at(0).toString().contains(QStringLiteral("batch_norm")));
    }

    // 9. Numeric columns sort descending on the first click, text ascending.
    void numericColumnsSortDescendingFirst() {
        auto db = resnet();
        OpStatsView view;
        view.setDatabase(db);
        QHeaderView* header = view.table()->horizontalHeader();
        header->setSortIndicator(OpStatsModel::Key, Qt::AscendingOrder);  // as a click on Name does
        QCOMPARE(header->sortIndicatorOrder(), Qt::AscendingOrder);
        QTest::mouseClick(header->viewport(), Qt::LeftButton, {},
                          QPoint(header->sectionViewportPosition(OpStatsModel::Count) + 10, header->height() / 2));
        QCOMPARE(header->sortIndicatorSection(), int(OpStatsModel::Count));
        QCOMPARE(header->sortIndicatorOrder(), Qt::DescendingOrder);
        const qlonglong first = view.proxy()->index(0, OpStatsModel::Count).data(OpStatsModel::SortRole).toLongLong();
        const qlonglong second = view.proxy()->index(1, OpStatsModel::Count).data(OpStatsModel::SortRole).toLongLong();
        QVERIFY(first >= second);
    }

    // 6. A single click on a folded block selects (it zoomed); a double-click zooms.
    void clickOnFoldedBlockSelects() {
        std::vector<SliceSpec> slices;
        for (int i = 0; i < 200; ++i) slices.push_back({i * 10, 5, 0, "tiny"});
        slices.push_back({1'000'000, 1'000'000, 0, "long"});
        auto db = writeDb(m_dir.filePath(QStringLiteral("folded.npudb")), slices);
        TimelineWidget w;
        w.resize(1000, 400);
        w.setDatabase(db);
        const auto before = w.viewRange();
        const int y0 = 28 + 24 + 3 + 9;  // ruler, device header, padding: first row
        QSignalSpy selected(&w, &TimelineWidget::sliceSelected);
        QTest::mouseClick(&w, Qt::LeftButton, {}, QPoint(200 + 1, y0));
        QCOMPARE(w.viewRange(), before);
        QCOMPARE(selected.count(), 1);
        QVERIFY(w.selectedSlice() >= 0);
        QTest::mouseDClick(&w, Qt::LeftButton, {}, QPoint(200 + 1, y0));
        QVERIFY(w.viewRange().second - w.viewRange().first < (before.second - before.first) / 10);
    }

    // 6. Left-elided names showed "…t"; labels keep a readable part or nothing.
    void sliceLabelsStayReadable() {
        const QFontMetrics fm(QApplication::font());
        const QString name = QStringLiteral("layers.3.mlp.act_fn");
        for (int width = 1; width < fm.horizontalAdvance(name) + 5; ++width) {
            const QString text = sliceLabel(name, fm, width);
            QVERIFY(fm.horizontalAdvance(text) <= width);
            if (text.isEmpty()) continue;
            const int kept = int(text.size()) - (text.contains(QChar(0x2026)) ? 1 : 0);
            QVERIFY2(kept >= kSliceLabelMinChars, qPrintable(text));
            // What shows is the distinguishing tail's start or the whole tail, never "…n".
            QVERIFY2(text.startsWith(QStringLiteral("act")) || text.endsWith(QStringLiteral("act_fn")), qPrintable(text));
        }
    }

    // 6. Details: a flow link follows on one click, long values carry tooltips, and at
    // 1024x700 the value column keeps its room; integers print whole (7).
    void detailsPanelAtSmallScreen() {
        const QString longKey = QStringLiteral("Concrete Inputs of the recorded function call and its stack");
        auto writer = profiler::ProfileDbWriter::create(m_dir.filePath(QStringLiteral("details.npudb")).toStdString());
        QVERIFY(writer.ok());
        auto& w = **writer;
        const auto dev = w.addDevice("npu0", "npu");
        const auto track = w.addTrack(dev, -1, profiler::TrackKind::compute, "compute stream", 0);
        const std::string args = "{\"" + longKey.toStdString() + "\": \"x\", \"baseTimeNanoseconds\": 1790860000000000000}";
        const auto a = w.addSlice(track, 0, 1000, 0, "MatMul", "matmul", args);
        const auto b = w.addSlice(track, 2000, 1000, 0, "Add", "elementwise");
        w.addFlow(a, b, "dep");
        w.addOpInfo(b, "Cast", "bf16", 0, 64, 1);
        QVERIFY(w.commit().ok());
        auto db = openDb(m_dir.filePath(QStringLiteral("details.npudb")).toStdString());

        TimelineView view;
        view.resize(1024, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setDatabase(db);
        view.timeline()->selectSlice(a);
        view.details()->showSlice(a);
        QTreeView* tree = view.details()->view();
        QVERIFY2(tree->columnWidth(1) >= tree->viewport()->width() / 2 - 5,
                 qPrintable(QStringLiteral("value column %1 of %2").arg(tree->columnWidth(1)).arg(tree->viewport()->width())));
        QStandardItemModel* model = view.details()->model();
        QModelIndex flowValue, longRow, baseTime;
        for (int r = 0; r < model->rowCount(); ++r) {
            const QModelIndex section = model->index(r, 0);
            for (int c = 0; c < model->rowCount(section); ++c) {
                const QString field = model->index(c, 0, section).data().toString();
                if (field == QStringLiteral("dep")) flowValue = model->index(c, 1, section);
                if (field == longKey) longRow = model->index(c, 0, section);
                if (field == QStringLiteral("baseTimeNanoseconds")) baseTime = model->index(c, 1, section);
            }
        }
        QVERIFY(longRow.isValid() && baseTime.isValid() && flowValue.isValid());
        QCOMPARE(longRow.data(Qt::ToolTipRole).toString(), longKey);
        QCOMPARE(baseTime.data().toString(), QStringLiteral("1790860000000000000"));
        // One click on the flow selects the slice it points to.
        tree->scrollTo(flowValue);
        QSignalSpy jump(view.details(), &TimelineDetailsPanel::jumpRequested);
        QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualRect(flowValue).center());
        QCOMPARE(jump.count(), 1);
        QCOMPARE(jump.at(0).at(0).toLongLong(), b);
        // 7. A cast's FLOPs read "0", not "0FLOP (0)".
        view.details()->showSlice(b);
        bool sawFlops = false;
        for (int r = 0; r < model->rowCount(); ++r)
            for (int c = 0; c < model->rowCount(model->index(r, 0)); ++c)
                if (model->index(c, 0, model->index(r, 0)).data().toString() == QStringLiteral("FLOPs")) {
                    QCOMPARE(model->index(c, 1, model->index(r, 0)).data().toString(), QStringLiteral("0"));
                    sawFlops = true;
                }
        QVERIFY(sawFlops);
    }

    // 7. Integers from the store print whole in tables (1.79086e+18 before).
    void integersPrintExactly() {
        const RecordCell cell = jsonCell("trace.baseTimeNanoseconds", nlohmann::json(std::int64_t(1790860123456789012)));
        QCOMPARE(cell.display.toString(), QStringLiteral("1790860123456789012"));
    }

    // 9. The find bar and its "no matches" do not carry over to the next run.
    void findBarResetsOnNewRun() {
        auto db = writeDb(m_dir.filePath(QStringLiteral("find.npudb")), {{0, 1000, 0, "MatMul"}});
        TimelineView view;
        view.resize(1000, 500);
        view.show();
        view.setDatabase(db);
        view.showSearch();
        view.searchBar()->setQuery(QStringLiteral("nothing-like-this"));
        QCOMPARE(view.matchCount(), 0);
        QVERIFY(view.searchBar()->isVisible());
        view.setDatabase(db);
        QVERIFY(!view.searchBar()->isVisible());
        QVERIFY(view.searchBar()->query().isEmpty());
    }

    // Drill-down: an operator's slices are all found, the first selected and zoomed to.
    void operatorRowDrillsDownToSlices() {
        auto db = writeDb(m_dir.filePath(QStringLiteral("drill.npudb")),
                          {{0, 100, 0, "MatMul"}, {500, 100, 0, "Add"}, {1000, 100, 0, "MatMul"}, {5000, 100, 0, "MatMulX"}});
        TimelineView view;
        view.resize(1000, 500);
        view.setDatabase(db);
        QCOMPARE(view.showSlicesWithKey(QStringLiteral("MatMul"), false), 2);  // not MatMulX
        QVERIFY(view.timeline()->selectedSlice() >= 0);
        QVERIFY(view.timeline()->viewRange().second <= 200);
        view.nextMatch();
        QCOMPARE(view.currentMatch(), 1);
    }

    // 9. The Output panel shows the newest line.
    void outputScrollsToNewest() {
        OutputPanel out;
        out.resize(400, 120);
        out.show();
        QVERIFY(QTest::qWaitForWindowExposed(&out));
        for (int i = 0; i < 40; ++i) out.log(OutputPanel::Level::info, QStringLiteral("line %1").arg(i));
        out.verticalScrollBar()->setValue(0);  // the user scrolled up to read
        out.log(OutputPanel::Level::error, QStringLiteral("the error that must be seen"));
        QCOMPARE(out.verticalScrollBar()->value(), out.verticalScrollBar()->maximum());
    }

    // 8. Memory of an imported trace: the host's series are not on the GPU's chart, both
    // allocated and reserved peaks are named, the cursor reads values.
    void memoryChartSeparatesDevicesAndReadsValues() {
        auto db = resnet();
        MemoryChart chart;
        chart.resize(1000, 500);
        chart.show();
        chart.setDatabase(db);
        QVERIFY2(chart.deviceCombo()->count() >= 2, "expected a CPU and a GPU device with memory counters");
        QVERIFY(!chart.deviceCombo()->currentText().contains(QStringLiteral("CPU"), Qt::CaseInsensitive));
        for (const QString& s : chart.seriesNames()) QVERIFY(!s.contains(QStringLiteral("CPU"), Qt::CaseInsensitive));
        QVERIFY2(chart.headline().contains(QStringLiteral("Total Allocated")) &&
                     chart.headline().contains(QStringLiteral("Total Reserved")),
                 qPrintable(chart.headline()));
        QVERIFY(chart.peakBytes() > 1e9);  // the GPU's gigabytes, not the host's bytes
        const QString readout = chart.readoutAt(chart.plot()->xAxis->range().center());
        QVERIFY2(readout.contains(QStringLiteral("Total Allocated")) && readout.contains(QStringLiteral("B")), qPrintable(readout));
    }

    // 8. The capacity line lies inside the chart's value axis.
    void capacityLineOnScale() {
        auto writer = profiler::ProfileDbWriter::create(m_dir.filePath(QStringLiteral("cap.npudb")).toStdString());
        QVERIFY(writer.ok());
        auto& w = **writer;
        w.setMeta("capacity_bytes", "80000000000");
        const auto dev = w.addDevice("npu0", "npu");
        const auto counter = w.addTrack(dev, -1, profiler::TrackKind::counter, "Memory (live bytes)", 0);
        w.addCounter(counter, 0, 1e9);
        w.addCounter(counter, 1000, 7.5e10);
        w.addCounter(counter, 2000, 2e9);
        QVERIFY(w.commit().ok());
        MemoryChart chart;
        chart.setDatabase(openDb(m_dir.filePath(QStringLiteral("cap.npudb")).toStdString()));
        QCOMPARE(chart.capacityBytes(), 8e10);
        QVERIFY(chart.plot()->yAxis->range().upper * (1 << 30) >= 8e10 * 0.999 ||
                chart.plot()->yAxis->range().upper * 1e9 >= 8e10 * 0.999);
    }

};

QTEST_MAIN(TestViewsFirstHour)
#include "test_views_first_hour.moc"
