// The Memory tab's selection query (profiler/analysis/memory_live_blocks) on a stored
// run with a few thousand pseudo-random blocks, checked against an independent SQL
// statement written another way (NOT / BETWEEN instead of the library's comparisons)
// and against the memory map's allocated series at the same instants.
#include "profiler/analysis/memory_live_blocks.h"
#include "profiler/analysis/memory_map_series.h"
#include "profiler/store/profile_db.h"
#include "profiler/store/simulation_writer.h"

#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>

#include <algorithm>
#include <random>
#include <set>
#include <tuple>

using namespace npu;
using namespace npu::profiler;

namespace {

using Key = std::tuple<std::int64_t, std::int64_t, std::int64_t>;  // addr, alloc, size

// The reference: plain sqlite3 over the file, the live set spelled with NOT / BETWEEN.
std::set<Key> referenceSet(const std::filesystem::path& file, std::int64_t a, std::int64_t b, bool changed) {
    sqlite3* db = nullptr;
    sqlite3_open_v2(file.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
    std::string sql = "SELECT addr, alloc_ns, size FROM MEMORY_BLOCK WHERE device_id = 0 AND NOT (alloc_ns > " + std::to_string(b) +
                      ") AND NOT (free_ns BETWEEN 0 AND " + std::to_string(a) + ")";
    if (changed)
        sql += " AND (alloc_ns BETWEEN " + std::to_string(a) + " AND " + std::to_string(b) + " OR free_ns BETWEEN " +
               std::to_string(a) + " AND " + std::to_string(b) + ")";
    std::set<Key> out;
    sqlite3_exec(
        db, sql.c_str(),
        [](void* p, int, char** v, char**) {
            static_cast<std::set<Key>*>(p)->insert({std::stoll(v[0]), std::stoll(v[1]), std::stoll(v[2])});
            return 0;
        },
        &out, nullptr);
    sqlite3_close(db);
    return out;
}

std::set<Key> keys(const LiveBlocks& l) {
    std::set<Key> out;
    for (const auto& b : l.blocks) out.insert({b.addr, b.alloc_ns, b.size});
    return out;
}

}  // namespace

class TestMemoryLiveBlocks : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::filesystem::path m_file;
    std::shared_ptr<ProfileDb> m_db;

private slots:
    void initTestCase() {
        engine::SimulationResult r;
        engine::DeviceResult d;
        d.name = "npu0";
        d.streams = {{0, "Compute", engine::StreamKind::compute}};
        std::mt19937_64 rng(7);
        // 40 ops per step, two steps: each op's name repeats, 1000 ns apart.
        for (int step = 0; step < 2; ++step)
            for (int op = 0; op < 40; ++op) {
                engine::SimTask t;
                t.start_ns = step * 40000 + op * 1000;
                t.dur_ns = 900;
                t.name = "op" + std::to_string(op);
                t.op_type = "MatMul";
                d.tasks.push_back(t);
            }
        for (int i = 0; i < 3000; ++i) {
            engine::PlacedBlock b;
            const int op = int(rng() % 80);
            b.alloc_ns = op * 1000;  // blocks are allocated as their producer starts
            b.free_ns = rng() % 5 == 0 ? -1 : b.alloc_ns + std::int64_t(rng() % 30000);
            b.addr = std::int64_t(i) * 4096;
            b.size = 512 * std::int64_t(1 + rng() % 4000);
            b.category = i % 3 == 0 ? "weights" : "activations";
            b.name = "t" + std::to_string(i);
            b.producer = "op" + std::to_string(op % 40);
            d.memory_blocks.push_back(b);
        }
        r.devices.push_back(d);
        r.steps = {{0, 0, 80000}};
        m_file = std::filesystem::path(m_dir.path().toStdString()) / "blocks.npudb";
        QVERIFY(writeSimulation(r, {"p", "", "run"}, m_file).ok());
        auto db = ProfileDb::open(m_file);
        QVERIFY(db.ok());
        m_db = std::move(*db);
    }

    void instantMatchesReferenceAndAllocatedSeries() {
        const MemoryMapSeries series = memoryMapSeries(readMemoryMap(*m_db, 0));
        for (std::int64_t t : {std::int64_t{0}, std::int64_t{999}, std::int64_t{1000}, std::int64_t{15500}, std::int64_t{41000},
                               std::int64_t{79000}, std::int64_t{200000}}) {
            const LiveBlocks live = liveBlocks(*m_db, {0, t, t, false, 0});
            const std::set<Key> ref = referenceSet(m_file, t, t, false);
            QCOMPARE(keys(live), ref);
            QCOMPARE(live.count, std::int64_t(ref.size()));
            std::int64_t sum = 0;
            for (const auto& [addr, alloc, size] : ref) sum += size;
            QCOMPARE(live.bytes, sum);
            // The allocated series holds, from each sample on, the bytes of the live blocks.
            const auto it = std::upper_bound(series.ts_ns.begin(), series.ts_ns.end(), t);
            const double allocated = it == series.ts_ns.begin() ? 0 : series.allocated[std::size_t(it - series.ts_ns.begin() - 1)];
            QCOMPARE(double(live.bytes), allocated);
        }
    }

    void rangeAndChangedFilter() {
        for (auto [a, b] : {std::pair<std::int64_t, std::int64_t>{5000, 9000}, {0, 80000}, {39999, 40001}}) {
            const LiveBlocks alive = liveBlocks(*m_db, {0, a, b, false, 0});
            QCOMPARE(keys(alive), referenceSet(m_file, a, b, false));
            const LiveBlocks changed = liveBlocks(*m_db, {0, b, a, true, 0});  // reversed ends are ordered
            QCOMPARE(keys(changed), referenceSet(m_file, a, b, true));
            QVERIFY(changed.count <= alive.count);
            QVERIFY(changed.count > 0);
        }
    }

    void largestFirstWithLimit() {
        const LiveBlocks all = liveBlocks(*m_db, {0, 20000, 20000, false, 0});
        const LiveBlocks top = liveBlocks(*m_db, {0, 20000, 20000, false, 25});
        QCOMPARE(top.blocks.size(), std::size_t(25));
        QCOMPARE(top.count, all.count);
        QCOMPARE(top.bytes, all.bytes);
        for (std::size_t i = 1; i < top.blocks.size(); ++i) QVERIFY(top.blocks[i - 1].size >= top.blocks[i].size);
        QCOMPARE(top.blocks.front().size, all.blocks.front().size);
    }

    void producerSliceIsTheNearestOfItsName() {
        // op7 runs at 7000 and 47000: a block allocated at 46000 belongs to the second.
        auto s = producerSlice(*m_db, 0, "op7", 46000);
        QVERIFY(s);
        QCOMPARE(s->start_ns, std::int64_t(47000));
        QCOMPARE(s->dur_ns, std::int64_t(900));
        auto slice = m_db->slice(s->task_id);
        QVERIFY(slice.ok());
        QCOMPARE(slice->name, std::string("op7"));
        QCOMPARE(producerSlice(*m_db, 0, "op7", 100)->start_ns, std::int64_t(7000));
        QVERIFY(!producerSlice(*m_db, 0, "", 100));
        QVERIFY(!producerSlice(*m_db, 0, "no-such-op", 100));
        QVERIFY(!producerSlice(*m_db, 5, "op7", 100));  // another device
    }
};

QTEST_GUILESS_MAIN(TestMemoryLiveBlocks)
#include "test_memory_live_blocks.moc"
