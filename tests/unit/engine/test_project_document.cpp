// engine/project/project_document and run_sidecar: saving a project changes only what was
// edited (key order, indentation and untouched sections stay as the author wrote them; an
// unedited project is not rewritten), and runs are recorded in runs/runs.json, so a sample
// in the repository stays pristine however the app is used.
#include "engine/project/project.h"
#include "engine/project/project_document.h"
#include "engine/project/run_sidecar.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <sstream>

using namespace npu::engine;

namespace {

// Keys in an order projectToJson would not give, indented by 4.
const char* kAuthored = R"({
    "name": "mine",
    "format": "npustudio-project",
    "version": 1,
    "device": "h200",
    "training": {
        "seq": 128,
        "batch": 4
    },
    "model": {
        "zoo": "llama",
        "config": {"layers": 2, "hidden": 256, "ffn": 704, "heads": 4, "vocab": 1000}
    }
}
)";

std::string readText(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::filesystem::path writeProject(const QTemporaryDir& dir, const std::string& text) {
    const std::filesystem::path file = std::filesystem::path(dir.path().toStdString()) / "project.json";
    std::ofstream(file, std::ios::binary) << text;
    return file;
}

Project loadedOrFail(const std::filesystem::path& file) {
    auto p = loadProject(file);
    if (!p) qFatal("%s", p.message().c_str());
    return *p;
}

}  // namespace

class TestProjectDocument : public QObject {
    Q_OBJECT
private slots:
    void anUneditedProjectIsNotRewritten() {
        QTemporaryDir dir;
        const auto file = writeProject(dir, kAuthored);
        const Project p = loadedOrFail(file);
        QCOMPARE(projectFileText(p), std::string(kAuthored));  // the same text, byte for byte
        QVERIFY(saveProject(p, file).ok());
        QCOMPARE(readText(file), std::string(kAuthored));
    }

    void anEditChangesOnlyItsValue() {
        QTemporaryDir dir;
        const auto file = writeProject(dir, kAuthored);
        Project p = loadedOrFail(file);
        p.training.batch = 8;
        QVERIFY(saveProject(p, file).ok());
        const std::string saved = readText(file);
        // Keys in the author's order and indentation; only the edited value moved (the
        // model's one-line config is re-laid out, its values kept).
        QVERIFY2(saved.find("{\n    \"name\": \"mine\",\n    \"format\"") == 0, saved.c_str());
        QVERIFY2(saved.find("\"seq\": 128,\n        \"batch\": 8") != std::string::npos, saved.c_str());
        QVERIFY2(saved.find("\"runs\"") == std::string::npos, saved.c_str());  // no run list added
        QCOMPARE(loadedOrFail(file).training.batch, std::int64_t{8});
    }

    void aNewSectionIsAppended() {
        QTemporaryDir dir;
        const auto file = writeProject(dir, kAuthored);
        Project p = loadedOrFail(file);
        p.parallel = {{"data_parallel", 2}};
        QVERIFY(saveProject(p, file).ok());
        const std::string saved = readText(file);
        QVERIFY2(saved.find("\"parallel\"") > saved.find("\"model\""), saved.c_str());
        QVERIFY2(saved.find("\"name\"") < saved.find("\"format\""), saved.c_str());
        QCOMPARE(loadedOrFail(file).parallel.value("data_parallel", 0), 2);
    }

    void anEditedStrategyIsWrittenAsItsSections() {
        QTemporaryDir dir;
        std::string text = kAuthored;
        text.replace(text.rfind("\n}"), 3, ",\n    \"parallel_strategy\": {\"data_parallel\": 2}\n}");
        const auto file = writeProject(dir, text);
        Project p = loadedOrFail(file);
        QCOMPARE(p.parallel.value("data_parallel", 0), 2);
        QCOMPARE(projectFileText(p), text);  // unedited: the toolchain's block stays
        p.parallel["data_parallel"] = 4;     // edited: written as parallel (a file may not hold both)
        const std::string saved = projectFileText(p);
        QVERIFY2(saved.find("parallel_strategy") == std::string::npos, saved.c_str());
        QVERIFY(saveProject(p, file).ok());
        QCOMPARE(loadedOrFail(file).parallel.value("data_parallel", 0), 4);
    }

    // training.zero_stage is parallel.zero_stage's alias: read with a notice, kept as written
    // while unedited, replaced by parallel.zero_stage once the stage is edited; the two
    // keys disagreeing is refused, naming both.
    void theZeroStageAliasIsReadAndReplacedOnEdit() {
        QTemporaryDir dir;
        std::string text = kAuthored;
        text.replace(text.find("\"batch\": 4"), 10, "\"batch\": 4,\n        \"zero_stage\": 2");
        text.replace(text.rfind("\n}"), 3, ",\n    \"parallel\": {\"data_parallel\": 4}\n}");
        const auto file = writeProject(dir, text);
        Project p = loadedOrFail(file);
        QCOMPARE(zeroStage(p), 2);
        QCOMPARE(p.notices.size(), std::size_t{1});
        QVERIFY2(p.notices[0].find("training.zero_stage is read as parallel.zero_stage") != std::string::npos, p.notices[0].c_str());
        QVERIFY(!projectToJson(p)["training"].contains("zero_stage"));  // one key in the tree
        QCOMPARE(projectToJson(p)["parallel"]["zero_stage"].get<int>(), 2);
        QCOMPARE(projectFileText(p), text);  // unedited: the author's key stays
        setZeroStage(p, 3);
        QVERIFY(saveProject(p, file).ok());
        const std::string saved = readText(file);
        QVERIFY2(saved.find("\"batch\": 4\n") != std::string::npos, saved.c_str());  // the alias is gone
        const Project again = loadedOrFail(file);
        QCOMPARE(zeroStage(again), 3);
        QVERIFY(again.notices.empty());

        std::string both = text;
        both.replace(both.find("{\"data_parallel\": 4}"), 20, "{\"data_parallel\": 4, \"zero_stage\": 1}");
        const auto refused = loadProject(writeProject(dir, both));
        QVERIFY(!refused);
        QVERIFY2(refused.message().find("training.zero_stage: 2 contradicts parallel.zero_stage: 1") != std::string::npos,
                 refused.message().c_str());
    }

    void runsGoToTheSidecar() {
        QTemporaryDir dir;
        const auto file = writeProject(dir, kAuthored);
        const Project p = loadedOrFail(file);
        QVERIFY(appendRunToSidecar(p.folder(), {"sim-1", "runs/sim-1.npudb", "2026-12-03T00:00:00Z", "simulated"}).ok());
        QVERIFY(appendRunToSidecar(p.folder(), {"imp-2", "runs/imp-2.npudb", "2026-12-03T00:00:01Z", "imported"}).ok());
        QCOMPARE(readText(file), std::string(kAuthored));  // project.json untouched
        const Project reloaded = loadedOrFail(file);
        QCOMPARE(reloaded.runs.size(), std::size_t{2});
        QCOMPARE(reloaded.runs[1].source, std::string("imported"));
        QVERIFY(saveProject(reloaded, file).ok());  // runs are not copied into project.json
        QCOMPARE(readText(file), std::string(kAuthored));
    }

    void aBrokenSidecarIsNamed() {
        QTemporaryDir dir;
        const auto file = writeProject(dir, kAuthored);
        std::filesystem::create_directories(file.parent_path() / "runs");
        std::ofstream(runSidecarPath(file.parent_path())) << "{\"format\": \"npustudio-runs\", \"runs\": [{\"db\": 3}]}";
        auto p = loadProject(file);
        QVERIFY(!p);
        QVERIFY2(p.message().find("runs/runs.json: runs[0]") != std::string::npos, p.message().c_str());
        std::ofstream(runSidecarPath(file.parent_path())) << "not json";
        auto q = loadProject(file);
        QVERIFY(!q);
        QVERIFY2(q.message().find("malformed run list") != std::string::npos, q.message().c_str());
    }

    void savingElsewhereWritesTheWholeDocument() {
        QTemporaryDir dir;
        const auto file = writeProject(dir, kAuthored);
        const Project p = loadedOrFail(file);
        const std::filesystem::path copy = file.parent_path() / "copy.json";
        QVERIFY(saveProject(p, copy).ok());
        QCOMPARE(loadedOrFail(copy).training.batch, std::int64_t{4});
        QVERIFY(readText(copy).find("\"format\": \"npustudio-project\"") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestProjectDocument)
#include "test_project_document.moc"
