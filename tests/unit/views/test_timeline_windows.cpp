// Windowed timeline (issue 12): a large file's slice tracks hold only the slices the view
// needs, read by range query; what they hold must equal the whole track filtered to the
// window, stay under the budget while navigating, and selection must survive windows.
#include "profiler/store/profile_db.h"
#include "profiler/store/track_summary.h"
#include "profiler/store/track_window.h"
#include "views/timeline/timeline_data.h"
#include "views/timeline/timeline_search.h"
#include "views/timeline/timeline_view.h"
#include "views/timeline/timeline_widget.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using namespace npu;
using namespace npu::views;

namespace {

constexpr std::int64_t kPerTrack = 150'000;
constexpr std::int64_t kPeriod = 60;                 // ns between slice starts
constexpr std::int64_t kEnd = kPerTrack * kPeriod;   // 9 ms

struct BigDb {
    std::filesystem::path path;
    std::int64_t stepTrack = 0, kernelTrack = 0;
    std::int64_t step = 0;         // one slice over the whole trace, depth 0
    std::int64_t lastKernel = 0;   // near the end, with a flow from its op
    std::int64_t lastOp = 0;
};

// Two tracks: ops nested under one step slice spanning everything (the case a plain
// "start >= t0 - longest" range query turns into a scan from the start), and kernels.
BigDb writeBigDb(const QString& dir)
{
    BigDb out;
    out.path = (dir + QStringLiteral("/big.npudb")).toStdString();
    auto writer = profiler::ProfileDbWriter::create(out.path);
    if (!writer)
        qFatal("cannot create db: %s", writer.message().c_str());
    auto& w = **writer;
    const auto dev = w.addDevice("npu0", "npu");
    out.stepTrack = w.addTrack(dev, -1, profiler::TrackKind::compute, "ops", 0);
    out.kernelTrack = w.addTrack(dev, -1, profiler::TrackKind::compute, "kernels", 1);
    out.step = w.addSlice(out.stepTrack, 0, kEnd, 0, "ProfilerStep#1", "step");
    for (std::int64_t i = 0; i < kPerTrack; ++i) {
        const std::int64_t op = w.addSlice(out.stepTrack, i * kPeriod + 5, 40, 1, i % 2 ? "aten::mm" : "aten::add", "op");
        const std::int64_t k = w.addSlice(out.kernelTrack, i * kPeriod + 10, 30, 0, i % 2 ? "gemm" : "add", "kernel");
        if (i % 1000 == 0)
            w.addOpInfo(op, "Add", "bf16", 1.0, 2.0, 0);  // "Colour by dtype" reads it
        if (i == kPerTrack - 10) {
            out.lastOp = op;
            out.lastKernel = k;
            w.addFlow(op, k, "launch");
        }
    }
    if (auto st = w.commit(); !st)
        qFatal("commit failed: %s", st.message().c_str());
    return out;
}

// The brute-force answer: the whole track, filtered to what overlaps [t0, t1).
std::vector<std::int64_t> overlapping(const profiler::TrackSlices& all, std::int64_t t0, std::int64_t t1)
{
    std::vector<std::int64_t> ids;
    for (std::size_t i = 0; i < all.size(); ++i)
        if (visibleSlice(all.start_ns[i], std::max<std::int64_t>(0, all.dur_ns[i]), t0, t1))
            ids.push_back(all.id[i]);
    return ids;
}

bool waitLoaded(TimelineWidget& w)
{
    QCoreApplication::processEvents();
    if (w.isLoading()) {
        QSignalSpy done(&w, &TimelineWidget::loadingFinished);
        if (!done.wait(30'000))
            return false;
    }
    if (!w.isLoadingWindows())
        return true;
    QSignalSpy windows(&w, &TimelineWidget::windowsLoaded);
    return windows.wait(30'000);
}

}  // namespace

class TestTimelineWindows : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_db = writeBigDb(m_dir.path());
    }

    void windowEqualsTheTrackFiltered()
    {
        auto db = profiler::ProfileDb::open(m_db.path);
        QVERIFY(db.ok());
        const profiler::TrackSummaries sums = profiler::readTrackSummaries(**db);
        QVERIFY(sums.present);
        const profiler::DensityGrid grid{sums.t0, sums.bucketNs};
        for (const profiler::TrackSummary& sum : sums.tracks) {
            const profiler::TrackSlices all = (*db)->trackSlices(sum.track);
            const std::pair<std::int64_t, std::int64_t> windows[] = {
                {0, 1}, {kEnd / 2, kEnd / 2 + 1000}, {kEnd / 3, kEnd / 3 + kEnd / 50}, {kEnd - 100, kEnd + 100},
                {kEnd + 10, kEnd + 20}, {-500, 30}, {1234, 1235}, {0, kEnd}};
            for (const auto& [t0, t1] : windows) {
                const profiler::TrackSlices got = profiler::trackSlicesInWindow(**db, sum, grid, t0, t1);
                QCOMPARE(got.id, overlapping(all, t0, t1));
                QVERIFY(std::is_sorted(got.start_ns.begin(), got.start_ns.end()));
                QVERIFY(profiler::estimateWindowSlices(sum, grid, t0, t1) + 1 >= static_cast<std::int64_t>(got.size()));
            }
            // A damaged summary (buckets off the grid) costs no crash and no slice.
            profiler::TrackSummary bad = sum;
            bad.cells.push_back(profiler::DensityCell{0, -3, 1, 1, kEnd * 2});
            bad.cells.push_back(profiler::DensityCell{0, 1 << 30, 1, 1, kEnd * 2});
            QCOMPARE(profiler::trackSlicesInWindow(**db, bad, grid, kEnd / 2, kEnd / 2 + 500).id,
                     overlapping(all, kEnd / 2, kEnd / 2 + 500));
        }
    }

    void viewHoldsOnlyItsWindows()
    {
        auto db = profiler::ProfileDb::open(m_db.path);
        QVERIFY(db.ok());
        TimelineWidget w;
        w.resize(1200, 600);
        constexpr qint64 kBudget = 40'000;
        w.setWindowing(100'000, kBudget);
        w.setDatabase(std::shared_ptr<const profiler::ProfileDb>(std::move(*db)));
        QVERIFY(w.data()->windowed());
        QVERIFY(waitLoaded(w));
        // The whole trace holds 300k slices, more than the budget: summaries only.
        QCOMPARE(w.itemCount(), 0);
        QCOMPARE(w.data()->totalSlices(), 2 * kPerTrack + 1);
        QImage img(1200, 600, QImage::Format_ARGB32_Premultiplied);
        w.render(&img);

        // 1 % of the trace: each track's window covers it, with the long step slice.
        const qint64 t0 = kEnd / 2, t1 = kEnd / 2 + kEnd / 100;
        w.setViewRange(t0, t1);
        QVERIFY(waitLoaded(w));
        QVERIFY(w.itemCount() > 0);
        QVERIFY(w.itemCount() <= kBudget);
        QVERIFY(w.data()->find(m_db.step).valid());
        auto whole = profiler::ProfileDb::open(m_db.path);
        for (const TimelineTrack& t : w.data()->tracks()) {
            QVERIFY(t.windowed && t.covers(t0, t1));
            const auto expected = overlapping((*whole)->trackSlices(t.row.id), t0, t1);
            const auto held = overlapping(t.slices, t0, t1);
            QCOMPARE(held, expected);
        }
        w.render(&img);
        QVERIFY(w.drawnItemCount() > 0);
        // The window's dtypes: every 1000th op has one, looked up for the window only.
        const TimelineTrack& ops = w.data()->tracks()[0];
        QCOMPARE(ops.dtypeId.size(), ops.slices.size());
        int withDType = 0;
        for (std::size_t i = 0; i < ops.slices.size(); ++i) {
            const bool has = ops.slices.depth[i] == 1 && (ops.slices.start_ns[i] - 5) / kPeriod % 1000 == 0;
            withDType += has;
            QCOMPARE(ops.dtypeId[i] >= 0 ? w.data()->string(ops.dtypeId[i]) : std::string(),
                     std::string(has ? "bf16" : ""));
        }
        QVERIFY(withDType >= 2);
        // A child's parent chain reaches the step slice across the window's left edge.
        const SliceRef child{0, 5};
        QVERIFY(w.data()->contains(child));
        const auto chain = w.data()->parentChain(child);
        QCOMPARE(chain.size(), std::size_t(1));
        QCOMPARE(w.data()->sliceId(chain[0]), m_db.step);

        // Selecting a slice outside every window moves there; the window resolves it.
        QSignalSpy selected(&w, &TimelineWidget::sliceSelected);
        w.selectSlice(m_db.lastOp);
        QCOMPARE(w.selectedSlice(), m_db.lastOp);
        QCOMPARE(selected.count(), 1);
        QVERIFY(waitLoaded(w));
        const SliceRef ref = w.data()->find(m_db.lastOp);
        QVERIFY(ref.valid());
        const auto view = w.viewRange();
        QVERIFY(w.data()->sliceStart(ref) >= view.first && w.data()->sliceStart(ref) < view.second);
        w.render(&img);

        // Panning across the trace never holds more than the budget, and the selection
        // is kept by id through every window.
        for (int i = 0; i < 12; ++i) {
            const qint64 a = kEnd * i / 12;
            w.setViewRange(a, a + kEnd / 80);
            QVERIFY(waitLoaded(w));
            QVERIFY2(w.itemCount() <= kBudget, qPrintable(QString::number(w.itemCount())));
            w.render(&img);
        }
        QCOMPARE(w.selectedSlice(), m_db.lastOp);
        QVERIFY(!w.data()->find(m_db.lastOp).valid());  // out of the window now, still selected
        w.centerOnSlice(m_db.lastKernel);
        QVERIFY(waitLoaded(w));
        QVERIFY(w.data()->find(m_db.lastKernel).valid());
        QVERIFY(w.data()->find(m_db.lastOp).valid());
        w.render(&img);

        // A view reaching past the trace's start (the air the viewport allows) is covered
        // too: windows are not clipped to the trace.
        w.setViewRange(-kEnd / 400, kEnd / 400);
        QVERIFY(w.viewRange().first < 0);
        QVERIFY(waitLoaded(w));
        for (const TimelineTrack& t : w.data()->tracks())
            QVERIFY(t.covers(w.viewRange().first, w.viewRange().second));
        QVERIFY(w.itemCount() > 0);

        // Zoomed back out: the windows are freed.
        w.fitAll();
        QVERIFY(waitLoaded(w));
        QCOMPARE(w.itemCount(), 0);
        // The selection outlives its window and is outlined on the summary.
        QCOMPARE(w.selectedSlice(), m_db.lastOp);
        w.render(&img);
        const auto fullView = w.viewRange();
        w.selectSlice(-1);
        QImage unselected(img.size(), img.format());
        w.render(&unselected);
        QVERIFY(img != unselected);
        w.selectSlice(m_db.lastOp);
        QCOMPARE(w.viewRange(), fullView);  // at full zoom it is in view already
        QCOMPARE(w.selectedSlice(), m_db.lastOp);
        // F fits it from the database, and it loads.
        QTest::keyClick(&w, Qt::Key_F);
        QVERIFY(w.viewRange().second - w.viewRange().first < kEnd / 1000);
        QVERIFY(waitLoaded(w));
        QVERIFY(w.data()->find(m_db.lastOp).valid());
        w.render(&img);
    }

    void searchGoesToTheDatabase()
    {
        auto db = profiler::ProfileDb::open(m_db.path);
        QVERIFY(db.ok());
        std::shared_ptr<const profiler::ProfileDb> shared(std::move(*db));
        TimelineView view;
        view.resize(1400, 600);
        view.timeline()->setWindowing(100'000, 40'000);
        view.setDatabase(shared);
        QVERIFY(view.timeline()->data()->windowed());
        QVERIFY(waitLoaded(*view.timeline()));
        // Every "gemm" kernel of the file, though no window holds any of them yet (the
        // whole trace is in view: summaries only).
        view.search(QStringLiteral("GEMM"));
        QCOMPARE(view.timeline()->itemCount(), 0);
        QCOMPARE(view.matchCount(), static_cast<int>(kPerTrack / 2));
        // Zoomed in, Enter goes to the first match from the view's start, which loads; a
        // search from here finds from here on (the cap keeps the matches near the view).
        view.timeline()->setViewRange(kEnd / 2, kEnd / 2 + kEnd / 100);
        view.search(QStringLiteral("gemm"));
        QCOMPARE(view.matchCount(), static_cast<int>(kPerTrack / 4));
        view.nextMatch();
        const qint64 first = view.timeline()->selectedSlice();
        QVERIFY(first >= 0);
        QCOMPARE(shared->slice(first)->name, std::string("gemm"));
        QVERIFY(waitLoaded(*view.timeline()));
        QVERIFY(view.timeline()->data()->find(first).valid());  // its window arrived
        QVERIFY(shared->slice(first)->start_ns >= kEnd / 2);
        // The matches in the window are outlined (held by id, resolved as it arrived).
        QImage marked(1000, 400, QImage::Format_ARGB32_Premultiplied);
        QImage plain(marked.size(), marked.format());
        view.timeline()->resize(marked.size());
        const qint64 at = shared->slice(first)->start_ns;
        view.timeline()->setViewRange(at - 200, at + 300);  // slices wide enough to outline
        QVERIFY(waitLoaded(*view.timeline()));
        view.timeline()->render(&marked);
        view.timeline()->setHighlightedSlices({});
        view.timeline()->render(&plain);
        QVERIFY(marked != plain);
        view.nextMatch();
        QVERIFY(view.timeline()->selectedSlice() != first);
        QCOMPARE(shared->slice(view.timeline()->selectedSlice())->name, std::string("gemm"));

        // The drill-down by name fits the first match, not the whole trace.
        QCOMPARE(view.showSlicesWithKey(QStringLiteral("aten::mm"), false), static_cast<int>(kPerTrack / 2));
        QVERIFY(view.timeline()->viewRange().second - view.timeline()->viewRange().first < kEnd / 100);
        QVERIFY(waitLoaded(*view.timeline()));

        // By category: the kernels, 150k of them, of which the view keeps the earliest 100k.
        QCOMPARE(view.showSlicesWithKey(QStringLiteral("kernel"), true), static_cast<int>(kMaxDatabaseMatches));
        QCOMPARE(shared->slice(view.timeline()->selectedSlice())->start_ns, std::int64_t(10));  // the first kernel
        QVERIFY(waitLoaded(*view.timeline()));

        // An area's slices by name: the database answers what the whole track filtered does.
        view.timeline()->setSelectedArea(0, kEnd / 10, {m_db.kernelTrack});
        const auto all = shared->trackSlices(m_db.kernelTrack);
        int expected = 0;
        for (std::size_t i = 0; i < all.size(); ++i)
            expected += all.nameId[i] == all.nameId[1] && all.start_ns[i] < kEnd / 10;
        QVERIFY(expected > 1000);
        QCOMPARE(view.selectAreaSlices(QString::fromStdString(shared->string(all.nameId[1]))), expected);
    }

private:
    QTemporaryDir m_dir;
    BigDb m_db;
};

QTEST_MAIN(TestTimelineWindows)
#include "test_timeline_windows.moc"
