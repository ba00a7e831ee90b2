// ONNX import of the project's reference models (tests/data/models, copied from
// ../shared/data/models): exact parameter counts, forward MACs against the published
// figures, dynamic-dimension binding and unsupported-op handling.
//
// Expected parameter counts were computed independently of this importer: the models were
// decoded with `protoc --decode=onnx.ModelProto onnx/onnx.proto` and a short Python script
// summed the element counts of (a) every initializer, (b) every graph input other than the
// data input (resnet18_noweights exports its weights as inputs) and (c) every Identity
// output whose source is one of those, because torch.onnx deduplicates equal-valued
// parameters (LayerNorm ones, zero-initialised folded-BN biases) behind Identity nodes and
// each is a distinct parameter of the source model. They agree with torchvision:
// squeezenet1_1 1,235,496 (published); resnet18 11,689,512 - 9,600 BN affine params +
// 4,800 folded conv biases = 11,684,712; mobilenet_v2 3,504,872 - 17,056 (BN folded the
// same way) = 3,487,816; tiny_bert by hand: embeddings 1000x128 + 64x128, two encoder
// layers of 198,272, final LayerNorm 256, head 128x1000+1000 = 661,992.

#include "engine/onnx/onnx_importer.h"
#include "engine/ir/op_registry.h"
#include "onnx_test_models.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <fstream>

using namespace npu::engine;

namespace {

std::filesystem::path model(const char* name) { return std::filesystem::path(QFINDTESTDATA("../../data/models").toStdString()) / name; }

ConversionResult convertOk(const std::filesystem::path& file, const OnnxImportOptions& options = {}) {
    auto result = importOnnxForwardGraph(file, options);
    if (!result) qFatal("%s", result.message().c_str());
    return std::move(result).value();
}

double relativeError(double got, double want) { return std::abs(got - want) / want; }

}  // namespace

class TestOnnxImport : public QObject {
    Q_OBJECT
private slots:
    void resnet18WeightsAsInputs() {
        const auto r = convertOk(model("resnet18_noweights.onnx"));
        QCOMPARE(r.report.params, std::int64_t{11684712});
        QCOMPARE(r.graph.parameterCount(), std::int64_t{11684712});
        // Published: 1.81 GMACs (torchvision resnet18 at 224x224, batch 1).
        QVERIFY2(relativeError(static_cast<double>(r.report.forwardMacs), 1.81e9) < 0.02,
                 std::to_string(r.report.forwardMacs).c_str());
        QCOMPARE(r.graph.inputs.size(), size_t{1});  // only "input" is data
        QCOMPARE(r.graph.tensor(r.graph.inputs[0]).name, std::string("input"));
        QCOMPARE(r.report.status, std::string("ok"));
        QVERIFY(r.report.unsupported.empty());
        QVERIFY(r.report.unboundDims.empty());
        QCOMPARE(r.report.opTypes.at("Conv"), std::int64_t{20});
        QCOMPARE(r.report.opset, 13);
    }

    void squeezenet() {
        const auto r = convertOk(model("squeezenet1_1.onnx"));
        QCOMPARE(r.report.params, std::int64_t{1235496});
        // Published: 0.35 GMACs (torchvision squeezenet1_1).
        QVERIFY2(relativeError(static_cast<double>(r.report.forwardMacs), 0.35e9) < 0.02,
                 std::to_string(r.report.forwardMacs).c_str());
        // FLOPs: at least 2 per MAC, plus the elementwise work.
        QVERIFY(r.report.forwardFlops > 2 * r.report.forwardMacs);
    }

    void mobilenetDynamicBatch() {
        // By default the dynamic "batch" dim is bound to 1, with a warning: per-sample MACs
        // as published, without --input-shape.
        const auto perSample = convertOk(model("mobilenet_v2.onnx"));
        QVERIFY(perSample.report.unboundDims.empty());
        QVERIFY2(relativeError(static_cast<double>(perSample.report.forwardMacs), 0.30e9) < 0.02,
                 std::to_string(perSample.report.forwardMacs).c_str());
        QVERIFY(std::any_of(perSample.report.warnings.begin(), perSample.report.warnings.end(), [](const std::string& w) {
            return w.find("'batch'") != std::string::npos && w.find("bound to 1") != std::string::npos;
        }));
        QCOMPARE(perSample.report.params, std::int64_t{3487816});

        // Without the default, the batch dimension stays unknown and is named in the report.
        OnnxImportOptions keepDynamic;
        keepDynamic.bindBatchToOne = false;
        const auto unbound = convertOk(model("mobilenet_v2.onnx"), keepDynamic);
        QVERIFY(!unbound.report.unboundDims.empty());
        QCOMPARE(unbound.report.unboundDims.front().tensor, std::string("input"));
        QCOMPARE(unbound.report.unboundDims.front().symbol, std::string("batch"));
        QCOMPARE(unbound.report.params, std::int64_t{3487816});  // weights need no binding

        OnnxImportOptions options;
        options.inputShapes["input"] = {1, 3, 224, 224};
        const auto r = convertOk(model("mobilenet_v2.onnx"), options);
        QCOMPARE(r.report.params, std::int64_t{3487816});
        QVERIFY(r.report.unboundDims.empty());
        QCOMPARE(r.report.forwardMacs, perSample.report.forwardMacs);
        // Published: 0.30 GMACs (torchvision mobilenet_v2; 300.8 M in the paper's table).
        QVERIFY2(relativeError(static_cast<double>(r.report.forwardMacs), 0.30e9) < 0.02,
                 std::to_string(r.report.forwardMacs).c_str());
        for (const Tensor& t : r.graph.tensors()) QVERIFY2(!t.hasUnknownDims(), t.name.c_str());

        // Binding by symbol name scales linearly with the batch.
        OnnxImportOptions bySymbol;
        bySymbol.dimValues["batch"] = 8;
        const auto r8 = convertOk(model("mobilenet_v2.onnx"), bySymbol);
        QCOMPARE(r8.report.forwardMacs, 8 * r.report.forwardMacs);
    }

    // A weights-free ViT-B/16 export (tests/data/models/make_vit_b16_noweights.py): the
    // class token and position embedding are graph inputs that feed no MatMul/Conv (they go
    // through Expand/Concat/Add) and still count as parameters; the dynamic pixel input
    // does not. 86,567,656 = timm vit_base_patch16_224's parameter count.
    void vitB16WeightsFree() {
        const auto r = convertOk(model("vit_b16_noweights.onnx"));
        QCOMPARE(r.report.params, std::int64_t{86567656});
        QCOMPARE(r.report.status, std::string("ok"));
        QVERIFY(r.report.unboundDims.empty());
        // Per image: patch embedding 196*768*768, per layer QKV 197*768*2304, scores and
        // context 2*12*197*197*64, projection 197*768*768, MLP 2*197*768*3072; the head
        // 768*1000: 17,563,828,224 MACs (published: 17.6 GMACs, "17.5 GFLOPs" in timm).
        const std::int64_t perLayer = 197LL * 768 * 2304 + 2LL * 12 * 197 * 197 * 64 + 197LL * 768 * 768 +
                                      2LL * 197 * 768 * 3072;
        QCOMPARE(r.report.forwardMacs, 196LL * 768 * 768 + 12 * perLayer + 768LL * 1000);
        bool clsIsWeight = false, pixelsAreInput = false;
        for (const Tensor& t : r.graph.tensors()) {
            if (t.name == "cls_token" || t.name == "pos_embed") clsIsWeight = t.role == TensorRole::weight;
            if (t.name == "pixel_values") pixelsAreInput = t.role == TensorRole::input;
        }
        QVERIFY(clsIsWeight);
        QVERIFY(pixelsAreInput);

        // A batch given with --input-shape scales the MACs, never the parameters.
        OnnxImportOptions options;
        options.inputShapes["pixel_values"] = {4, 3, 224, 224};
        const auto r4 = convertOk(model("vit_b16_noweights.onnx"), options);
        QCOMPARE(r4.report.params, std::int64_t{86567656});
        QCOMPARE(r4.report.forwardMacs, 4 * r.report.forwardMacs);
    }

    void tinyBert() {
        OnnxImportOptions options;
        options.inputShapes["input_ids"] = {2, 64};
        const auto r = convertOk(model("tiny_bert.onnx"), options);
        QCOMPARE(r.report.params, std::int64_t{661992});
        // By hand, 128 tokens: per layer QKV 128*128*384, scores and context 2*(2*64*64*128),
        // out-proj 128*128*128, FFN 2*128*128*512 = 27,262,976; two layers plus the head
        // 128*128*1000 = 70,909,952 MACs.
        QCOMPARE(r.report.forwardMacs, std::int64_t{70909952});
        QVERIFY(r.report.unboundDims.empty());
        QCOMPARE(r.report.status, std::string("ok"));
        QVERIFY(r.report.opTypes.count("Erf"));
    }

    void weightBytesAreNotCopied() {
        // The graph holds shapes only: its in-memory footprint is far below the 14 MB file.
        const auto r = convertOk(model("mobilenet_v2.onnx"));
        size_t attrBytes = 0;
        for (const Node& n : r.graph.nodes())
            for (const auto& [k, v] : n.attrs)
                if (auto s = std::get_if<std::vector<double>>(&v)) attrBytes += s->size() * 8;
        QVERIFY(attrBytes < 10000);
        QCOMPARE(r.report.weightBytes, std::int64_t{3487816} * 4);
    }

    void targetPrecision() {
        OnnxImportOptions options;
        options.targetPrecision = DType::bf16;
        const auto r = convertOk(model("squeezenet1_1.onnx"), options);
        QCOMPARE(r.report.weightBytes, std::int64_t{1235496} * 2);
        QCOMPARE(r.report.targetPrecision, std::string("bf16"));
    }

    void unsupportedOpIsKeptOpaque() {
        const std::string bytes = onnx_test::modelWithCustomOp().encode();
        OnnxImportOptions options;
        options.inputShapes["x"] = {4, 16};
        auto r = importOnnxFromBytes(bytes, "custom.onnx", options);
        QVERIFY2(r.ok(), r.ok() ? "" : r.message().c_str());
        QCOMPARE(r->report.status, std::string("partial"));
        QCOMPARE(r->report.unsupported.size(), size_t{1});
        QCOMPARE(r->report.unsupported[0].opType, std::string("custom.domain::FancyOp"));
        QCOMPARE(r->report.unsupported[0].nodes, std::vector<std::string>{"fancy"});
        int opaque = 0;
        for (const Node& n : r->graph.nodes()) opaque += n.opaque ? 1 : 0;
        QCOMPARE(opaque, 1);
        QCOMPARE(r->graph.nodes().size(), size_t{3});  // nothing disappeared
        // Costed by bytes: reads h [4,32] fp32.
        const Node& fancy = r->graph.node(1);
        QCOMPARE(OpRegistry::instance().cost(r->graph, fancy).bytesRead, 4.0 * 32 * 4);
        QCOMPARE(OpRegistry::instance().cost(r->graph, fancy).flops, 0.0);
        QCOMPARE(r->report.params, std::int64_t{16 * 32});
        QCOMPARE(r->report.forwardMacs, std::int64_t{4 * 16 * 32});

        options.strict = true;
        auto strict = importOnnxFromBytes(bytes, "custom.onnx", options);
        QVERIFY(!strict.ok());
        QVERIFY2(strict.message().find("FancyOp (fancy)") != std::string::npos, strict.message().c_str());
        QVERIFY(strict.message().find("strict") != std::string::npos);
    }

    void shapeOnlyOpsCostNothing() {
        OnnxImportOptions options;
        options.inputShapes["input_ids"] = {2, 64};
        const auto r = convertOk(model("tiny_bert.onnx"), options);
        int reshapes = 0;
        for (const Node& n : r.graph.nodes()) {
            if (n.kind != OpKind::Reshape && n.kind != OpKind::Shape && n.kind != OpKind::Constant) continue;
            ++reshapes;
            const auto c = OpRegistry::instance().cost(r.graph, n);
            QVERIFY(OpRegistry::instance().isShapeOnly(n));
            QCOMPARE(c.bytes() + c.flops, 0.0);
        }
        QVERIFY(reshapes > 10);
    }

    void inspectListsDynamicInputs() {
        auto s = inspectOnnxModel(model("mobilenet_v2.onnx"));
        QVERIFY(s.ok());
        QCOMPARE(s->inputs.size(), size_t{1});
        QCOMPARE(s->inputs[0].name, std::string("input"));
        QCOMPARE(s->inputs[0].shape, (std::vector<std::int64_t>{-1, 3, 224, 224}));
        QCOMPARE(s->inputs[0].symbolicDims[0], std::string("batch"));
        QCOMPARE(s->opset, 13);
        auto r = inspectOnnxModel(model("resnet18_noweights.onnx"));
        QVERIFY(r.ok());
        QCOMPARE(r->inputs.size(), size_t{1});  // weights-as-inputs are not offered for binding
    }

    void inputShapeSpecs() {
        auto a = parseInputShapeSpec("input_ids:8,1024");
        QVERIFY(a.ok());
        QCOMPARE(a->first, std::string("input_ids"));
        QCOMPARE(a->second, (std::vector<std::int64_t>{8, 1024}));
        auto b = parseInputShapeSpec("onnx::input_0:1, 3,224,224");
        QVERIFY(b.ok());
        QCOMPARE(b->first, std::string("onnx::input_0"));
        QCOMPARE(b->second.size(), size_t{4});
        auto c = parseInputShapeSpec("x:?,16");
        QVERIFY(c.ok());
        QCOMPARE(c->second[0], kUnknownDim);
        for (const char* bad : {"input_ids", ":8", "x:", "x:8,", "x:8,abc", "x:0", "x:-3"}) {
            auto e = parseInputShapeSpec(bad);
            QVERIFY2(!e.ok(), bad);
            QVERIFY(e.message().find("NAME:D1,D2") != std::string::npos);
        }
    }

    void reportJsonRoundTrip() {
        const auto r = convertOk(model("squeezenet1_1.onnx"));
        const auto j = r.report.toJson();
        for (const char* key : {"status", "params", "forward_macs", "forward_flops", "nodes", "op_types", "unsupported",
                                "model", "opset", "unbound_dims", "warnings", "seconds"})
            QVERIFY2(j.contains(key), key);
        QCOMPARE(ConversionReport::fromJson(j), r.report);
        QVERIFY(r.report.seconds > 0);
    }
};

QTEST_GUILESS_MAIN(TestOnnxImport)
#include "test_onnx_import.moc"
