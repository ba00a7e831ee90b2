// The .npudb store: write -> open round trip, atomic creation, and the errors a user
// sees for files that are not ours or come from a newer NPU Studio.
#include "profiler/store/profile_db.h"
#include "profiler/store/track_summary.h"

#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>

#include <algorithm>
#include <fstream>
#include <set>

#include <unistd.h>

using namespace npu::profiler;
namespace fs = std::filesystem;

class TestProfileDb : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    fs::path file(const char* name) const { return fs::path(m_dir.path().toStdString()) / name; }

    // A small run: 2 devices, 3 tracks, nested slices, args shared by two slices.
    void writeFixture(const fs::path& path) {
        auto w = ProfileDbWriter::create(path);
        QVERIFY2(w.ok(), w.ok() ? "" : w.message().c_str());
        auto& sink = **w;
        sink.setMeta("source", "test");
        const auto d0 = sink.addDevice("npu0", "npu");
        const auto d1 = sink.addDevice("host", "cpu");
        const auto compute = sink.addTrack(d0, -1, TrackKind::compute, "Compute", 1);
        const auto comm = sink.addTrack(d0, -1, TrackKind::comm, "Communication", 0);
        const auto thread = sink.addTrack(d1, -1, TrackKind::host_thread, "python", 0);
        const auto mem = sink.addTrack(d0, -1, TrackKind::counter, "Memory (live bytes)", 2);
        const auto a = sink.addSlice(compute, 1000, 500, 0, "matmul", "matmul", R"({"flops":10})");
        sink.addSlice(compute, 1600, 100, 0, "add", "elementwise", R"({"flops":10})");
        sink.addSlice(comm, 1200, 800, 0, "allreduce", "comm");
        const auto p = sink.addSlice(thread, 900, 1000, 0, "forward", "cpu_op");
        sink.addSlice(thread, 950, 100, 1, "aten::mm", "cpu_op");
        sink.addFlow(p, a, "ac2g");
        sink.addOpInfo(a, "MatMul", "bf16", 1e9, 4096, 7);
        sink.addCounter(mem, 1000, 100.0);
        sink.addCounter(mem, 2500, 50.0);
        sink.addStep(900, 2000);
        sink.addDiagnostic("unmatched_E", Severity::warning, 2, "E at byte 120");
        sink.addDiagnostic("unmatched_E", Severity::warning, 3, "E at byte 999");
        sink.addDiagnostic("negative_dur", Severity::error, 1, "dur -5");
        auto s = sink.commit();
        QVERIFY2(s.ok(), s.ok() ? "" : s.message().c_str());
    }

private slots:
    void roundTrip() {
        const auto path = file("run.npudb");
        writeFixture(path);
        auto db = ProfileDb::open(path);
        QVERIFY2(db.ok(), db.ok() ? "" : db.message().c_str());
        const ProfileDb& r = **db;
        QCOMPARE(r.meta("source"), std::string("test"));
        QCOMPARE(r.meta("schema_version"), std::to_string(kSchemaVersion));
        QCOMPARE(r.meta("missing", "x"), std::string("x"));
        QCOMPARE(r.sliceCount(), 5);
        QCOMPARE(r.timeRange(), std::make_pair(std::int64_t(900), std::int64_t(2500)));

        const auto devices = r.devices();
        QCOMPARE(devices.size(), size_t(2));
        QCOMPARE(devices[1].name, std::string("host"));
        QCOMPARE(devices[1].kind, std::string("cpu"));

        const auto tracks = r.tracks();
        QCOMPARE(tracks.size(), size_t(4));
        QCOMPARE(tracks[0].name, std::string("Communication"));  // sort index 0 first within device 0
        QCOMPARE(tracks[0].kind, TrackKind::comm);
        QCOMPARE(tracks[3].kind, TrackKind::host_thread);

        const auto compute = r.trackSlices(tracks[1].id);
        QCOMPARE(compute.size(), size_t(2));
        QCOMPARE(compute.start_ns[1], std::int64_t(1600));
        QCOMPARE(r.string(compute.nameId[0]), std::string("matmul"));
        QCOMPARE(r.string(compute.categoryId[1]), std::string("elementwise"));
        const auto host = r.trackSlices(tracks[3].id);
        QCOMPARE(host.maxDepth, 1);

        // Interned strings are dense from 0 and unique.
        QVERIFY(!r.strings().empty());
        QCOMPARE(std::set<std::string>(r.strings().begin(), r.strings().end()).size(), r.strings().size());

        auto mm = r.slice(compute.id[0]);
        QVERIFY(mm.ok());
        QCOMPARE(mm->args_json, std::string(R"({"flops":10})"));
        QCOMPARE(mm->opType, std::string("MatMul"));
        QCOMPARE(mm->dtype, std::string("bf16"));
        QCOMPARE(mm->flops, 1e9);
        auto add = r.slice(compute.id[1]);
        QCOMPARE(add->opType, std::string());
        QVERIFY(!r.slice(12345).ok());

        // Identical args are stored once.
        sqlite3_stmt* st = nullptr;
        sqlite3_prepare_v2(r.handle(), "SELECT count(*) FROM ARGS", -1, &st, nullptr);
        QCOMPARE(sqlite3_step(st), SQLITE_ROW);
        QCOMPARE(sqlite3_column_int(st, 0), 1);
        sqlite3_finalize(st);

        const auto flows = r.flowsOf(compute.id[0]);
        QCOMPARE(flows.size(), size_t(1));
        QCOMPARE(flows[0].kind, std::string("ac2g"));
        QCOMPARE(flows[0].toSlice, compute.id[0]);

        const auto mem = r.counter(tracks[2].id);
        QCOMPARE(mem.ts_ns.size(), size_t(2));
        QCOMPARE(mem.value[1], 50.0);

        const auto steps = r.steps();
        QCOMPARE(steps.size(), size_t(1));
        QCOMPARE(steps[0].end_ns, std::int64_t(2000));

        const auto diags = r.diagnostics();
        QCOMPARE(diags.size(), size_t(2));
        QCOMPARE(diags[0].kind, std::string("unmatched_E"));
        QCOMPARE(diags[0].count, std::int64_t(5));
        QCOMPARE(diags[0].example, std::string("E at byte 120"));
        QCOMPARE(diags[1].severity, Severity::error);
    }

    void noCommitLeavesNothing() {
        const auto path = file("abandoned.npudb");
        {
            auto w = ProfileDbWriter::create(path);
            QVERIFY(w.ok());
            (*w)->addDevice("npu0", "npu");
        }
        QVERIFY(!fs::exists(path));
        for (const auto& e : fs::directory_iterator(path.parent_path()))
            QVERIFY2(e.path().filename().string().rfind("abandoned.npudb", 0) != 0, e.path().c_str());
    }

    void failingPathIsAClearError() {
        auto w = ProfileDbWriter::create(file("no/such/folder/run.npudb"));
        QVERIFY(!w.ok());
        QVERIFY2(w.message().find("run.npudb") != std::string::npos, w.message().c_str());
    }

    void notAnNpudb() {
        const auto text = file("notes.npudb");
        std::ofstream(text) << "this is not a database, just some text long enough to have a header.....";
        auto a = ProfileDb::open(text);
        QVERIFY(!a.ok());
        QVERIFY2(a.message().find("notes.npudb") != std::string::npos, a.message().c_str());
        QVERIFY2(a.message().find("not a profiling database") != std::string::npos, a.message().c_str());

        // A valid SQLite file that is not ours.
        const auto other = file("other.sqlite");
        sqlite3* db = nullptr;
        sqlite3_open(other.c_str(), &db);
        sqlite3_exec(db, "CREATE TABLE foo(x)", nullptr, nullptr, nullptr);
        sqlite3_close(db);
        auto b = ProfileDb::open(other);
        QVERIFY(!b.ok());
        QVERIFY2(b.message().find("not a profiling database") != std::string::npos, b.message().c_str());

        auto c = ProfileDb::open(file("missing.npudb"));
        QVERIFY(!c.ok());
        QVERIFY2(c.message().find("missing.npudb") != std::string::npos, c.message().c_str());
    }

    void newerSchemaNamesBothVersions() {
        const auto path = file("future.npudb");
        writeFixture(path);
        sqlite3* db = nullptr;
        sqlite3_open(path.c_str(), &db);
        sqlite3_exec(db, "UPDATE META_DATA SET value='99' WHERE name='schema_version'", nullptr, nullptr, nullptr);
        sqlite3_close(db);
        auto r = ProfileDb::open(path);
        QVERIFY(!r.ok());
        QVERIFY2(r.message().find("99") != std::string::npos, r.message().c_str());
        QVERIFY2(r.message().find("version " + std::to_string(kSchemaVersion)) != std::string::npos,
                 r.message().c_str());
    }

    // Slices arriving out of (track, start) order make the writer drop the live index and
    // build it at commit; either way the file ends up with it and reads back sorted.
    void interleavedSlicesStillIndexed() {
        const auto path = file("interleaved.npudb");
        {
            auto w = ProfileDbWriter::create(path);
            QVERIFY(w.ok());
            const auto d = (*w)->addDevice("npu0", "npu");
            const auto a = (*w)->addTrack(d, -1, TrackKind::compute, "a", 0);
            const auto b = (*w)->addTrack(d, -1, TrackKind::compute, "b", 1);
            for (int i = 30000; i > 0; --i) (*w)->addSlice(i % 2 ? a : b, i * 10, 5, 0, "k", "kernel");
            QVERIFY((*w)->commit().ok());
        }
        auto db = ProfileDb::open(path);
        QVERIFY(db.ok());
        const auto s = (*db)->trackSlices(0);
        QCOMPARE(s.size(), size_t(15000));
        QVERIFY(std::is_sorted(s.start_ns.begin(), s.start_ns.end()));
        sqlite3_stmt* st = nullptr;
        sqlite3_prepare_v2((*db)->handle(), "SELECT count(*) FROM sqlite_master WHERE name='TASK_TRACK_START'", -1, &st,
                           nullptr);
        QCOMPARE(sqlite3_step(st), SQLITE_ROW);
        QCOMPARE(sqlite3_column_int(st, 0), 1);
        sqlite3_finalize(st);
    }

    // Schema 6: each slice track's summary (count, depth, extent, longest slice) and its
    // density cells, as the fixture's slices say (computed here by hand).
    static void checkFixtureSummaries(const ProfileDb& db) {
        const TrackSummaries s = readTrackSummaries(db);
        QVERIFY(s.present);
        QCOMPARE(s.tracks.size(), size_t(3));  // compute, comm, python; no counter, no empty track
        QCOMPARE(s.t0, std::int64_t(900));
        QCOMPARE(s.bucketNs, std::int64_t((2500 - 900) / kDensityBuckets + 1));
        const TrackSummary& compute = s.tracks[0];
        QCOMPARE(compute.sliceCount, std::int64_t(2));
        QCOMPARE(compute.startNs, std::int64_t(1000));
        QCOMPARE(compute.endNs, std::int64_t(1700));
        QCOMPARE(compute.maxDurNs, std::int64_t(500));
        QCOMPARE(compute.maxDepth, 0);
        const TrackSummary& thread = s.tracks[2];
        QCOMPARE(thread.maxDepth, 1);
        QCOMPARE(thread.cells.size(), size_t(2));  // one bucket per depth
        QCOMPARE(thread.cells[1].depth, 1);
        QCOMPARE(thread.cells[1].busyNs, std::int64_t(100));
        QCOMPARE(thread.cells[1].bucket, std::int32_t((950 - 900) / s.bucketNs));
        std::int64_t cells = 0;
        for (const DensityCell& c : compute.cells) cells += c.count;
        QCOMPARE(cells, compute.sliceCount);
    }

    void trackSummariesWrittenAtImport() {
        const auto path = file("summary.npudb");
        writeFixture(path);
        auto db = ProfileDb::open(path);
        QVERIFY(db.ok());
        checkFixtureSummaries(**db);
    }

    // A version-5 file (no summary tables) gains them on first open; read-only, it still
    // opens, without them.
    void version5FilesGetSummaries() {
        for (const bool writable : {true, false}) {
            const auto path = file(writable ? "v5.npudb" : "v5ro.npudb");
            writeFixture(path);
            sqlite3* raw = nullptr;
            sqlite3_open(path.c_str(), &raw);
            QCOMPARE(sqlite3_exec(raw, "DROP TABLE TRACK_SUMMARY; DROP TABLE TRACK_DENSITY; "
                                       "UPDATE META_DATA SET value='5' WHERE name='schema_version'",
                                  nullptr, nullptr, nullptr),
                     SQLITE_OK);
            sqlite3_close(raw);
            if (!writable) fs::permissions(path, fs::perms::owner_read | fs::perms::group_read);
            auto db = ProfileDb::open(path);
            QVERIFY2(db.ok(), db.ok() ? "" : db.message().c_str());
            QCOMPARE((*db)->trackSlices(0).size(), size_t(2));
            if (writable) {
                QCOMPARE((*db)->meta("schema_version"), std::to_string(kSchemaVersion));
                checkFixtureSummaries(**db);
            } else if (::geteuid() != 0) {  // root writes through read-only permissions
                QVERIFY(!readTrackSummaries(**db).present);
            }
        }
    }

    void trackKindNamesRoundTrip() {
        for (auto k : {TrackKind::compute, TrackKind::comm, TrackKind::memcpy, TrackKind::host_thread,
                       TrackKind::counter, TrackKind::process, TrackKind::other})
            QCOMPARE(parseTrackKind(trackKindName(k)), k);
        QCOMPARE(parseTrackKind("host thread"), TrackKind::host_thread);
    }
};

QTEST_GUILESS_MAIN(TestProfileDb)
#include "test_profile_db.moc"
