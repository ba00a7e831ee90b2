// HTA metrics on real traces, cross-checked against figures computed independently
// from the raw JSON with a 40-line Python script (kernels = X events with args.stream;
// HTA's name rules; ts/dur parsed as exact decimals). The script is reproduced in
// docs/report-format.md. Skips when ../shared/data is absent.
#include "profiler/analysis/device_metrics.h"
#include "profiler/analysis/run_report.h"
#include "profiler/analysis/step_breakdown.h"
#include "profiler/importers/trace_importer.h"
#include "profiler/store/profile_db.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace npu::profiler;

namespace {

struct Expected_ {
    const char* file;
    std::int64_t kernels, kernel_time_ns, idle_ns, compute_ns, non_compute_ns, comm_ns;
    double overlap_pct;
};

// From the reference script on the shared files (see the file comment).
const Expected_ kCases[] = {
    {"third_party/hta/sampled_rank-0.json.gz", 1204, 1222847000, 675191000, 210320000, 337336000, 396199000,
     14.946024598749618},
    {"third_party/hta/sampled_rank-1.json.gz", 1154, 1231186000, 651136000, 271973000, 308077000, 379053000,
     19.92597341268899},
    {"traces/resnet50_amp_bf16_b64_h200.json.gz", 927, 38162727, 22877598, 15232392, 52737, 0, 0.0},
};

// Both sides parse the decimal microseconds exactly, so the figures must agree to the ns.
bool near(std::int64_t a, std::int64_t b, std::int64_t) { return a == b; }

}  // namespace

class TestRealTraceMetrics : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void htaMetrics_data() {
        QTest::addColumn<int>("index");
        for (int i = 0; i < 3; ++i) QTest::newRow(kCases[i].file) << i;
    }

    void htaMetrics() {
        QFETCH(int, index);
        const auto& c = kCases[index];
        const std::filesystem::path trace = std::filesystem::path(NPU_SHARED_DATA_DIR) / c.file;
        if (!std::filesystem::exists(trace)) QSKIP("shared reference data not present");
        const auto dbPath = std::filesystem::path(m_dir.path().toStdString()) / ("t" + std::to_string(index) + ".npudb");
        auto imported = importTrace(trace, dbPath);
        QVERIFY2(imported.ok(), imported.ok() ? "" : imported.message().c_str());
        auto db = ProfileDb::open(dbPath);
        QVERIFY(db.ok());
        const auto all = computeAllDeviceMetrics(**db);
        QCOMPARE(all.size(), size_t(1));  // one GPU per rank file
        const auto& m = all[0];
        QCOMPARE(m.kernels, c.kernels);
        QVERIFY2(near(m.kernel_time_ns, c.kernel_time_ns, 1), std::to_string(m.kernel_time_ns).c_str());
        QVERIFY2(near(m.idle_ns, c.idle_ns, c.kernels), std::to_string(m.idle_ns).c_str());
        QVERIFY2(near(m.compute_ns, c.compute_ns, c.kernels), std::to_string(m.compute_ns).c_str());
        QVERIFY2(near(m.non_compute_ns, c.non_compute_ns, c.kernels), std::to_string(m.non_compute_ns).c_str());
        QVERIFY2(near(m.comm_ns, c.comm_ns, c.kernels), std::to_string(m.comm_ns).c_str());
        QVERIFY2(std::abs(m.comm_comp_overlap_pct - c.overlap_pct) < 0.01, std::to_string(m.comm_comp_overlap_pct).c_str());

        // The report and the step breakdown run on real data without surprises.
        const auto report = runReport(**db);
        // Devices with kernels or memory tracks (the host's [memory] events make a cpu entry).
        bool gpuFound = false;
        for (const auto& d : report["devices"])
            if (d["kernels"].get<std::int64_t>() == c.kernels) gpuFound = true;
        QVERIFY(gpuFound);
        const auto steps = computeStepBreakdown(**db);
        QVERIFY(!steps.empty());
        for (const auto& r : steps) {
            QVERIFY(r.computing_ns >= 0 && r.free_ns >= 0 && r.overlapped_ns <= r.communication_ns);
            QCOMPARE(r.communication_ns, r.comm_not_overlapped_ns + r.overlapped_ns);
        }
    }

    // A folder of two HTA ranks: each GPU gets its own rank's ProfilerStep windows.
    void clusterStepsPerRank() {
        const std::filesystem::path hta = std::filesystem::path(NPU_SHARED_DATA_DIR) / "third_party/hta";
        if (!std::filesystem::exists(hta / "sampled_rank-0.json.gz")) QSKIP("shared reference data not present");
        const std::filesystem::path dir = std::filesystem::path(m_dir.path().toStdString()) / "ranks";
        std::filesystem::create_directories(dir);
        for (const char* f : {"sampled_rank-0.json.gz", "sampled_rank-1.json.gz"})
            std::filesystem::copy_file(hta / f, dir / f);
        const auto dbPath = dir.parent_path() / "cluster.npudb";
        auto imported = importTrace(dir, dbPath);
        QVERIFY2(imported.ok(), imported.ok() ? "" : imported.message().c_str());
        auto db = ProfileDb::open(dbPath);
        QVERIFY(db.ok());
        const auto rows = computeStepBreakdown(**db);
        QCOMPARE(rows.size(), size_t(6));  // 2 steps x (2 ranks + stage)
        QCOMPARE(rows[0].step, std::string("ProfilerStep#551"));
        QCOMPARE(rows[1].step, std::string("ProfilerStep#551"));
        QVERIFY(rows[0].device != rows[1].device);
        QVERIFY(rows[0].step_start_ns != rows[1].step_start_ns);  // each rank's own host step
        QCOMPARE(rows[2].type, std::string("stage"));
        QCOMPARE(rows[2].computing_ns, std::max(rows[0].computing_ns, rows[1].computing_ns));
    }
};

QTEST_GUILESS_MAIN(TestRealTraceMetrics)
#include "test_real_trace_metrics.moc"
