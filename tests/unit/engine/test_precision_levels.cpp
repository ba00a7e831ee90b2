// Precision levels O0-O3 (engine/precision/precision_level): bytes of weights, fp32
// master weights, weight gradients and AdamW states per level for a small LLaMA, against
// the parameter count worked out by hand; the unscale + inf-check kernel for the fp16
// levels only; dtype summaries of a simulated step.
#include "engine/ir/op_registry.h"
#include "engine/models/model_zoo.h"
#include "engine/passes/mixed_precision_pass.h"
#include "engine/passes/training_graph_pass.h"
#include "engine/driver/simulate_project.h"
#include "engine/project/project.h"

#include <QtTest>

using namespace npu::engine;

namespace {

// hidden 64, ffn 128, 2 layers, 4 heads (= kv heads), vocab 100, untied lm_head:
//   embed + lm_head          2 * 100 * 64                         = 12,800
//   per layer: q,k,v,o 4*64*64 + gate,up,down 3*64*128 + 2 norms 2*64 = 41,088
//   final norm                                                      64
//   total 12,800 + 2 * 41,088 + 64                                  = 95,040
const nlohmann::json kSmall{{"hidden", 64}, {"ffn", 128}, {"layers", 2}, {"heads", 4}, {"vocab", 100}};
constexpr std::int64_t kParams = 95'040;

struct StateBytes {
    std::int64_t weights = 0, masters = 0, grads = 0, states = 0;
    bool unscale = false;
    double unscaleRead = 0;  // the unscale + inf-check kernel's bytes read (op registry)
};

// What the optimizer update reads, by role: it takes every trained weight with its
// gradient, master copy and states.
StateBytes stateBytes(Precision precision) {
    auto g = buildZooModel("llama", kSmall, {1, 16});
    if (!g) qFatal("%s", g.message().c_str());
    PassManager pm;
    pm.add(std::make_unique<MixedPrecisionPass>(precision));
    pm.add(std::make_unique<TrainingGraphPass>(trainingOptionsFor(precision)));
    if (auto s = pm.run(*g); !s) qFatal("%s", s.message().c_str());
    StateBytes out;
    for (const Node& n : g->nodes()) {
        if (n.kind == OpKind::GradUnscale) {
            out.unscale = true;
            out.unscaleRead = OpRegistry::instance().cost(*g, n).bytesRead;
        }
        if (n.kind != OpKind::AdamW) continue;
        for (int t : n.inputs) {
            const Tensor& x = g->tensor(t);
            const std::int64_t bytes = x.numel() * dtypeBytes(x.dtype);
            switch (x.role) {
            case TensorRole::weight: out.weights += bytes; break;
            case TensorRole::master_weight: out.masters += bytes; break;
            case TensorRole::gradient: out.grads += bytes; break;
            case TensorRole::optimizer_state: out.states += bytes; break;
            default: break;
            }
        }
    }
    if (g->parameterCount() != kParams) qFatal("parameter count %lld, expected %lld", static_cast<long long>(g->parameterCount()), static_cast<long long>(kParams));
    return out;
}

}  // namespace

class TestPrecisionLevels : public QObject {
    Q_OBJECT
private slots:
    void namesAndLevels() {
        for (const std::string& name : precisionNames()) {
            auto p = parsePrecision(name);
            QVERIFY2(p.ok(), name.c_str());
            QCOMPARE(std::string(precisionName(*p)), name);
        }
        QCOMPARE(std::string(precisionLevel(*parsePrecision("fp32"))), std::string("O0"));
        QCOMPARE(std::string(precisionLevel(*parsePrecision("bf16-amp"))), std::string("O1"));
        QCOMPARE(std::string(precisionLevel(*parsePrecision("fp16-o2"))), std::string("O2"));
        QCOMPARE(std::string(precisionLevel(*parsePrecision("bf16"))), std::string("O3"));
        auto bad = parsePrecision("bf16-o3");
        QVERIFY(!bad.ok());
        QVERIFY2(bad.message().find("bf16-o2") != std::string::npos, bad.message().c_str());
    }

    void bytesPerLevel_data() {
        QTest::addColumn<QString>("precision");
        // bytes per parameter: weights, fp32 masters, weight gradients, AdamW exp_avg + exp_avg_sq
        QTest::addColumn<int>("w");
        QTest::addColumn<int>("m");
        QTest::addColumn<int>("g");
        QTest::addColumn<int>("s");
        QTest::addColumn<bool>("unscale");
        QTest::newRow("fp32 (O0)") << "fp32" << 4 << 0 << 4 << 8 << false;
        QTest::newRow("tf32 (O0)") << "tf32" << 4 << 0 << 4 << 8 << false;
        QTest::newRow("bf16-amp (O1)") << "bf16-amp" << 4 << 0 << 4 << 8 << false;
        QTest::newRow("fp16-amp (O1)") << "fp16-amp" << 4 << 0 << 4 << 8 << true;
        // O2: half weights and gradients, fp32 masters and states: 2 + 4 + 2 + 8 = 16 (ZeRO's 16 Psi).
        QTest::newRow("bf16-o2 (O2)") << "bf16-o2" << 2 << 4 << 2 << 8 << false;
        QTest::newRow("fp16-o2 (O2)") << "fp16-o2" << 2 << 4 << 2 << 8 << true;
        // O3 pure: everything half, no master: 2 + 2 + 4 = 8.
        QTest::newRow("bf16 (O3)") << "bf16" << 2 << 0 << 2 << 4 << false;
        QTest::newRow("fp16 (O3)") << "fp16" << 2 << 0 << 2 << 4 << true;
    }
    void bytesPerLevel() {
        QFETCH(QString, precision);
        QFETCH(int, w);
        QFETCH(int, m);
        QFETCH(int, g);
        QFETCH(int, s);
        QFETCH(bool, unscale);
        auto p = parsePrecision(precision.toStdString());
        QVERIFY(p.ok());
        const StateBytes b = stateBytes(*p);
        QCOMPARE(b.weights, w * kParams);
        QCOMPARE(b.masters, m * kParams);
        QCOMPARE(b.grads, g * kParams);
        QCOMPARE(b.states, s * kParams);
        QCOMPARE(b.unscale, unscale);  // fp16 levels unscale and check for inf; bf16 needs none
        // It reads every weight gradient once (and writes it back unscaled, in place).
        QCOMPARE(b.unscaleRead, unscale ? static_cast<double>(g * kParams) : 0.0);
    }

    void projectAcceptsEveryLevel() {
        for (const std::string& name : precisionNames()) {
            nlohmann::json doc = {{"format", "npustudio-project"}, {"version", 1}, {"name", "x"},
                                  {"model", {{"zoo", "llama"}, {"config", kSmall}}}, {"training", {{"precision", name}}}};
            auto project = parseProject(doc, "p.json");
            QVERIFY2(project.ok(), project.ok() ? name.c_str() : project.message().c_str());
        }
    }

    void dtypeSummaries() {
        Project project;
        project.name = "x";
        project.model.zoo = "llama";
        project.model.config = kSmall;
        project.training.batch = 2;
        project.training.seq = 64;
        project.training.precision = "bf16-amp";
        auto r = simulateProject(project, {});
        QVERIFY2(r.ok(), r.ok() ? "" : r.message().c_str());
        const SimSummary& s = r->summary;
        QVERIFY(s.time_by_dtype_ms.count("bf16") && s.time_by_dtype_ms.count("fp32"));
        // The dtype split covers the same step-0 time as the category split.
        double byDType = 0, byCategory = 0, bytes = 0;
        for (const auto& [k, v] : s.time_by_dtype_ms) byDType += v;
        for (const auto& [k, v] : s.time_by_category_ms) byCategory += v;
        for (const auto& [k, v] : s.bytes_by_dtype) bytes += v;
        QVERIFY(std::abs(byDType - byCategory) < 1e-9 * std::max(1.0, byCategory));
        double taskBytes = 0;
        for (const SimTask& t : r->devices.at(0).tasks)
            if (t.start_ns < r->steps.at(0).end_ns && t.dur_ns > 0) taskBytes += t.bytes;
        QCOMPARE(bytes, taskBytes);
        QVERIFY(!s.loss_scale.enabled);  // bf16 needs no loss scaling
    }
};

QTEST_APPLESS_MAIN(TestPrecisionLevels)
#include "test_precision_levels.moc"
