// The memory map: compacted addresses, blocks found under the cursor, drawing at any
// zoom, the series derived from its blocks, and the Memory tab drawing only memory
// counters, in bytes.

#include "profiler/analysis/memory_map_series.h"
#include "profiler/store/memory_block_store.h"
#include "profiler/store/profile_db.h"
#include "views/charts/memory_chart.h"
#include "views/charts/memory_map.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace npu;

class TestMemoryMap : public QObject {
    Q_OBJECT
private slots:
    void compactsAddressesAndFindsBlocks() {
        profiler::MemoryMapData data;
        // Two 2 MiB segments 1 TiB apart in the address space, as a snapshot's are.
        const std::int64_t far = std::int64_t(1) << 40, mib = 1 << 20;
        data.segments.push_back({0, 2 * mib, 0, -1, "small"});
        data.segments.push_back({far, 2 * mib, 500, -1, "large"});
        data.blocks.push_back({0, mib, 100, 900, "activations", "x", "matmul"});
        data.blocks.push_back({far + mib, mib, 600, -1, "weights", "w", ""});
        views::MemoryMap map;
        map.resize(600, 300);
        map.setHorizontalMargins(60, 10);
        map.setData(data, 0);
        QCOMPARE(map.compactBytes(), 4 * mib);  // the gap between the segments is not drawn
        QCOMPARE(map.blockCount(), 2);
        // Plot area: x 60..590 over 0..900 ns (the last time in the data), y 6..278 over 0..4 MiB.
        const auto xAt = [](double t) { return int(60 + t / 900.0 * 530); };
        const auto yAt = [](double a) { return int(278 - a / (4.0 * (1 << 20)) * 272); };
        QCOMPARE(map.blockAt(QPoint(xAt(500), yAt(0.5 * mib))), std::optional<std::size_t>(0));
        QCOMPARE(map.blockAt(QPoint(xAt(800), yAt(3.5 * mib))), std::optional<std::size_t>(1));
        QVERIFY(!map.blockAt(QPoint(xAt(50), yAt(0.5 * mib))));   // before the block's allocation
        QVERIFY(!map.blockAt(QPoint(xAt(500), yAt(1.5 * mib))));  // reserved, free
        QVERIFY(map.describeBlock(0).contains(QStringLiteral("activations")));
        QVERIFY(map.describeBlock(1).contains(QStringLiteral("live at the end")));
        const QImage shot = map.grab().toImage();
        QVERIFY(!shot.isNull());
        // The first block's colour is on screen where the block is.
        QCOMPARE(shot.pixelColor(xAt(500), yAt(0.5 * mib)), QColor(39, 174, 96));
    }

    // Allocated by category, reserved and fragmentation over time, from the blocks.
    void seriesFromTheMap() {
        profiler::MemoryMapData data;
        data.segments.push_back({0, 1000, 0, -1, "large"});
        data.blocks.push_back({0, 400, 10, 30, "activations", "a", ""});
        data.blocks.push_back({400, 100, 20, -1, "weights", "w", ""});
        const auto s = profiler::memoryMapSeries(data);
        QCOMPARE(s.ts_ns, (std::vector<std::int64_t>{0, 10, 20, 30}));
        QCOMPARE(s.categories, (std::vector<std::string>{"activations", "weights"}));
        QCOMPARE(s.bytesByCategory[0], (std::vector<double>{0, 400, 400, 0}));
        QCOMPARE(s.bytesByCategory[1], (std::vector<double>{0, 0, 100, 100}));
        QCOMPARE(s.allocated, (std::vector<double>{0, 400, 500, 100}));
        QCOMPARE(s.reserved, (std::vector<double>{1000, 1000, 1000, 1000}));
        QCOMPARE(s.fragmentation, (std::vector<double>{1.0, 0.6, 0.5, 0.9}));
    }

    void manyBlocksStayDrawable() {
        profiler::MemoryMapData data;
        for (int i = 0; i < 100000; ++i) data.blocks.push_back({std::int64_t(i) * 512, 512, i, i + 1000, "temporaries", "", ""});
        views::MemoryMap map;
        map.resize(800, 300);
        map.setData(std::move(data), 0);
        QElapsedTimer timer;
        timer.start();
        const QImage shot = map.grab().toImage();
        qInfo("100k blocks painted in %lld ms", timer.elapsed());
        QVERIFY(!shot.isNull());
        QCOMPARE(map.blockCount(), 100000);
    }

    // The Memory tab draws memory only, in bytes: Ascend's trace_view.json counters
    // include bandwidths, frequencies and hit rates, and its memory ones are in KB.
    void memoryChartShowsMemoryCountersInBytes() {
        QTemporaryDir dir;
        auto writer = profiler::ProfileDbWriter::create(dir.filePath(QStringLiteral("ascend.npudb")).toStdString());
        QVERIFY(writer.ok());
        auto& w = **writer;
        const auto dev = w.addDevice("NPU 0", "npu");
        const auto hbm = w.addTrack(dev, -1, profiler::TrackKind::counter, "APP/HBM KB", 0);
        w.addCounter(hbm, 0, 2160232.0);
        w.addCounter(hbm, 1000, 2164456.0);
        const auto bandwidth = w.addTrack(dev, -1, profiler::TrackKind::counter, "HBM 0/Read Read(MB/s)", 1);
        w.addCounter(bandwidth, 0, 9e9);
        const auto freq = w.addTrack(dev, -1, profiler::TrackKind::counter, "AI Core Freq MHz", 2);
        w.addCounter(freq, 0, 1800);
        QVERIFY(w.commit().ok());
        views::MemoryChart chart;
        auto db = profiler::ProfileDb::open(dir.filePath(QStringLiteral("ascend.npudb")).toStdString());
        QVERIFY(db.ok());
        chart.setDatabase(std::shared_ptr<const profiler::ProfileDb>(std::move(db).value()));
        QCOMPARE(chart.seriesNames(), QStringList{QStringLiteral("APP/HBM")});
        QCOMPARE(chart.peakBytes(), 2164456.0 * 1024);
    }
};

QTEST_MAIN(TestMemoryMap)
#include "test_memory_map.moc"
