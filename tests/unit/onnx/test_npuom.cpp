// The .npuom offline model: save then load gives back exactly the converted graph and
// report (every field of every tensor and node), and broken files fail with clear errors.

#include "base/gzip_codec.h"
#include "engine/npuom/offline_model.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace npu;
using namespace npu::engine;

namespace {

std::filesystem::path model(const char* name) { return std::filesystem::path(QFINDTESTDATA("../../data/models").toStdString()) / name; }

void compareGraphs(const Graph& a, const Graph& b) {
    QCOMPARE(b.name, a.name);
    QCOMPARE(b.inputs, a.inputs);
    QCOMPARE(b.outputs, a.outputs);
    QCOMPARE(b.tensors().size(), a.tensors().size());
    QCOMPARE(b.nodes().size(), a.nodes().size());
    for (size_t i = 0; i < a.tensors().size(); ++i) {
        const Tensor& x = a.tensors()[i];
        const Tensor& y = b.tensors()[i];
        QCOMPARE(y.id, x.id);
        QCOMPARE(y.name, x.name);
        QCOMPARE(y.shape, x.shape);
        QCOMPARE(y.dtype, x.dtype);
        QCOMPARE(y.role, x.role);
        QCOMPARE(y.producer, x.producer);
        QCOMPARE(y.consumers, x.consumers);
        QCOMPARE(y.symbolicDims, x.symbolicDims);
    }
    for (size_t i = 0; i < a.nodes().size(); ++i) {
        const Node& x = a.nodes()[i];
        const Node& y = b.nodes()[i];
        QCOMPARE(y.id, x.id);
        QCOMPARE(y.op, x.op);
        QCOMPARE(y.name, x.name);
        QVERIFY2(y.attrs == x.attrs, x.name.c_str());  // same keys, value types and values
        QCOMPARE(y.inputs, x.inputs);
        QCOMPARE(y.outputs, x.outputs);
        QCOMPARE(y.phase, x.phase);
        QCOMPARE(y.dtype, x.dtype);
        QCOMPARE(y.block, x.block);
        QCOMPARE(y.forwardNode, x.forwardNode);
        QCOMPARE(y.opaque, x.opaque);
        QCOMPARE(b.isRemoved(y.id), a.isRemoved(x.id));
    }
}

}  // namespace

class TestNpuom : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::filesystem::path path(const char* name) const { return std::filesystem::path(m_dir.path().toStdString()) / name; }
    void writeRaw(const std::filesystem::path& p, const std::string& bytes) { std::ofstream(p, std::ios::binary) << bytes; }

private slots:
    void roundTrip_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("shape");
        QTest::newRow("resnet18") << QStringLiteral("resnet18_noweights.onnx") << QString();
        QTest::newRow("squeezenet") << QStringLiteral("squeezenet1_1.onnx") << QString();
        QTest::newRow("mobilenet unbound") << QStringLiteral("mobilenet_v2.onnx") << QString();
        QTest::newRow("tiny_bert") << QStringLiteral("tiny_bert.onnx") << QStringLiteral("input_ids:2,64");
    }
    void roundTrip() {
        QFETCH(QString, file);
        QFETCH(QString, shape);
        OnnxImportOptions options;
        if (!shape.isEmpty()) {
            auto spec = parseInputShapeSpec(shape.toStdString());
            QVERIFY(spec.ok());
            options.inputShapes[spec->first] = spec->second;
        }
        auto converted = importOnnxForwardGraph(model(file.toStdString().c_str()), options);
        QVERIFY(converted.ok());
        converted->graph.node(0).attrs["npu.test_float"] = 0.1 + 0.2;  // doubles survive bit-exactly
        const auto out = path("model.npuom");
        auto saved = saveOfflineModel(*converted, out);
        QVERIFY2(saved.ok(), saved.ok() ? "" : saved.message().c_str());
        auto loaded = loadOfflineModel(out);
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.message().c_str());
        compareGraphs(converted->graph, loaded->graph);
        QCOMPARE(loaded->report, converted->report);
        QCOMPARE(loaded->graph.parameterCount(), converted->report.params);
        // Shapes only: the offline model is far smaller than the weights.
        QVERIFY(static_cast<std::int64_t>(std::filesystem::file_size(out)) < std::max<std::int64_t>(converted->report.weightBytes / 10, 200000));
    }

    void removedNodesAndBackwardLinks() {
        Graph g;
        g.name = "hand";
        const int x = g.addTensor("x", {2, 3}, DType::bf16, TensorRole::input);
        const int y = g.addTensor("y", {2, 3}, DType::bf16, TensorRole::activation);
        const int dy = g.addTensor("dy", {2, 3}, DType::bf16, TensorRole::gradient);
        const int f = g.addNode("Relu", "relu", {x}, {y});
        const int b = g.addNode("ReluGrad", "relu.grad", {dy, y}, {-1}, {{"ints", std::vector<std::int64_t>{1, -2}}},
                                Phase::backward, DType::bf16);
        g.node(b).forwardNode = f;
        g.markRemoved(b);
        ConversionResult r{g, {}};
        QVERIFY(saveOfflineModel(r, path("hand.npuom")).ok());
        auto loaded = loadOfflineModel(path("hand.npuom"));
        QVERIFY(loaded.ok());
        compareGraphs(g, loaded->graph);
    }

    void brokenFiles() {
        auto expect = [&](const std::filesystem::path& p, const char* phrase) {
            auto r = loadOfflineModel(p);
            QVERIFY(!r.ok());
            QVERIFY2(r.message().find(p.string()) != std::string::npos, r.message().c_str());
            QVERIFY2(r.message().find(phrase) != std::string::npos, r.message().c_str());
        };
        writeRaw(path("empty.npuom"), "");
        expect(path("empty.npuom"), "empty file");
        writeRaw(path("plain.npuom"), "{\"format\": \"npustudio-offline-model\"}");
        expect(path("plain.npuom"), "gzip");
        writeRaw(path("other.npuom"), *gzipCompress("{\"format\": \"something-else\", \"version\": 1}"));
        expect(path("other.npuom"), "not an NPU offline model");
        writeRaw(path("future.npuom"), *gzipCompress("{\"format\": \"npustudio-offline-model\", \"version\": 99, \"graph\": {}}"));
        expect(path("future.npuom"), "version 99");
        writeRaw(path("badjson.npuom"), *gzipCompress("{\"format\": "));
        expect(path("badjson.npuom"), "does not parse");
        const std::string badIds = R"({"format": "npustudio-offline-model", "version": 1, "graph": {"tensors": [],
            "nodes": [{"op": "Relu", "name": "r", "inputs": [5], "outputs": [], "attrs": {}, "phase": "forward", "dtype": "fp32"}]}})";
        writeRaw(path("ids.npuom"), *gzipCompress(badIds));
        expect(path("ids.npuom"), "graph.nodes[0].inputs[0]");
        // An op type the registry does not model is an error unless the conversion kept it
        // opaque (and reported it).
        const std::string unknownOp = R"({"format": "npustudio-offline-model", "version": 1, "graph": {"tensors": [],
            "nodes": [{"op": "Relux", "name": "r", "inputs": [], "outputs": [], "attrs": {}, "phase": "forward", "dtype": "fp32"}]}})";
        writeRaw(path("op.npuom"), *gzipCompress(unknownOp));
        expect(path("op.npuom"), "graph.nodes[0]: node 'r' has op type 'Relux'");
        std::string opaque = unknownOp;
        opaque.replace(opaque.find("\"dtype\""), 0, "\"opaque\": true, ");
        writeRaw(path("opaque.npuom"), *gzipCompress(opaque));
        auto kept = loadOfflineModel(path("opaque.npuom"));
        QVERIFY2(kept.ok(), kept.ok() ? "" : kept.message().c_str());

        // Truncated: the first half of a valid file.
        auto converted = importOnnxForwardGraph(model("squeezenet1_1.onnx"), {});
        QVERIFY(saveOfflineModel(*converted, path("full.npuom")).ok());
        std::ifstream in(path("full.npuom"), std::ios::binary);
        std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
        writeRaw(path("half.npuom"), bytes.substr(0, bytes.size() / 2));
        expect(path("half.npuom"), "truncated");
    }
};

QTEST_GUILESS_MAIN(TestNpuom)
#include "test_npuom.moc"
