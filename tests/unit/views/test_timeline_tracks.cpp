// Issue 8's timeline navigation: track management (pin, reorder by drag, hide, filter,
// saved per database), flags (M, list, jump, saved), area selection with aggregates,
// and the links slice -> operator row and diagnostic -> its events.
#include "profiler/importers/common/diagnostic_example.h"
#include "profiler/store/profile_db.h"
#include "views/tables/diagnostics_view.h"
#include "views/tables/op_stats_model.h"
#include "views/tables/op_stats_view.h"
#include "views/timeline/flag_list_panel.h"
#include "views/timeline/range_stats_model.h"
#include "views/timeline/timeline_renderer.h"
#include "views/timeline/timeline_settings.h"
#include "views/timeline/timeline_view.h"
#include "views/timeline/timeline_widget.h"
#include "views/timeline/track_list_panel.h"
#include "tests/unit/views/mouse_events.h"
#include "tests/unit/views/timeline_tracks_fixture.h"

#include <QApplication>
#include <QComboBox>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QListWidget>
#include <QMouseEvent>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace npu;
using namespace npu::views;

namespace {

using namespace npu::views::testing;  // the fixture and mouse input

// Widget y of the middle of the n-th track row (0-based) under the first group header.
int trackY(int n) { return kRuler + kHeader + n * kTrack + kTrack / 2; }

}  // namespace

class TestTimelineTracks : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);  // settings land in a test location
        QCoreApplication::setOrganizationName(QStringLiteral("npu-studio-test"));
        QCoreApplication::setApplicationName(QStringLiteral("test_timeline_tracks"));
    }

    void init()
    {
        QSettings().clear();
        QVERIFY(m_dir.isValid());
        m_fx = Fixture{};
        m_file = m_dir.path() + QStringLiteral("/tracks.npudb");
        QFile::remove(m_file);
        m_db = writeDb(m_file, m_fx);
    }

    void pinnedTrackStaysOnTopWhileScrolling()
    {
        TimelineWidget w;
        w.resize(1000, 200);  // 12 tracks do not fit: the view scrolls
        w.setDatabase(m_db);
        QCOMPARE(w.visibleTrackIds().front(), m_fx.streams[0]);
        QSignalSpy changed(&w, &TimelineWidget::trackArrangementChanged);
        w.setTrackPinned(m_fx.streams[9], true);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(w.visibleTrackIds().front(), m_fx.streams[9]);
        QCOMPARE(w.visibleTrackIds().size(), std::size_t(11));  // moved, not copied
        // Scroll far down: the pinned track is still right under its header.
        for (int i = 0; i < 10; ++i)
            QTest::keyClick(&w, Qt::Key_Down);
        w.setViewRange(0, 1'000'000);
        // k9 [900k, 950k) on the pinned row (Pinned header, then the track).
        const int x = 200 + static_cast<int>((925'000.0 / 1'000'000.0) * (1000 - 200 - 15));
        QTest::mouseClick(&w, Qt::LeftButton, {}, QPoint(x, kRuler + kHeader + kTrack / 2));
        QCOMPARE(w.selectedSlice(), m_fx.lastKernel);
        w.setTrackPinned(m_fx.streams[9], false);
        QCOMPARE(w.visibleTrackIds().back(), m_fx.host);
        QCOMPARE(w.visibleTrackIds()[9], m_fx.streams[9]);
    }

    void hideAndFilterTracks()
    {
        TimelineView view;
        view.resize(1400, 700);
        view.setDatabase(m_db);
        TimelineWidget* w = view.timeline();
        w->setTrackHidden(m_fx.streams[2], true);
        QCOMPARE(w->visibleTrackIds().size(), std::size_t(10));
        // The track list: one row per track, the hidden one unchecked; ticking shows it.
        QListWidget* list = view.tracksPanel()->list();
        QCOMPARE(list->count(), 11);
        QListWidgetItem* item = list->item(2);
        QCOMPARE(item->data(TrackListPanel::TrackIdRole).toLongLong(), m_fx.streams[2]);
        QCOMPARE(item->checkState(), Qt::Unchecked);
        list->item(2)->setCheckState(Qt::Checked);
        QCOMPARE(w->visibleTrackIds().size(), std::size_t(11));
        list->item(0)->setCheckState(Qt::Unchecked);
        QVERIFY(w->trackArrangement().isHidden(m_fx.streams[0]));
        // The filter matches track and device names, on the timeline and in the list.
        view.tracksPanel()->filter()->setText(QStringLiteral("THREAD"));
        QCOMPARE(w->visibleTrackIds(), std::vector<qint64>{m_fx.host});
        int shown = 0;
        for (int i = 0; i < list->count(); ++i)
            shown += list->item(i)->isHidden() ? 0 : 1;
        QCOMPARE(shown, 1);
        view.tracksPanel()->filter()->setText(QStringLiteral("npu0"));
        QCOMPARE(w->visibleTrackIds().size(), std::size_t(9));  // stream 0 is still hidden
    }

    void dragTrackNameReorders()
    {
        TimelineWidget w;
        w.resize(1000, 500);
        w.setDatabase(m_db);
        // Drag "stream 3" by its name to the upper half of "stream 0".
        drag(&w, QPoint(60, trackY(3)), QPoint(60, trackY(0) - 6));
        const auto ids = w.visibleTrackIds();
        QCOMPARE(ids[0], m_fx.streams[3]);
        QCOMPARE(ids[1], m_fx.streams[0]);
        QCOMPARE(ids[3], m_fx.streams[2]);
        // A drag on the name no longer pans the view.
        const auto view = w.viewRange();
        drag(&w, QPoint(60, trackY(5)), QPoint(160, trackY(6) + 6));
        QCOMPARE(w.viewRange(), view);
        // Lower half of row 6 (stream 6): stream 5 lands after it, before stream 7.
        QCOMPARE(w.visibleTrackIds()[5], m_fx.streams[6]);
        QCOMPARE(w.visibleTrackIds()[6], m_fx.streams[5]);
        QCOMPARE(w.visibleTrackIds()[7], m_fx.streams[7]);
    }

    // Cluster names ("node 1 · rank 12 (npu)") are wider than the default gutter: it is
    // fitted to the widest device header on open, and the user can drag its edge; a
    // dragged width is kept for the next database.
    void gutterFitsDeviceNamesAndDrags()
    {
        TimelineWidget w;
        w.resize(1000, 500);
        w.setDatabase(m_db);  // "npu0", "host": the default
        QCOMPARE(w.gutterWidth(), 200);
        const QString longFile = m_dir.path() + QStringLiteral("/cluster-names.npudb");
        {
            auto writer = profiler::ProfileDbWriter::create(longFile.toStdString());
            QVERIFY(writer.ok());
            const auto dev = (*writer)->addDevice("node 1 \u00b7 rank 12 NPU 0 (Ascend910B4)", "npu");
            const auto t = (*writer)->addTrack(dev, -1, profiler::TrackKind::compute, "stream 0", 0);
            (*writer)->addSlice(t, 0, 1000, 0, "k", "kernel");
            QVERIFY((*writer)->commit().ok());
        }
        auto db = profiler::ProfileDb::open(longFile.toStdString());
        QVERIFY(db.ok());
        w.setDatabase(std::shared_ptr<const profiler::ProfileDb>(std::move(*db)));
        QFont bold = w.font();
        bold.setBold(true);
        const int label = QFontMetrics(bold).horizontalAdvance(
            QStringLiteral("node 1 \u00b7 rank 12 NPU 0 (Ascend910B4)  (npu)"));
        QCOMPARE(w.gutterWidth(), std::clamp(label + 28, 200, TimelineWidget::kMaxFittedGutter));
        QVERIFY(w.gutterWidth() > 200);
        // Drag the border to x = 150: the gutter follows, and stays for the next database.
        const auto view = w.viewRange();
        drag(&w, QPoint(w.gutterWidth() - 2, trackY(0)), QPoint(150, trackY(0)));
        QCOMPARE(w.gutterWidth(), 150);
        QCOMPARE(w.viewRange(), view);  // the drag resized, it did not pan
        w.setDatabase(m_db);
        QCOMPARE(w.gutterWidth(), 150);
        // Not past the minimum.
        drag(&w, QPoint(148, trackY(0)), QPoint(10, trackY(0)));
        QCOMPARE(w.gutterWidth(), TimelineWidget::kMinGutter);
    }

    void arrangementAndFlagsSavedPerDatabase()
    {
        {
            TimelineView view;
            view.setDatabase(m_db);
            view.timeline()->setTrackPinned(m_fx.host, true);
            view.timeline()->setTrackHidden(m_fx.streams[4], true);
            view.timeline()->moveTrackBefore(m_fx.streams[8], m_fx.streams[1]);
            view.timeline()->addFlag(250'000, QStringLiteral("slow launch"));
        }
        TimelineView reopened;
        reopened.setDatabase(m_db);
        const TrackArrangement& arr = reopened.timeline()->trackArrangement();
        QCOMPARE(arr.pinned, std::vector<std::int64_t>{m_fx.host});
        QVERIFY(arr.isHidden(m_fx.streams[4]));
        const auto ids = reopened.timeline()->visibleTrackIds();
        QCOMPARE(ids[0], m_fx.host);
        QCOMPARE(ids[2], m_fx.streams[8]);
        QCOMPARE(reopened.timeline()->flags().size(), std::size_t(1));
        QCOMPARE(reopened.timeline()->flags()[0].t_ns, qint64(250'000));
        QCOMPARE(reopened.timeline()->flags()[0].note, QStringLiteral("slow launch"));
        // Another database starts clean.
        const QString other = m_dir.path() + QStringLiteral("/other.npudb");
        QFile::remove(other);
        Fixture fx2;
        reopened.setDatabase(writeDb(other, fx2));
        QVERIFY(reopened.timeline()->trackArrangement().isDefault());
        QVERIFY(reopened.timeline()->flags().empty());
        QVERIFY(timelineSettingsKey(m_file.toStdString()) != timelineSettingsKey(other.toStdString()));
    }

    void flagsWithKeyListAndJump()
    {
        TimelineView view;
        view.resize(1400, 600);
        view.show();  // the splitter gives the timeline its width
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setDatabase(m_db);
        TimelineWidget* w = view.timeline();
        w->setViewRange(0, 1'000'000);
        // M at the mouse: a flag there, listed, its note being edited.
        sendMouse(w, QEvent::MouseMove, QPoint(200 + 100, trackY(1)), Qt::NoButton, Qt::NoButton);
        QTest::keyClick(w, Qt::Key_M);
        QCOMPARE(w->flags().size(), std::size_t(1));
        const qint64 t = w->flags()[0].t_ns;
        // 100 px into the plot (its width, less a scroll bar at most).
        const double plot = w->width() - 200;
        QVERIFY2(t >= qint64(100 / plot * 1e6 * 0.99) && t <= qint64(100 / (plot - 20) * 1e6 * 1.01),
                 qPrintable(QString::number(t)));
        QTableWidget* table = view.flagsPanel()->table();
        QCOMPARE(table->rowCount(), 1);
        QCOMPARE(view.sideTabs()->currentWidget(), view.flagsPanel());
        table->item(0, 1)->setText(QStringLiteral("first"));
        QCOMPARE(w->flags()[0].note, QStringLiteral("first"));
        w->addFlag(800'000, QStringLiteral("second"));
        QCOMPARE(table->rowCount(), 2);
        QCOMPARE(table->item(1, 1)->text(), QStringLiteral("second"));
        // Jump: zoomed in elsewhere, a double-click on the time centres the flag.
        w->setViewRange(0, 100'000);
        emit table->cellDoubleClicked(1, 0);
        const auto v = w->viewRange();
        QCOMPARE((v.first + v.second) / 2, qint64(800'000));
        QCOMPARE(v.second - v.first, qint64(100'000));
        w->removeFlag(0);
        QCOMPARE(table->rowCount(), 1);
        QCOMPARE(w->flags()[0].note, QStringLiteral("second"));
    }

    void areaSelectionAggregatesPerName()
    {
        TimelineView view;
        view.resize(1400, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setDatabase(m_db);
        TimelineWidget* w = view.timeline();
        w->setViewRange(0, 1'000'000);
        const double pxPerNs = (w->width() - 200) / 1'000'000.0;  // no scroll bar at this height
        auto x = [&](qint64 t) { return 200 + static_cast<int>(t * pxPerNs); };
        // Shift+drag from stream 1 to stream 2 over [450k, 650k): gemm on both, nothing else.
        drag(w, QPoint(x(450'000), trackY(1)), QPoint(x(650'000), trackY(2)), Qt::ShiftModifier);
        const auto tracks = w->selectedAreaTracks();
        QCOMPARE(tracks, (std::vector<qint64>{m_fx.streams[1], m_fx.streams[2]}));
        RangeStatsModel* m = view.rangeStats();
        QCOMPARE(view.sideTabs()->currentWidget(), view.rangeTable());
        QCOMPARE(m->rowCount(), 1);
        QCOMPARE(m->nameAt(0), QStringLiteral("gemm"));
        QCOMPARE(m->index(0, RangeStatsModel::CountColumn).data(Qt::UserRole).toLongLong(), 2);
        QCOMPARE(m->index(0, RangeStatsModel::MinColumn).data(Qt::UserRole).toLongLong(), 100'000);
        QCOMPARE(m->index(0, RangeStatsModel::MaxColumn).data(Qt::UserRole).toLongLong(), 120'000);
        QCOMPARE(m->index(0, RangeStatsModel::AverageColumn).data(Qt::UserRole).toLongLong(), 110'000);
        QCOMPARE(m->index(0, RangeStatsModel::ShareColumn).data(Qt::UserRole).toDouble(), 1.0);

        // From the ruler: every track; sortable by each aggregate, largest first.
        w->setSelectedRange(0, 1'000'000);
        QVERIFY(w->selectedAreaTracks().empty());
        QCOMPARE(m->rowCount(), 12);  // k0..k9, gemm, aten::mm
        view.rangeTable()->sortByColumn(RangeStatsModel::CountColumn, Qt::DescendingOrder);
        QCOMPARE(m->nameAt(0), QStringLiteral("gemm"));
        QCOMPARE(m->index(0, RangeStatsModel::CountColumn).data(Qt::UserRole).toLongLong(), 9);
        view.rangeTable()->sortByColumn(RangeStatsModel::MaxColumn, Qt::DescendingOrder);
        QCOMPARE(m->nameAt(0), QStringLiteral("aten::mm"));
        // Double-click a row: those slices are selected on the timeline.
        view.rangeTable()->sortByColumn(RangeStatsModel::CountColumn, Qt::DescendingOrder);
        emit view.rangeTable()->doubleClicked(m->index(0, 0));
        QCOMPARE(view.matchCount(), 9);
        QVERIFY(w->selectedSlice() >= 0);
        // Within an area, only its slices.
        w->setSelectedArea(0, 1'000'000, {m_fx.streams[0], m_fx.streams[1]});
        QCOMPARE(view.selectAreaSlices(QStringLiteral("gemm")), 2);
        // Hidden tracks stay out of a ruler range.
        w->setTrackHidden(m_fx.host, true);
        w->setSelectedRange(0, 1'000'000);
        QCOMPARE(m->rowCount(), 11);
    }

    void sliceToOperatorRow()
    {
        TimelineView timeline;
        timeline.setDatabase(m_db);
        QSignalSpy asked(&timeline, &TimelineView::operatorRowRequested);
        emit timeline.timeline()->sliceTableRowRequested(m_fx.cpuOp);
        QCOMPARE(asked.count(), 1);

        OpStatsView ops;
        ops.setDatabase(m_db);
        ops.setGrouping(profiler::OpGrouping::byName);
        ops.setFilterText(QStringLiteral("k1"));
        // A kernel: its row, the filter cleared since it hid the row.
        QVERIFY(ops.showSlice(m_fx.lastKernel));
        QModelIndex current = ops.table()->selectionModel()->currentIndex();
        QCOMPARE(current.siblingAtColumn(OpStatsModel::Key).data(OpStatsModel::SortRole).toString(), QStringLiteral("k9"));
        // A CPU op is not among the device kernels listed by default: its device is chosen.
        QVERIFY(ops.showSlice(m_fx.cpuOp));
        current = ops.table()->selectionModel()->currentIndex();
        QCOMPARE(current.siblingAtColumn(OpStatsModel::Key).data(OpStatsModel::SortRole).toString(),
                 QStringLiteral("aten::mm"));
        QCOMPARE(ops.deviceCombo()->currentText(), QStringLiteral("host"));
        QVERIFY(!ops.showSlice(987654));
    }

    void diagnosticToItsEvents()
    {
        // The examples the importers write, read back.
        auto e = profiler::diagnosticEventOf(R"(byte 634: no valid "dur"; stored with duration 0 (ph "X", name "no-dur"))");
        QCOMPARE(e.name, std::string("no-dur"));
        QVERIFY(!e.ts);
        e = profiler::diagnosticEventOf("begin event \"never-ends\" at 30000 ns never ended; closed at the thread's last timestamp");
        QCOMPARE(e.name, std::string("never-ends"));
        QCOMPARE(*e.ts, std::int64_t(30000));
        e = profiler::diagnosticEventOf(R"(flow step or end without a start: category "ac2g", id 59, ts 5143180853100702 ns)");
        QVERIFY(e.name.empty());
        QCOMPARE(*e.ts, std::int64_t(5143180853100702));
        QVERIFY(!profiler::diagnosticEventOf("the array of events has no closing ']'").ts);

        DiagnosticsView diags;
        diags.setDatabase(m_db);
        TimelineView timeline;
        timeline.setDatabase(m_db);
        connect(&diags, &DiagnosticsView::eventsRequested, &timeline, &TimelineView::showDiagnosticEvents);
        QSignalSpy asked(&diags, &DiagnosticsView::eventsRequested);
        QTableView* table = diags.table();
        int negative = -1, flow = -1;
        for (int r = 0; r < table->model()->rowCount(); ++r) {
            const QString kind = table->model()->index(r, 1).data().toString();
            (kind == QStringLiteral("negative_duration") ? negative : flow) = r;
        }
        emit table->doubleClicked(table->model()->index(negative, 0));
        QCOMPARE(asked.count(), 1);
        QCOMPARE(asked.last().at(0).toString(), QStringLiteral("k3"));
        QCOMPARE(timeline.matchCount(), 1);
        const TimelineData* data = timeline.timeline()->data();
        QCOMPARE(data->sliceName(data->find(timeline.timeline()->selectedSlice())), std::string("k3"));
        // A flow is no slice: its instant is marked and centred.
        emit table->doubleClicked(table->model()->index(flow, 0));
        QCOMPARE(asked.last().at(1).toLongLong(), qint64(720'000));
        QCOMPARE(timeline.timeline()->selectedRange().first, qint64(720'000));
        const auto v = timeline.timeline()->viewRange();
        QVERIFY(v.first < 720'000 && v.second > 720'000);
    }

private:
    QTemporaryDir m_dir;
    QString m_file;
    Fixture m_fx;
    std::shared_ptr<const profiler::ProfileDb> m_db;
};

QTEST_MAIN(TestTimelineTracks)
#include "test_timeline_tracks.moc"
