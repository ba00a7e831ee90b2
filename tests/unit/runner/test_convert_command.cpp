// `npustudio --batch --convert`: exit codes, the report keys and the .npuom it writes,
// driven through the batch runner's entry point as main() does.

#include "runner/batch/batch_runner.h"
#include "runner/batch/convert_command.h"
#include "engine/npuom/offline_model.h"
#include "../onnx/onnx_test_models.h"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace npu;

namespace {
std::string model(const char* name) { return QFINDTESTDATA(QStringLiteral("../../data/models/") + QString::fromUtf8(name)).toStdString(); }
nlohmann::json readJson(const std::string& path) {
    std::ifstream in(path);
    return nlohmann::json::parse(in, nullptr, false);
}
}  // namespace

class TestConvertCommand : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::string path(const char* name) const { return m_dir.filePath(QString::fromUtf8(name)).toStdString(); }

    int run(runner::CommandLine cmd, std::string* outText = nullptr, std::string* errText = nullptr) {
        cmd.batch = true;
        std::ostringstream out, err;
        const int code = runner::runBatch(cmd, out, err);
        if (outText) *outText = out.str();
        if (errText) *errText = err.str();
        return code;
    }

private slots:
    void convertsWithReport() {
        runner::CommandLine cmd;
        cmd.convertModel = model("mobilenet_v2.onnx");
        cmd.inputShapes = {"input:1,3,224,224"};
        cmd.out = path("mobilenet.npuom");
        cmd.report = path("report.json");
        std::string out;
        QCOMPARE(run(cmd, &out), 0);
        QVERIFY(out.find("parameters   3487816") != std::string::npos);
        const auto report = readJson(cmd.report);
        for (const char* key : {"status", "params", "forward_macs", "forward_flops", "nodes", "op_types", "unsupported",
                                "model", "opset", "unbound_dims", "warnings", "seconds"})
            QVERIFY2(report.contains(key), key);
        QCOMPARE(report["status"].get<std::string>(), std::string("ok"));
        QCOMPARE(report["params"].get<std::int64_t>(), std::int64_t{3487816});
        auto loaded = engine::loadOfflineModel(cmd.out);
        QVERIFY(loaded.ok());
        QCOMPARE(loaded->report.forwardMacs, report["forward_macs"].get<std::int64_t>());
    }

    void strictFailsWithTheList() {
        const auto onnxPath = path("custom.onnx");
        std::ofstream(onnxPath, std::ios::binary) << onnx_test::modelWithCustomOp().encode();
        runner::CommandLine cmd;
        cmd.convertModel = onnxPath;
        cmd.inputShapes = {"x:2,16"};
        cmd.report = path("strict.json");
        cmd.out = path("strict.npuom");
        cmd.strict = true;
        std::string err;
        QCOMPARE(run(cmd, nullptr, &err), 1);
        QVERIFY(err.find("--strict") != std::string::npos);
        QVERIFY(!std::filesystem::exists(cmd.out));
        const auto report = readJson(cmd.report);
        QCOMPARE(report["status"].get<std::string>(), std::string("failed"));
        QCOMPARE(report["unsupported"][0]["op_type"].get<std::string>(), std::string("custom.domain::FancyOp"));

        cmd.strict = false;  // default: opaque node, converted
        cmd.report = path("lenient.json");
        QCOMPARE(run(cmd), 0);
        QCOMPARE(readJson(cmd.report)["status"].get<std::string>(), std::string("partial"));
        QVERIFY(std::filesystem::exists(cmd.out));
    }

    void badInput() {
        runner::CommandLine cmd;
        cmd.convertModel = model("squeezenet1_1.onnx");
        cmd.inputShapes = {"input:1,3,abc"};
        cmd.report = path("bad.json");
        std::string err;
        QCOMPARE(run(cmd, nullptr, &err), 2);
        QVERIFY(err.find("NAME:D1,D2") != std::string::npos);
        QCOMPARE(readJson(cmd.report)["status"].get<std::string>(), std::string("error"));

        const auto notOnnx = path("notes.onnx");
        std::ofstream(notOnnx) << "just text\n";
        runner::CommandLine cmd2;
        cmd2.convertModel = notOnnx;
        QCOMPARE(run(cmd2, nullptr, &err), 2);
        QVERIFY(err.find("not an ONNX model") != std::string::npos);

        runner::CommandLine cmd3;
        cmd3.convertModel = model("squeezenet1_1.onnx");
        cmd3.precision = "int7";
        QCOMPARE(run(cmd3), 2);
    }
};

QTEST_GUILESS_MAIN(TestConvertCommand)
#include "test_convert_command.moc"
