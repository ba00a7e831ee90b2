// The Memory tab's selection and the views around it: a click on the chart lists the
// blocks live at that instant, Shift+drag those alive in a range, the "allocated or
// released in range" filter, "Show in Timeline" naming the producer's slice; the
// what-if row's choices and figures; the Diagnostics tab's out-of-memory view.

#include "views/charts/qcustomplot_include.h"  // first: see there

#include "profiler/analysis/memory_live_blocks.h"
#include "profiler/store/profile_db.h"
#include "profiler/store/simulation_writer.h"
#include "views/charts/memory_blocks_panel.h"
#include "views/charts/memory_chart.h"
#include "views/charts/memory_what_if_bar.h"
#include "views/tables/diagnostics_view.h"
#include "views/tables/oom_panel.h"
#include "views/tables/record_table_model.h"
#include "tests/unit/views/mouse_events.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace npu;

namespace {

// Ten ops of 100 ns; op i allocates an output of (i + 1) MiB that op i + 3 frees; a
// weight is live throughout.
engine::SimulationResult makeRun(bool oom) {
    engine::SimulationResult r;
    engine::DeviceResult d;
    d.name = "npu0";
    d.streams = {{0, "Compute", engine::StreamKind::compute}};
    const std::int64_t mib = 1 << 20;
    std::int64_t live = 64 * mib;
    d.memory.push_back({0, live, live, 0, engine::TensorRole::weight});
    d.memory_blocks.push_back({0, 0, 64 * mib, 0, -1, "weights", "w", ""});
    for (int i = 0; i < 10; ++i) {
        engine::SimTask t;
        t.start_ns = i * 100;
        t.dur_ns = 100;
        t.name = "op" + std::to_string(i);
        t.op_type = "MatMul";
        d.tasks.push_back(t);
        const std::int64_t free = i + 3 < 10 ? (i + 3) * 100 : -1;
        d.memory_blocks.push_back({i + 1, (64 + 16 * i) * mib, (i + 1) * mib, i * 100, free, "activations",
                                   "t" + std::to_string(i), "op" + std::to_string(i)});
    }
    for (int k = 0; k < 10; ++k) {  // the counter the chart draws: allocations and frees
        live += (k + 1) * mib;
        if (k >= 3) live -= (k - 2) * mib;
        d.memory.push_back({k * 100, 0, live, k, engine::TensorRole::activation});
    }
    d.memory.push_back({1000, 0, live, -1, engine::TensorRole::activation});
    d.memory_segments = {{0, 1 << 30, 0, -1, false}};
    d.capacity_bytes = std::int64_t(1) << 30;
    r.devices.push_back(d);
    r.steps = {{0, 0, 1000}};
    r.summary.status = oom ? "oom" : "ok";
    r.summary.capacity_bytes = d.capacity_bytes;
    r.summary.memory.reserved_peak_bytes = 200 * mib;
    if (oom) {
        auto& o = r.summary.memory.oom;
        o.present = true;
        o.op = "op5";
        o.time_ns = 500;
        o.request_bytes = 6 * mib;
        o.top_tensors = {{"t4", "activations", "op4", 5 * mib, 400, 700}, {"t3", "activations", "op3", 4 * mib, 300, 600}};
        o.advice = {{"micro_batch", "training.batch: 8 -> 4", 100 * mib, 120 * mib, 12.5, true},
                    {"offload", "training.offload_activations: false -> true", 90 * mib, 110 * mib, 14.0, true}};
    }
    return r;
}

std::shared_ptr<const profiler::ProfileDb> writeAndOpen(const QTemporaryDir& dir, bool oom) {
    const auto file = std::filesystem::path(dir.path().toStdString()) / (oom ? "oom.npudb" : "run.npudb");
    if (!profiler::writeSimulation(makeRun(oom), {"p", "", "run"}, file).ok()) return nullptr;
    auto db = profiler::ProfileDb::open(file);
    return db ? std::shared_ptr<const profiler::ProfileDb>(std::move(*db)) : nullptr;
}

// Every press and release here is of the left button.
void sendMouse(QWidget* w, QEvent::Type type, QPoint pos, Qt::MouseButtons buttons, Qt::KeyboardModifiers mods) {
    views::testing::sendMouse(w, type, pos, Qt::LeftButton, buttons, mods);
}

}  // namespace

class TestMemorySelection : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void clickListsTheLiveBlocks() {
        auto db = writeAndOpen(m_dir, false);
        QVERIFY(db);
        views::MemoryChart chart;
        chart.resize(1200, 900);
        chart.show();
        chart.setDatabase(db);
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        views::MemoryBlocksPanel* panel = chart.blocksPanel();
        QVERIFY(panel->isVisible());
        QAbstractItemModelTester tester(panel->model());

        // At 450 ns: the weight, t2 (200..500), t3 (300..600), t4 (400..700).
        chart.selectTimes(450, 450);
        QCOMPARE(panel->model()->rowCount(), 4);
        QVERIFY2(panel->headline().startsWith(QStringLiteral("4 block(s), 76.0 MiB allocated live at")), qPrintable(panel->headline()));
        QCOMPARE(panel->model()->cell(0, 0).display.toString(), QStringLiteral("w"));  // largest first
        const auto live = profiler::liveBlocks(*db, {0, 450, 450, false, 0});
        QCOMPARE(live.count, std::int64_t(4));

        // A click on the plot selects the instant under the cursor.
        QCustomPlot* plot = chart.plot();
        plot->replot();
        const int x = int(plot->xAxis->coordToPixel(chart.axisOf(650)));
        const int y = plot->axisRect()->center().y();
        sendMouse(plot, QEvent::MouseButtonPress, {x, y}, Qt::LeftButton, Qt::NoModifier);
        sendMouse(plot, QEvent::MouseButtonRelease, {x, y}, Qt::NoButton, Qt::NoModifier);
        const auto sel = chart.selectedTimes();
        QCOMPARE(sel.first, sel.second);
        QVERIFY2(std::abs(sel.first - 650) < 10, qPrintable(QString::number(sel.first)));
        QCOMPARE(panel->model()->rowCount(), int(profiler::liveBlocks(*db, {0, sel.first, sel.first, false, 0}).count));

        // Shift+drag from 150 to 350 ns: a range.
        const int x0 = int(plot->xAxis->coordToPixel(chart.axisOf(150)));
        const int x1 = int(plot->xAxis->coordToPixel(chart.axisOf(350)));
        sendMouse(plot, QEvent::MouseButtonPress, {x0, y}, Qt::LeftButton, Qt::ShiftModifier);
        sendMouse(plot, QEvent::MouseMove, {(x0 + x1) / 2, y}, Qt::LeftButton, Qt::ShiftModifier);
        sendMouse(plot, QEvent::MouseMove, {x1, y}, Qt::LeftButton, Qt::ShiftModifier);
        sendMouse(plot, QEvent::MouseButtonRelease, {x1, y}, Qt::NoButton, Qt::ShiftModifier);
        const auto range = chart.selectedTimes();
        QVERIFY2(std::abs(range.first - 150) < 10 && std::abs(range.second - 350) < 10,
                 qPrintable(QStringLiteral("%1..%2").arg(range.first).arg(range.second)));
        const auto alive = profiler::liveBlocks(*db, {0, range.first, range.second, false, 0});
        QCOMPARE(panel->model()->rowCount(), int(alive.count));  // weight, t0 (..300), t1, t2, t3
        QCOMPARE(alive.count, std::int64_t(5));
        // The pan did not happen: the drag selected.
        QCOMPARE(plot->xAxis->range().lower, 0.0);

        // Allocated or released in 150..350: t0 freed at 300, t2 and t3 allocated.
        panel->setChangedOnly(true);
        QCOMPARE(panel->model()->rowCount(), 3);
        QVERIFY(panel->headline().contains(QStringLiteral("allocated or released")));
        panel->setChangedOnly(false);

        // Show in Timeline: the producer's slice.
        QSignalSpy slice(&chart, &views::MemoryChart::sliceActivated);
        chart.selectTimes(450, 450);
        int t4Row = -1;
        for (int r = 0; r < panel->table()->model()->rowCount(); ++r)
            if (panel->table()->model()->index(r, 0).data().toString() == QStringLiteral("t4")) t4Row = r;
        QVERIFY(t4Row >= 0);
        QVERIFY(panel->showInTimeline(t4Row));
        QCOMPARE(slice.count(), 1);
        auto details = db->slice(slice.at(0).at(0).toLongLong());
        QVERIFY(details.ok());
        QCOMPARE(details->name, std::string("op4"));
        // The weight has no producer: its allocation instant instead.
        QSignalSpy time(&chart, &views::MemoryChart::timeActivated);
        int wRow = -1;
        for (int r = 0; r < panel->table()->model()->rowCount(); ++r)
            if (panel->table()->model()->index(r, 0).data().toString() == QStringLiteral("w")) wRow = r;
        QVERIFY(panel->showInTimeline(wRow));
        QCOMPARE(time.count(), 1);
        QCOMPARE(time.at(0).at(0).toLongLong(), 0LL);
    }

    void whatIfBarShowsEachChoice() {
        views::MemoryWhatIfBar bar;
        views::MemoryWhatIfSettings base;
        base.checkpointing = QStringLiteral("selective");
        bar.setBaseline(base, {8e9, 9e9, 120, false}, false);
        QCOMPARE(bar.settings(), base);
        QVERIFY(bar.predictionText().contains(QStringLiteral("open run")));
        QSignalSpy changed(&bar, &views::MemoryWhatIfBar::changed);
        bar.setChoiceFigures(QStringLiteral("checkpointing=full"), {5e9, 6e9, 150, false});
        bar.setChoiceFigures(QStringLiteral("offload_activations=1"), {4e9, 5e9, 170, false});
        QVERIFY(bar.choiceText(QStringLiteral("checkpointing=full")).contains(QStringLiteral("150 ms")));
        QCOMPARE(changed.count(), 0);  // figures are no change of the settings
        auto* combo = bar.findChildren<QComboBox*>().front();
        QVERIFY(combo->itemText(2).startsWith(QStringLiteral("memory_bound")));
        QVERIFY(combo->itemText(3).startsWith(QStringLiteral("full")));
        QVERIFY(combo->itemText(3).contains(QStringLiteral("150 ms")));
        QVERIFY(combo->itemText(1).contains(QStringLiteral("open run")));
        views::MemoryWhatIfSettings s = base;
        s.offloadActivations = true;
        bar.setSettings(s);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.at(0).at(0).value<views::MemoryWhatIfSettings>().offloadActivations, true);
        bar.setPrediction({4e9, 5e9, 170, false});
        QVERIFY(bar.predictionText().startsWith(QStringLiteral("predicted")));
        // ZeRO needs data-parallel ranks.
        auto combos = bar.findChildren<QComboBox*>();
        QVERIFY(!combos[1]->isEnabled());
    }

    void diagnosticsShowTheOutOfMemoryView() {
        auto db = writeAndOpen(m_dir, true);
        QVERIFY(db);
        views::DiagnosticsView view;
        view.setDatabase(db);
        QVERIFY(view.hasOom());
        views::OomPanel* oom = view.oomPanel();
        QAbstractItemModelTester t1(oom->tensorsModel());
        QAbstractItemModelTester t2(oom->adviceModel());
        QVERIFY2(oom->headline().contains(QStringLiteral("op5")), qPrintable(oom->headline()));
        QVERIFY2(oom->headline().contains(QStringLiteral("6.00 MiB")), qPrintable(oom->headline()));
        QCOMPARE(oom->tensorsModel()->rowCount(), 2);
        QCOMPARE(oom->adviceModel()->rowCount(), 2);
        QCOMPARE(oom->adviceModel()->cell(1, 1).display.toString(), QStringLiteral("training.offload_activations: false -> true"));
        QCOMPARE(oom->adviceModel()->cell(0, 4).display.toString(), QStringLiteral("12.5 ms"));
        QSignalSpy events(&view, &views::DiagnosticsView::eventsRequested);
        QMetaObject::invokeMethod(oom, "showInTimeline", Q_ARG(QString, QStringLiteral("op5")), Q_ARG(qint64, 500));
        QCOMPARE(events.count(), 1);
        QCOMPARE(events.at(0).at(0).toString(), QStringLiteral("op5"));

        auto fine = writeAndOpen(m_dir, false);
        view.setDatabase(fine);
        QVERIFY(!view.hasOom());
    }
};

QTEST_MAIN(TestMemorySelection)
#include "test_memory_selection.moc"
