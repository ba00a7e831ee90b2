// End-to-end calibration: the simulated LLaMA-small bf16-amp training step on the h200
// profile against the H200 measurement (../shared/data/hardware/
// h200_llama_small_training.json: 37.02 ms, 9.44 GB peak allocated).
//
// Tolerances: 15% on step time and 10% on peak memory. The profile's efficiency curves
// come from the microbenchmarks, not from this run, so the remaining error is model
// error (unfused eager kernels the zoo graph does not spell out, launch gaps, allocator
// rounding). Together with the other modes the calibration report prints, the spread
// across modes is about +-10% for eager runs, which is what 15% leaves room for.
#include "engine/driver/simulate_project.h"

#include <QtTest>

#include <fstream>

using namespace npu::engine;

class TestCalibration : public QObject {
    Q_OBJECT
private slots:
    void llamaSmallBf16Amp() {
        const std::string path = NPU_SHARED_DATA_DIR "/hardware/h200_llama_small_training.json";
        std::ifstream in(path);
        if (!in) QSKIP("../shared/data/hardware/h200_llama_small_training.json is absent");
        const auto doc = nlohmann::json::parse(in);
        nlohmann::json measured;
        for (const auto& run : doc.at("llama_small").at("runs"))
            if (run.at("mode") == "amp_bf16" && !run.at("ckpt").get<bool>()) measured = run;
        QVERIFY(!measured.is_null());
        auto project = loadProject(std::filesystem::path(NPU_SOURCE_DIR) / "projects/llama-small-h200/project.json");
        QVERIFY2(project.ok(), project.ok() ? "" : project.message().c_str());
        QCOMPARE(project->training.batch, measured.at("batch").get<std::int64_t>());
        QCOMPARE(project->training.seq, measured.at("seq").get<std::int64_t>());
        auto r = simulateProject(*project, {});
        QVERIFY2(r.ok(), r.ok() ? "" : r.message().c_str());
        QCOMPARE(r->summary.params, doc.at("llama_small").at("config").at("params").get<std::int64_t>());
        const double ms = measured.at("step_ms").get<double>();
        const double gb = measured.at("peak_alloc_GB").get<double>();
        const double simMs = r->summary.step_time_ms, simGb = static_cast<double>(r->summary.peak_bytes) / 1e9;
        qInfo("bf16-amp step: simulated %.2f ms vs measured %.2f ms (%+.1f%%); peak %.2f GB vs %.2f GB (%+.1f%%)", simMs, ms,
              100 * (simMs / ms - 1), simGb, gb, 100 * (simGb / gb - 1));
        QVERIFY2(std::abs(simMs / ms - 1) < 0.15, qPrintable(QStringLiteral("step time %1 ms vs %2 ms").arg(simMs).arg(ms)));
        QVERIFY2(std::abs(simGb / gb - 1) < 0.10, qPrintable(QStringLiteral("peak %1 GB vs %2 GB").arg(simGb).arg(gb)));
    }
};

QTEST_GUILESS_MAIN(TestCalibration)
#include "test_calibration.moc"
