// The caching-allocator model against the real allocator: PyTorch's memory snapshot of
// two bf16-autocast steps of the calibration model on the H200
// (../shared/data/hardware/h200_llama_small_amp_memory_snapshot.json.gz). The engine's
// CachingAllocator, seeded with the segments that existed when the trace began, replays
// the trace's own malloc/free requests; the segments it reserves and its reserved curve
// must follow the real allocator's. Also: parsing errors name the file and the place,
// and the snapshot imports as a run.
#include "engine/memory/caching_allocator.h"
#include "engine/memory/device_allocator.h"
#include "profiler/importers/memory_snapshot/memory_snapshot_importer.h"
#include "profiler/importers/memory_snapshot/memory_snapshot_map.h"
#include "profiler/importers/memory_snapshot/memory_snapshot_reader.h"
#include "profiler/importers/memory_snapshot/memory_snapshot_replay.h"
#include "profiler/importers/trace_importer.h"
#include "profiler/store/profile_db.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <map>

using namespace npu;

namespace {

const char* kSnapshot = NPU_SHARED_DATA_DIR "/hardware/h200_llama_small_amp_memory_snapshot.json.gz";

}  // namespace

class TestMemorySnapshot : public QObject {
    Q_OBJECT
private slots:
    void parseErrorsNameThePlace() {
        auto bad = profiler::parseMemorySnapshot(nlohmann::json::parse(R"({"segments": [{"address": 1}]})"), "x.json");
        QVERIFY(!bad.ok());
        QVERIFY2(bad.message().find("x.json: segments[0]") != std::string::npos, bad.message().c_str());
        QVERIFY(bad.message().find("total_size") != std::string::npos);
        auto badTrace = profiler::parseMemorySnapshot(
            nlohmann::json::parse(R"({"segments": [], "device_traces": [[{"action": "alloc", "addr": 5}]]})"), "y.json");
        QVERIFY(!badTrace.ok());
        QVERIFY2(badTrace.message().find("device_traces[0][0]") != std::string::npos, badTrace.message().c_str());
        auto notSnapshot = profiler::parseMemorySnapshot(nlohmann::json::parse(R"({"traceEvents": []})"), "z.json");
        QVERIFY(!notSnapshot.ok());
    }

    void smallTraceReplay() {
        // One pre-existing 20 MiB segment with a 4 MiB live block at its start; the trace
        // allocates 8 MiB (fits the cached rest), then 30 MiB (a new segment).
        const auto doc = nlohmann::json::parse(R"({
          "segments": [{"address": 1048576000, "total_size": 20971520, "allocated_size": 4194304, "stream": 0,
                        "segment_type": "large", "blocks": [{"size": 4194304, "state": "active_allocated"},
                                                            {"size": 16777216, "state": "inactive"}]}],
          "device_traces": [[
            {"action": "alloc", "addr": 1052770304, "size": 8388608},
            {"action": "free_requested", "addr": 1052770304, "size": 8388608},
            {"action": "free_completed", "addr": 1052770304, "size": 8388608},
            {"action": "segment_alloc", "addr": 2000000000, "size": 31457280},
            {"action": "alloc", "addr": 2000000000, "size": 31457280}]]})");
        auto snap = profiler::parseMemorySnapshot(doc, "small.json");
        QVERIFY2(snap.ok(), snap.ok() ? "" : snap.message().c_str());
        const auto replay = profiler::snapshotReplay(*snap);
        QCOMPARE(replay.allocatedAtStart, std::int64_t{4 << 20});
        QCOMPARE(replay.reservedAtStart, std::int64_t{20 << 20});
        QCOMPARE(replay.measuredReservedPeak, std::int64_t{50 << 20});
        engine::CachingAllocator cache;
        profiler::seedCachingAllocator(cache, replay);
        const auto run = engine::replay(replay.trace, cache);
        QCOMPARE(run.reserved_peak, replay.measuredReservedPeak);
        QCOMPARE(run.allocated_peak, std::int64_t{34 << 20});
        QCOMPARE(run.segment_allocs, 2);  // the adopted one and the new 30 MiB one

        // The memory map at the real addresses: the block live when the trace began, the
        // 8 MiB block freed at its free_completed (event 2), the 30 MiB one still live;
        // the adopted segment and the new one. No time_us: one microsecond per event.
        const auto map = profiler::snapshotMemoryMap(*snap, replay, 0);
        QCOMPARE(map.blocks.size(), size_t(3));
        QCOMPARE(map.blocks[0].addr, std::int64_t{1048576000});
        QCOMPARE(map.blocks[0].free_ns, std::int64_t{-1});
        QCOMPARE(map.blocks[1].addr, std::int64_t{1052770304});
        QCOMPARE(map.blocks[1].alloc_ns, std::int64_t{0});
        QCOMPARE(map.blocks[1].free_ns, std::int64_t{2000});
        QCOMPARE(map.blocks[2].size, std::int64_t{31457280});
        QCOMPARE(map.blocks[2].alloc_ns, std::int64_t{4000});
        QCOMPARE(map.segments.size(), size_t(2));
        QCOMPARE(map.segments[1].addr, std::int64_t{2000000000});
        QCOMPARE(map.segments[1].alloc_ns, std::int64_t{3000});
    }

    void realSnapshotMatchesModel() {
        if (!QFile::exists(QString::fromLatin1(kSnapshot))) QSKIP("../shared/data/hardware/h200_llama_small_amp_memory_snapshot.json.gz is absent");
        auto snap = profiler::readMemorySnapshot(kSnapshot);
        QVERIFY2(snap.ok(), snap.ok() ? "" : snap.message().c_str());
        QCOMPARE(static_cast<int>(snap->device_traces.size()), 1);
        const auto replay = profiler::snapshotReplay(*snap);
        engine::CachingAllocator cache;
        profiler::seedCachingAllocator(cache, replay);
        const auto run = engine::replay(replay.trace, cache);
        QVERIFY(!run.oom);
        // Segments the model reserved during the trace vs those the real allocator did.
        std::vector<std::int64_t> simulated;
        for (std::size_t i = replay.seed.size(); i < run.segments.size(); ++i) simulated.push_back(run.segments[i].size);
        std::int64_t simBytes = 0, realBytes = 0;
        for (auto v : simulated) simBytes += v;
        for (auto v : replay.segmentAllocSizes) realBytes += v;
        // Reserved over the trace, at every request the model replayed (same event times).
        std::map<std::int64_t, std::int64_t> measuredReserved;
        for (const auto& m : replay.measured) measuredReserved[m.t_ns] = m.reserved;
        double worst = 0;
        for (const auto& sample : run.samples) {
            const auto it = measuredReserved.find(sample.t_ns);
            QVERIFY(it != measuredReserved.end());
            worst = std::max(worst, std::abs(static_cast<double>(sample.reserved - it->second)) / static_cast<double>(it->second));
        }
        qInfo("segments: model %zu (%.3f GB), real %zu (%.3f GB); reserved peak model %.3f GB, real %.3f GB; allocated peak "
              "model %.3f GB (block sizes), trace %.3f GB (request sizes); worst reserved gap %.2f %%",
              simulated.size(), simBytes / 1e9, replay.segmentAllocSizes.size(), realBytes / 1e9, run.reserved_peak / 1e9,
              replay.measuredReservedPeak / 1e9, run.allocated_peak / 1e9, replay.measuredAllocatedPeak / 1e9, 100 * worst);
        // Every segment the real allocator reserved, in the same order and size.
        QCOMPARE(simulated, replay.segmentAllocSizes);
        QCOMPARE(run.reserved_peak, replay.measuredReservedPeak);
        QVERIFY(worst < 0.005);
        // Block sizes (what max_memory_allocated counts) are at least the requests.
        QVERIFY(run.allocated_peak >= replay.measuredAllocatedPeak);
        QVERIFY(static_cast<double>(run.allocated_peak) / replay.measuredAllocatedPeak - 1 < 0.01);
    }

    void importsAsRun() {
        if (!QFile::exists(QString::fromLatin1(kSnapshot))) QSKIP("../shared/data/hardware/h200_llama_small_amp_memory_snapshot.json.gz is absent");
        QVERIFY(profiler::looksLikeMemorySnapshot(kSnapshot));
        QTemporaryDir dir;
        const std::filesystem::path db = dir.filePath(QStringLiteral("snap.npudb")).toStdString();
        auto summary = profiler::importTrace(kSnapshot, db);  // the generic import entry recognises it
        QVERIFY2(summary.ok(), summary.ok() ? "" : summary.message().c_str());
        QCOMPARE(summary->events, std::int64_t{7493});
        auto opened = profiler::ProfileDb::open(db);
        QVERIFY2(opened.ok(), opened.ok() ? "" : opened.message().c_str());
        int counters = 0;
        for (const auto& t : (*opened)->tracks())
            if (t.kind == profiler::TrackKind::counter) ++counters;
        QCOMPARE(counters, 3);  // measured allocated and reserved, the model's reserved
    }
};

QTEST_GUILESS_MAIN(TestMemorySnapshot)
#include "test_memory_snapshot.moc"
