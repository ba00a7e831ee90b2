// The zoo LLaMA in HF's eager form (engine/models/hf_eager_ops.h): RMSNorm and rotary as
// the kernels transformers' modeling_llama.py runs, with autocast's dtypes (RMSNorm in
// fp32 on the fp32 residual stream, rotary promoted to fp32 by the fp32 cos/sin), the
// tensors autograd saves (the fp32 normalised activation of every RMSNorm), and the
// rms-norm and rotary patterns fusing them back, forward and backward, on hand-built
// graphs and on the zoo model.
#include "engine/ir/op_registry.h"
#include "engine/models/graph_builder.h"
#include "engine/models/hf_eager_ops.h"
#include "engine/models/model_zoo.h"
#include "engine/passes/fusion/fusion_context.h"
#include "engine/passes/fusion/fusion_passes.h"
#include "engine/passes/graph_cost_summary.h"
#include "engine/passes/mixed_precision_pass.h"
#include "engine/passes/training_graph_pass.h"

#include <QtTest>

#include <map>

using namespace npu::engine;

namespace {

const nlohmann::json kSmall{{"hidden", 128}, {"ffn", 256}, {"layers", 2}, {"heads", 4}, {"vocab", 500}};

void train(Graph& g, Precision precision) {
    PassManager pm;
    pm.add(std::make_unique<MixedPrecisionPass>(precision));
    pm.add(std::make_unique<TrainingGraphPass>(TrainingOptions{}));
    auto s = pm.run(g);
    if (!s) qFatal("%s", s.message().c_str());
}

std::vector<PassStats> fuse(Graph& g, int level) {
    PassManager pm;
    addFusionPasses(pm);
    pm.setLevel(level);
    auto s = pm.run(g);
    if (!s) qFatal("%s", s.message().c_str());
    return *s;
}

std::map<std::string, int> opCounts(const Graph& g, Phase phase) {
    std::map<std::string, int> out;
    for (const Node& n : g.nodes())
        if (n.phase == phase) ++out[n.op];
    return out;
}

int patternCount(const Graph& g, const std::string& pattern, Phase phase) {
    int n = 0;
    for (const Node& node : g.nodes()) n += node.phase == phase && node.attrString("pattern") == pattern;
    return n;
}

const Node* nodeNamed(const Graph& g, const std::string& name) {
    for (const Node& n : g.nodes())
        if (n.name == name) return &n;
    return nullptr;
}

// x -> HF RMSNorm -> HF rotary -> mean loss, x a weight-derived activation so that
// every node gets a gradient.
Graph handBuilt(bool withRotary) {
    GraphBuilder b("hf_blocks");
    const int in = b.input("x", {2, 16, 64}, DType::f32);
    const int w = b.weight("proj.weight", {64, 64});
    int x = b.op(OpKind::Linear, "proj", {in, w});
    x = addHfRmsNorm(b, x, b.weight("norm.weight", {64}), "norm");
    if (withRotary) x = addHfRotary(b, x, b.buffer("cos", {16, 1, 16}), b.buffer("sin", {16, 1, 16}), 4, 16, "rope");
    b.markOutput(b.op(OpKind::MeanLoss, "loss", {x}));
    auto g = b.finish();
    if (!g) qFatal("%s", g.message().c_str());
    return std::move(*g);
}

}  // namespace

class TestHfEagerFusion : public QObject {
    Q_OBJECT
private slots:
    void zooLlamaRunsHfEagerKernels() {
        auto g = buildZooModel("llama", kSmall, {2, 64});
        QVERIFY(g.ok());
        train(*g, Precision::bf16_amp);
        const auto fwd = opCounts(*g, Phase::forward);
        const int norms = 2 * 2 + 1, rotaries = 2 * 2;
        QVERIFY(!fwd.count("RMSNorm") && !fwd.count("Rotary"));
        QCOMPARE(fwd.at("Pow"), norms);
        QCOMPARE(fwd.at("ReduceMean"), norms);
        QCOMPARE(fwd.at("Rsqrt"), norms);
        QCOMPARE(fwd.at("Neg"), rotaries);
        QCOMPARE(fwd.at("SliceView"), 2 * rotaries);
        // rotate_half's cat per rotary, and the DynamicCache cat of k and v per layer.
        QCOMPARE(fwd.at("Concat"), rotaries + 2 * 2);
        // Autocast: the residual stream is fp32, so x.to(float32) and .to(input_dtype) are
        // no-ops (no Cast/CastLike left on the norm); the norm computes and returns fp32.
        QVERIFY(!nodeNamed(*g, "layers.0.input_layernorm.to_fp32"));
        QVERIFY(!nodeNamed(*g, "layers.0.input_layernorm.to_input_dtype"));
        const Node* scale = nodeNamed(*g, "layers.0.input_layernorm.scale");
        QVERIFY(scale);
        QCOMPARE(g->tensor(scale->outputs[0]).dtype, DType::f32);
        // Rotary: bf16 q times fp32 cos is fp32; rotate_half stays bf16.
        QCOMPARE(g->tensor(nodeNamed(*g, "layers.0.attn.rotary_q.add")->outputs[0]).dtype, DType::f32);
        QCOMPARE(g->tensor(nodeNamed(*g, "layers.0.attn.rotary_q.neg")->outputs[0]).dtype, DType::bf16);
        // Autograd keeps the fp32 normalised activation for the weight's gradient.
        const Node* normalize = nodeNamed(*g, "layers.0.input_layernorm.normalize");
        QVERIFY(normalize);
        const Tensor& saved = g->tensor(normalize->outputs[0]);
        QCOMPARE(saved.dtype, DType::f32);
        bool readByBackward = false;
        for (int c : saved.consumers) readByBackward = readByBackward || g->node(c).phase == Phase::backward;
        QVERIFY(readByBackward);
        // Rotary's backward saves no activation: neither Neg's nor the slices' inputs.
        for (const Node& n : g->nodes()) {
            if (n.phase != Phase::backward) continue;
            QVERIFY2(n.op != "NegGrad" && n.op != "ConcatGrad" && n.op != "SliceViewGrad", n.name.c_str());
            if (n.kind == OpKind::SliceBackward) QCOMPARE(n.inputs.size(), std::size_t{1});
        }
    }

    void fusedOpsOption() {
        nlohmann::json cfg = kSmall;
        cfg["hf_eager_ops"] = false;
        auto g = buildZooModel("llama", cfg, {2, 64});
        QVERIFY(g.ok());
        const auto fwd = opCounts(*g, Phase::forward);
        QCOMPARE(fwd.at("RMSNorm"), 5);
        QCOMPARE(fwd.at("Rotary"), 4);
        QVERIFY(!fwd.count("Pow") && !fwd.count("Concat"));
        cfg["hf_eager_ops"] = "yes";
        auto bad = buildZooModel("llama", cfg, {2, 64});
        QVERIFY(!bad.ok());
        QVERIFY2(bad.message().find("model.config.hf_eager_ops") != std::string::npos, bad.message().c_str());
    }

    void rmsNormFusesForwardAndBackward_data() {
        QTest::addColumn<int>("precision");
        QTest::newRow("bf16-amp") << static_cast<int>(Precision::bf16_amp);
        QTest::newRow("bf16") << static_cast<int>(Precision::bf16);
        QTest::newRow("fp32") << static_cast<int>(Precision::fp32);
    }
    void rmsNormFusesForwardAndBackward() {
        QFETCH(int, precision);
        Graph g = handBuilt(false);
        train(g, static_cast<Precision>(precision));
        const double flops = summarizeGraphCost(g).flops;
        const int kernels = summarizeGraphCost(g).kernels;
        fuse(g, 2);
        QCOMPARE(patternCount(g, "rms_norm", Phase::forward), 1);
        QCOMPARE(patternCount(g, "rms_norm", Phase::backward), 1);
        for (const Node& n : g.nodes()) {
            QVERIFY2(!isOp(n, {OpKind::Pow, OpKind::ReduceMean, OpKind::Rsqrt, OpKind::CastLike}), n.name.c_str());
            if (n.attrString("pattern") == "rms_norm" && n.phase == Phase::forward) {
                const std::string parts = n.attrString("fused_nodes");
                for (const char* p : {"norm.pow", "norm.mean", "norm.add_eps", "norm.rsqrt", "norm.normalize", "norm.scale"})
                    QVERIFY2(parts.find(p) != std::string::npos, parts.c_str());
                // Pure bf16: the upcast and the cast back are inside the kernel.
                if (static_cast<Precision>(precision) == Precision::bf16)
                    QVERIFY2(parts.find("norm.to_fp32") != std::string::npos && parts.find("norm.to_input_dtype") != std::string::npos, parts.c_str());
            }
        }
        QCOMPARE(summarizeGraphCost(g).flops, flops);
        QVERIFY(summarizeGraphCost(g).kernels < kernels);
    }

    void rotaryFusesForwardAndBackward() {
        Graph g = handBuilt(true);
        train(g, Precision::bf16_amp);
        const double flops = summarizeGraphCost(g).flops;
        fuse(g, 2);
        QCOMPARE(patternCount(g, "rotary", Phase::forward), 1);
        QCOMPARE(patternCount(g, "rotary", Phase::backward), 1);
        for (const Node& n : g.nodes()) {
            QVERIFY2(!isOp(n, {OpKind::Neg, OpKind::Concat, OpKind::SliceBackward}), n.name.c_str());
            if (n.attrString("pattern") == "rotary" && n.phase == Phase::forward)
                QVERIFY2(n.attrString("fused_nodes").find("rope.rotate_half") != std::string::npos, n.attrString("fused_nodes").c_str());
        }
        QCOMPARE(summarizeGraphCost(g).flops, flops);
    }

    void zooLlamaFusesBack() {
        auto build = [] {
            auto g = buildZooModel("llama", kSmall, {2, 64});
            if (!g) qFatal("%s", g.message().c_str());
            train(*g, Precision::bf16_amp);
            return std::move(*g);
        };
        Graph eager = build();
        const auto eagerCost = summarizeGraphCost(eager);
        int kernels[4] = {eagerCost.kernels, 0, 0, 0};
        for (int level = 1; level <= 3; ++level) {
            Graph g = build();
            fuse(g, level);
            const auto cost = summarizeGraphCost(g);
            kernels[level] = cost.kernels;
            QCOMPARE(cost.flops, eagerCost.flops);
            QVERIFY(cost.bytes < eagerCost.bytes);
            if (level >= 2) {
                // Every decomposed RMSNorm and rotary is gone, forward and backward.
                for (const Node& n : g.nodes())
                    QVERIFY2(!isOp(n, {OpKind::Pow, OpKind::ReduceMean, OpKind::Rsqrt, OpKind::Neg, OpKind::SliceBackward}) && n.op != "RsqrtGrad", n.name.c_str());
                QCOMPARE(patternCount(g, "rotary", Phase::forward), 4);
                QCOMPARE(patternCount(g, "rotary", Phase::backward), 4);
                // Norms: fused on their own or with the residual add in front.
                QCOMPARE(patternCount(g, "rms_norm", Phase::forward) + patternCount(g, "residual_add_norm", Phase::forward), 5);
            }
        }
        QVERIFY(kernels[1] < kernels[0]);
        QVERIFY(kernels[2] < kernels[1]);
        QVERIFY(kernels[3] <= kernels[2]);
    }
};

QTEST_GUILESS_MAIN(TestHfEagerFusion)
#include "test_hf_eager_fusion.moc"
