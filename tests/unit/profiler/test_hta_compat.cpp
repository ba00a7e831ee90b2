// --hta-compat: the device metrics over the kernels HTA's parser keeps. The expected
// figures come from tests/data/traces/hta_filter_check.py, which applies HTA's rule
// (correlation launched before the last ProfilerStep) to the raw Kineto JSON.

#include "profiler/analysis/run_report.h"
#include "profiler/importers/trace_importer.h"
#include "profiler/store/profile_db.h"

#include <QTest>

using namespace npu::profiler;

namespace {

const std::filesystem::path kCorpus = std::filesystem::path(NPU_SHARED_DATA_DIR) / "third_party/hta_tests";

nlohmann::json importAndReport(const std::filesystem::path& trace, const std::string& name, bool htaCompat) {
    const auto db = std::filesystem::temp_directory_path() / ("npu_test_hta_compat_" + name + ".npudb");
    std::filesystem::remove(db);
    auto summary = importTrace(trace, db);
    if (!summary) return {{"error", summary.message()}};
    auto opened = ProfileDb::open(db);
    if (!opened) return {{"error", opened.message()}};
    auto report = runReport(**opened, 0, htaCompat);
    std::filesystem::remove(db);
    return report;
}

}  // namespace

class TestHtaCompat : public QObject {
    Q_OBJECT
    static void rows() {
        QTest::addColumn<QString>("trace");
        QTest::addColumn<int>("kernels");
        QTest::addColumn<double>("spanUs");
        QTest::addColumn<int>("allKernels");
        // Five steps; 1,147 kernels have no ac2g flow event, only the correlation arg.
        QTest::newRow("negative_queue_length rank0") << "negative_queue_length_values_check/rank0.json.gz" << 5500 << 1016554.0 << 7747;
        // Two steps: half the kernels belong to the last one.
        QTest::newRow("trace_filter rank0") << "trace_filter/sampled_rank-0.json.gz" << 602 << 600058.0 << 1204;
    }

private slots:
    void init() {
        if (!std::filesystem::exists(kCorpus)) QSKIP("shared data third_party/hta_tests not present");
    }

    void keepsWhatHtaKeeps_data() { rows(); }
    void keepsWhatHtaKeeps() {
        QFETCH(QString, trace);
        QFETCH(int, kernels);
        QFETCH(double, spanUs);
        QFETCH(int, allKernels);
        const auto file = kCorpus / trace.toStdString();
        const nlohmann::json compat = importAndReport(file, "compat", true);
        QVERIFY2(!compat.contains("error"), compat.dump().c_str());
        QCOMPARE(compat["hta_compat"]["filtered"].get<bool>(), true);
        QCOMPARE(compat["devices"][0]["kernels"].get<int>(), kernels);
        QCOMPARE(compat["devices"][0]["kernel_time_us"].get<double>(), spanUs);
        QCOMPARE(compat["hta_compat"]["kernels_dropped"].get<int>(), allKernels - kernels);
        // Without the option every kernel counts, and no hta_compat key is written.
        const nlohmann::json all = importAndReport(file, "all", false);
        QCOMPARE(all["devices"][0]["kernels"].get<int>(), allKernels);
        QVERIFY(!all.contains("hta_compat"));
    }

    void oneStepIsNotFiltered() {
        // HTA warns and keeps everything when the trace has fewer than two ProfilerSteps.
        const auto file = kCorpus / "critical_path/cuda_event_sync/event_sync_trace.json.gz";
        const nlohmann::json compat = importAndReport(file, "one_step", true);
        QVERIFY2(!compat.contains("error"), compat.dump().c_str());
        QCOMPARE(compat["hta_compat"]["filtered"].get<bool>(), false);
        QCOMPARE(compat["hta_compat"]["kernels_dropped"].get<int>(), 0);
        QVERIFY(compat["hta_compat"]["last_step_start_ns"].is_null());
    }
};

QTEST_GUILESS_MAIN(TestHtaCompat)
#include "test_hta_compat.moc"
