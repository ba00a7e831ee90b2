// Real traces imported into a .npudb and read back: exact counts pinned from an
// independent count. The numbers come from tests/data/traces/count_events.py (Python
// json/gzip only), run as `python3 tests/data/traces/count_events.py FILE...`.

#include "profiler/importers/trace_importer.h"
#include "profiler/store/profile_db.h"

#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>

#include <fstream>
#include <set>

using namespace npu::profiler;

namespace {

std::filesystem::path shared(const char* rel) { return std::filesystem::path(NPU_SHARED_DATA_DIR) / rel; }

std::int64_t scalar(const ProfileDb& db, const std::string& sql) {
    sqlite3_stmt* st = nullptr;
    std::int64_t v = -1;
    if (sqlite3_prepare_v2(db.handle(), sql.c_str(), -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

// Kernel events: an import files them under op categories (kernel_category.h), so they
// are the device-track slices that are neither annotations nor copies/sets.
std::int64_t kernels(const ProfileDb& db) {
    return scalar(db, "SELECT COUNT(*) FROM TASK t JOIN STRING_IDS s ON t.category_id = s.id JOIN TRACK k ON k.id = t.track_id "
                      "JOIN STRING_IDS n ON t.name_id = n.id WHERE k.kind IN ('compute', 'comm', 'memcpy') "
                      "AND s.value != 'gpu_user_annotation' AND n.value NOT LIKE 'Memcpy%' AND n.value NOT LIKE 'Memset%'");
}

std::int64_t diagnostic(const ProfileDb& db, const std::string& kind) {
    for (const auto& d : db.diagnostics())
        if (d.kind == kind) return d.count;
    return 0;
}

}  // namespace

class TestTraceImportReal : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::filesystem::path out(const char* name) { return std::filesystem::path(m_dir.path().toStdString()) / name; }

    std::unique_ptr<ProfileDb> importAndOpen(const std::filesystem::path& trace, const char* dbName, ImportSummary* summary) {
        auto r = importTrace(trace, out(dbName));
        if (!r) {
            qWarning("%s", r.message().c_str());
            return nullptr;
        }
        *summary = *r;
        auto db = ProfileDb::open(out(dbName));
        if (!db) return nullptr;
        return std::move(db.value());
    }

private slots:
    void resnetH200() {
        // count_events.py: events 10623, X 5755, kernels 893, instants 2, memory samples 4408, flow links 1162.
        const auto trace = std::filesystem::path(QFINDTESTDATA("../../../../data/traces/resnet50_amp_bf16_b64_h200.json.gz").toStdString());
        ImportSummary s;
        auto db = importAndOpen(trace, "resnet.npudb", &s);
        QVERIFY(db);
        QCOMPARE(s.events, std::int64_t(10623));
        QCOMPARE(s.slices, std::int64_t(5755));
        QCOMPARE(s.instants, std::int64_t(2));
        QCOMPARE(s.counters, std::int64_t(4408));
        QCOMPARE(s.flows, std::int64_t(1162));
        QCOMPARE(db->sliceCount(), std::int64_t(5757));
        QCOMPARE(kernels(*db), std::int64_t(893));
        QCOMPARE(scalar(*db, "SELECT COUNT(*) FROM FLOW"), std::int64_t(1162));
        QCOMPARE(scalar(*db, "SELECT COUNT(*) FROM COUNTER"), std::int64_t(4408));
        QCOMPARE(db->meta("source"), std::string("kineto"));
        QCOMPARE(db->meta("device"), std::string("NVIDIA H200"));
        QCOMPARE(db->meta("event_count"), std::string("10623"));  // read by the run report's `events`
        const auto devices = db->devices();
        QCOMPARE(devices.size(), size_t(2));
        std::int64_t gpu = -1;
        for (const auto& d : devices)
            if (d.kind == "gpu") gpu = d.id;
        QVERIFY(gpu >= 0);
        bool allocatedOnGpu = false;
        for (const auto& t : db->tracks()) {
            if (t.name == "Total Allocated" && t.device == gpu) {
                allocatedOnGpu = true;
                QCOMPARE(db->counter(t.id).ts_ns.size(), size_t(2096));  // Device Type 1, Id 0; 108 more are CPU
            }
        }
        QVERIFY(allocatedOnGpu);
        // ac2g ends on CPU threads with no start in the file (a Kineto habit), counted not fatal.
        QCOMPARE(diagnostic(*db, "flow_end_without_start"), std::int64_t(276));
        QCOMPARE(diagnostic(*db, "flow_start_without_end"), std::int64_t(2));
        // Depth: cpu ops nest under their parents.
        QVERIFY(scalar(*db, "SELECT MAX(depth) FROM TASK") >= 3);
    }

    void htaRankFolder() {
        const auto r0 = shared("third_party/hta/sampled_rank-0.json.gz");
        const auto r1 = shared("third_party/hta/sampled_rank-1.json.gz");
        if (!std::filesystem::exists(r0) || !std::filesystem::exists(r1)) QSKIP("HTA sample traces not in ../shared/data");
        const auto folder = out("hta");
        std::filesystem::create_directories(folder);
        std::filesystem::create_symlink(r0, folder / "sampled_rank-0.json.gz");
        std::filesystem::create_symlink(r1, folder / "sampled_rank-1.json.gz");
        // count_events.py: rank 0 events 4855, X 4811, kernels 1154; rank 1 events 4720, X 4676, kernels 1104.
        ImportSummary s;
        auto db = importAndOpen(folder, "hta.npudb", &s);
        QVERIFY(db);
        QCOMPARE(s.events, std::int64_t(4855 + 4720));
        QCOMPARE(s.slices, std::int64_t(4811 + 4676));
        QCOMPARE(kernels(*db), std::int64_t(1154 + 1104));
        std::set<std::string> names;
        for (const auto& d : db->devices()) names.insert(d.name);
        QCOMPARE(names, (std::set<std::string>{"rank0 CPU", "rank0 GPU 0", "rank1 CPU", "rank1 GPU 1"}));  // rank 1 ran on its GPU 1
        QCOMPARE(db->meta("cluster"), std::string("true"));
        QCOMPARE(db->meta("event_count"), std::to_string(4855 + 4720));
        QCOMPARE(db->meta("world_size"), std::string("128"));
        QVERIFY(scalar(*db, "SELECT COUNT(*) FROM TRACK WHERE kind = 'comm'") >= 2);  // NCCL streams on both ranks
    }

    void htaNcclTrace() {
        const auto trace = shared("third_party/hta/nccl_data.json.gz");
        if (!std::filesystem::exists(trace)) QSKIP("nccl_data.json.gz not in ../shared/data");
        // count_events.py: events 40573, X 26933, kernels 2700, instants 2, flow links 4317.
        ImportSummary s;
        auto db = importAndOpen(trace, "nccl.npudb", &s);
        QVERIFY(db);
        QCOMPARE(s.events, std::int64_t(40573));
        QCOMPARE(s.slices, std::int64_t(26933));
        QCOMPARE(s.instants, std::int64_t(2));
        QCOMPARE(s.flows, std::int64_t(4317));
        QCOMPARE(kernels(*db), std::int64_t(2700));
        QCOMPARE(db->meta("world_size"), std::string("2"));
        QVERIFY(scalar(*db, "SELECT COUNT(*) FROM TRACK WHERE kind = 'comm'") >= 1);
    }

    void ascendTraceView() {
        const auto trace = shared("third_party/ascend/trace_view.json");
        if (!std::filesystem::exists(trace)) QSKIP("Ascend trace_view.json not in ../shared/data");
        // count_events.py: events 3670, X 2212, flow links 713 (HostToDevice ends precede their starts).
        ImportSummary s;
        auto db = importAndOpen(trace, "ascend.npudb", &s);
        QVERIFY(db);
        QCOMPARE(s.events, std::int64_t(3670));
        QCOMPARE(s.slices, std::int64_t(2212));
        QCOMPARE(s.flows, std::int64_t(713));
        QCOMPARE(db->meta("source"), std::string("ascend"));
        std::set<std::string> kinds;
        for (const auto& d : db->devices()) kinds.insert(d.kind);
        QCOMPARE(kinds, (std::set<std::string>{"cpu", "npu"}));
        QVERIFY(scalar(*db, "SELECT COUNT(*) FROM TRACK WHERE kind = 'compute'") >= 1);
        // String timestamps kept to the nanosecond (first event: "1704161511420306.491").
        QCOMPARE(scalar(*db, "SELECT MIN(start_ns) FROM TASK WHERE start_ns >= 1704161511420306491"), std::int64_t(1704161511420306491));
    }

    void failedImportLeavesNoFile() {
        const auto bad = out("bad.json");
        std::ofstream(bad) << "{\"traceEvents\": [{\"ph\": \"X\", \"ts\": 1, \"dur\": 2}, {\"ph\": ";
        const auto db = out("bad.npudb");
        // A cut trace is imported up to the cut unless --strict (refuseTruncated) asks otherwise.
        ImportOptions strict;
        strict.refuseTruncated = true;
        auto r = importTrace(bad, db, strict);
        QVERIFY(!r.ok());
        QVERIFY2(r.message().find("byte 56") != std::string::npos, r.message().c_str());
        QVERIFY(!std::filesystem::exists(db));
        for (const auto& e : std::filesystem::directory_iterator(m_dir.path().toStdString()))
            QVERIFY2(e.path().filename().string().find("bad.npudb") == std::string::npos, e.path().c_str());
    }

    void cancelledImportLeavesNoFile() {
        std::atomic<bool> cancel{false};
        npu::Progress progress;
        progress.cancel = &cancel;
        progress.report = [&](double f, std::string_view) {
            if (f > 0.1) cancel = true;
        };
        const auto db = out("cancelled.npudb");
        auto r = importTrace(std::filesystem::path(QFINDTESTDATA("../../../../data/traces/resnet50_amp_bf16_b64_h200.json.gz").toStdString()), db, {}, progress);
        QVERIFY(!r.ok());
        QVERIFY(!std::filesystem::exists(db));
    }

    void looksLikeTraceAcceptsTraces() {
        QVERIFY(looksLikeTrace("x.json"));
        QVERIFY(looksLikeTrace("x.json.gz"));
        QVERIFY(!looksLikeTrace("x.npudb"));
        QVERIFY(looksLikeTrace(std::filesystem::path(QFINDTESTDATA("../../../../data/traces/cluster").toStdString())));
        QVERIFY(!looksLikeTrace(std::filesystem::path(NPU_SOURCE_DIR) / "profiler/importers"));
    }
};

QTEST_GUILESS_MAIN(TestTraceImportReal)
#include "test_trace_import_real.moc"
