// Issue 24 ("The GUI, second hour") in the Timeline: Esc closes the find bar before it
// clears the range; "?" shows the shortcut help and chords pass through; the overview
// lane shows the run and moves the view; flow arrows to an off-screen end point at its
// track. Each slot fails without its fix.
#include "profiler/store/profile_db.h"
#include "tests/unit/views/simulated_runs.h"
#include "profiler/store/synthetic_db.h"
#include "views/timeline/flow_geometry.h"
#include "views/timeline/overview_lane.h"
#include "views/timeline/shortcut_overlay.h"
#include "views/timeline/timeline_search_bar.h"
#include "views/timeline/timeline_view.h"
#include "views/timeline/timeline_widget.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace npu;
using namespace npu::views;
using npu::views::testing::openDb;

class TestViewsSecondHourTimeline : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::filesystem::path m_a;

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_a = m_dir.filePath(QStringLiteral("a.npudb")).toStdString();
        QVERIFY(profiler::writeSyntheticDb(m_a, 3000, 3, 5).ok());
    }

    // Major 4: with the timeline focused, the first Esc closes the find bar, the second
    // clears the range selection (the timeline ate the first Esc for the range).
    void escClosesFindBeforeClearingTheRange() {
        TimelineView view;
        view.resize(1000, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setDatabase(openDb(m_a));
        QTRY_VERIFY(view.timeline()->data() != nullptr);
        view.showSearch();
        QVERIFY(!view.searchBar()->isHidden());
        view.timeline()->setSelectedRange(1000, 500000);
        QVERIFY(view.timeline()->selectedRange().second > view.timeline()->selectedRange().first);
        view.timeline()->setFocus();
        QTest::keyClick(view.timeline(), Qt::Key_Escape);
        QVERIFY(view.searchBar()->isHidden());
        QVERIFY2(view.timeline()->selectedRange().second > view.timeline()->selectedRange().first,
                 "the first Esc closes the find bar only");
        QTest::keyClick(view.timeline(), Qt::Key_Escape);
        QCOMPARE(view.timeline()->selectedRange().second, view.timeline()->selectedRange().first);
    }

    // "What a Perfetto user expected": "?" shows the shortcut help over the timeline, "?"
    // or Esc hides it; Ctrl/Alt chords are not the timeline's keys (Ctrl+W zoomed in).
    void questionMarkShowsTheShortcutsAndChordsPassThrough() {
        TimelineWidget timeline;
        timeline.resize(1280, 600);
        timeline.show();
        QVERIFY(QTest::qWaitForWindowExposed(&timeline));
        timeline.setDatabase(openDb(m_a));
        QTRY_VERIFY(timeline.data() != nullptr);
        auto* help = timeline.findChild<ShortcutOverlay*>();
        QVERIFY(help && help->isHidden());
        QTest::keyClick(&timeline, Qt::Key_Question, Qt::ShiftModifier);
        QVERIFY(help->isVisible());
        QVERIFY(help->text().contains(QStringLiteral("Ctrl+F")));
        QVERIFY(help->geometry().width() <= timeline.width() && help->geometry().height() <= timeline.height());
        QTest::keyClick(&timeline, Qt::Key_Escape);
        QVERIFY(help->isHidden());
        QTest::keyClick(&timeline, Qt::Key_Question, Qt::ShiftModifier);
        QTest::keyClick(&timeline, Qt::Key_Question, Qt::ShiftModifier);
        QVERIFY(help->isHidden());
        QCOMPARE(timelineShortcuts().size(), 15);

        const auto before = timeline.viewRange();
        QTest::keyClick(&timeline, Qt::Key_W, Qt::ControlModifier);
        QTest::keyClick(&timeline, Qt::Key_D, Qt::AltModifier);
        QCOMPARE(timeline.viewRange(), before);
        QTest::keyClick(&timeline, Qt::Key_W);
        QVERIFY(timeline.viewRange() != before);
    }

    // "What a Perfetto user expected": an overview lane over the timeline, the whole run's
    // density with the visible window; a click there centres the view, a drag shows the span.
    void overviewLaneShowsTheRunAndMovesTheView() {
        TimelineView view;
        view.resize(1280, 720);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setDatabase(openDb(m_a));
        QTRY_VERIFY(view.timeline()->data() != nullptr);
        OverviewLane* lane = view.overview();
        QVERIFY(lane->isVisible());
        QCOMPARE(lane->density().size(), size_t(1024));
        QCOMPARE(*std::max_element(lane->density().begin(), lane->density().end()), 1.0);
        QVERIFY(lane->extentEnd() > lane->extentStart());
        // Zoom in, then click the lane's middle: the same span, centred on the run's middle.
        view.timeline()->setViewRange(lane->extentStart(), lane->extentStart() + (lane->extentEnd() - lane->extentStart()) / 10);
        const qint64 span = view.timeline()->viewRange().second - view.timeline()->viewRange().first;
        QTest::mouseClick(lane, Qt::LeftButton, {}, QPoint(lane->width() / 2, lane->height() / 2));
        const auto after = view.timeline()->viewRange();
        const qint64 middle = lane->extentStart() + (lane->extentEnd() - lane->extentStart()) / 2;
        QVERIFY2(std::llabs((after.first + after.second) / 2 - middle) < span / 10, "centred on the click");
        QVERIFY(std::llabs((after.second - after.first) - span) <= span / 100 + 2);
        // A drag from a quarter to the half: that span.
        QTest::mousePress(lane, Qt::LeftButton, {}, QPoint(lane->width() / 4, 5));
        QTest::mouseMove(lane, QPoint(lane->width() / 2, 5));
        QTest::mouseRelease(lane, Qt::LeftButton, {}, QPoint(lane->width() / 2, 5));
        const auto dragged = view.timeline()->viewRange();
        QVERIFY(dragged.second - dragged.first < after.second - after.first + (lane->extentEnd() - lane->extentStart()) / 3);
        QVERIFY(dragged.first >= lane->extentStart() + (lane->extentEnd() - lane->extentStart()) / 5);
    }

    // Minor: a flow arrow whose other end lies outside the view ends at the plot's edge on
    // the other end's track, not flat along the slice's own row towards a bend off-screen.
    void flowArrowsToAnOffScreenEndPointAtItsTrack() {
        const double left = 200, right = 1200;
        const FlowGeometry later = flowGeometry({600, 100}, {90000, 400}, left, right);
        QVERIFY(later.toClipped && !later.fromClipped);
        QCOMPARE(later.to, QPointF(right - 2, 400));
        QCOMPARE(later.headDirection, 1.0);
        QVERIFY(later.control1.x() <= right && later.control2.x() <= right);  // the bend is on screen
        const FlowGeometry earlier = flowGeometry({600, 100}, {-90000, 400}, left, right);
        QCOMPARE(earlier.to, QPointF(left + 2, 400));
        QCOMPARE(earlier.headDirection, -1.0);  // entered from the right, pointing left
        const FlowGeometry seen = flowGeometry({600, 100}, {800, 400}, left, right);
        QVERIFY(!seen.toClipped && !seen.fromClipped);
        QCOMPARE(seen.to, QPointF(800, 400));
        QCOMPARE(seen.control1, QPointF(600 + 100, 100));  // as before: half the horizontal distance
    }
};

QTEST_MAIN(TestViewsSecondHourTimeline)
#include "test_views_second_hour_timeline.moc"
