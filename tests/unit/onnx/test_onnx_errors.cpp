// Files that are not convertible ONNX models must fail with a message that names the
// file and says what is wrong, never crash: empty, truncated, corrupt, other formats,
// too-new opsets, bad shape bindings.

#include "engine/onnx/onnx_importer.h"
#include "engine/npuom/offline_model.h"
#include "onnx_test_models.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <random>

using namespace npu::engine;

namespace {

std::filesystem::path model(const char* name) { return std::filesystem::path(QFINDTESTDATA("../../data/models").toStdString()) / name; }

std::string readAll(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

class TestOnnxErrors : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    std::filesystem::path write(const char* name, const std::string& bytes) {
        const auto p = std::filesystem::path(m_dir.path().toStdString()) / name;
        std::ofstream(p, std::ios::binary) << bytes;
        return p;
    }
    void expectError(const std::filesystem::path& file, const char* phrase, const OnnxImportOptions& options = {}) {
        auto r = importOnnxForwardGraph(file, options);
        QVERIFY2(!r.ok(), file.string().c_str());
        QVERIFY2(r.message().find(file.string()) != std::string::npos, r.message().c_str());
        QVERIFY2(r.message().find(phrase) != std::string::npos, r.message().c_str());
    }

private slots:
    void emptyFile() { expectError(write("empty.onnx", ""), "empty file"); }
    void missingFile() { expectError(std::filesystem::path(m_dir.path().toStdString()) / "nope.onnx", "no such file"); }
    void directory() { expectError(std::filesystem::path(m_dir.path().toStdString()), "directory"); }

    void truncatedFiles() {
        const std::string full = readAll(model("squeezenet1_1.onnx"));
        QVERIFY(full.size() > 1000);
        for (double fraction : {0.5, 0.9, 0.001}) {
            const auto p = write("truncated.onnx", full.substr(0, static_cast<size_t>(full.size() * fraction)));
            auto r = importOnnxForwardGraph(p, {});
            QVERIFY2(!r.ok(), std::to_string(fraction).c_str());
            QVERIFY2(r.message().find("truncated") != std::string::npos, r.message().c_str());
        }
    }

    void corruptBytes() {
        std::string bytes = readAll(model("resnet18_noweights.onnx"));
        std::mt19937 rng(42);
        int failures = 0, successes = 0;
        for (int round = 0; round < 50; ++round) {
            std::string copy = bytes;
            for (int k = 0; k < 20; ++k) copy[rng() % copy.size()] = static_cast<char>(rng());
            auto r = importOnnxFromBytes(copy, "corrupt.onnx", {});
            (r.ok() ? successes : failures) += 1;
            if (!r.ok()) QVERIFY2(r.message().find("corrupt.onnx") != std::string::npos, r.message().c_str());
        }
        QCOMPARE(failures + successes, 50);  // no crash; every failure named the file
    }

    void otherFormats() {
        expectError(write("model.json", "{\"format\": \"npustudio-project\"}"), "JSON");
        expectError(write("model.pt", std::string("PK\x03\x04", 4) + std::string(100, 'x')), "ZIP");
        expectError(write("notes.txt", "hello, this is not a model\n"), "not an ONNX model");
        std::string random(4096, '\0');
        std::mt19937 rng(7);
        for (auto& c : random) c = static_cast<char>(rng());
        random[0] = '\xff';
        expectError(write("random.bin", random), "not an ONNX model");
    }

    void opsetTooNew() {
        auto m = onnx_test::modelWithCustomOp(18);
        const auto p = write("opset18.onnx", m.encode());
        expectError(p, "opset 18 is newer than the newest this build supports (opset 17");
    }

    void fuzzFindings() {
        // libFuzzer found: a producer name with invalid UTF-8 made the report's JSON dump
        // throw (uncaught) when saving the .npuom or writing --report.
        const auto p = std::filesystem::path(QFINDTESTDATA("../../data/onnx/fuzz_invalid_utf8_producer.onnx").toStdString());
        auto r = importOnnxForwardGraph(p, {});
        QVERIFY2(r.ok(), r.ok() ? "" : r.message().c_str());
        const auto out = std::filesystem::path(m_dir.path().toStdString()) / "utf8.npuom";
        QVERIFY(saveOfflineModel(*r, out).ok());
        auto loaded = loadOfflineModel(out);
        QVERIFY(loaded.ok());
        QCOMPARE(loaded->graph.nodes().size(), r->graph.nodes().size());
    }

    // An axis out of range on a tensor whose rank only inference knows (a MatMul's output)
    // crashed libonnx's LayerNormalization inference (it indexes the shape by axis + rank):
    // the node is skipped with a warning naming it, and the rest of the graph keeps its
    // inferred shapes. The models are kept as fuzz regressions (tests/fuzz/regressions).
    void axisOutOfRangeOnIntermediateTensor_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("warning");
        QTest::newRow("LayerNormalization") << "layernorm_axis_on_intermediate.onnx"
                                            << "node 'ln' (LayerNormalization): axis -5 is out of range; expected a "
                                               "value in [-2, 2) for its rank-2 input 'h'";
        QTest::newRow("LayerNormalization, then Shape") << "layernorm_axis_then_shape.onnx"
                                                        << "node 'ln' (LayerNormalization): axis -5 is out of range";
        QTest::newRow("Concat") << "concat_axis_on_intermediate.onnx"
                                << "node 'cat' (Concat): axis 5 is out of range; expected a value in [-2, 2)";
        QTest::newRow("Softmax") << "softmax_axis_then_shape.onnx"
                                 << "node 'sm' (Softmax): axis 5 is out of range; expected a value in [-2, 2)";
    }
    void axisOutOfRangeOnIntermediateTensor() {
        QFETCH(QString, file);
        QFETCH(QString, warning);
        const auto p = std::filesystem::path(QFINDTESTDATA(QStringLiteral("../../fuzz/regressions/fuzz_onnx_import/") + file).toStdString());
        auto r = importOnnxFromBytes(readAll(p), file.toStdString(), {});
        QVERIFY2(r.ok(), r.ok() ? "" : r.message().c_str());
        bool warned = false;
        for (const auto& w : r->report.warnings)
            warned = warned || w.find("ONNX shape inference skipped " + warning.toStdString()) != std::string::npos;
        QVERIFY2(warned, qPrintable(QString::fromStdString(r->report.toJson()["warnings"].dump())));
        bool matmulInferred = false;
        for (const Tensor& t : r->graph.tensors())
            if (t.name == "h") matmulInferred = t.shape == std::vector<std::int64_t>{2, 8};
        QVERIFY(matmulInferred);
    }

    void badBindings() {
        const auto p = model("mobilenet_v2.onnx");
        OnnxImportOptions unknownInput;
        unknownInput.inputShapes["images"] = {1, 3, 224, 224};
        expectError(p, "no graph input (inputs: input)", unknownInput);
        OnnxImportOptions wrongRank;
        wrongRank.inputShapes["input"] = {1, 224, 224};
        expectError(p, "has rank 4", wrongRank);
        OnnxImportOptions conflict;
        conflict.inputShapes["input"] = {1, 4, 224, 224};
        expectError(p, "dimension 1 is 3 in the model", conflict);
    }
};

QTEST_GUILESS_MAIN(TestOnnxErrors)
#include "test_onnx_errors.moc"
