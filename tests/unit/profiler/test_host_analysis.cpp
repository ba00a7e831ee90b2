// Host-side analyses of an imported PyTorch trace (cpu_op self/total, ac2g launches,
// launch delay and queue length per stream), checked against an independent Python
// pass over the raw JSON: tests/data/traces/host_analysis_check.py (exact decimal
// microseconds, HTA's definitions). Skips when ../shared/data is absent.
#include "profiler/analysis/cpu_op_statistics.h"
#include "profiler/analysis/kernel_launches.h"
#include "profiler/importers/trace_importer.h"
#include "profiler/store/profile_db.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace npu::profiler;

class TestHostAnalysis : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::unique_ptr<ProfileDb> m_db;

private slots:
    void initTestCase() {
        const auto trace = std::filesystem::path(NPU_SHARED_DATA_DIR) / "traces/llama_small_amp_bf16_b8s1024_h200.json.gz";
        if (!std::filesystem::exists(trace)) QSKIP("shared reference data not present");
        const auto out = std::filesystem::path(m_dir.path().toStdString()) / "llama.npudb";
        auto imported = importTrace(trace, out);
        QVERIFY2(imported.ok(), imported.ok() ? "" : imported.message().c_str());
        auto db = ProfileDb::open(out);
        QVERIFY(db.ok());
        m_db = std::move(*db);
    }

    // python3 tests/data/traces/host_analysis_check.py <trace>:
    //   aten::mm   count 171 total_ns 4660928 self_ns 4660928
    //   aten::mul  count 294 total_ns 4010651 self_ns 3563379
    void cpuOpSelfAndTotal() {
        const auto rows = computeCpuOpStatistics(*m_db);
        QVERIFY(rows.size() > 20);
        QCOMPARE(QString::fromStdString(rows.front().name), QStringLiteral("aten::mm"));
        auto find = [&](const char* n) {
            for (const auto& r : rows)
                if (r.name == n) return r;
            return CpuOpRow{};
        };
        const auto mm = find("aten::mm");
        QCOMPARE(mm.count, std::int64_t(171));
        QCOMPARE(mm.total_ns, std::int64_t(4660928));
        QCOMPARE(mm.self_ns, std::int64_t(4660928));
        const auto mul = find("aten::mul");
        QCOMPARE(mul.count, std::int64_t(294));
        QCOMPARE(mul.total_ns, std::int64_t(4010651));
        QCOMPARE(mul.self_ns, std::int64_t(3563379));
        for (const auto& r : rows) QVERIFY(r.self_ns <= r.total_ns);
    }

    //   stream 7 launches 1324 mean_delay_ns 343196.23 max_delay_ns 2485132 max_queue 80
    void launchDelayAndQueuePerStream() {
        const auto launches = loadKernelLaunches(*m_db);
        QCOMPARE(launches.size(), size_t(1324));
        const auto streams = streamLaunchStats(*m_db, launches);
        QCOMPARE(streams.size(), size_t(1));
        const auto& s = streams.front();
        QCOMPARE(s.launches, std::int64_t(1324));
        QVERIFY2(std::abs(s.mean_delay_ns - 343196.23) < 1.0, qPrintable(QString::number(s.mean_delay_ns)));
        QCOMPARE(s.max_delay_ns, std::int64_t(2485132));
        QCOMPARE(s.max_queue, std::int64_t(80));
        QVERIFY(s.p50_delay_ns <= s.p95_delay_ns && s.p95_delay_ns <= s.max_delay_ns);
        QVERIFY(!s.queue.ts_ns.empty());
        QCOMPARE(s.queue.value.back(), 0.0);  // everything launched finished
    }

    // Which op launched which kernels: every launch is attributed, aten::mm to GEMMs.
    void opsLaunchKernels() {
        const auto launches = loadKernelLaunches(*m_db);
        const auto table = opKernelTable(*m_db, launches);
        std::int64_t total = 0;
        bool mmToGemm = false;
        for (const auto& r : table) {
            total += r.launches;
            if (r.op == "aten::mm") mmToGemm = r.top_kernel.find("nvjet") != std::string::npos;
        }
        QCOMPARE(total, std::int64_t(1324));
        QVERIFY(mmToGemm);
    }
};

QTEST_GUILESS_MAIN(TestHostAnalysis)
#include "test_host_analysis.moc"
