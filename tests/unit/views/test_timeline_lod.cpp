// Timeline logic without widgets: LOD folding, visible-range search, ruler steps,
// counter reduction, layout, search, parent chains, viewport navigation.
#include "views/timeline/counter_lod.h"
#include "views/timeline/slice_lod.h"
#include "views/timeline/time_ruler.h"
#include "views/timeline/time_viewport.h"
#include "views/timeline/timeline_palette.h"
#include "views/timeline/timeline_data.h"
#include "views/timeline/timeline_search.h"
#include "views/timeline/track_layout.h"

#include <QSet>
#include <QTest>

#include <algorithm>

using namespace npu;
using namespace npu::views;

namespace {

struct S {
    std::int64_t start;
    std::int64_t dur;
    int depth;
    int name = 0;
};

profiler::TrackSlices makeSlices(const std::vector<S>& list, std::int64_t firstId = 1)
{
    profiler::TrackSlices t;
    std::int64_t id = firstId;
    for (const S& s : list) {
        t.id.push_back(id++);
        t.start_ns.push_back(s.start);
        t.dur_ns.push_back(s.dur);
        t.depth.push_back(s.depth);
        t.nameId.push_back(s.name);
        t.categoryId.push_back(0);
        t.maxDepth = std::max(t.maxDepth, s.depth);
    }
    return t;
}

}  // namespace

class TestTimelineLod : public QObject {
    Q_OBJECT
private slots:
    void foldsNarrowRunsAsComputedByHand()
    {
        // View [0, 1000) over 1000 px: 1 ns per pixel; folds below 3 px, merge gap 1 px.
        const auto slices = makeSlices({
            {-50, 10, 0},   // ends before the view
            {0, 1, 0},      // a, b, c: one fold of 3
            {1, 1, 0},
            {2, 1, 0},
            {10, 10, 0},    // d wide
            {10, 2, 1},     // i narrow, alone at depth 1 -> drawn as itself
            {12, 6, 1},     // j wide
            {30, 1, 0},     // e narrow, alone (next is 9 px away)
            {40, 1, 0},     // f, g: one fold of 2 (a 1 px gap still joins)
            {42, 1, 0},
            {2000, 10, 0},  // after the view
        });
        const DepthIndex depths = buildDepthIndex(slices);
        QCOMPARE(depths.lanes.size(), std::size_t(2));
        LodParams params;
        params.t0 = 0;
        params.t1 = 1000;
        params.widthPx = 1000;
        std::vector<DrawItem> items;
        const int folds = buildDrawItems(slices, depths, params, items);
        QCOMPARE(folds, 2);
        QCOMPARE(items.size(), std::size_t(6));
        // Depth 0 first, in start order.
        QCOMPARE(items[0].count, 3u);
        QCOMPARE(items[0].slice, 1u);
        QCOMPARE(items[0].x0, 0.f);
        QCOMPARE(items[0].x1, 3.f);
        QCOMPARE(items[1].count, 1u);
        QCOMPARE(items[1].slice, 4u);
        QCOMPARE(items[2].slice, 7u);
        QCOMPARE(items[2].count, 1u);
        QCOMPARE(items[3].slice, 8u);
        QCOMPARE(items[3].count, 2u);
        QCOMPARE(items[4].depth, 1);
        QCOMPARE(items[4].slice, 5u);
        QCOMPARE(items[5].slice, 6u);

        // Zoomed in 10x on [0, 100): every slice is at least 10 px, nothing folds.
        items.clear();
        params.t1 = 100;
        QCOMPARE(buildDrawItems(slices, depths, params, items), 0);
        QCOMPARE(items.size(), std::size_t(9));

        // The buffer is appended to, not cleared: callers reuse it across tracks.
        const std::size_t before = items.size();
        buildDrawItems(slices, depths, params, items);
        QCOMPARE(items.size(), 2 * before);
    }

    void foldsAMillionContiguousSlicesIntoFewBlocks()
    {
        profiler::TrackSlices t;
        const int n = 1'000'000;
        for (int i = 0; i < n; ++i) {
            t.id.push_back(i);
            t.start_ns.push_back(std::int64_t(i) * 10);
            t.dur_ns.push_back(9);
            t.depth.push_back(0);
            t.nameId.push_back(0);
            t.categoryId.push_back(0);
        }
        const DepthIndex depths = buildDepthIndex(t);
        LodParams params;
        params.t0 = 0;
        params.t1 = std::int64_t(n) * 10;
        params.widthPx = 1500;
        std::vector<DrawItem> items;
        QCOMPARE(buildDrawItems(t, depths, params, items), 1);
        QCOMPARE(items.size(), std::size_t(1));
        QCOMPARE(items[0].count, std::uint32_t(n));
    }

    void blockSkippingMatchesSliceBySliceFolding()
    {
        // Mostly narrow touching slices with a wide one or a gap now and then, so blocks
        // are skipped, entered and split; compared with a plain per-slice fold.
        profiler::TrackSlices t;
        std::int64_t now = 0;
        std::uint64_t r = 12345;
        for (int i = 0; i < 20000; ++i) {
            r = r * 6364136223846793005ull + 1442695040888963407ull;
            const bool wide = (r >> 33) % 997 == 0;
            const bool gap = (r >> 40) % 1499 == 0;
            now += gap ? 5000 : 1;
            const std::int64_t dur = wide ? 40000 : 9;
            t.id.push_back(i);
            t.start_ns.push_back(now);
            t.dur_ns.push_back(dur);
            t.depth.push_back(0);
            t.nameId.push_back(0);
            t.categoryId.push_back(0);
            now += dur;
        }
        const DepthIndex depths = buildDepthIndex(t);
        LodParams params;
        params.t0 = now / 7;
        params.t1 = now - now / 9;
        params.widthPx = 1200;
        std::vector<DrawItem> items;
        const int folds = buildDrawItems(t, depths, params, items);

        const double scale = params.widthPx / double(params.t1 - params.t0);
        std::vector<std::uint32_t> expectCounts;
        double foldEnd = -1e300;
        bool pending = false;
        for (std::size_t i = 0; i < t.size(); ++i) {
            if (!visibleSlice(t.start_ns[i], t.dur_ns[i], params.t0, params.t1))
                continue;
            const double x0 = std::clamp((t.start_ns[i] - params.t0) * scale, -2.0, params.widthPx + 2);
            const double x1 = std::clamp((t.start_ns[i] + t.dur_ns[i] - params.t0) * scale, -2.0, params.widthPx + 2);
            if (x1 - x0 < params.minWidthPx) {
                if (pending && x0 <= foldEnd + params.mergeGapPx) {
                    ++expectCounts.back();
                    foldEnd = std::max(foldEnd, x1);
                    continue;
                }
                expectCounts.push_back(1);
                foldEnd = x1;
                pending = true;
            } else {
                expectCounts.push_back(1);
                pending = false;
            }
        }
        QCOMPARE(items.size(), expectCounts.size());
        int expectFolds = 0;
        for (std::size_t k = 0; k < items.size(); ++k) {
            QCOMPARE(items[k].count, expectCounts[k]);
            expectFolds += expectCounts[k] > 1;
        }
        QCOMPARE(folds, expectFolds);
        QVERIFY(folds > 3);  // the data really exercises folding
    }

    void laneSpanEdgeCases()
    {
        // One depth with a long first slice: the running max end keeps the search exact.
        const auto slices = makeSlices({{0, 100, 0}, {100, 1, 0}, {200, 1, 0}, {300, 1, 0}});
        const DepthIndex d = buildDepthIndex(slices);
        const DepthLane& lane = d.lanes[0];
        auto span = laneSpan(slices, lane, 250, 260);  // between slices
        QCOMPARE(span.first, std::size_t(3));
        QCOMPARE(span.last, std::size_t(3));
        span = laneSpan(slices, lane, 200, 201);
        QCOMPARE(span.first, std::size_t(2));
        QCOMPARE(span.last, std::size_t(3));
        span = laneSpan(slices, lane, -100, -10);  // before everything
        QCOMPARE(span.first, std::size_t(0));
        QCOMPARE(span.last, std::size_t(0));
        span = laneSpan(slices, lane, 1000, 2000);  // after everything
        QCOMPARE(span.first, std::size_t(4));
        QCOMPARE(span.last, std::size_t(4));
        span = laneSpan(slices, lane, 50, 60);  // inside the long slice only
        QCOMPARE(span.first, std::size_t(0));
        QCOMPARE(span.last, std::size_t(1));

        // Slice ending exactly at t0 is a candidate but not visible; one starting at t1 is excluded.
        const auto edges = makeSlices({{40, 10, 0}, {50, 0, 0}, {60, 5, 0}});
        const DepthIndex de = buildDepthIndex(edges);
        span = laneSpan(edges, de.lanes[0], 50, 60);
        QCOMPARE(span.first, std::size_t(0));
        QCOMPARE(span.last, std::size_t(2));
        QVERIFY(!visibleSlice(40, 10, 50, 60));
        QVERIFY(visibleSlice(50, 0, 50, 60));  // an instant at t0
        QVERIFY(!visibleSlice(60, 5, 50, 60));

        // Empty track.
        const DepthIndex empty = buildDepthIndex(profiler::TrackSlices{});
        QVERIFY(empty.lanes.empty());
    }

    void rulerTickChoice()
    {
        QCOMPARE(niceTickStep(1000, 1000, 90), std::int64_t(100));
        QCOMPARE(niceTickStep(1'000'000'000, 1500, 90), std::int64_t(100'000'000));  // raw 6e7 -> 1e8
        QCOMPARE(niceTickStep(1'000'000, 1000, 90), std::int64_t(100'000));         // raw 9e4 -> 1e5
        QCOMPARE(niceTickStep(400'000, 1000, 90), std::int64_t(50'000));            // raw 3.6e4 -> 5e4
        QCOMPARE(niceTickStep(200'000, 1000, 90), std::int64_t(20'000));            // raw 1.8e4 -> 2e4
        QCOMPARE(niceTickStep(10, 1000, 90), std::int64_t(1));                      // never below 1 ns

        const RulerScale ms = chooseRulerScale(0, 2'000'000, 1000);
        QCOMPARE(ms.step, std::int64_t(200'000));
        QCOMPARE(ms.unit, std::int64_t(1'000'000));
        QCOMPARE(ms.decimals, 1);
        QCOMPARE(formatTick(400'000, ms), QStringLiteral("0.4 ms"));
        QCOMPARE(formatTick(0, ms), QStringLiteral("0"));

        // Zoomed deep into a long trace: seconds with enough decimals to tell ticks apart.
        const RulerScale deep = chooseRulerScale(1'234'000'000, 1'234'020'000, 1000);
        QCOMPARE(deep.step, std::int64_t(2000));
        QCOMPARE(deep.unit, std::int64_t(1'000'000'000));
        QCOMPARE(formatTick(1'234'002'000, deep), QStringLiteral("1.234002 s"));
        QCOMPARE(deep.firstTick, std::int64_t(1'234'000'000));

        QCOMPARE(chooseRulerScale(150, 1150, 1000).firstTick, std::int64_t(200));
        QCOMPARE(chooseRulerScale(-150, 850, 1000).firstTick, std::int64_t(-100));

        QCOMPARE(formatDuration(999), QStringLiteral("999 ns"));
        QCOMPARE(formatDuration(1234), QStringLiteral("1.23 µs"));
        QCOMPARE(formatDuration(12'345'678), QStringLiteral("12.3 ms"));
        QCOMPARE(formatDuration(2'500'000'000), QStringLiteral("2.50 s"));
    }

    void counterReducedPerColumn()
    {
        profiler::CounterSeries c;
        // Samples at 0..99 with value = i; 10 columns over [0, 100).
        for (int i = 0; i < 100; ++i) {
            c.ts_ns.push_back(i);
            c.value.push_back(i % 10 == 5 ? 1000 : i);
        }
        CounterColumns out;
        reduceCounter(c, 0, 100, 10, out);
        QCOMPARE(out.columns.size(), std::size_t(10));
        QCOMPARE(out.firstColumn, 0);
        QCOMPARE(out.lastColumn, 9);
        QCOMPARE(out.columns[0].min, 0.0);
        QCOMPARE(out.columns[0].max, 1000.0);  // the spike at 5 survives
        QCOMPARE(out.columns[3].last, 39.0);
        // Samples in force before a column count: column [100,200) of a view [−100, 200).
        reduceCounter(c, -100, 200, 3, out);
        QCOMPARE(out.firstColumn, 1);
        QCOMPARE(out.lastColumn, 1);
        QCOMPARE(out.columns[1].max, 1000.0);
    }

    void layoutGroupsAndCollapses()
    {
        TimelineData data;
        data.addDevice(7, "npu0", "npu");
        profiler::TrackRow a{1, 7, -1, profiler::TrackKind::compute, "stream B", 2};
        profiler::TrackRow b{2, 7, -1, profiler::TrackKind::compute, "stream A", 1};
        data.addSliceTrack(a, makeSlices({{0, 10, 0}, {2, 3, 1}}));
        data.addSliceTrack(b, makeSlices({{0, 10, 0}}));
        profiler::CounterSeries mem;
        mem.ts_ns = {0, 5};
        mem.value = {1, 2};
        data.addCounterTrack(profiler::TrackRow{3, 7, -1, profiler::TrackKind::counter, "Memory", 100}, mem);
        data.addSliceTrack(profiler::TrackRow{4, 7, -1, profiler::TrackKind::compute, "empty", 0}, {});
        QCOMPARE(data.tracks().size(), std::size_t(3));  // the empty one is dropped
        LayoutMetrics m;
        const TrackLayout layout = layoutTracks(data, {}, m);
        QCOMPARE(layout.rows.size(), std::size_t(4));
        QCOMPARE(layout.rows[1].track, 1);  // sort index 1 first
        QCOMPARE(layout.rows[2].track, 0);
        QCOMPARE(layout.rows[2].height, 2 * m.rowHeight + 2 * m.trackPadding);
        QCOMPARE(layout.rows[3].height, m.counterHeight + 2 * m.trackPadding);
        QCOMPARE(layout.rowAt(0), 0);
        QCOMPARE(layout.rowAt(layout.rows[2].y + 1), 2);
        QCOMPARE(layout.rowAt(layout.contentHeight + 5), -1);
        const TrackLayout collapsed = layoutTracks(data, {7}, m);
        QCOMPARE(collapsed.rows.size(), std::size_t(1));
        QCOMPARE(collapsed.rowOfTrack(0), -1);
        QCOMPARE(data.startNs(), std::int64_t(0));
        QCOMPARE(data.endNs(), std::int64_t(10));
    }

    void searchIsCaseInsensitiveAndOrderedByStart()
    {
        TimelineData data;
        data.setStrings({"MatMul_1", "matmul_2", "Add", "softmax", "kernel"});
        data.addSliceTrack(profiler::TrackRow{1, 0, -1, profiler::TrackKind::compute, "s0", 0},
                           makeSlices({{0, 5, 0, 2}, {10, 5, 0, 1}, {20, 5, 0, 3}}, 100));
        data.addSliceTrack(profiler::TrackRow{2, 0, -1, profiler::TrackKind::compute, "s1", 1},
                           makeSlices({{5, 5, 0, 0}, {30, 5, 0, 4}}, 200));
        const auto hits = searchSlices(data, QStringLiteral("MATMUL"));
        QCOMPARE(hits.size(), std::size_t(2));
        QCOMPARE(data.sliceId(hits[0]), std::int64_t(200));  // starts at 5
        QCOMPARE(data.sliceId(hits[1]), std::int64_t(101));  // starts at 10
        QCOMPARE(searchSlices(data, QStringLiteral("max")).size(), std::size_t(1));
        QVERIFY(searchSlices(data, QStringLiteral("nothing")).empty());
        QVERIFY(searchSlices(data, QStringLiteral("  ")).empty());
        QCOMPARE(data.find(201), (SliceRef{1, 1}));
        QVERIFY(!data.find(999).valid());
    }

    void parentChainFindsEnclosingSlices()
    {
        TimelineData data;
        data.addSliceTrack(profiler::TrackRow{1, 0, -1, profiler::TrackKind::host_thread, "t", 0},
                           makeSlices({{0, 100, 0}, {10, 50, 1}, {20, 10, 2}, {70, 20, 1}, {75, 5, 2}}));
        const auto chain = data.parentChain(SliceRef{0, 2});
        QCOMPARE(chain.size(), std::size_t(2));
        QCOMPARE(chain[0].index, 0u);
        QCOMPARE(chain[1].index, 1u);
        const auto chain2 = data.parentChain(SliceRef{0, 4});
        QCOMPARE(chain2.size(), std::size_t(2));
        QCOMPARE(chain2[1].index, 3u);
        QVERIFY(data.parentChain(SliceRef{0, 0}).empty());
    }

    void paletteIsStableAndDistinct()
    {
        QCOMPARE(categoryColor("matmul"), QColor::fromRgb(0xff4e79a7));
        QCOMPARE(categoryColor("kernel"), categoryColor(std::string("kernel")));
        // Kineto's common categories hash to different colours.
        const char* kineto[] = {"cpu_op", "cuda_runtime", "kernel", "gpu_memcpy", "gpu_memset", "python_function",
                                "user_annotation"};
        QSet<QRgb> seen;
        for (const char* c : kineto)
            seen.insert(categoryColor(c).rgb());
        QCOMPARE(seen.size(), 7);
        QCOMPARE(textColorOn(QColor(250, 250, 250)).lightness() < 128, true);
        QCOMPARE(textColorOn(QColor(20, 20, 80)).lightness() > 128, true);
    }

    void viewportZoomPanClamp()
    {
        TimeViewport v;
        v.setBounds(0, 1000);
        v.fit();
        v.zoom(0.8, 0.5);
        QCOMPARE(v.t0(), std::int64_t(100));
        QCOMPARE(v.t1(), std::int64_t(900));
        v.pan(0.2);
        QCOMPARE(v.t0(), std::int64_t(260));
        QCOMPARE(v.t1(), std::int64_t(1060));
        v.zoom(0.5, 0.0);  // anchored at the left edge
        QCOMPARE(v.t0(), std::int64_t(260));
        QCOMPARE(v.t1(), std::int64_t(660));
        v.pan(10);  // far right: clamped to 10 % past the end
        QCOMPARE(v.t1(), std::int64_t(1100));
        v.zoom(100, 0.5);  // zoom out: at most the bounds plus margins
        QCOMPARE(v.t0(), std::int64_t(-100));
        QCOMPARE(v.t1(), std::int64_t(1100));
        v.zoom(1e-9, 0.5);
        QCOMPARE(v.span(), TimeViewport::kMinSpanNs);
        QCOMPARE(v.timeAt(v.xOf(v.t0() + 10, 800), 800), v.t0() + 10);
    }
};

QTEST_GUILESS_MAIN(TestTimelineLod)
#include "test_timeline_lod.moc"
