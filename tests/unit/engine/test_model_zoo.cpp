// Zoo builders: exact parameter counts of published models, scoped names and blocks,
// config errors that name the key.
#include "engine/ir/op_registry.h"
#include "engine/models/model_zoo.h"

#include <QtTest>

using namespace npu::engine;

class TestModelZoo : public QObject {
    Q_OBJECT
private:
    static std::int64_t params(const std::string& family, const nlohmann::json& cfg, ZooShape shape = {1, 128}) {
        auto g = buildZooModel(family, cfg, shape);
        if (!g) qWarning("%s", g.message().c_str());
        return g ? g->parameterCount() : -1;
    }

private slots:
    void llama7b() {
        QCOMPARE(params("llama", {{"hidden", 4096}, {"ffn", 11008}, {"layers", 32}, {"heads", 32}, {"kv_heads", 32},
                                  {"vocab", 32000}, {"tie_embeddings", false}}),
                 std::int64_t{6738415616});
    }
    void llamaSmall() {
        QCOMPARE(params("llama", {{"hidden", 1024}, {"ffn", 2816}, {"layers", 8}, {"heads", 16}, {"vocab", 32000}}),
                 std::int64_t{168313856});
    }
    void llamaTiedAndGqa() {
        const nlohmann::json base{{"hidden", 1024}, {"ffn", 2816}, {"layers", 8}, {"heads", 16}, {"vocab", 32000}};
        auto tied = base;
        tied["tie_embeddings"] = true;
        QCOMPARE(params("llama", tied), std::int64_t{168313856 - 32000 * 1024});
        auto gqa = base;
        gqa["kv_heads"] = 4;  // k and v projections shrink to 256 outputs each
        QCOMPARE(params("llama", gqa), std::int64_t{168313856 - 8 * 2 * (1024 - 256) * 1024});
    }
    void gpt2Small() {
        QCOMPARE(params("gpt", {{"hidden", 768}, {"layers", 12}, {"heads", 12}, {"vocab", 50257}, {"max_seq", 1024}}),
                 std::int64_t{124439808});
    }
    void bertBase() {
        QCOMPARE(params("bert", {{"hidden", 768}, {"layers", 12}, {"heads", 12}, {"vocab", 30522}, {"max_seq", 512}}),
                 std::int64_t{109482240});
    }
    void resnets() {
        QCOMPARE(params("resnet", {{"depth", 50}, {"classes", 1000}, {"image", 224}}), std::int64_t{25557032});
        QCOMPARE(params("resnet", {{"depth", 18}}), std::int64_t{11689512});
        QCOMPARE(params("resnet", {{"depth", 34}}), std::int64_t{21797672});
        QCOMPARE(params("resnet", {{"depth", 101}}), std::int64_t{44549160});
        QCOMPARE(params("resnet", {{"depth", 152}}), std::int64_t{60192808});
    }
    void resnetShapes() {
        auto g = buildZooModel("resnet", {{"depth", 50}}, {64, 0});
        QVERIFY(g.ok());
        bool sawFc = false;
        for (const auto& n : g->nodes()) {
            if (n.name == "fc") {
                sawFc = true;
                QCOMPARE(g->tensor(n.outputs[0]).shape, (std::vector<std::int64_t>{64, 1000}));
            }
            if (n.name == "layer4.2.conv3") QCOMPARE(g->tensor(n.outputs[0]).shape, (std::vector<std::int64_t>{64, 2048, 7, 7}));
            if (n.name.rfind("layer2.1.", 0) == 0) QCOMPARE(n.block, std::string("layer2.1"));
        }
        QVERIFY(sawFc);
    }
    void scopedNamesAndBlocks() {
        auto g = buildZooModel("llama", {{"hidden", 256}, {"ffn", 512}, {"layers", 4}, {"heads", 4}, {"vocab", 1000}}, {2, 64});
        QVERIFY(g.ok());
        int found = 0;
        for (const auto& n : g->nodes())
            if (n.name == "layers.3.attn.q_proj") {
                ++found;
                QCOMPARE(n.block, std::string("layers.3"));
                QCOMPARE(g->tensor(n.outputs[0]).shape, (std::vector<std::int64_t>{2, 64, 256}));
            }
        QCOMPARE(found, 1);
        QCOMPARE(g->outputs.size(), size_t{2});  // loss, then the logits kept for the caller
        QCOMPARE(g->node(g->tensor(g->outputs[0]).producer).op, std::string("NLLLoss"));
    }
    // Megatron-LM's unfused attention: no scale and no mask pass over the scores (the GEMM's
    // alpha and the fused causal softmax hold them), and that softmax reads the lower
    // triangle only: half of eager's scale-free softmax traffic in, all of it out.
    void megatronAttention() {
        nlohmann::json cfg{{"hidden", 64}, {"layers", 1}, {"heads", 4}, {"vocab", 16}, {"attention", "eager"}};
        auto eager = buildZooModel("gpt", cfg, {2, 32});
        cfg["attention"] = "megatron";
        auto megatron = buildZooModel("gpt", cfg, {2, 32});
        QVERIFY(eager.ok() && megatron.ok());
        auto count = [](const Graph& g, OpKind kind) {
            int n = 0;
            for (const Node& node : g.nodes()) n += node.kind == kind && node.attrInt("attention_core", 0) != 0;
            return n;
        };
        QCOMPARE(count(*eager, OpKind::Where), 1);
        QCOMPARE(count(*eager, OpKind::Mul), 1);
        QCOMPARE(count(*megatron, OpKind::Where), 0);
        QCOMPARE(count(*megatron, OpKind::Mul), 0);
        QCOMPARE(count(*megatron, OpKind::MatMul), 2);
        auto softmax = [](const Graph& g) {
            for (const Node& node : g.nodes())
                if (node.kind == OpKind::Softmax) return OpRegistry::instance().cost(g, node);
            qFatal("no softmax");
        };
        QCOMPARE(softmax(*megatron).bytesRead, 0.5 * softmax(*eager).bytesRead);
        QCOMPARE(softmax(*megatron).bytesWritten, softmax(*eager).bytesWritten);
    }

    void configErrorsNameTheKey() {
        auto bad = buildZooModel("llama", {{"hidden", "big"}, {"ffn", 1}, {"layers", 1}, {"heads", 1}, {"vocab", 1}}, {1, 8});
        QVERIFY(!bad.ok());
        QVERIFY2(bad.message().find("model.config.hidden: expected a positive integer") != std::string::npos, bad.message().c_str());
        auto missing = buildZooModel("gpt", {{"hidden", 64}}, {1, 8});
        QVERIFY(!missing.ok());
        QVERIFY2(missing.message().find("model.config.layers") != std::string::npos, missing.message().c_str());
        auto unknown = buildZooModel("resnet", {{"depth", 50}, {"colour", 1}}, {1, 0});
        QVERIFY(!unknown.ok());
        QVERIFY2(unknown.message().find("model.config.colour: unknown key") != std::string::npos, unknown.message().c_str());
        const nlohmann::json gpt{{"hidden", 64}, {"layers", 1}, {"heads", 4}, {"vocab", 16}};
        auto attention = gpt;
        attention["attention"] = "flash";
        auto attn = buildZooModel("gpt", attention, {1, 8});
        QVERIFY(!attn.ok());
        QVERIFY2(attn.message().find("model.config.attention: expected one of \"sdpa\", \"eager\", \"megatron\", got \"flash\"") != std::string::npos,
                 attn.message().c_str());
        auto dropout = gpt;
        dropout["dropout"] = 1.5;
        auto drop = buildZooModel("gpt", dropout, {1, 8});
        QVERIFY(!drop.ok());
        QVERIFY2(drop.message().find("model.config.dropout: expected a probability in [0, 1), got 1.5") != std::string::npos,
                 drop.message().c_str());
        auto family = buildZooModel("mamba", {}, {1, 8});
        QVERIFY(!family.ok());
        QVERIFY(family.message().find("model.zoo") != std::string::npos);
        auto depth = buildZooModel("resnet", {{"depth", 42}}, {1, 0});
        QVERIFY(!depth.ok());
        QVERIFY(depth.message().find("model.config.depth") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestModelZoo)
#include "test_model_zoo.moc"
