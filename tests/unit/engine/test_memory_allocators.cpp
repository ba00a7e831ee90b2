// engine/memory allocators and planners on small hand-made traces whose answers are
// worked out by hand from the rules (c10/cuda/CUDACachingAllocator.cpp for the caching
// allocator; buddy arithmetic; greedy-by-size best fit), plus the paper formulas.
#include "engine/memory/activation_formula.h"
#include "engine/memory/allocation_trace.h"
#include "engine/memory/buddy_allocator.h"
#include "engine/memory/caching_allocator.h"
#include "engine/memory/memory_analysis.h"
#include "engine/memory/static_planner.h"
#include "engine/memory/zero_sharding.h"

#include <QtTest>

using namespace npu::engine;

namespace {

constexpr std::int64_t MiB = 1 << 20;

}  // namespace

class TestMemoryAllocators : public QObject {
    Q_OBJECT
private slots:
    void cachingRoundingAndPools() {
        QCOMPARE(CachingAllocator::roundSize(1), std::int64_t{512});
        QCOMPARE(CachingAllocator::roundSize(513), std::int64_t{1024});
        QCOMPARE(CachingAllocator::segmentSize(MiB), 2 * MiB);           // small pool: 2 MiB segments
        QCOMPARE(CachingAllocator::segmentSize(MiB + 512), 20 * MiB);    // 1-10 MiB: 20 MiB segment
        QCOMPARE(CachingAllocator::segmentSize(10 * MiB), 10 * MiB);     // >= 10 MiB: rounded to 2 MiB
        QCOMPARE(CachingAllocator::segmentSize(11 * MiB + 1), 12 * MiB);
        CachingAllocator a;
        const std::int64_t p0 = a.allocate(0, 1000);  // small: one 2 MiB segment, split
        const std::int64_t p1 = a.allocate(1, 1000);
        QCOMPARE(p1, p0 + 1024);
        QCOMPARE(a.reservedBytes(), 2 * MiB);
        QCOMPARE(a.allocatedBytes(), std::int64_t{2048});
        a.allocate(2, 3 * MiB);  // large pool, 20 MiB segment split (17 MiB rest > 1 MiB)
        QCOMPARE(a.reservedBytes(), 22 * MiB);
        QCOMPARE(a.largestFreeBlock(), 17 * MiB);
        a.allocate(3, 12 * MiB);  // fits the 17 MiB rest: no new segment
        QCOMPARE(a.reservedBytes(), 22 * MiB);
        a.release(2);
        a.release(3);  // coalesces back into one free 20 MiB block, still cached
        QCOMPARE(a.largestFreeBlock(), 20 * MiB);
        QCOMPARE(a.reservedBytes(), 22 * MiB);
        QCOMPARE(a.allocatedBytes(), std::int64_t{2048});
    }

    void cachingNoSplitOfSmallRemainder() {
        CachingAllocator a;
        a.allocate(0, 12 * MiB);
        a.release(0);
        // 11.5 MiB in the cached 12 MiB block: the 0.5 MiB rest is not > 1 MiB, so the
        // whole block is handed out and counts as allocated.
        a.allocate(1, 11 * MiB + MiB / 2);
        QCOMPARE(a.allocatedBytes(), 12 * MiB);
        QCOMPARE(a.blockSize(1), 12 * MiB);
    }

    void cachingMaxSplitSize() {
        CachingAllocatorOptions o;
        o.max_split_size = 64 * MiB;
        CachingAllocator a(o);
        a.allocate(0, 100 * MiB);
        a.release(0);
        // An oversize cached block does not serve a small request ...
        a.allocate(1, 30 * MiB);
        QCOMPARE(a.reservedBytes(), 130 * MiB);
        // ... nor an oversize request more than 20 MiB smaller than itself.
        a.allocate(2, 70 * MiB);
        QCOMPARE(a.reservedBytes(), 200 * MiB);
        a.allocate(3, 90 * MiB);  // within 20 MiB: takes the 100 MiB block whole
        QCOMPARE(a.reservedBytes(), 200 * MiB);
        QCOMPARE(a.blockSize(3), 100 * MiB);
    }

    void cachingFreesCacheBeforeOom() {
        CachingAllocatorOptions o;
        o.capacity = 100 * MiB;
        CachingAllocator a(o);
        a.allocate(0, 60 * MiB);
        a.release(0);  // cached, reserved stays 60 MiB
        QVERIFY(a.allocate(1, 80 * MiB) >= 0);  // needs the cache released first
        QCOMPARE(a.reservedBytes(), 80 * MiB);
        QCOMPARE(a.cacheFlushes(), 1);
        QCOMPARE(a.allocate(2, 30 * MiB), std::int64_t{-1});  // truly out of memory
    }

    void expandableSegmentsCoalesce() {
        // Two 30 MiB blocks freed, then a 50 MiB request: ordinary segments must reserve a
        // third one, an expandable segment reuses the coalesced 60 MiB.
        for (bool expandable : {false, true}) {
            CachingAllocatorOptions o;
            o.expandable_segments = expandable;
            CachingAllocator a(o);
            a.allocate(0, 30 * MiB);
            a.allocate(1, 30 * MiB);
            a.release(0);
            a.release(1);
            a.allocate(2, 50 * MiB);
            QCOMPARE(a.reservedBytes(), expandable ? 60 * MiB : 110 * MiB);
        }
    }

    void buddyPowersOfTwoAndRelease() {
        BuddyAllocatorOptions o;
        o.strategy = "conservative";
        BuddyAllocator a(o);
        a.allocate(0, 3 * MiB);  // 4 MiB buddy out of a 32 MiB chunk
        QCOMPARE(a.allocatedBytes(), 4 * MiB);
        QCOMPARE(a.reservedBytes(), 32 * MiB);
        QCOMPARE(a.largestFreeBlock(), 16 * MiB);
        a.allocate(1, 4 * MiB);  // the 4 MiB buddy
        a.release(0);
        a.release(1);
        QCOMPARE(a.largestFreeBlock(), 32 * MiB);  // coalesced back to the chunk
        QCOMPARE(a.reservedBytes(), 32 * MiB);     // conservative keeps it
        BuddyAllocatorOptions agg;
        agg.strategy = "aggressive";
        BuddyAllocator b(agg);
        b.allocate(0, 3 * MiB);
        QCOMPARE(b.reservedBytes(), 4 * MiB);
        b.release(0);
        QCOMPARE(b.reservedBytes(), std::int64_t{0});
    }

    void staticPlannerBestFit() {
        // A (4 MiB) lives [0,2), B (2 MiB) [1,4), C (4 MiB) [2,5): C reuses A's offset.
        AllocationTrace t;
        const int a = t.addAlloc(0, 4 * MiB, MemoryCategory::activations);
        const int b = t.addAlloc(1, 2 * MiB, MemoryCategory::activations);
        t.addFree(2, a);
        const int c = t.addAlloc(2, 4 * MiB, MemoryCategory::activations);
        t.addFree(4, b);
        t.addFree(5, c);
        QCOMPARE(liveBytesPeak(t).bytes, 6 * MiB);
        const StaticPlan plan = planStatic(t);
        QCOMPARE(plan.planned_peak, 6 * MiB);
        QCOMPARE(plan.offsets[static_cast<std::size_t>(a)], plan.offsets[static_cast<std::size_t>(c)]);
        // The same trace through the caching allocator: requests of 1-10 MiB share one
        // 20 MiB segment, and C takes A's freed 4 MiB block.
        CachingAllocator cache;
        const AllocatorRun run = replay(t, cache);
        QCOMPARE(run.reserved_peak, 20 * MiB);
        QCOMPARE(run.allocated_peak, 6 * MiB);
        QCOMPARE(static_cast<int>(run.blocks.size()), 3);
        QCOMPARE(run.segment_allocs, 1);
    }

    void analysisReportsOomWithCapacity() {
        AllocationTrace t;
        const int a = t.addAlloc(0, 30 * MiB, MemoryCategory::weights);
        t.addAlloc(5, 50 * MiB, MemoryCategory::activations);
        t.addFree(9, a);
        MemoryOptions o;
        const MemoryAnalysis fits = analyseTrace(t, 100 * MiB, o);
        QVERIFY(!fits.summary.oom.present);
        QCOMPARE(fits.summary.lower_bound_bytes, 80 * MiB);
        QCOMPARE(static_cast<int>(fits.summary.allocators.size()), 3);
        const MemoryAnalysis oom = analyseTrace(t, 64 * MiB, o);
        QVERIFY(oom.summary.oom.present);
        QCOMPARE(oom.summary.oom.time_ns, std::int64_t{5});
        QCOMPARE(oom.summary.oom.request_bytes, 50 * MiB);
    }

    void zeroPaperFigures() {
        // ZeRO paper, Figure 1: Psi = 7.5B, N = 64 -> 120 GB, 31.4 GB, 16.6 GB, 1.88 GB.
        const double psi = 7.5e9;
        QCOMPARE(zeroPaperBytes(psi, 0, 64), 120e9);
        QVERIFY(std::abs(zeroPaperBytes(psi, 1, 64) / 1e9 - 31.4) < 0.05);
        QVERIFY(std::abs(zeroPaperBytes(psi, 2, 64) / 1e9 - 16.6) < 0.05);
        QVERIFY(std::abs(zeroPaperBytes(psi, 3, 64) / 1e9 - 1.88) < 0.005);
    }

    void korthikantiFormula() {
        // GPT-3 175B row of the paper: s 2048, h 12288, a 96, b 1 -> 5as/h = 80,
        // sbh(34 + 80) bytes per layer; flash attention drops the 80.
        const ActivationFormulaInput in{2048, 1, 12288, 96};
        QCOMPARE(korthikantiLayerBytes(in), 2048.0 * 12288 * 114);
        QCOMPARE(korthikantiLayerBytesFlash(in), 2048.0 * 12288 * 34);
        QVERIFY(korthikantiLayerBytesFlash(in) + flashSoftmaxStatsBytes(in) < korthikantiLayerBytes(in));
    }
};

QTEST_GUILESS_MAIN(TestMemoryAllocators)
#include "test_memory_allocators.moc"
