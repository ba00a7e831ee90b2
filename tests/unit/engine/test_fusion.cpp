// Graph fusion: every pass keeps the step's FLOPs on every zoo model and on the real ONNX
// models of tests/data/models; each pattern fires where the model has it (tiny_bert:
// LayerNorm, GELU, attention; resnet18/mobilenet: conv + BN + ReLU/Clip; LLaMA: RMSNorm
// with its residual Add, SwiGLU, rotary, cross-entropy) and on hand-built graphs; levels
// and passes_off gate passes; fused nodes list what they replaced.
#include "engine/frontends/model_loader.h"
#include "engine/ir/op_registry.h"
#include "engine/models/graph_builder.h"
#include "engine/models/model_zoo.h"
#include "engine/passes/activation_checkpointing_pass.h"
#include "engine/passes/fusion/fusion_passes.h"
#include "engine/passes/graph_cost_summary.h"
#include "engine/passes/mixed_precision_pass.h"
#include "engine/passes/training_graph_pass.h"
#include "engine/driver/simulate_project.h"
#include "tests/unit/engine/sample_projects.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

#include <map>

using namespace npu::engine;

namespace {

struct Fused {
    std::map<std::string, int> patterns;  // pattern -> fused nodes
    std::vector<PassStats> stats;
    Graph graph;
};

// Training graph (bf16 autocast unless told) with optional activation checkpointing, then
// every fusion pass at `level`.
Fused fuseTraining(Graph graph, int level = 3, const std::string& checkpointing = "none", Precision precision = Precision::bf16_amp) {
    PassManager training;
    training.add(std::make_unique<MixedPrecisionPass>(precision));
    training.add(std::make_unique<TrainingGraphPass>(TrainingOptions{}));
    training.add(std::make_unique<ActivationCheckpointingPass>(checkpointing));
    auto t = training.run(graph);
    if (!t) qFatal("%s", t.message().c_str());
    PassManager fusion;
    addFusionPasses(fusion);
    fusion.setLevel(level);
    auto s = fusion.run(graph);
    if (!s) qFatal("%s", s.message().c_str());
    Fused f;
    f.stats = *s;
    for (const Node& n : graph.nodes())
        if (const std::string p = n.attrString("pattern"); !p.empty()) ++f.patterns[p];
    f.graph = std::move(graph);
    return f;
}

Graph onnxModel(const char* file) {
    ModelSource src;
    src.onnx = QFINDTESTDATA(QString::fromUtf8("../../data/models/") + QString::fromUtf8(file)).toStdString();
    if (src.onnx.empty()) qFatal("tests/data/models/%s is missing", file);
    if (std::string(file) == "mobilenet_v2.onnx") src.inputs["input"] = {2, 3, 224, 224};
    auto g = loadModelGraph(src, "/");
    if (!g) qFatal("%s", g.message().c_str());
    ensureTrainingLoss(*g);
    return std::move(*g);
}

void checkFlopsKept(const Fused& f) {
    for (const PassStats& s : f.stats) {
        QVERIFY2(std::abs(s.flopsAfter - s.flopsBefore) <= 1e-9 * s.flopsBefore, s.pass.c_str());
        QVERIFY2(s.kernelsAfter <= s.kernelsBefore, s.pass.c_str());
        QVERIFY2(s.bytesAfter <= s.bytesBefore * (1 + 1e-9), s.pass.c_str());
    }
    QVERIFY(f.stats.back().kernelsAfter < f.stats.front().kernelsBefore);
}

}  // namespace

class TestFusion : public QObject {
    Q_OBJECT
private slots:
    void flopsKeptOnEveryZooModel_data() {
        QTest::addColumn<QString>("family");
        for (const auto& f : zooFamilies()) QTest::newRow(f.c_str()) << QString::fromStdString(f);
    }
    void flopsKeptOnEveryZooModel() {
        QFETCH(QString, family);
        const std::string fam = family.toStdString();
        nlohmann::json cfg = fam == "resnet" ? nlohmann::json{{"depth", 18}}
                                             : nlohmann::json{{"hidden", 128}, {"layers", 2}, {"heads", 4}, {"vocab", 500}};
        if (fam == "llama") cfg["ffn"] = 256;
        if (fam != "resnet" && fam != "llama") cfg["max_seq"] = 64;
        auto g = buildZooModel(fam, cfg, {2, fam == "resnet" ? 0 : 64});
        QVERIFY2(g.ok(), g.ok() ? "" : g.message().c_str());
        const double before = summarizeGraphCost(*g).flops;
        QVERIFY(before > 0);
        const Fused f = fuseTraining(std::move(*g));
        checkFlopsKept(f);
    }

    // Selective recomputation interleaves recomputed norms with the backward, so a fused
    // node can sit after a reader of one of its parts; the convexity walk must still see
    // every path (it once let residual-add-norm close a cycle, and nodes were lost).
    void flopsKeptWithRecomputation_data() {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<int>("level");
        for (const char* m : {"selective", "full"})
            for (int level : {2, 3}) QTest::newRow((std::string(m) + " level " + std::to_string(level)).c_str()) << QString::fromUtf8(m) << level;
    }
    void flopsKeptWithRecomputation() {
        QFETCH(QString, mode);
        QFETCH(int, level);
        for (Precision precision : {Precision::bf16_amp, Precision::bf16_o2}) {
            auto g = buildZooModel("gpt", {{"hidden", 128}, {"layers", 2}, {"heads", 4}, {"vocab", 500}, {"max_seq", 64}}, {2, 64});
            QVERIFY2(g.ok(), g.ok() ? "" : g.message().c_str());
            const Fused f = fuseTraining(std::move(*g), level, mode.toStdString(), precision);
            checkFlopsKept(f);
            QVERIFY(f.patterns.count("residual_add_norm"));
        }
    }

    void flopsKeptOnOnnxModels_data() {
        QTest::addColumn<QString>("file");
        for (const char* m : {"tiny_bert.onnx", "resnet18_noweights.onnx", "mobilenet_v2.onnx"}) QTest::newRow(m) << QString::fromUtf8(m);
    }
    void flopsKeptOnOnnxModels() {
        QFETCH(QString, file);
        const Fused f = fuseTraining(onnxModel(file.toUtf8().constData()));
        checkFlopsKept(f);
    }

    void tinyBertPatterns() {
        const Fused f = fuseTraining(onnxModel("tiny_bert.onnx"));
        QVERIFY2(f.patterns.count("layer_norm") || f.patterns.count("residual_add_norm"), "no LayerNorm fused");
        // GELU (erf form) is fused, then runs in linear1's epilogue with its bias.
        bool geluFused = false;
        for (const Node& n : f.graph.nodes())
            geluFused = geluFused || (n.attrString("fused_nodes").find("/enc/layers.0/Erf,") != std::string::npos &&
                                      n.attrString("fused_nodes").find("/enc/layers.0/Mul_1") != std::string::npos);
        QVERIFY(geluFused);
        QCOMPARE(f.patterns.count("flash_attention"), std::size_t{1});
        // Flash attention: no S x S probabilities written in forward or read in backward.
        for (const Node& n : f.graph.nodes()) {
            QVERIFY2(n.kind != OpKind::Softmax && n.kind != OpKind::SoftmaxGrad, n.name.c_str());
            if (n.kind == OpKind::FusedAttention) QVERIFY(!n.attrString("fused_nodes").empty());
        }
    }

    void convBnActivationOnVisionModels_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("minimum");
        // resnet18: the stem conv and the first conv of each of the 8 basic blocks feed a
        // ReLU directly (the second feeds the residual Add). mobilenet_v2: every expand
        // and depthwise conv feeds a ReLU6 (Clip).
        QTest::newRow("resnet18") << QStringLiteral("resnet18_noweights.onnx") << 9;
        QTest::newRow("mobilenet_v2") << QStringLiteral("mobilenet_v2.onnx") << 30;
    }
    void convBnActivationOnVisionModels() {
        QFETCH(QString, file);
        QFETCH(int, minimum);
        // Inference fold: the exported models have BN folded into the convs already.
        Graph g = onnxModel(file.toUtf8().constData());
        PassManager pm;
        addFusionPasses(pm);
        auto s = pm.run(g);
        QVERIFY(s.ok());
        Fused f;
        for (const Node& n : g.nodes())
            if (const std::string p = n.attrString("pattern"); !p.empty()) ++f.patterns[p];
        const int fused = f.patterns.count("conv_bn_activation") ? f.patterns.at("conv_bn_activation") : 0;
        const int act = f.patterns.count("conv_activation") ? f.patterns.at("conv_activation") : 0;
        QVERIFY2(fused + act >= minimum, qPrintable(QStringLiteral("%1 conv kernels with a fused epilogue").arg(fused + act)));
    }

    void resnetTrainingFusesBnActivation() {
        auto g = buildZooModel("resnet", {{"depth", 18}}, {2, 0});
        QVERIFY(g.ok());
        const Fused f = fuseTraining(std::move(*g), 2);
        QVERIFY(f.patterns.count("bn_activation"));
        QVERIFY(!f.patterns.count("conv_bn_activation"));  // training keeps the conv apart
        for (const Node& n : f.graph.nodes()) QVERIFY2(n.kind != OpKind::FusedConv, n.name.c_str());
    }

    void llamaPatterns() {
        auto g = buildZooModel("llama", {{"hidden", 256}, {"ffn", 512}, {"layers", 2}, {"heads", 4}, {"vocab", 1000}}, {2, 64});
        QVERIFY(g.ok());
        const Fused f = fuseTraining(std::move(*g));
        for (const char* p : {"residual_add_norm", "swiglu", "rotary", "cross_entropy", "matmul_epilogue"})
            QVERIFY2(f.patterns.count(p), p);
        // Fused cross-entropy: the fp32 log-probabilities are neither written nor read.
        for (const Node& n : f.graph.nodes()) {
            QVERIFY2(n.kind != OpKind::LogSoftmax && n.kind != OpKind::LogSoftmaxGrad, n.name.c_str());
            if (n.attrString("pattern") == "cross_entropy" && n.phase == Phase::backward) {
                for (int t : n.inputs) QVERIFY(f.graph.tensor(t).dtype != DType::f32 || f.graph.tensor(t).numel() < 1000 * 64);
                QVERIFY(n.forwardNode >= 0 && f.graph.node(n.forwardNode).attrString("pattern") == "cross_entropy");
            }
        }
        // Attention stays the flash kernel PyTorch already runs.
        int sdpa = 0;
        for (const Node& n : f.graph.nodes()) sdpa += n.kind == OpKind::ScaledDotProductAttention;
        QCOMPARE(sdpa, 2);
    }

    // A tied embedding's two gradients meet in an accumulate at the end of the backward (the
    // embedding's comes last). The lm_head's weight-gradient GEMM must not fuse with that
    // Add: fused, it would wait for the embedding's backward and hold the logits' gradient
    // through the whole backward (Megatron adds into main_grad when the GEMM runs).
    void tiedLmHeadGradientRunsWithTheLmHead() {
        Project p;
        p.name = "gpt-tied";
        p.device = "a100-80gb";
        p.model.zoo = "gpt";
        p.model.config = {{"hidden", 256}, {"layers", 2}, {"heads", 4}, {"vocab", 1000}, {"max_seq", 64}};
        p.training.batch = 2;
        p.training.seq = 64;
        p.training.precision = "bf16-o2";
        p.optimizations = {{"graph_level", 2}};
        SimulationOptions o;
        o.keepGraphs = false;
        const SimulationResult r = testing::simulateOrFail(p, o);
        std::int64_t lmHeadWeightGrad = -1, embeddingBackward = -1;
        for (const auto& d : r.devices)
            for (const SimTask& t : d.tasks) {
                if (t.phase != Phase::backward) continue;
                if (t.name.rfind("lm_head.grad_weight", 0) == 0) lmHeadWeightGrad = t.start_ns;
                if (t.name.rfind("wte.grad", 0) == 0) embeddingBackward = std::max(embeddingBackward, t.start_ns);  // the embedding table's
            }
        QVERIFY(lmHeadWeightGrad >= 0 && embeddingBackward >= 0);
        QVERIFY2(lmHeadWeightGrad < embeddingBackward, "the lm_head's weight gradient waited for the embedding's backward");
    }

    void elementwiseChainRespectsRegisterCap() {
        GraphBuilder b("chain");
        int x = b.input("x", {64, 64}, DType::f32);
        for (int i = 0; i < 12; ++i) x = b.op(OpKind::Relu, "relu" + std::to_string(i), {x});
        b.markOutput(x);
        auto g = b.finish();
        QVERIFY(g.ok());
        PassManager pm;
        addFusionPasses(pm);
        pm.setLevel(1);
        auto s = pm.run(*g);
        QVERIFY(s.ok());
        QCOMPARE(summarizeGraphCost(*g).kernels, 2);  // 8 + 4 under the 8-op cap
        const Node& first = g->node(0);
        QCOMPARE(first.attrString("pattern"), std::string("elementwise"));
        QCOMPARE(first.attrString("fused_nodes"), std::string("relu0,relu1,relu2,relu3,relu4,relu5,relu6,relu7"));
        // Boundary bytes only: one read of x, one write of the result.
        QCOMPARE(OpRegistry::instance().cost(*g, first).bytes(), 2.0 * 64 * 64 * 4);
    }

    void swigluBackwardRecomputes() {
        auto g = buildZooModel("llama", {{"hidden", 128}, {"ffn", 256}, {"layers", 1}, {"heads", 4}, {"vocab", 500}}, {1, 32});
        QVERIFY(g.ok());
        const Fused f = fuseTraining(std::move(*g), 2);
        QCOMPARE(f.patterns.count("swiglu") ? f.patterns.at("swiglu") : 0, 2);  // forward and backward kernels
        // silu(gate) is recomputed by the backward kernel, never stored.
        for (const Node& n : f.graph.nodes())
            for (int t : n.inputs) QVERIFY2(f.graph.tensor(t).name != "layers.0.mlp.act", n.name.c_str());
    }

    void swigluOnHandBuiltGraph() {
        GraphBuilder b("mlp");
        const int x = b.input("x", {8, 32}, DType::f32);
        const int wg = b.weight("wg", {64, 32}), wu = b.weight("wu", {64, 32});
        const int gate = b.op(OpKind::Linear, "gate", {x, wg}), up = b.op(OpKind::Linear, "up", {x, wu});
        const int m = b.op(OpKind::Mul, "mul", {b.op(OpKind::SiLU, "act", {gate}), up});
        b.markOutput(b.op(OpKind::MeanLoss, "loss", {m}));
        auto g = b.finish();
        QVERIFY(g.ok());
        const Fused f = fuseTraining(std::move(*g), 2);
        QCOMPARE(f.patterns.count("swiglu") ? f.patterns.at("swiglu") : 0, 2);
        for (const Node& n : f.graph.nodes())
            if (n.attrString("pattern") == "swiglu" && n.phase == Phase::forward)
                QVERIFY2(n.attrString("fused_nodes").rfind("act,mul", 0) == 0, n.attrString("fused_nodes").c_str());
    }

    void levelsAndPassesOff() {
        auto build = [] {
            return *buildZooModel("llama", {{"hidden", 128}, {"ffn", 256}, {"layers", 1}, {"heads", 4}, {"vocab", 500}}, {1, 32});
        };
        QCOMPARE(fuseTraining(build(), 0).stats.size(), std::size_t{0});
        const Fused l1 = fuseTraining(build(), 1);
        for (const PassStats& s : l1.stats) QCOMPARE(s.level, 1);
        QVERIFY(!l1.stats.empty());
        const int k1 = summarizeGraphCost(l1.graph).kernels;
        const int k3 = summarizeGraphCost(fuseTraining(build(), 3).graph).kernels;
        QVERIFY(k3 < k1);

        Graph g = build();
        PassManager pm;
        addFusionPasses(pm);
        pm.setDisabled({"swiglu"});
        auto s = pm.run(g);
        QVERIFY(s.ok());
        for (const PassStats& p : *s) QVERIFY(p.pass != "swiglu");
        PassManager bad;
        addFusionPasses(bad);
        bad.setDisabled({"no-such-pass"});
        auto e = bad.run(g);
        QVERIFY(!e.ok());
        QVERIFY2(e.message().find("optimizations.passes_off: unknown pass \"no-such-pass\"") != std::string::npos, e.message().c_str());
    }

    void projectPassesOffIsChecked() {
        QTemporaryDir dir;
        const std::string file = dir.filePath(QStringLiteral("project.json")).toStdString();
        nlohmann::json doc = nlohmann::json::parse(std::ifstream(std::string(NPU_SOURCE_DIR) + "/projects/llama-small-h200/project.json"));
        doc["optimizations"] = {{"graph_level", 2}, {"passes_off", "swiglu"}};
        std::ofstream(file) << doc.dump();
        auto bad = loadProject(file);
        QVERIFY(!bad.ok());
        QVERIFY2(bad.message().find("optimizations.passes_off: expected an array of pass names") != std::string::npos, bad.message().c_str());
        doc["optimizations"]["passes_off"] = {"swiglu"};
        std::ofstream(file) << doc.dump();
        auto good = loadProject(file);
        QVERIFY2(good.ok(), good.ok() ? "" : good.message().c_str());
    }

    void deterministic() {
        auto build = [] {
            return *buildZooModel("llama", {{"hidden", 128}, {"ffn", 256}, {"layers", 2}, {"heads", 4}, {"vocab", 500}}, {1, 32});
        };
        const Fused a = fuseTraining(build()), b = fuseTraining(build());
        QCOMPARE(a.graph.nodes().size(), b.graph.nodes().size());
        for (std::size_t i = 0; i < a.graph.nodes().size(); ++i) QCOMPARE(a.graph.nodes()[i].name, b.graph.nodes()[i].name);
    }

    void pipelineRecordsPassesAndGraphs() {
        auto p = loadProject(std::filesystem::path(NPU_SOURCE_DIR) / "projects/llama-small-h200/project.json");
        QVERIFY(p.ok());
        p->training.batch = 1;
        p->training.seq = 128;
        p->optimizations["graph_level"] = 3;
        auto r = simulateProject(*p, {});
        QVERIFY2(r.ok(), r.ok() ? "" : r.message().c_str());
        QCOMPARE(r->graph_level, 3);
        QVERIFY(!r->passes.empty());
        QCOMPARE(r->passes.back().kernels_after, r->kernels_per_step);
        QVERIFY(r->graph_before_fusion.size() > r->graph_after_fusion.size());
        QVERIFY(r->graph_after_fusion.find("\"fused_nodes\"") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestFusion)
#include "test_fusion.moc"
