// The one slice-stacking helper of the database importers (Ascend, Nsight Systems):
// depths from the open slices' ends, durations clamped at 0, nesting restarted on each
// new track, and makeTrack called once per run of equal keys, first row included.

#include "profiler/importers/common/slice_stacker.h"

#include "tests/unit/profiler/importers/import_memory_sink.h"

#include <QTest>

using namespace npu::profiler;
using npu::profiler::testing::MemorySink;

class TestSliceStacker : public QObject {
    Q_OBJECT
private slots:
    void depthIsTheNumberOfEnclosingSlices() {
        MemorySink sink;
        SliceStacker stacker(sink);
        // (start, end) in (start, longer first) order, as the importers' ORDER BY gives them.
        const std::vector<std::pair<std::int64_t, std::int64_t>> rows = {
            {0, 100}, {10, 50}, {20, 30}, {30, 40}, {50, 60}, {60, 100}, {100, 120}, {110, 200}};
        for (const auto& [start, end] : rows) {
            stacker.enter({7, 0}, [&] { return sink.addTrack(0, -1, TrackKind::host_thread, "t", 0); });
            stacker.add(start, end, "s", "cat");
        }
        QCOMPARE(sink.tracks.size(), std::size_t(1));
        std::vector<int> depths;
        for (const auto& s : sink.slices) depths.push_back(s.depth);
        // A slice ending where the next starts does not enclose it ({20,30} then {30,40}).
        // {110,200} outlasts {100,120}: kept at the depth of its start.
        QCOMPARE(depths, (std::vector<int>{0, 1, 2, 2, 1, 1, 0, 1}));
        QCOMPARE(sink.slices[3].start, std::int64_t(30));
        QCOMPARE(sink.slices[3].dur, std::int64_t(10));
    }

    void endBeforeStartIsDurationZero() {
        MemorySink sink;
        SliceStacker stacker(sink);
        stacker.enter({0, 0}, [&] { return sink.addTrack(0, -1, TrackKind::compute, "s", 0); });
        stacker.add(100, 200, "outer", "kernel");
        stacker.add(150, 120, "backwards", "kernel");  // stored as [150, 150]
        stacker.add(150, 160, "after", "kernel");      // not enclosed by the zero-length slice
        QCOMPARE(sink.slices[1].dur, std::int64_t(0));
        QCOMPARE(sink.slices[1].depth, 1);
        QCOMPARE(sink.slices[2].depth, 1);
    }

    void eachNewKeyMakesATrackAndRestartsNesting() {
        MemorySink sink;
        SliceStacker stacker(sink);
        int made = 0;
        auto row = [&](SliceStacker::TrackKey key, std::int64_t start, std::int64_t end) {
            stacker.enter(key, [&] {
                ++made;
                return sink.addTrack(0, -1, TrackKind::compute, std::to_string(key.first) + "/" +
                                                                    std::to_string(key.second), 0);
            });
            return stacker.add(start, end, "k", "kernel", "{\"a\":1}");
        };
        // The first row makes a track even with a key equal to a default-made one.
        QCOMPARE(row({0, 0}, 0, 1000), std::int64_t(0));
        row({0, 0}, 10, 20);
        row({0, 1}, 15, 18);  // another stream: depth 0 although {0,1000} is still open
        row({1, 1}, 15, 18);
        QCOMPARE(made, 3);
        QCOMPARE(sink.tracks.size(), std::size_t(3));
        QCOMPARE(sink.slices[1].track, std::int64_t(0));
        QCOMPARE(sink.slices[1].depth, 1);
        QCOMPARE(sink.slices[2].track, std::int64_t(1));
        QCOMPARE(sink.slices[2].depth, 0);
        QCOMPARE(sink.slices[3].track, std::int64_t(2));
        QCOMPARE(sink.slices[3].args, std::string("{\"a\":1}"));
    }

    void aTrackMadeBeforehandIsUsedAsGiven() {
        MemorySink sink;
        const auto a = sink.addTrack(0, -1, TrackKind::compute, "Stream 3", 3);
        const auto b = sink.addTrack(0, -1, TrackKind::comm, "Stream 9", 9);
        SliceStacker stacker(sink);
        stacker.enter({0, 9}, [&] { return b; });
        stacker.add(0, 10, "hcom", "comm");
        stacker.enter({0, 3}, [&] { return a; });
        stacker.add(5, 8, "matmul", "kernel");
        QCOMPARE(sink.slices[0].track, b);
        QCOMPARE(sink.slices[1].track, a);
        QCOMPARE(sink.slices[1].depth, 0);
    }
};

QTEST_GUILESS_MAIN(TestSliceStacker)
#include "test_slice_stacker.moc"
