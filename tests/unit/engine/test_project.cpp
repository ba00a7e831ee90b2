// project.json: load, validation errors naming file and key, atomic save, round trip.
#include "engine/project/project.h"

#include <QtTest>

#include <fstream>

using namespace npu::engine;

namespace {
std::filesystem::path writeFile(const std::filesystem::path& dir, const std::string& name, const std::string& text) {
    const auto p = dir / name;
    std::ofstream(p) << text;
    return p;
}
const char* kValid = R"({"format": "npustudio-project", "version": 1, "name": "x",
  "model": {"zoo": "llama", "config": {"hidden": 64, "ffn": 128, "layers": 2, "heads": 4, "vocab": 100}},
  "device": "h200", "training": {"batch": 8, "seq": 128, "precision": "bf16-amp", "activation_checkpointing": "full"},
  "parallel": {"data_parallel": 1}, "runs": [{"name": "r1", "db": "runs/r1.npudb", "created": "2026-01-01T00:00:00Z", "source": "simulated"}]})";
}  // namespace

class TestProject : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::filesystem::path dir() const { return m_dir.path().toStdString(); }

    std::string errorOf(const std::string& text) {
        const auto p = writeFile(dir(), "p.json", text);
        auto r = loadProject(p);
        return r.ok() ? std::string("<ok>") : r.message();
    }

private slots:
    void loadsValid() {
        auto p = loadProject(writeFile(dir(), "valid.json", kValid));
        QVERIFY2(p.ok(), p.ok() ? "" : p.message().c_str());
        QCOMPARE(p->training.batch, std::int64_t{8});
        QCOMPARE(p->training.activation_checkpointing, std::string("full"));
        QCOMPARE(p->model.zoo, std::string("llama"));
        QCOMPARE(p->runs.size(), std::size_t{1});
        QCOMPARE(p->folder(), dir());
    }
    void errors() {
        std::string e = errorOf(R"({"format": "npustudio-project", "version": 1, "name": "x", "model": {"zoo": "llama"}, "training": {"batch": "8"}})");
        QVERIFY2(e.find("p.json: training.batch: expected an integer from 1 to 16777216, got \"8\"") != std::string::npos, e.c_str());
        // Absurd but well-formed sizes are refused before they run (issue 14): a batch x seq
        // past 2^32 tokens per micro-batch, and more micro-batches than the parse bound.
        e = errorOf(R"({"format": "npustudio-project", "version": 1, "name": "x", "model": {"zoo": "llama"}, "training": {"batch": 16777216, "seq": 1024}})");
        QVERIFY2(e.find("training.batch: batch 16777216 x seq 1024 = 17179869184 tokens per micro-batch, more than the 4294967296") != std::string::npos, e.c_str());
        e = errorOf(R"({"format": "npustudio-project", "version": 1, "name": "x", "model": {"zoo": "llama"}, "training": {"gradient_accumulation": 10000000}})");
        QVERIFY2(e.find("training.gradient_accumulation: expected an integer from 1 to 1048576, got 10000000") != std::string::npos, e.c_str());
        e = errorOf(R"({"format": "npustudio-project", "version": 1, "name": "x", "model": {"zoo": "llama"}, "trainig": {}})");
        QVERIFY2(e.find("trainig: unknown key") != std::string::npos, e.c_str());
        e = errorOf(R"({"format": "npustudio-project", "version": 1, "name": "x", "model": {"zoo": "llama"}, "training": {"precision": "fp8"}})");
        QVERIFY2(e.find("training.precision: expected one of") != std::string::npos, e.c_str());
        e = errorOf(R"({"format": "npustudio-project", "version": 1, "name": "x", "model": {"zoo": "llama"}, "optimizations": {"memory_optimizer": {"strategy": "wild"}}})");
        QVERIFY2(e.find("optimizations.memory_optimizer.strategy") != std::string::npos, e.c_str());
        e = errorOf(R"({"format": "npustudio-project", "version": 9, "name": "x", "model": {"zoo": "llama"}})");
        QVERIFY2(e.find("version: file version 9 is newer") != std::string::npos, e.c_str());
        e = errorOf(R"({"format": "npustudio-project", "version": 1, "name": "x", "model": {"zoo": "llama", "onnx": "m.onnx"}})");
        QVERIFY2(e.find("model.zoo: expected exactly one of") != std::string::npos, e.c_str());
        e = errorOf(R"({"format": "npustudio-project", "version": 1, "name": "x"})");
        QVERIFY2(e.find("model: required key is missing") != std::string::npos, e.c_str());
        e = errorOf("{\"format\": \"npustudio-project\",\n  \"version\": 1,\n  \"name\": \"x\" \"model\": {}}");
        QVERIFY2(e.find("malformed JSON at line 3, column") != std::string::npos, e.c_str());
        auto missing = loadProject(dir() / "nope.json");
        QVERIFY(!missing.ok());
        QVERIFY(missing.message().find("nope.json: cannot open") != std::string::npos);
    }
    void allProblemsAtOnce() {
        // Three problems in three sections and an unknown key: the user sees all four.
        const std::string e = errorOf(R"({"format": "npustudio-project", "version": 1, "name": "x", "model": {"zoo": "llama"},
          "training": {"batch": 0, "precision": "fp8"}, "optimizations": {"graph_level": 7}, "colour": "red"})");
        for (const char* want : {"p.json: training.batch: expected an integer from 1 to 16777216", "p.json: training.precision: expected one of",
                                 "p.json: optimizations.graph_level: expected an integer from 0 to 3", "p.json: colour: unknown key"})
            QVERIFY2(e.find(want) != std::string::npos, (std::string(want) + " missing from:\n" + e).c_str());
        QCOMPARE(std::count(e.begin(), e.end(), '\n'), 3L);  // one problem per line
    }
    void roundTripAndAtomicSave() {
        auto p = loadProject(writeFile(dir(), "valid.json", kValid));
        QVERIFY(p.ok());
        const auto out = dir() / "sub" / "saved.json";
        QVERIFY(saveProject(*p, out).ok());
        auto back = loadProject(out);
        QVERIFY2(back.ok(), back.ok() ? "" : back.message().c_str());
        QCOMPARE(projectToJson(*back), projectToJson(*p));
        for (const auto& entry : std::filesystem::directory_iterator(out.parent_path()))
            QVERIFY2(entry.path().filename().string().find(".tmp") == std::string::npos, "temporary file left behind");
        QVERIFY(!saveProject(*p, "/proc/no/such/dir/p.json").ok());
    }
    void sampleProjectsLoad() {
        for (const char* name : {"llama-7b", "llama-small-h200", "resnet50"}) {
            auto p = loadProject(std::filesystem::path(NPU_SOURCE_DIR) / "projects" / name / "project.json");
            QVERIFY2(p.ok(), p.ok() ? "" : p.message().c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestProject)
#include "test_project.moc"
