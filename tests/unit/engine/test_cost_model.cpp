// Device profiles (loading, validation errors) and the roofline cost model.
#include "engine/cost/cost_model.h"
#include "engine/driver/simulate_project.h"

#include <QtTest>

#include <cmath>

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
    void stridedOperandsUseTheirCurve() {
        auto json = tinyProfile();
        json["efficiency"]["memory.strided"] = {{"x", "bytes"}, {"points", {{1e6, 0.25}}}, {"source", "test"}};
        auto p = parseDeviceProfile(json, "tiny.json");
        QVERIFY2(p.ok(), p.ok() ? "" : p.message().c_str());
        const CostModel model(*p);
        Graph g;
        const int x = g.addTensor("x", {1024, 1024}, DType::f32, TensorRole::activation);
        const int y = g.addTensor("y", {1024, 1024}, DType::f32, TensorRole::activation);
        const int w = g.addTensor("w", {1024}, DType::f32, TensorRole::weight);
        const int h = g.addTensor("h", {1024, 1024}, DType::bf16, TensorRole::activation);
        auto node = [&](const char* name, std::vector<int> in) {
            return g.addNode("Mul", name, std::move(in), {g.addTensor(std::string(name) + ".out", {1024, 1024}, DType::f32, TensorRole::activation)});
        };
        const int same = node("same", {x, y}), broadcast = node("broadcast", {x, w}), mixed = node("mixed", {x, h});
        // Same shape and dtype: the vectorized curve (0.5 of 1 TB/s); 12 MB -> 25.2 us with the launch.
        QCOMPARE(model.time(g, g.node(same)).durationNs, std::int64_t{std::llround(3 * 4194304 / 0.5e12 * 1e9) + 1000});
        // Broadcast weight or mixed dtypes: the strided curve, half the bandwidth here.
        QVERIFY(model.time(g, g.node(broadcast)).memoryNs > 1.9 * (2 * 4194304 + 4096) / 1e12 * 1e9);
        QCOMPARE(model.time(g, g.node(mixed)).memoryNs, (4194304 + 2097152 + 4194304) / 0.25e12 * 1e9);
        // A fused kernel is generated for its operands: the vectorized curve.
        g.node(broadcast).setOp("FusedElementwise");
        QVERIFY(!CostModel::stridedOperands(g, g.node(broadcast), OpCategory::elementwise));
    }

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
    void curveCeilingBoundsEveryPoint() {
        auto j = tinyProfile();
        j["efficiency"]["matmul.bf16"]["ceiling"] = {{"value", 0.4}, {"source", "test"}};
        auto p = parseDeviceProfile(j, "tiny.json");
        QVERIFY2(p.ok(), p.ok() ? "" : p.message().c_str());
        // Below the ceiling the points rule (0.25 at 1e9); above it the ceiling (0.5 -> 0.4).
        QCOMPARE(p->curve("matmul.bf16")->at(1e9), 0.25);
        QCOMPARE(p->curve("matmul.bf16")->at(1e12), 0.4);
        QVERIFY(p->sources.contains("efficiency.matmul.bf16.ceiling"));
        j["efficiency"]["matmul.bf16"]["ceiling"] = {{"value", 1.2}, {"source", "test"}};
        p = parseDeviceProfile(j, "tiny.json");
        QVERIFY(!p.ok() && p.message().find("efficiency.matmul.bf16.ceiling") != std::string::npos);
        j["efficiency"]["matmul.bf16"]["ceiling"] = {{"value", 0.4}};
        p = parseDeviceProfile(j, "tiny.json");
        QVERIFY(!p.ok() && p.message().find("efficiency.matmul.bf16.ceiling.source") != std::string::npos);
        // The H200's matmul never runs above its fastest measured GEMM kernel (0.822 of peak),
        // however far the trace slope maps the long microbench rows (0.89 at 8192x4096x11008).
        auto h200 = loadDeviceProfile("h200", defaultDevicesDir());
        QVERIFY(h200.ok());
        const double big = 2.0 * 8192 * 4096 * 11008;
        QVERIFY(std::abs(h200->curve("matmul.bf16")->at(big) - 0.8218) < 1e-4);
        QVERIFY(h200->curve("matmul.fp16")->at(big) <= h200->curve("matmul.bf16")->at(big));
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
        // The calibration anchor of the kernel-time fit (make_h200_profile.py --kernel-time):
        // the 8192x1024x1024 bf16 GEMM at its kernel time in the LLaMA trace, 25.4 us, within 10%.
        const double flops = 2.0 * 8192 * 1024 * 1024;
        const double us = flops / (h200->curve("matmul.bf16")->at(flops) * 989.4e12) * 1e6;
        QVERIFY2(std::abs(us / 25.4 - 1) < 0.10, qPrintable(QString::number(us)));
        // Memory-bound kernels: two curves by operand layout, both from the traces' kernels.
        QVERIFY(h200->curve("memory.strided") != nullptr);
        QVERIFY(h200->curve("memory.strided")->at(64e6) < h200->curve("memory")->at(64e6));
    }
};

QTEST_APPLESS_MAIN(TestCostModel)
#include "test_cost_model.moc"
