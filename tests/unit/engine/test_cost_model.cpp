// Device profiles (loading, validation errors) and the roofline cost model.
#include "engine/cost/cost_model.h"
#include "engine/pipeline/simulation_pipeline.h"

#include <QtTest>

using namespace npu::engine;

namespace {

nlohmann::json num(double v) { return {{"value", v}, {"source", "test"}}; }

// 100 TFLOP/s bf16, 10 TFLOP/s fp32, 1 TB/s, 1 us launch, flat efficiencies.
nlohmann::json tinyProfile() {
    return {{"format", "npustudio-device"},
            {"version", 1},
            {"name", "tiny"},
            {"peak_flops", {{"fp32", num(10e12)}, {"bf16", num(100e12)}}},
            {"hbm", {{"bytes", num(1e9)}, {"bandwidth", num(1e12)}}},
            {"cores", num(1)},
            {"launch_overhead_ns", num(1000)},
            {"efficiency",
             {{"matmul.bf16", {{"x", "flops"}, {"points", {{1e9, 0.25}, {1e11, 0.5}}}, {"source", "test"}}},
              {"memory", {{"x", "bytes"}, {"points", {{1e6, 0.5}}}, {"source", "test"}}}}}};
}

}  // namespace

class TestCostModel : public QObject {
    Q_OBJECT
private slots:
    void roofline() {
        auto p = parseDeviceProfile(tinyProfile(), "tiny.json");
        QVERIFY2(p.ok(), p.ok() ? "" : p.message().c_str());
        const CostModel model(*p);
        Graph g;
        // Compute bound: 2*4096^3 = 137 GFLOP at 100 TF x eff(1.37e11 > 1e11 -> 0.5).
        const int a = g.addTensor("a", {4096, 4096}, DType::bf16, TensorRole::activation);
        const int w = g.addTensor("w", {4096, 4096}, DType::bf16, TensorRole::weight);
        const int y = g.addTensor("y", {4096, 4096}, DType::bf16, TensorRole::activation);
        const int mm = g.addNode("MatMul", "mm", {a, w}, {y}, {}, Phase::forward, DType::bf16);
        const OpTiming t = model.time(g, g.node(mm));
        QVERIFY(t.computeBound);
        QCOMPARE(t.durationNs, std::int64_t(std::llround(2.0 * 4096 * 4096 * 4096 / (100e12 * 0.5) * 1e9 + 1000)));
        // Interpolation in log10(FLOPs): 1e10 is halfway between 1e9 and 1e11.
        QVERIFY(std::abs(p->curve("matmul.bf16")->at(1e10) - 0.375) < 1e-12);
        // Memory bound: 64 MB read + 64 MB written at 1 TB/s x 0.5.
        const int x = g.addTensor("x", {16, 1024, 1024}, DType::f32, TensorRole::activation);
        const int r = g.addTensor("r", {16, 1024, 1024}, DType::f32, TensorRole::activation);
        const int relu = g.addNode("Relu", "relu", {x}, {r});
        const OpTiming m = model.time(g, g.node(relu));
        QVERIFY(!m.computeBound);
        QCOMPARE(m.durationNs, std::int64_t(std::llround(2.0 * 64 * 1024 * 1024 * 4 / 4 / (1e12 * 0.5) * 1e9 + 1000)));
        // Views launch nothing.
        const int v = g.addTensor("v", {16, 1048576}, DType::f32, TensorRole::activation);
        const int view = g.addNode("Reshape", "view", {r}, {v});
        QCOMPARE(model.time(g, g.node(view)).durationNs, std::int64_t{0});
        // fp32 matmul uses the fp32 peak (no curve for it here: neutral 0.5).
        g.node(mm).dtype = DType::f32;
        QVERIFY(model.time(g, g.node(mm)).durationNs > 9 * t.durationNs);
    }
    void profileErrorsNameFileAndKey() {
        auto j = tinyProfile();
        j["hbm"]["bandwidth"].erase("source");
        auto p = parseDeviceProfile(j, "tiny.json");
        QVERIFY(!p.ok());
        QVERIFY2(p.message().find("tiny.json: hbm.bandwidth.source") != std::string::npos, p.message().c_str());
        j = tinyProfile();
        j["peak_flops"]["fp7"] = num(1);
        p = parseDeviceProfile(j, "tiny.json");
        QVERIFY(!p.ok() && p.message().find("peak_flops.fp7") != std::string::npos);
        j = tinyProfile();
        j["efficiency"]["memory"]["points"] = {{1e6, 1.5}};
        p = parseDeviceProfile(j, "tiny.json");
        QVERIFY(!p.ok() && p.message().find("efficiency.memory.points[0]") != std::string::npos);
        j = tinyProfile();
        j.erase("hbm");
        p = parseDeviceProfile(j, "tiny.json");
        QVERIFY(!p.ok() && p.message().find("hbm.bytes: required key is missing") != std::string::npos);
        auto missing = loadDeviceProfile("no-such-device", defaultDevicesDir());
        QVERIFY(!missing.ok() && missing.message().find("no-such-device") != std::string::npos);
    }
    void shippedProfilesLoad() {
        for (const char* name : {"h200", "ascend-910b"}) {
            auto p = loadDeviceProfile(name, defaultDevicesDir());
            QVERIFY2(p.ok(), p.ok() ? "" : p.message().c_str());
            QVERIFY(p->peak(DType::bf16) > 1e14);
            QVERIFY(p->hbmBandwidth > 1e12);
            QVERIFY(p->curve("memory") != nullptr);
        }
        auto h200 = loadDeviceProfile("h200", defaultDevicesDir());
        // The calibration anchor: 8192^3 bf16 GEMM at the measured 785 TFLOP/s.
        QVERIFY(std::abs(h200->curve("matmul.bf16")->at(2.0 * 8192.0 * 8192 * 8192) * 989.4 - 785.4) < 1.0);
    }
};

QTEST_APPLESS_MAIN(TestCostModel)
#include "test_cost_model.moc"
