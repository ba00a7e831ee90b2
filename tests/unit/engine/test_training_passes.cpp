// Training passes: model FLOPs against Megatron-LM's formula, backward = 2x forward for
// matmuls, mixed-precision placement, recomputation, error values.
#include "engine/ir/op_registry.h"
#include "engine/models/model_zoo.h"
#include "engine/passes/activation_checkpointing_pass.h"
#include "engine/passes/mixed_precision_pass.h"
#include "engine/passes/training_graph_pass.h"
#include "engine/sim/simulator.h"

#include <QtTest>

using namespace npu::engine;

namespace {

Graph trainingGraph(const std::string& family, const nlohmann::json& cfg, ZooShape shape, Precision precision,
                    const std::string& checkpointing = "none") {
    auto g = buildZooModel(family, cfg, shape);
    if (!g) qFatal("%s", g.message().c_str());
    PassManager pm;
    pm.add(std::make_unique<MixedPrecisionPass>(precision));
    pm.add(std::make_unique<TrainingGraphPass>(trainingOptionsFor(precision)));  // as the pipeline does
    pm.add(std::make_unique<ActivationCheckpointingPass>(checkpointing));
    auto stats = pm.run(*g);
    if (!stats) qFatal("%s", stats.message().c_str());
    return std::move(*g);
}

// Megatron-LM num_floating_point_operations for SwiGLU models, causal attention counted
// as half (the engine computes only the lower triangle).
double megatronLlama(double B, double s, double L, double h, double f, double g, double a, double V) {
    return 12 * B * s * L * h * h * ((1 + g / a + s / (2 * h)) + (f / h) * 1.5 + V / (2 * L * h));
}

const nlohmann::json kLlama7b{{"hidden", 4096}, {"ffn", 11008}, {"layers", 32}, {"heads", 32}, {"kv_heads", 32}, {"vocab", 32000}};
const nlohmann::json kLlamaSmall{{"hidden", 1024}, {"ffn", 2816}, {"layers", 8}, {"heads", 16}, {"vocab", 32000}};

double flopsOf(const Graph& g, Phase phase, OpCategory category) {
    double total = 0;
    for (const Node& n : g.nodes())
        if (n.phase == phase && OpRegistry::instance().category(n.op) == category) total += OpRegistry::instance().cost(g, n).flops;
    return total;
}

}  // namespace

class TestTrainingPasses : public QObject {
    Q_OBJECT
private slots:
    void llamaFlopsMatchMegatron_data() {
        QTest::addColumn<int>("which");
        QTest::newRow("llama-7b b1 s2048") << 0;
        QTest::newRow("llama-small b8 s1024") << 1;
        QTest::newRow("llama-small gqa b2 s4096") << 2;
    }
    void llamaFlopsMatchMegatron() {
        QFETCH(int, which);
        nlohmann::json cfg = which == 0 ? kLlama7b : kLlamaSmall;
        if (which == 2) cfg["kv_heads"] = 4;
        const ZooShape shape = which == 0 ? ZooShape{1, 2048} : which == 1 ? ZooShape{8, 1024} : ZooShape{2, 4096};
        const Graph g = trainingGraph("llama", cfg, shape, Precision::bf16_amp);
        const double expected = megatronLlama(double(shape.batch), double(shape.seq), cfg["layers"], cfg["hidden"], cfg["ffn"],
                                              cfg.value("kv_heads", cfg["heads"].get<int>()), cfg["heads"], cfg["vocab"]);
        const double got = modelFlopsPerStep(g);
        QVERIFY2(std::abs(got / expected - 1) < 0.02, qPrintable(QString::number(got / expected)));
    }
    void gptFlopsMatchMegatron() {
        const nlohmann::json cfg{{"hidden", 768}, {"layers", 12}, {"heads", 12}, {"vocab", 50257}, {"max_seq", 1024}};
        const double B = 4, s = 1024, L = 12, h = 768, V = 50257;
        const Graph g = trainingGraph("gpt", cfg, {4, 1024}, Precision::fp32);
        const double expected = 72 * B * s * L * h * h * (1 + s / (12 * h) + V / (12 * L * h));  // causal: s/(6h) halved
        const double got = modelFlopsPerStep(g);
        QVERIFY2(std::abs(got / expected - 1) < 0.02, qPrintable(QString::number(got / expected)));
    }
    void backwardMatmulsAreTwiceForward() {
        const Graph g = trainingGraph("llama", kLlamaSmall, {2, 256}, Precision::bf16_amp);
        const double fwd = flopsOf(g, Phase::forward, OpCategory::matmul);
        const double bwd = flopsOf(g, Phase::backward, OpCategory::matmul);
        QVERIFY(fwd > 0);
        QVERIFY2(std::abs(bwd / fwd - 2) < 1e-9, qPrintable(QString::number(bwd / fwd)));
        const Graph r = trainingGraph("resnet", {{"depth", 18}}, {4, 0}, Precision::fp32);
        const double cf = flopsOf(r, Phase::forward, OpCategory::conv), cb = flopsOf(r, Phase::backward, OpCategory::conv);
        // conv1 has no data gradient (the images need none): slightly under 2x.
        QVERIFY2(cb / cf > 1.9 && cb / cf <= 2.0, qPrintable(QString::number(cb / cf)));
    }
    void everyForwardOpHasBackwardAndOptimizerCoversWeights() {
        const Graph g = trainingGraph("gpt", {{"hidden", 64}, {"layers", 2}, {"heads", 4}, {"vocab", 100}, {"max_seq", 32}}, {2, 32},
                                      Precision::fp32);
        int adam = 0;
        std::int64_t stateElems = 0;
        for (const Node& n : g.nodes())
            if (n.kind == OpKind::AdamW) {
                ++adam;
                for (int t : n.inputs)
                    if (g.tensor(t).role == TensorRole::optimizer_state) stateElems += g.tensor(t).numel();
            }
        QCOMPARE(adam, 1);
        QCOMPARE(stateElems, 2 * g.parameterCount());  // exp_avg + exp_avg_sq per parameter
        int linears = 0, linearGrads = 0;
        for (const Node& n : g.nodes()) {
            if (n.phase == Phase::forward && n.kind == OpKind::Linear) ++linears;
            if (n.phase == Phase::backward && n.name.find(".grad_weight") != std::string::npos) ++linearGrads;
        }
        QCOMPARE(linearGrads, linears);
    }
    void mixedPrecisionPlacement() {
        const Graph g = trainingGraph("gpt", {{"hidden", 64}, {"layers", 1}, {"heads", 4}, {"vocab", 100}, {"max_seq", 32}}, {2, 32},
                                      Precision::bf16_amp);
        bool sawWeightCast = false;
        for (const Node& n : g.nodes()) {
            if (n.phase != Phase::forward) continue;
            if (n.kind == OpKind::Linear || n.kind == OpKind::ScaledDotProductAttention) QCOMPARE(n.dtype, DType::bf16);
            if (n.kind == OpKind::LayerNormalization || n.kind == OpKind::LogSoftmax) QCOMPARE(n.dtype, DType::f32);
            if (n.kind == OpKind::Cast && g.tensor(n.inputs[0]).role == TensorRole::weight) sawWeightCast = true;
        }
        QVERIFY(sawWeightCast);
        for (const Tensor& t : g.tensors())
            if (t.role == TensorRole::weight) QCOMPARE(t.dtype, DType::f32);  // autocast keeps fp32 parameters
        const Graph pure = trainingGraph("llama", kLlamaSmall, {1, 64}, Precision::bf16_o2);
        std::int64_t masters = 0;
        for (const Tensor& t : pure.tensors()) {
            if (t.role == TensorRole::weight) QCOMPARE(t.dtype, DType::bf16);
            if (t.role == TensorRole::master_weight) masters += t.numel();
        }
        QCOMPARE(masters, pure.parameterCount());
    }
    void fullCheckpointingRecomputesBlocks() {
        const Graph plain = trainingGraph("llama", kLlamaSmall, {1, 128}, Precision::bf16_amp);
        const Graph ckpt = trainingGraph("llama", kLlamaSmall, {1, 128}, Precision::bf16_amp, "full");
        int recompute = 0, forwardInBlocks = 0;
        for (const Node& n : ckpt.nodes()) {
            if (n.phase == Phase::recompute) {
                ++recompute;
                QVERIFY(!n.block.empty());
            }
            if (n.phase == Phase::forward && !n.block.empty()) ++forwardInBlocks;
        }
        QCOMPARE(recompute, forwardInBlocks);
        QCOMPARE(ckpt.nodes().size(), plain.nodes().size() + std::size_t(recompute));
        // Recompute of a block comes right before that block's first backward node.
        const auto order = ckpt.topologicalOrder();
        for (std::size_t i = 1; i < order.size(); ++i) {
            const Node& n = ckpt.node(order[i]);
            if (n.phase == Phase::backward && ckpt.node(order[i - 1]).phase == Phase::recompute) QCOMPARE(n.block, ckpt.node(order[i - 1]).block);
        }
    }
    void memoryBoundRecomputesOnlyCheapOps() {
        const Graph sel = trainingGraph("llama", kLlamaSmall, {1, 128}, Precision::bf16_amp, "memory_bound");
        int recompute = 0;
        for (const Node& n : sel.nodes())
            if (n.phase == Phase::recompute) {
                ++recompute;
                const OpCategory c = OpRegistry::instance().category(n.op);
                QVERIFY(c != OpCategory::matmul && c != OpCategory::attention);
            }
        QVERIFY(recompute > 0);
    }
    void selectiveRecomputesTheAttentionCore() {
        // Megatron-LM's selective recomputation: Q.K^T through .V, nothing else. Eager
        // attention spells the core out (two matmuls, scale, mask, softmax); sdpa is one kernel.
        nlohmann::json eager = kLlamaSmall;
        eager["attention"] = "eager";
        for (const nlohmann::json& config : {kLlamaSmall, eager}) {
            const Graph sel = trainingGraph("llama", config, {1, 128}, Precision::bf16_o2, "selective");
            int recompute = 0, matmuls = 0;
            for (const Node& n : sel.nodes())
                if (n.phase == Phase::recompute) {
                    ++recompute;
                    const Node& f = sel.node(n.forwardNode);
                    QVERIFY2(f.attrInt("attention_core", 0) != 0 || OpRegistry::instance().category(f.op) == OpCategory::attention, f.name.c_str());
                    if (f.kind == OpKind::MatMul) ++matmuls;
                }
            const int layers = static_cast<int>(config.value("layers", std::int64_t{0}));
            QVERIFY(recompute > 0);
            QCOMPARE(matmuls, config == eager ? 2 * layers : 0);  // scores and context per layer
        }
    }
    void errorsAreValues() {
        auto g = buildZooModel("llama", kLlamaSmall, {1, 16});
        QVERIFY(g.ok());
        ActivationCheckpointingPass unknown("some");
        auto r = unknown.run(*g);
        QVERIFY(!r.ok());
        QVERIFY(r.message().find("training.activation_checkpointing") != std::string::npos);
        TrainingGraphPass bad(TrainingOptions{"lamb", false, false});
        auto b = bad.run(*g);
        QVERIFY(!b.ok());
        QVERIFY(b.message().find("training.optimizer") != std::string::npos);
        QVERIFY(!parsePrecision("fp8").ok());
    }
};

QTEST_APPLESS_MAIN(TestTrainingPasses)
#include "test_training_passes.moc"
