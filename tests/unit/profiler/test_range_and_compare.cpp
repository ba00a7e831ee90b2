// Selection-range aggregation, run comparison and the report JSON on the fixture run.
#include "profiler/analysis/kernel_matching.h"
#include "profiler/analysis/range_aggregation.h"
#include "profiler/analysis/run_comparison.h"
#include "profiler/analysis/run_report.h"
#include "profiler_fixture.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace npu::profiler;
using fixture::us;

class TestRangeAndCompare : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::unique_ptr<ProfileDb> m_a, m_b;

private slots:
    void initTestCase() {
        const std::filesystem::path dir = m_dir.path().toStdString();
        m_a = fixture::writeTwoGpuRun(dir / "a.npudb");
        m_b = fixture::writeTwoGpuRun(dir / "b.npudb", us(5), true);
        QVERIFY(m_a && m_b);
    }

    void rangeSelfTime() {
        std::int64_t host = -1;
        for (const auto& t : m_a->tracks())
            if (t.kind == TrackKind::host_thread) host = t.id;
        const auto agg = aggregateRange(*m_a, {host}, 0, us(700));
        QCOMPARE(agg.slices, 3);
        QCOMPARE(agg.rows.size(), size_t(3));
        QCOMPARE(agg.rows[0].name, std::string("ProfilerStep#1"));
        QCOMPARE(agg.rows[0].total_ns, us(600));
        QCOMPARE(agg.rows[0].self_ns, us(590));  // minus aten::mm
        QCOMPARE(agg.rows[1].name, std::string("ProfilerStep#2"));
        QCOMPARE(agg.rows[1].total_ns, us(100));  // clipped at 700
        QCOMPARE(agg.rows[0].share, 590.0 / 700.0);
        QCOMPARE(agg.rows[2].self_ns, us(10));

        // A range starting inside a long slice still finds it (lower bound via max duration).
        const auto inner = aggregateRange(*m_a, {host}, us(300), us(310));
        QCOMPARE(inner.rows.size(), size_t(1));
        QCOMPARE(inner.rows[0].total_ns, us(10));
        QCOMPARE(inner.rows[0].range_fraction, 1.0);
        QCOMPARE(aggregateRange(*m_a, {}, us(300), us(310)).slices, 3);  // + gemm on gpu1 + allreduce
    }

    void comparison() {
        const auto c = compareRuns(*m_a, *m_b);
        QCOMPARE(c.byName[0].key, std::string("sm90_gemm"));
        QCOMPARE(c.byName[0].delta_count(), 1);
        QCOMPARE(c.byName[0].delta_total_ns(), us(50));
        QCOMPARE(c.byName[1].delta_total_ns(), 0);
        QCOMPARE(c.byKernelClass[0].key, std::string("compute"));
        QCOMPARE(c.byKernelClass[0].delta_total_ns(), us(50));
        QCOMPARE(c.stepsA.size(), c.stepsB.size());
        QCOMPARE(c.stepStartA_ns, 0);
        QCOMPARE(c.stepStartB_ns, us(5));
        QCOMPARE(c.alignOffsetB_ns(), -us(5));
    }

    // Kernel by kernel: the k-th kernel of a name in A against the k-th in B within the
    // first step, the largest |delta| first; a kernel only B runs is listed as such.
    void kernelMatching() {
        const std::filesystem::path dir = m_dir.path().toStdString();
        using Kernel = std::tuple<std::int64_t, std::int64_t, const char*>;
        auto write = [&](const char* file, std::int64_t stepEnd, std::vector<Kernel> kernels) {
            auto w = ProfileDbWriter::create(dir / file);
            if (!w) qFatal("%s", w.message().c_str());
            const auto gpu = (*w)->addDevice("gpu0", "gpu");
            const auto stream = (*w)->addTrack(gpu, -1, TrackKind::compute, "stream 7", 0);
            for (const auto& [a, b, name] : kernels) (*w)->addSlice(stream, us(a), us(b - a), 0, name, "kernel");
            (*w)->addSlice(stream, us(stepEnd) + us(10), us(5), 0, "sm90_gemm", "kernel");  // the next step's
            (*w)->addStep(0, us(stepEnd));
            (*w)->addStep(us(stepEnd), us(stepEnd) + us(100));
            if (!(*w)->commit()) qFatal("commit");
            auto db = ProfileDb::open(dir / file);
            if (!db) qFatal("open");
            return std::move(*db);
        };
        const auto a = write("ka.npudb", 1000, {{0, 100, "sm90_gemm"}, {150, 250, "sm90_gemm"}, {300, 350, "elementwise"}});
        const auto b = write("kb.npudb", 1200, {{0, 100, "sm90_gemm"}, {150, 400, "sm90_gemm"}, {450, 500, "elementwise"}, {600, 700, "softmax"}});
        const KernelMatching m = matchKernels(*a, *b);
        QCOMPARE(m.step_a_ns, us(1000));
        QCOMPARE(m.step_b_ns, us(1200));
        QCOMPARE(m.matched, 3);
        QCOMPARE(m.only_a, 0);
        QCOMPARE(m.only_b, 1);
        QCOMPARE(m.rows.size(), size_t(4));
        QCOMPARE(m.rows[0].name, std::string("sm90_gemm"));
        QCOMPARE(m.rows[0].occurrence, 1);
        QCOMPARE(m.rows[0].delta_ns(), us(150));
        QCOMPARE(m.rows[0].start_b_ns, us(150));
        QCOMPARE(m.rows[1].name, std::string("softmax"));
        QCOMPARE(m.rows[1].dur_a_ns, std::int64_t(-1));
        QCOMPARE(m.rows[1].delta_ns(), us(100));
        QCOMPARE(m.rows[2].delta_ns(), 0);
        QCOMPARE(m.rows[3].delta_ns(), 0);
    }

    void reports() {
        const auto r = runReport(*m_a);
        for (const char* key : {"events", "devices", "step_breakdown", "top_kernels", "diagnostics"})
            QVERIFY2(r.contains(key), key);
        QCOMPARE(r["events"].get<std::int64_t>(), 11 + 5);  // slices + counter samples
        QCOMPARE(r["devices"].size(), size_t(2));
        const auto& g0 = r["devices"][0];
        QCOMPARE(g0["name"].get<std::string>(), std::string("gpu0"));
        QCOMPARE(g0["kernels"].get<int>(), 7);
        QCOMPARE(g0["kernel_time_us"].get<double>(), 800.0);
        QCOMPARE(g0["idle_us"].get<double>(), 250.0);
        QCOMPARE(g0["compute_us"].get<double>(), 300.0);
        QCOMPARE(g0["non_compute_us"].get<double>(), 250.0);
        QCOMPARE(g0["peak_allocated_bytes"].get<double>(), 50.0);
        QCOMPARE(g0["peak_reserved_bytes"].get<double>(), 128.0);
        QVERIFY(r["devices"][1]["peak_allocated_bytes"].is_null());  // gpu1 has no memory events: not a peak of 0 B
        QCOMPARE(r["top_kernels"][0]["name"].get<std::string>(), std::string("sm90_gemm"));
        QCOMPARE(r["diagnostics"][0]["count"].get<int>(), 2);
        QCOMPARE(r["diagnostics"][0]["severity"].get<std::string>(), std::string("warning"));
        QCOMPARE(r["step_breakdown"][0]["computing_us"].get<double>(), 250.0);

        const auto d = compareReport(*m_a, *m_b);
        QCOMPARE(d["by_name"][0]["delta_total_us"].get<double>(), 50.0);
        QCOMPARE(d["alignment"]["offset_b_us"].get<double>(), -5.0);
        QCOMPARE(d["steps_b"].size(), d["steps_a"].size());
    }
};

QTEST_GUILESS_MAIN(TestRangeAndCompare)
#include "test_range_and_compare.moc"
