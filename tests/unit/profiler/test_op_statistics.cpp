// Operator statistics on the hand-made run of profiler_fixture.h.
#include "profiler/analysis/op_statistics.h"
#include "profiler_fixture.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace npu::profiler;
using fixture::us;

class TestOpStatistics : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::unique_ptr<ProfileDb> m_db;

    static const OpStatRow* find(const OpStatistics& s, const std::string& key) {
        for (const auto& r : s.rows)
            if (r.key == key) return &r;
        return nullptr;
    }

private slots:
    void initTestCase() {
        m_db = fixture::writeTwoGpuRun(std::filesystem::path(m_dir.path().toStdString()) / "run.npudb");
        QVERIFY(m_db);
    }

    void byNameOverAllKernels() {
        const auto s = computeOpStatistics(*m_db);
        // Shares are of the summed durations of all rows, so they add up to 1.
        std::int64_t summed = 0;
        for (const auto& r : s.rows) summed += r.total_ns;
        QCOMPARE(s.reference_ns, summed);
        QCOMPARE(s.rows.size(), size_t(5));
        QCOMPARE(s.rows[0].key, std::string("sm90_gemm"));  // sorted by total
        QCOMPARE(s.rows[0].count, 3);
        QCOMPARE(s.rows[0].total_ns, us(600));
        QCOMPARE(s.rows[0].min_ns, us(100));
        QCOMPARE(s.rows[0].max_ns, us(400));
        QCOMPARE(s.rows[0].mean_ns, double(us(200)));
        QCOMPARE(s.rows[0].share, double(us(600)) / double(summed));
        for (const auto& r : s.rows) QVERIFY(r.share <= 1.0);
        QVERIFY(!find(s, "ProfilerStep#1"));  // host slices are not kernels
        QCOMPARE(find(s, "Memcpy HtoD (Pageable -> Device)")->category, std::string("gpu_memcpy"));
    }

    void deviceFilter() {
        OpStatOptions o;
        o.device = 0;
        const auto s = computeOpStatistics(*m_db, o);
        QCOMPARE(find(s, "sm90_gemm")->count, 2);
        QCOMPARE(find(s, "sm90_gemm")->total_ns, us(200));
        std::int64_t summed = 0;
        for (const auto& r : s.rows) summed += r.total_ns;
        QCOMPARE(s.reference_ns, summed);  // device 0's rows only
        QVERIFY(summed < computeOpStatistics(*m_db).reference_ns);
    }

    void rangeClipsSlices() {
        OpStatOptions o;
        o.range = std::make_pair(us(50), us(200));
        const auto s = computeOpStatistics(*m_db, o);
        QCOMPARE(s.rows.size(), size_t(1));  // the all-reduce starts at 200: outside [50,200)
        QCOMPARE(s.rows[0].count, 3);
        QCOMPARE(s.rows[0].total_ns, us(50 + 50 + 150));
        QCOMPARE(s.rows[0].min_ns, us(50));
        QCOMPARE(s.rows[0].max_ns, us(150));
        QCOMPARE(s.reference_ns, us(50 + 50 + 150));  // the clipped time of the one row
        QCOMPARE(s.rows[0].share, 1.0);
    }

    void byCategoryAndType() {
        OpStatOptions o;
        o.grouping = OpGrouping::byCategory;
        const auto s = computeOpStatistics(*m_db, o);
        QCOMPARE(s.rows.size(), size_t(2));
        QCOMPARE(find(s, "kernel")->count, 7);
        QCOMPARE(find(s, "gpu_memcpy")->total_ns, us(50));
        o.grouping = OpGrouping::byType;  // no OP_INFO here: the type falls back to the category
        QCOMPARE(computeOpStatistics(*m_db, o).rows.size(), size_t(2));
    }

    void hostSlicesWhenAsked() {
        OpStatOptions o;
        o.kernelsOnly = false;
        const auto s = computeOpStatistics(*m_db, o);
        QCOMPARE(find(s, "ProfilerStep#2")->total_ns, us(400));
        QCOMPARE(find(s, "aten::mm")->count, 1);
    }
};

QTEST_GUILESS_MAIN(TestOpStatistics)
#include "test_op_statistics.moc"
