// Replays every input the fuzzers found a crash with (tests/fuzz/regressions/TARGET/*)
// and the .npuom seeds through the same entry points as the fuzz targets, in the plain
// build (and under the asan preset): each must load or fail with an error value naming
// the source, never crash.

#include "engine/onnx/onnx_importer.h"
#include "engine/ir/op_registry.h"
#include "base/gzip_codec.h"
#include "engine/npuom/offline_model.h"
#include "engine/project/project.h"
#include "tests/fuzz/fuzz_input_files.h"

#include <QTest>

#include <fstream>
#include <iostream>
#include <sstream>

using namespace npu;
using namespace npu::engine;

namespace {

using npu::fuzzing::filesIn;
using npu::fuzzing::readAll;

// tests/fuzz (looked up when a test runs: QFINDTESTDATA needs the application).
std::filesystem::path fuzzDir() { return QFINDTESTDATA("../../fuzz").toStdString(); }

// As fuzz_npuom_load: plain bytes are gzip-compressed first.
npu::Expected<ConversionResult> loadNpuomBytes(const std::string& bytes, const std::string& where) {
    if (bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f && static_cast<unsigned char>(bytes[1]) == 0x8b)
        return loadOfflineModelFromBytes(bytes, where);
    auto packed = gzipCompress(bytes);
    if (!packed) return packed.error();
    return loadOfflineModelFromBytes(*packed, where);
}

}  // namespace

class TestFuzzRegressions : public QObject {
    Q_OBJECT
private slots:
    void onnxInputs() {
        for (const auto& f : filesIn(fuzzDir() / "regressions" / "fuzz_onnx_import")) {
            auto r = importOnnxFromBytes(readAll(f), f.filename().string(), {});
            if (r)
                for (const Node& n : r->graph.nodes()) (void)OpRegistry::instance().cost(r->graph, n);
            else QVERIFY2(r.message().find(f.filename().string()) != std::string::npos, r.message().c_str());
        }
    }

    void projectInputs() {
        for (const auto& f : filesIn(fuzzDir() / "regressions" / "fuzz_project_loader")) {
            const auto doc = nlohmann::json::parse(readAll(f), nullptr, false);
            if (doc.is_discarded()) continue;
            auto p = parseProject(doc, f.string());
            if (p) QVERIFY(parseProject(projectToJson(*p), f.string()).ok());
            else QVERIFY2(p.message().find(f.string()) != std::string::npos, p.message().c_str());
        }
    }

    void npuomInputsAndSeeds() {
        int loaded = 0;
        auto files = filesIn(fuzzDir() / "regressions" / "fuzz_npuom_load");
        for (const auto& f : filesIn(fuzzDir() / "seeds_npuom")) files.push_back(f);
        QVERIFY(!files.empty());
        for (const auto& f : files) {
            auto m = loadNpuomBytes(readAll(f), f.filename().string());
            if (!m) {
                QVERIFY2(m.message().find(f.filename().string()) != std::string::npos, m.message().c_str());
                continue;
            }
            ++loaded;
            for (const Node& n : m->graph.nodes()) (void)OpRegistry::instance().cost(m->graph, n);
        }
        QVERIFY(loaded >= 3);  // the seeds are valid models
    }

    // A file from a newer build is refused naming both versions; an older one opens.
    void npuomVersions() {
        auto future = loadNpuomBytes(R"({"format": "npustudio-offline-model", "version": 7, "graph": {}})", "future.npuom");
        QVERIFY(!future.ok());
        QVERIFY2(future.message().find("version 7") != std::string::npos &&
                     future.message().find("version " + std::to_string(kNpuomFormatVersion)) != std::string::npos,
                 future.message().c_str());
        auto text = loadNpuomBytes(R"({"format": "npustudio-offline-model", "version": "1", "graph": {}})", "text.npuom");
        QVERIFY(!text.ok());
        QVERIFY2(text.message().find("\"version\"") != std::string::npos, text.message().c_str());
        auto v1 = loadNpuomBytes(R"({"format": "npustudio-offline-model", "version": 1, "graph": {"tensors": [], "nodes": []}})", "v1.npuom");
        QVERIFY2(v1.ok(), v1.ok() ? "" : v1.message().c_str());
    }
};

QTEST_GUILESS_MAIN(TestFuzzRegressions)
#include "test_fuzz_regressions.moc"
