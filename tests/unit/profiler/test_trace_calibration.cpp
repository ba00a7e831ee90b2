// The cost model held against the two shared H200 traces (issue 9, "Calibration against
// a real trace"): the sample projects simulated by the one run function
// (runner::runSimulation) and the traces imported by the Kineto importer, grouped by op
// category (profiler/analysis/measured_comparison). Each major category — matmul, conv,
// attention, optimizer and all memory-bound kernels together — must land within 15% of
// the trace's kernel time (groups under 1% of the trace's kernel time are listed but not
// held: ResNet's one fc layer is 0.014 ms). The measured side is checked against an
// independent count (tests/benchmarks/engine/trace_kernels.py, same name rules plus the
// launching-op rule for cuDNN's GEMM-named convolution kernels). Then `--fit`: an overlay
// fitted on a trace brings every category it corrects within 3% of that trace.
#include "engine/cost/calibration_category.h"
#include "engine/cost/device_overlay.h"
#include "engine/cost/device_profile.h"
#include "engine/driver/simulate_project.h"
#include "engine/project/project.h"
#include "profiler/analysis/measured_comparison.h"
#include "profiler/analysis/profile_fit.h"
#include "profiler/importers/trace_importer.h"
#include "runner/runs/simulation_run.h"
#include "profiler/store/profile_db.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>

using namespace npu;
using namespace npu::profiler;
using namespace npu::runner;
namespace fs = std::filesystem;

class TestTraceCalibration : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    std::unique_ptr<ProfileDb> imported(const char* trace) {
        const fs::path path = fs::path(NPU_SHARED_DATA_DIR) / "traces" / trace;
        if (!fs::exists(path)) return nullptr;
        const fs::path db = fs::path(m_dir.path().toStdString()) / (std::string(trace) + ".npudb");
        if (!fs::exists(db)) {
            auto s = importTrace(path, db);
            if (!s) qFatal("import %s: %s", trace, s.message().c_str());
        }
        auto opened = ProfileDb::open(db);
        return opened ? std::move(opened).value() : nullptr;
    }

    std::unique_ptr<ProfileDb> simulated(const char* projectName, const std::string& device = {}) {
        auto p = engine::loadProject(fs::path(NPU_SOURCE_DIR) / "projects" / projectName / "project.json");
        if (!p) qFatal("%s", p.message().c_str());
        if (!device.empty()) p->device = device;
        SimulationRunOptions o;
        o.dir = m_dir.path().toStdString();
        o.record = false;
        const SimulationRun run = runSimulation(*p, o);
        if (run.outcome != SimulationRun::Outcome::ok) qFatal("%s", run.error.c_str());
        auto opened = ProfileDb::open(run.summary.db);
        return opened ? std::move(opened).value() : nullptr;
    }

    static void print(const MeasuredComparison& c) {
        for (const auto& r : c.categories)
            qInfo("  %-14s sim %5lld %9.3f ms  meas %5lld %9.3f ms  %+6.1f%%", r.name.c_str(), (long long)r.simulated_count,
                  r.simulated_ns / 1e6, (long long)r.measured_count, r.measured_ns / 1e6, 100 * r.error());
        for (const auto& r : c.majorGroups)
            qInfo("  major %-12s sim %9.3f ms  meas %9.3f ms  %+6.1f%%", r.name.c_str(), r.simulated_ns / 1e6,
                  r.measured_ns / 1e6, 100 * r.error());
        qInfo("  step: simulated %.2f ms, measured %.2f ms (busy %.2f, idle %.2f)", c.step.simulated_ns / 1e6,
              c.step.measured_ns / 1e6, c.step.measured_busy_ns / 1e6, c.step.measured_idle_ns / 1e6);
    }

    static void holdMajorGroups(const MeasuredComparison& c) {
        std::int64_t total = 0;
        for (const auto& r : c.categories) total += r.measured_ns;
        QVERIFY(total > 0);
        for (const auto& r : c.majorGroups) {
            if (r.measured_ns < total / 100) continue;
            QVERIFY2(std::abs(r.error()) < 0.15, qPrintable(QStringLiteral("%1: simulated %2 ms vs measured %3 ms")
                                                                .arg(QString::fromStdString(r.name))
                                                                .arg(r.simulated_ns / 1e6)
                                                                .arg(r.measured_ns / 1e6)));
        }
    }

    static const MeasuredCategoryRow* row(const MeasuredComparison& c, const char* name) {
        for (const auto& r : c.categories)
            if (r.name == name) return &r;
        return nullptr;
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void categoryNames() {
        using engine::OpCategory;
        // One name list: the registry's, as the Compare tab shows it (issue 24).
        for (OpCategory c : engine::calibrationCategories())
            QCOMPARE(engine::calibrationCategoryFromName(engine::opCategoryName(c)), std::optional(c));
        // Overlays written before the lists were one still load.
        QCOMPARE(engine::calibrationCategoryFromName("reduction"), std::optional(OpCategory::reduce));
        QCOMPARE(engine::calibrationCategoryFromName("memory_copy"), std::optional(OpCategory::data_movement));
        QCOMPARE(engine::calibrationCategoryFromName("communication"), std::optional(OpCategory::comm));
        QVERIFY(!engine::calibrationCategoryFromName("gemm"));
        QVERIFY(engine::isMemoryBoundCategory(OpCategory::norm));
        QVERIFY(!engine::isMemoryBoundCategory(OpCategory::attention));
    }

    void llamaTrace() {
        auto measured = imported("llama_small_amp_bf16_b8s1024_h200.json.gz");
        if (!measured) QSKIP("../shared/data/traces/llama_small_amp_bf16_b8s1024_h200.json.gz is absent");
        auto sim = simulated("llama-small-h200");
        QVERIFY(sim);
        const MeasuredComparison c = compareWithMeasured(*sim, *measured);
        print(c);
        // Independent count (trace_kernels.py, python3 over the gzip JSON): 1324 kernels,
        // 34.480 ms of kernel time, 172 matmul kernels (9.053 ms), 32 attention (1.988 ms).
        std::int64_t kernels = 0;
        for (const auto& r : c.categories) kernels += r.measured_count;
        QCOMPARE(kernels, std::int64_t(1324));
        QCOMPARE(row(c, "matmul")->measured_count, std::int64_t(172));
        QVERIFY(std::abs(row(c, "matmul")->measured_ns / 1e6 - 9.053) < 0.01);
        QCOMPARE(row(c, "attention")->measured_count, std::int64_t(32));
        QVERIFY(std::abs(c.step.measured_busy_ns / 1e6 - 34.480) < 0.01);
        // One step, no ProfilerStep: first kernel start to last kernel end, 47.227 ms (python).
        QVERIFY(std::abs(c.step.measured_ns / 1e6 - 47.227) < 0.01);
        QCOMPARE(c.step.measured_idle_ns, c.step.measured_ns - c.step.measured_busy_ns);
        // The simulated step (device work plus the host-bound idle of eager dispatch) against
        // the same step measured without the profiler: 37.02 ms (h200_llama_small_training.json,
        // amp_bf16), within the 10 %.
        QVERIFY2(std::abs(c.step.simulated_ns / 1e6 - 37.02) < 0.10 * 37.02, std::to_string(c.step.simulated_ns / 1e6).c_str());
        holdMajorGroups(c);
    }

    void resnetTrace() {
        auto measured = imported("resnet50_amp_bf16_b64_h200.json.gz");
        if (!measured) QSKIP("../shared/data/traces/resnet50_amp_bf16_b64_h200.json.gz is absent");
        auto sim = simulated("resnet50");
        QVERIFY(sim);
        const MeasuredComparison c = compareWithMeasured(*sim, *measured);
        print(c);
        // cuDNN runs the 1x1 convolutions as nvjet/cutlass GEMMs: by launching op they are
        // conv (201 kernels, 4.790 ms), leaving the fc layer's 3 matmul kernels.
        QCOMPARE(row(c, "conv")->measured_count, std::int64_t(201));
        QVERIFY(std::abs(row(c, "conv")->measured_ns / 1e6 - 4.790) < 0.01);
        QCOMPARE(row(c, "matmul")->measured_count, std::int64_t(3));
        QVERIFY(std::abs(c.step.measured_busy_ns / 1e6 - 15.285) < 0.01);
        QVERIFY(std::abs(c.step.measured_ns / 1e6 - 38.163) < 0.01);
        holdMajorGroups(c);
    }

    void fitBringsCategoriesOnTrace() {
        auto measured = imported("llama_small_amp_bf16_b8s1024_h200.json.gz");
        if (!measured) QSKIP("../shared/data/traces/llama_small_amp_bf16_b8s1024_h200.json.gz is absent");
        auto sim = simulated("llama-small-h200");
        const MeasuredComparison before = compareWithMeasured(*sim, *measured);
        auto profile = engine::loadDeviceProfile("h200", engine::defaultDevicesDir());
        QVERIFY(profile.ok());
        const nlohmann::json overlay = fitProfileOverlay(before, *profile, "llama_small_amp_bf16_b8s1024_h200.json.gz");
        QVERIFY(overlay.at("efficiency_scale").contains("matmul"));
        const fs::path file = fs::path(m_dir.path().toStdString()) / "fit.json";
        std::ofstream(file) << overlay.dump(1);
        auto refit = engine::loadDeviceProfile("h200+" + file.string(), engine::defaultDevicesDir());
        QVERIFY2(refit.ok(), refit.ok() ? "" : refit.message().c_str());
        QCOMPARE(refit->overlays.size(), size_t(1));
        const MeasuredComparison after = compareWithMeasured(*simulated("llama-small-h200", "h200+" + file.string()), *measured);
        print(after);
        for (const auto& r : after.categories) {
            if (!overlay.at("efficiency_scale").contains(r.name)) continue;
            QVERIFY2(std::abs(r.error()) < 0.03, qPrintable(QStringLiteral("%1 after the fit: %2 vs %3 ms")
                                                                .arg(QString::fromStdString(r.name))
                                                                .arg(r.simulated_ns / 1e6)
                                                                .arg(r.measured_ns / 1e6)));
        }
    }

    // The four measured modes of h200_llama_small_training.json on the calibration
    // project: peak memory and the step within 10% in all of them (issue 9's bound),
    // checkpointing included (docs/calibration.md, "What the measurements imply").
    void llamaSmallSteps() {
        std::ifstream in(NPU_SHARED_DATA_DIR "/hardware/h200_llama_small_training.json");
        if (!in) QSKIP("../shared/data/hardware/h200_llama_small_training.json is absent");
        const auto doc = nlohmann::json::parse(in);
        auto base = engine::loadProject(fs::path(NPU_SOURCE_DIR) / "projects/llama-small-h200/project.json");
        QVERIFY(base.ok());
        int held = 0;
        for (const auto& run : doc.at("llama_small").at("runs")) {
            engine::Project p = *base;
            const std::string mode = run.at("mode").get<std::string>();
            const bool ckpt = run.at("ckpt").get<bool>();
            p.training.precision = mode == "amp_bf16" ? "bf16-amp" : mode;
            p.training.activation_checkpointing = ckpt ? "full" : "none";
            engine::SimulationOptions o;
            o.keepGraphs = false;
            auto r = engine::simulateProject(p, o);
            QVERIFY2(r.ok(), r.ok() ? "" : r.message().c_str());
            const double ms = run.at("step_ms").get<double>(), gb = run.at("peak_alloc_GB").get<double>();
            const double simMs = r->summary.step_time_ms, simGb = double(r->summary.peak_bytes) / 1e9;
            qInfo("%-9s%s step %.2f ms vs %.2f ms (%+.1f%%), peak %.2f GB vs %.2f GB (%+.1f%%)", mode.c_str(),
                  ckpt ? "+ckpt" : "     ", simMs, ms, 100 * (simMs / ms - 1), simGb, gb, 100 * (simGb / gb - 1));
            QVERIFY2(std::abs(simGb / gb - 1) < 0.10, qPrintable(QString::fromStdString(mode)));
            QVERIFY2(std::abs(simMs / ms - 1) < 0.10, qPrintable(QString::fromStdString(mode) + QString::fromLatin1(ckpt ? " +ckpt" : "")));
            ++held;
        }
        QCOMPARE(held, 4);
    }

    void overlayErrors() {
        engine::DeviceProfile p;
        auto bad = engine::applyDeviceOverlay(p, {{"format", "npustudio-device-overlay"}, {"version", 1},
                                                  {"efficiency_scale", {{"gemm", {{"value", 1.0}, {"source", "x"}}}}}},
                                              "o.json");
        QVERIFY(!bad.ok());
        QVERIFY(bad.message().find("o.json: efficiency_scale.gemm: unknown category") != std::string::npos);
        auto noSource = engine::applyDeviceOverlay(p, {{"format", "npustudio-device-overlay"}, {"version", 1},
                                                       {"efficiency_scale", {{"matmul", {{"value", 1.1}}}}}},
                                                   "o.json");
        QVERIFY(!noSource.ok());
        auto ok = engine::applyDeviceOverlay(p, {{"format", "npustudio-device-overlay"}, {"version", 1},
                                                 {"efficiency_scale", {{"reduction", {{"value", 2.0}, {"source", "t"}}}}}},
                                             "o.json");
        QVERIFY(ok.ok());
        QCOMPARE(p.scale(engine::OpCategory::reduce), 2.0);
        QCOMPARE(p.scale(engine::OpCategory::matmul), 1.0);
        auto missing = engine::loadDeviceProfile("h200+/nonexistent/fit.json", engine::defaultDevicesDir());
        QVERIFY(!missing.ok());
        QVERIFY(missing.message().find("/nonexistent/fit.json: cannot open device overlay") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestTraceCalibration)
#include "test_trace_calibration.moc"
