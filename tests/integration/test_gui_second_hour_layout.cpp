// Issue 24 Major 5 and the designed Summary, through the main window offscreen at the
// default size and at 1280x720, on the cluster sample (projects/llama-7b-cluster, 8
// ranks): the Summary's cards, step breakdown and top operators lie inside the window;
// the Memory tab (a rank chosen) has a plot of readable height with the legend outside
// it, no entry clipped, the peak label inside the plot and live blocks listed; the
// Communication tab's rank labels do not overlap and no legend entry is cut ("Computin").
// A trace without memory data gets a message on the Memory tab, not empty axes.
// NPU_SCREENSHOTS=DIR saves summary-, memory-, communication-, timeline- and
// timeline-nested-<size>.png there.
#include "views/charts/qcustomplot_include.h"  // first: see there

#include "app/main_window.h"
#include "engine/driver/simulate_project.h"
#include "profiler/store/simulation_writer.h"
#include "profiler/importers/profile_import.h"
#include "views/charts/memory_blocks_panel.h"
#include "views/charts/memory_chart.h"
#include "views/charts/memory_map.h"
#include "views/communication/communication_tab.h"
#include "views/communication/rank_breakdown_chart.h"
#include "views/summary/summary_cards.h"
#include "views/summary/summary_view.h"
#include "views/tables/op_stats_model.h"
#include "views/timeline/timeline_data.h"
#include "views/timeline/timeline_view.h"
#include "views/timeline/timeline_widget.h"

#include <QComboBox>
#include <QFontMetrics>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using npu::app::MainWindow;

namespace {

void showTab(MainWindow& w, const QString& name) {
    for (int i = 0; i < w.tabs()->count(); ++i)
        if (w.tabs()->tabText(i) == name) w.tabs()->setCurrentIndex(i);
    QTest::qWait(80);
    QApplication::processEvents();
}

void screenshot(MainWindow& w, const QString& name) {
    if (!qEnvironmentVariableIsSet("NPU_SCREENSHOTS")) return;
    const QString size = w.width() == 1280 ? QStringLiteral("1280") : QStringLiteral("full");
    w.grab().save(qEnvironmentVariable("NPU_SCREENSHOTS") + QStringLiteral("/%1-%2.png").arg(name, size));
}

QRect inWindow(const MainWindow& w, const QWidget* widget) { return QRect(widget->mapTo(&w, QPoint(0, 0)), widget->size()); }

// No legend entry drawn narrower than its text needs.
void checkLegendNotClipped(QCPLegend* legend) {
    for (int i = 0; i < legend->itemCount(); ++i) {
        QCPAbstractLegendItem* item = legend->item(i);
        if (!item || !item->visible()) continue;
        QVERIFY2(item->outerRect().width() + 1 >= item->minimumOuterSizeHint().width(),
                 qPrintable(QStringLiteral("legend entry %1 clipped: %2 < %3").arg(i).arg(item->outerRect().width()).arg(item->minimumOuterSizeHint().width())));
        QVERIFY2(legend->parentPlot()->viewport().contains(item->outerRect()), "a legend entry lies outside the chart");
    }
}

}  // namespace

class TestGuiSecondHourLayout : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    QString m_cluster, m_noMemory;

    bool showAt(MainWindow& w, QSize size) {
        w.setShowDialogs(false);
        w.resize(size);
        w.show();
        w.activateWindow();
        return QTest::qWaitForWindowActive(&w);
    }

private slots:
    void initTestCase() {
        QVERIFY(m_tmp.isValid());
        QCoreApplication::setOrganizationName(QStringLiteral("NPU Studio Tests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_gui_second_hour_layout"));
        auto project = npu::engine::loadProject(std::filesystem::path(NPU_SOURCE_DIR) / "projects/llama-7b-cluster/project.json");
        QVERIFY2(project.ok(), project.ok() ? "" : project.message().c_str());
        project->runs.clear();
        auto run = npu::engine::simulateProject(*project, {});
        QVERIFY2(run.ok(), run.ok() ? "" : run.message().c_str());
        m_cluster = m_tmp.filePath(QStringLiteral("cluster.npudb"));
        QVERIFY(npu::profiler::writeSimulation(*run, {"llama-7b-cluster", "project.json", "sim"}, m_cluster.toStdString()).ok());
        m_noMemory = m_tmp.filePath(QStringLiteral("no-memory.npudb"));
        // An Ascend timeline without memory data (reference data: skipped when absent).
        const std::filesystem::path ascend = std::filesystem::path(NPU_SHARED_DATA_DIR) / "third_party/ascend/trace_view.json";
        if (std::filesystem::exists(ascend)) QVERIFY(npu::profiler::importProfile(ascend, m_noMemory.toStdString()).ok());
    }

    void clusterSampleTabs_data() {
        QTest::addColumn<QSize>("size");
        QTest::newRow("default") << QSize(1600, 1000);
        QTest::newRow("1280x720") << QSize(1280, 720);
    }
    void clusterSampleTabs() {
        QFETCH(QSize, size);
        MainWindow w;
        QVERIFY(showAt(w, size));
        QVERIFY(w.openDatabase(m_cluster));

        // Summary: the cards and the step breakdown inside the window, the bars not squashed.
        showTab(w, QStringLiteral("Summary"));
        npu::views::SummaryView* summary = w.summary();
        QCOMPARE(summary->cards()->count(), 5);
        for (QWidget* card : summary->cards()->findChildren<QFrame*>(Qt::FindDirectChildrenOnly))
            QVERIFY2(w.rect().contains(inWindow(w, card)), "a Summary card lies outside the window");
        QCOMPARE(summary->breakdownChart()->rankCount(), 8);
        QVERIFY(summary->breakdownChart()->isVisible());
        QVERIFY(summary->breakdownChart()->width() > 400);
        QVERIFY(inWindow(w, summary->breakdownChart()).right() <= w.width());
        QVERIFY(summary->topOperatorsTable()->isVisible());
        QCOMPARE(summary->topOperators()->rowCount(), npu::views::SummaryView::kTopOperators);
        screenshot(w, QStringLiteral("summary"));

        // Memory, a rank chosen in the rank chooser.
        showTab(w, QStringLiteral("Memory"));
        npu::views::MemoryChart* memory = w.memory();
        QVERIFY(!memory->emptyMessage()->isVisible());
        if (memory->deviceCombo()->count() > 1) {
            memory->deviceCombo()->setCurrentIndex(memory->deviceCombo()->count() - 1);
            QTest::qWait(50);
        }
        QCustomPlot* plot = memory->plot();
        plot->replot();
        QVERIFY2(plot->axisRect()->rect().height() >= 150, qPrintable(QStringLiteral("plot %1 px high").arg(plot->axisRect()->rect().height())));
        if (plot->legend->visible()) {
            QVERIFY2(!plot->legend->outerRect().intersects(plot->axisRect()->rect()), "the legend covers the plot");
            checkLegendNotClipped(plot->legend);
        }
        for (int i = 0; i < plot->itemCount(); ++i)
            if (auto* text = qobject_cast<QCPItemText*>(plot->item(i)); text && text->text().startsWith(QStringLiteral("peak "))) {
                const QRectF label(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition());
                QVERIFY2(plot->axisRect()->rect().contains(label.toRect()), "the peak label is cut by the plot's edge");
            }
        // A cluster rank has its memory map and live blocks (issue 24 Major 1): click the peak.
        // At 1280x720 the map is a tab beside the live blocks (the chart keeps its height).
        QVERIFY2(!memory->memoryMap()->isHidden() && !memory->blocksPanel()->isHidden(), "the rank has no memory map");
        QCOMPARE(memory->memoryMap()->isVisible(), size.height() >= 1000);
        QVERIFY(memory->peakTime() >= 0);
        memory->selectTimes(memory->peakTime(), memory->peakTime());
        QTest::qWait(50);
        QVERIFY2(memory->blocksPanel()->isVisible(), "a click shows the live blocks");
        screenshot(w, QStringLiteral("memory"));
        if (memory->blocksPanel()->isVisible()) {
            QVERIFY2(memory->blocksPanel()->headline().size() > 0, "the live blocks say nothing");
            auto* table = memory->blocksPanel()->findChild<QTableView*>();
            QVERIFY(table);
            QVERIFY2(table->model()->rowCount() > 0, "live blocks show no rows");
            QVERIFY2(table->viewport()->height() >= 2 * table->verticalHeader()->defaultSectionSize(), "live blocks have no room for rows");
        }

        // Communication: rank labels apart, legend whole.
        showTab(w, QStringLiteral("Communication"));
        auto* comm = w.findChild<npu::views::CommunicationTab*>();
        QVERIFY(comm && comm->hasCommunication());
        npu::views::RankBreakdownChart* ranks = comm->rankChart();
        ranks->plot()->replot();
        checkLegendNotClipped(ranks->plot()->legend);
        const QStringList labels = ranks->rankTickLabels();
        QCOMPARE(labels.size(), 8);
        const QFontMetrics fm(ranks->plot()->xAxis->tickLabelFont());
        QCPAxis* x = ranks->plot()->xAxis;
        double lastRight = -1e9;
        for (int i = 0; i < labels.size(); ++i) {
            if (labels[i].isEmpty()) continue;
            const double centre = x->coordToPixel(i);
            const double half = fm.horizontalAdvance(labels[i]) / 2.0;
            QVERIFY2(centre - half >= lastRight, qPrintable(QStringLiteral("rank labels overlap at %1: %2").arg(i).arg(labels.join(QLatin1Char('|')))));
            lastRight = centre + half;
        }
        // The window keeps 1280x720: no tab's minimum holds it taller (the memory details and
        // the communication charts did, 751 px).
        QCOMPARE(w.height(), size.height());
        screenshot(w, QStringLiteral("communication"));

        // Timeline: the side panel's four tab titles all show, none cut or behind arrows.
        showTab(w, QStringLiteral("Timeline"));
        auto* timeline = w.findChild<npu::views::TimelineView*>();
        QVERIFY(timeline);
        QTabWidget* side = nullptr;
        for (auto* tabs : timeline->findChildren<QTabWidget*>())
            if (tabs->count() == 4) side = tabs;
        QVERIFY(side);
        QTabBar* bar = side->tabBar();
        for (int i = 0; i < bar->count(); ++i) {
            QVERIFY2(bar->tabRect(i).right() <= bar->width() && bar->tabRect(i).right() < side->width(),
                     qPrintable(QStringLiteral("tab %1 cut off: right %2, bar %3").arg(bar->tabText(i)).arg(bar->tabRect(i).right()).arg(bar->width())));
            QVERIFY2(bar->tabRect(i).width() >= QFontMetrics(bar->font()).horizontalAdvance(bar->tabText(i)) + 8,
                     qPrintable(bar->tabText(i) + QStringLiteral(" elided")));
        }
        QVERIFY(inWindow(w, side).right() <= w.width());
        screenshot(w, QStringLiteral("timeline"));
        // The nested simulated timeline: each rank's "Model structure" track first, step >
        // forward · micro-batch k > layers.N over the Compute lane (issue 24).
        QTRY_VERIFY_WITH_TIMEOUT(!timeline->timeline()->isLoading(), 60000);
        const npu::views::TimelineData* data = timeline->timeline()->data();
        QVERIFY(data);
        int structureTracks = 0;
        for (const auto& track : data->tracks())
            if (track.row.name == "Model structure") {
                ++structureTracks;
                QCOMPARE(track.depths.lanes.size(), size_t(3));
            }
        QCOMPARE(structureTracks, 8);
        const auto full = timeline->timeline()->fullRange();
        timeline->timeline()->setViewRange(full.first, full.first + (full.second - full.first) / 12);
        QTest::qWait(80);
        screenshot(w, QStringLiteral("timeline-nested"));
    }

    // Minor: a trace without memory data: a message, no axes, legend or "Peak in Timeline".
    void memoryTabWithoutMemoryData_data() { clusterSampleTabs_data(); }
    void memoryTabWithoutMemoryData() {
        QFETCH(QSize, size);
        MainWindow w;
        QVERIFY(showAt(w, size));
        if (!QFileInfo::exists(m_noMemory)) QSKIP("reference data absent");
        QVERIFY(w.openDatabase(m_noMemory));
        showTab(w, QStringLiteral("Memory"));
        npu::views::MemoryChart* memory = w.memory();
        QCOMPARE(memory->seriesCount(), 0);
        QVERIFY(memory->emptyMessage()->isVisible());
        QVERIFY(memory->emptyMessage()->text().contains(QStringLiteral("No memory data")));
        QVERIFY(!memory->plot()->isVisible());
        QVERIFY(!memory->peakButton()->isVisible());
    }
};

QTEST_MAIN(TestGuiSecondHourLayout)
#include "test_gui_second_hour_layout.moc"
