// TimelineWidget offscreen: loading a .npudb, keyboard navigation, click selection,
// range selection, flows, and rendering an empty and a million-slice database.
#include "profiler/store/profile_db.h"
#include "profiler/store/synthetic_db.h"
#include "views/timeline/timeline_data.h"
#include "views/timeline/timeline_settings.h"
#include "views/timeline/timeline_widget.h"

#include <QApplication>
#include <QImage>
#include <QHelpEvent>
#include <QToolTip>
#include <QWheelEvent>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace npu;
using namespace npu::views;

namespace {

// One device, one compute stream: A [0, 500k) with child B [100k, 200k), C [600k, 1M),
// plus a comm stream with D [650k, 700k) and a flow C -> D.
struct SmallDb {
    std::shared_ptr<const profiler::ProfileDb> db;
    std::int64_t a = 0, b = 0, c = 0, d = 0;
};

SmallDb writeSmallDb(const QString& dir)
{
    SmallDb out;
    const std::filesystem::path path = (dir + QStringLiteral("/small.npudb")).toStdString();
    auto writer = profiler::ProfileDbWriter::create(path);
    if (!writer)
        qFatal("cannot create db: %s", writer.message().c_str());
    auto& w = **writer;
    const auto dev = w.addDevice("npu0", "npu");
    const auto compute = w.addTrack(dev, -1, profiler::TrackKind::compute, "compute stream", 0);
    const auto comm = w.addTrack(dev, -1, profiler::TrackKind::comm, "comm stream", 1);
    out.a = w.addSlice(compute, 0, 500'000, 0, "MatMul_qkv", "matmul", R"({"m":1024})");
    out.b = w.addSlice(compute, 100'000, 100'000, 1, "Softmax", "attention");
    out.c = w.addSlice(compute, 600'000, 400'000, 0, "matmul_out", "matmul");
    out.d = w.addSlice(comm, 650'000, 50'000, 0, "AllReduce", "comm");
    w.addFlow(out.c, out.d, "dep");
    w.addOpInfo(out.a, "MatMul", "bf16", 2.0e9, 4.0e6, 3);
    if (auto st = w.commit(); !st)
        qFatal("commit failed: %s", st.message().c_str());
    auto db = profiler::ProfileDb::open(path);
    if (!db)
        qFatal("open failed: %s", db.message().c_str());
    out.db = std::shared_ptr<const profiler::ProfileDb>(std::move(*db));
    return out;
}

}  // namespace

class TestTimelineWidget : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void loadsAndFits()
    {
        const SmallDb small = writeSmallDb(m_dir.path());
        TimelineWidget w;
        w.resize(1000, 400);
        w.setDatabase(small.db);
        QCOMPARE(w.itemCount(), 4);
        QCOMPARE(w.trackCount(), 2);
        QCOMPARE(w.viewRange(), (QPair<qint64, qint64>(0, 1'000'000)));
        QVERIFY(w.drawnItemCount() >= 4);
    }

    void keyboardZoomAndPan()
    {
        const SmallDb small = writeSmallDb(m_dir.path());
        TimelineWidget w;
        w.resize(1000, 400);
        w.setDatabase(small.db);
        QSignalSpy spy(&w, &TimelineWidget::viewRangeChanged);
        QTest::keyClick(&w, Qt::Key_W);  // no cursor: zooms about the centre by 0.8
        QCOMPARE(w.viewRange(), (QPair<qint64, qint64>(100'000, 900'000)));
        QTest::keyClick(&w, Qt::Key_D);  // pans a fifth of the span later
        QCOMPARE(w.viewRange(), (QPair<qint64, qint64>(260'000, 1'060'000)));
        QTest::keyClick(&w, Qt::Key_A);
        QCOMPARE(w.viewRange(), (QPair<qint64, qint64>(100'000, 900'000)));
        QTest::keyClick(&w, Qt::Key_S);
        QCOMPARE(w.viewRange(), (QPair<qint64, qint64>(0, 1'000'000)));
        QCOMPARE(spy.count(), 4);
        QCOMPARE(spy.last().at(1).toLongLong(), 1'000'000);
        QTest::keyClick(&w, Qt::Key_W);
        QTest::keyClick(&w, Qt::Key_W);
        QTest::keyClick(&w, Qt::Key_F);  // nothing selected: fits everything
        QCOMPARE(w.viewRange(), (QPair<qint64, qint64>(0, 1'000'000)));
    }

    void wheelZoomsAtCursorAndGroupsCollapse()
    {
        const SmallDb small = writeSmallDb(m_dir.path());
        TimelineWidget w;
        w.resize(1000, 400);
        w.setDatabase(small.db);
        // Cursor at plot x 200 of 800: a quarter in, so 250k stays put; one notch = 0.8.
        QWheelEvent wheel(QPointF(200 + 200, 150), QPointF(200 + 200, 150), QPoint(), QPoint(0, 120), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(&w, &wheel);
        QCOMPARE(w.viewRange(), (QPair<qint64, qint64>(50'000, 850'000)));
        // Over the gutter the wheel scrolls instead of zooming.
        QWheelEvent gutter(QPointF(50, 150), QPointF(50, 150), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                           Qt::NoScrollPhase, false);
        QApplication::sendEvent(&w, &gutter);
        QCOMPARE(w.viewRange(), (QPair<qint64, qint64>(50'000, 850'000)));

        // A click on the device header collapses its tracks: the slice row below is gone.
        const qint64 device = small.db->devices().front().id;
        QTest::mouseClick(&w, Qt::LeftButton, {}, QPoint(100, 28 + 10));
        QVERIFY(w.isGroupCollapsed(device));
        QSignalSpy spy(&w, &TimelineWidget::sliceSelected);
        QTest::mouseClick(&w, Qt::LeftButton, {}, QPoint(200 + 100, 28 + 24 + 3 + 9));
        QCOMPARE(spy.count(), 0);
        w.selectSlice(small.d);  // selecting into a collapsed group opens it
        QVERIFY(!w.isGroupCollapsed(device));
    }

    void clickSelectsAndEmitsId()
    {
        const SmallDb small = writeSmallDb(m_dir.path());
        TimelineWidget w;
        w.resize(1000, 400);
        w.setDatabase(small.db);
        QSignalSpy spy(&w, &TimelineWidget::sliceSelected);
        // Plot is 800 px wide right of a 200 px gutter: 1250 ns per px. Slice C spans plot
        // x 480..800; depth-0 row of the first track: ruler 28 + header 24 + padding 3.
        const int y0 = 28 + 24 + 3 + 9;
        QTest::mouseClick(&w, Qt::LeftButton, {}, QPoint(200 + 700, y0));
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toLongLong(), small.c);
        QCOMPARE(w.selectedSlice(), small.c);
        // Child B at depth 1: plot x 80..160.
        QTest::mouseClick(&w, Qt::LeftButton, {}, QPoint(200 + 100, y0 + 18));
        QCOMPARE(spy.count(), 2);
        QCOMPARE(spy.at(1).at(0).toLongLong(), small.b);
        // Empty space clears.
        QTest::mouseClick(&w, Qt::LeftButton, {}, QPoint(200 + 500, y0 + 18));
        QCOMPARE(w.selectedSlice(), qint64(-1));
        // F with a selected slice fits it (5 % padding each side).
        w.selectSlice(small.b);
        QTest::keyClick(&w, Qt::Key_F);
        QCOMPARE(w.viewRange(), (QPair<qint64, qint64>(95'000, 205'000)));
    }

    void tooltipShowsOpInfo()
    {
        const SmallDb small = writeSmallDb(m_dir.path());
        TimelineWidget w;
        w.resize(1000, 400);
        w.setDatabase(small.db);
        w.show();
        // Slice A (plot x 0..400, depth 0) carries op info from the simulator.
        const QPoint pos(200 + 100, 28 + 24 + 3 + 9);
        QHelpEvent help(QEvent::ToolTip, pos, w.mapToGlobal(pos));
        QApplication::sendEvent(&w, &help);
        const QString text = QToolTip::text();
        QVERIFY2(text.contains(QStringLiteral("MatMul_qkv")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("category: matmul")));
        QVERIFY(text.contains(QStringLiteral("duration: 500 µs")));
        QVERIFY(text.contains(QStringLiteral("FLOPs: 2.00 G")));
        QVERIFY(text.contains(QStringLiteral("bytes: 3.81 MiB")));
        QToolTip::hideText();
    }

    void shiftDragSelectsRange()
    {
        const SmallDb small = writeSmallDb(m_dir.path());
        TimelineWidget w;
        w.resize(1000, 400);
        w.setDatabase(small.db);
        QSignalSpy spy(&w, &TimelineWidget::rangeSelected);
        const int y = 200;
        QTest::mousePress(&w, Qt::LeftButton, Qt::ShiftModifier, QPoint(200 + 80, y));
        QTest::mouseMove(&w, QPoint(200 + 240, y));
        QTest::mouseRelease(&w, Qt::LeftButton, Qt::ShiftModifier, QPoint(200 + 240, y));
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toLongLong(), 100'000);
        QCOMPARE(spy.at(0).at(1).toLongLong(), 300'000);
        QTest::keyClick(&w, Qt::Key_F);
        QCOMPARE(w.viewRange(), (QPair<qint64, qint64>(100'000, 300'000)));
    }

    void offsetShiftsViewTime()
    {
        const SmallDb small = writeSmallDb(m_dir.path());
        TimelineWidget w;
        w.resize(1000, 400);
        w.setDatabase(small.db);
        w.setTimeOffset(600'000);
        QCOMPARE(w.fullRange(), (QPair<qint64, qint64>(-600'000, 400'000)));
        w.setViewRange(0, 100'000);
        QCOMPARE(w.viewRange(), (QPair<qint64, qint64>(0, 100'000)));
        // Without extra bounds the view stops 10 % past the trace end (view time 500k)...
        w.setViewRange(0, 3'000'000);
        QCOMPARE(w.viewRange().second, qint64(500'000));
        // ...with the compare view's union it can reach further.
        w.setNavigationBounds(-600'000, 2'000'000);
        w.setViewRange(0, 2'000'000);
        QCOMPARE(w.viewRange(), (QPair<qint64, qint64>(0, 2'000'000)));
    }

    void selectingSliceLoadsFlowsAndParents()
    {
        const SmallDb small = writeSmallDb(m_dir.path());
        TimelineWidget w;
        w.resize(1000, 400);
        w.setDatabase(small.db);
        w.selectSlice(small.b);
        const SliceRef ref = w.data()->find(small.b);
        const auto parents = w.data()->parentChain(ref);
        QCOMPARE(parents.size(), std::size_t(1));
        QCOMPARE(w.data()->sliceId(parents[0]), small.a);
        QImage img(1000, 400, QImage::Format_ARGB32_Premultiplied);
        w.selectSlice(small.c);  // has a flow to D; painting it must not crash
        QTest::mouseMove(&w, QPoint(200 + 480, 64));  // hover: cursor line, time readout
        w.render(&img);
        QCOMPARE(w.selectedSlice(), small.c);
    }

    void coloursByDtype()
    {
        const SmallDb small = writeSmallDb(m_dir.path());
        const auto data = TimelineData::load(*small.db);
        const TimelineTrack& compute = data->tracks().at(0);
        QCOMPARE(compute.dtypeId.size(), compute.slices.size());
        QCOMPARE(data->string(compute.dtypeId.at(0)), std::string("bf16"));  // A has OP_INFO
        QCOMPARE(compute.dtypeId.back(), -1);                               // C has none
        QVERIFY(dtypeColor("bf16") != dtypeColor("fp32"));
        QCOMPARE(dtypeColor("no-such"), categoryColor("other"));

        TimelineWidget w;
        w.resize(1000, 300);
        w.setDatabase(small.db);
        const SliceColouring before = w.colouring();
        auto pixelsOf = [&](QRgb rgb) {
            QImage img(w.size(), QImage::Format_ARGB32);
            w.render(&img);
            int n = 0;
            for (int y = 0; y < img.height(); ++y)
                for (int x = 0; x < img.width(); ++x) n += img.pixel(x, y) == rgb;
            return n;
        };
        const QRgb bf16 = dtypeColor("bf16").rgb();
        w.setColouring(SliceColouring::category);
        QCOMPARE(pixelsOf(bf16), 0);  // bf16's orange is no category of this run
        w.setColouring(SliceColouring::dtype);
        QCOMPARE(w.colouring(), SliceColouring::dtype);
        QVERIFY(pixelsOf(bf16) > 1000);  // A, 500 us of the 1 ms view
        QCOMPARE(loadSliceColouring(), SliceColouring::dtype);  // remembered
        w.setColouring(before);
    }

    void rendersEmptyAndNull()
    {
        TimelineWidget w;
        w.resize(800, 300);
        QImage img(800, 300, QImage::Format_ARGB32_Premultiplied);
        w.render(&img);  // no database at all
        QCOMPARE(w.itemCount(), 0);
        const std::filesystem::path path = (m_dir.path() + QStringLiteral("/empty.npudb")).toStdString();
        auto writer = profiler::ProfileDbWriter::create(path);
        QVERIFY(writer.ok());
        QVERIFY((*writer)->commit().ok());
        auto db = profiler::ProfileDb::open(path);
        QVERIFY(db.ok());
        w.setDatabase(std::shared_ptr<const profiler::ProfileDb>(std::move(*db)));
        w.render(&img);
        QCOMPARE(w.itemCount(), 0);
        QTest::keyClick(&w, Qt::Key_W);
        QTest::keyClick(&w, Qt::Key_F);
        w.render(&img);
    }

    void rendersAMillionSlices()
    {
        const std::filesystem::path path = (m_dir.path() + QStringLiteral("/big.npudb")).toStdString();
        QVERIFY(profiler::writeSyntheticDb(path, 1'000'000, 16, 42).ok());
        auto db = profiler::ProfileDb::open(path);
        QVERIFY(db.ok());
        TimelineWidget w;
        w.resize(1600, 900);
        QSignalSpy finished(&w, &TimelineWidget::loadingFinished);
        QSignalSpy progress(&w, &TimelineWidget::loadProgress);
        w.setDatabase(std::shared_ptr<const profiler::ProfileDb>(std::move(*db)));
        // Past kSyncLoadSlices the tracks arrive from a worker; the skeleton paints meanwhile.
        QVERIFY(w.isLoading());
        // Each slice track is laid out at its final height from the import-time summary
        // (schema 6) before its slices arrive, so the layout does not jump as they load.
        std::vector<int> rowsBefore;
        std::int64_t summarised = 0;
        for (const TimelineTrack& t : w.data()->tracks()) {
            rowsBefore.push_back(t.rows());
            if (!t.isCounter && !t.loaded) {
                QVERIFY(t.summary.has_value());
                summarised += t.summary->sliceCount;
            }
        }
        QImage img(1600, 900, QImage::Format_ARGB32_Premultiplied);
        img.fill(Qt::black);
        w.render(&img);
        // ... and painted from it: the plot right of the "loading…" labels is not blank
        // (the background and grid are near white; the density bands are not).
        int painted = 0;
        for (int x = 320; x < 1500; x += 10)
            for (int y = 30; y < 300; y += 3)
                painted += qGray(img.pixel(x, y)) < 215;
        QVERIFY2(painted > 100, qPrintable(QString::number(painted)));
        QVERIFY(finished.wait(60'000));
        QCOMPARE(summarised, std::int64_t(1'000'000));
        for (std::size_t i = 0; i < rowsBefore.size(); ++i)
            QCOMPARE(w.data()->tracks()[i].rows(), rowsBefore[i]);
        QVERIFY(!w.isLoading());
        QCOMPARE(progress.last().at(0).toInt(), progress.last().at(1).toInt());
        QCOMPARE(w.itemCount(), 1'000'000);
        w.render(&img);
        // Folding keeps the frame to at most a few rectangles per pixel column and row.
        QVERIFY(w.foldedBlockCount() > 0);
        QVERIFY(w.drawnItemCount() < 16 * 2 * 1400);
        for (int i = 0; i < 12; ++i)
            QTest::keyClick(&w, Qt::Key_W);
        w.render(&img);
        QVERIFY(w.drawnItemCount() > 0);
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestTimelineWidget)
#include "test_timeline_widget.moc"
