// Fusion against the real H200: on the small LLaMA (bf16 autocast, batch 8, seq 1024,
// ../shared/data/hardware/h200_llama_small_training.json) graph_level 0 must stay within
// 10% of the measured eager step (37.02 ms) and graph_level 3 must predict torch.compile's
// step, 1.8-2.2x faster (issue 7), from the cost of the fused kernels.
//
// What makes both hold (issue 7): the zoo LLaMA runs RMSNorm and rotary as HF's eager code
// does (engine/models/hf_eager_ops.h: the memory-bound kernels eager pays and Inductor
// fuses), and resources/devices/h200.json is fitted on kernel time
// (make_h200_profile.py --kernel-time: matmul, attention, conv and optimizer curves from
// the traces' kernels, memory-bound kernels by bytes / achieved bandwidth per size).
#include "engine/driver/simulate_project.h"

#include <QtTest>

#include <fstream>

using namespace npu::engine;

class TestFusionCalibration : public QObject {
    Q_OBJECT
private slots:
    void llamaSmallLevels() {
        std::ifstream in(NPU_SHARED_DATA_DIR "/hardware/h200_llama_small_training.json");
        if (!in) QSKIP("../shared/data/hardware/h200_llama_small_training.json is absent");
        const auto doc = nlohmann::json::parse(in);
        double eager = 0;
        for (const auto& run : doc.at("llama_small").at("runs"))
            if (run.at("mode") == "amp_bf16" && !run.at("ckpt").get<bool>()) eager = run.at("step_ms").get<double>();
        QVERIFY(eager > 0);
        auto p = loadProject(std::filesystem::path(NPU_SOURCE_DIR) / "projects/llama-small-h200/project.json");
        QVERIFY(p.ok());
        SimulationOptions o;
        o.keepGraphs = false;
        double ms[4] = {};
        int kernels[4] = {};
        for (int level = 0; level <= 3; ++level) {
            p->optimizations["graph_level"] = level;
            auto r = simulateProject(*p, o);
            QVERIFY2(r.ok(), r.ok() ? "" : r.message().c_str());
            ms[level] = r->summary.step_time_ms;
            kernels[level] = r->kernels_per_step;
            qInfo("graph_level %d: %d kernels, step %.2f ms (eager measured %.2f ms)", level, kernels[level], ms[level], eager);
        }
        QVERIFY2(std::abs(ms[0] / eager - 1) < 0.10, qPrintable(QStringLiteral("level 0: %1 ms vs eager %2 ms").arg(ms[0]).arg(eager)));
        for (int level = 1; level <= 3; ++level) {
            QVERIFY(kernels[level] < kernels[level - 1] || level == 3);
            QVERIFY(ms[level] <= ms[level - 1]);
        }
        QVERIFY2(ms[3] >= eager / 2.2 && ms[3] <= eager / 1.8,
                 qPrintable(QStringLiteral("level 3: %1 ms, compiled range %2-%3 ms").arg(ms[3]).arg(eager / 2.2).arg(eager / 1.8)));
    }
};

QTEST_GUILESS_MAIN(TestFusionCalibration)
#include "test_fusion_calibration.moc"
