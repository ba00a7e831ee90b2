// Where runs go and how they are recorded (runner/runs/run_recorder), and where
// `--batch --import` puts the run without --out (runner/batch/batch_import).

#include "runner/batch/batch_import.h"
#include "runner/runs/run_recorder.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <iterator>

using namespace npu;

class TestRunLocations : public QObject {
    Q_OBJECT
private slots:
    // --batch --import without --out writes <name>.npudb in the current folder, never
    // beside the input (a read-only or shared capture); the GUI keeps "beside".
    void defaultImportTarget() {
        const auto cwd = std::filesystem::current_path();
        QCOMPARE(runner::defaultImportDb("/t/run.json.gz"), cwd / "run.npudb");
        QCOMPARE(runner::defaultImportDb("/t/run.json"), cwd / "run.npudb");
        QCOMPARE(runner::defaultImportDb("/data/cluster_db_2024/cluster_analysis.db"), cwd / "cluster_analysis.npudb");
        QCOMPARE(runner::besideImportDb("/t/run.json.gz").string(), std::string("/t/run.npudb"));
        QTemporaryDir tmp;
        const std::string folder = tmp.filePath(QStringLiteral("ranks")).toStdString();
        std::filesystem::create_directories(folder);
        QCOMPARE(runner::defaultImportDb(folder + "/"), cwd / "ranks.npudb");
        QCOMPARE(runner::besideImportDb(folder + "/").string(), folder + ".npudb");
        QCOMPARE(runner::importDbFileName(folder + "/."), std::filesystem::path("ranks.npudb"));
    }

    // Recording a run and saving the project leave a sample's project.json byte for byte
    // as it is in the repository (the run goes to runs/runs.json, which is not tracked).
    void recordingKeepsTheSamplePristine() {
        const QString sample = QFINDTESTDATA("../../../projects/llama-7b-cluster/project.json");
        QVERIFY2(!sample.isEmpty(), "projects/llama-7b-cluster/project.json is tracked: it must be there");
        QTemporaryDir tmp;
        const std::filesystem::path file = tmp.filePath(QStringLiteral("project.json")).toStdString();
        std::filesystem::copy_file(sample.toStdString(), file);  // a copy: never the working sample
        const auto bytes = [](const std::filesystem::path& f) {
            std::ifstream in(f, std::ios::binary);
            return std::string(std::istreambuf_iterator<char>(in), {});
        };
        const std::string before = bytes(file);
        auto p = engine::loadProject(file);
        QVERIFY2(p, p ? "" : p.message().c_str());
        auto recorded = runner::recordRun(*p, runner::runsFolder(*p) / "sim-1.npudb", "sim-1", "simulated");
        QVERIFY(recorded.ok() && recorded.value());
        QVERIFY(engine::saveProject(*p, p->file).ok());
        QCOMPARE(bytes(file), before);
        QCOMPARE(engine::loadProject(file)->runs.size(), std::size_t{1});
    }

    void recordRunInsideProjectOnly() {
        QTemporaryDir tmp;
        engine::Project p;
        p.name = "p";
        p.model.zoo = "llama";
        p.model.config = {{"hidden", 64}, {"ffn", 128}, {"layers", 1}, {"heads", 2}, {"kv_heads", 2}, {"vocab", 100}};
        p.file = tmp.filePath(QStringLiteral("project.json")).toStdString();
        QVERIFY(engine::saveProject(p, p.file).ok());
        const auto dir = runner::runsFolder(p);
        QCOMPARE(dir, p.folder() / "runs");
        const std::string name = runner::newRunName("sim", dir);
        QVERIFY(QString::fromStdString(name).startsWith(QStringLiteral("sim-")));

        auto inside = runner::recordRun(p, dir / (name + ".npudb"), name, "simulated");
        QVERIFY(inside.ok() && inside.value());
        QCOMPARE(p.runs.size(), size_t(1));
        QCOMPARE(p.runs[0].db, "runs/" + name + ".npudb");
        auto reloaded = engine::loadProject(p.file);
        QVERIFY(reloaded.ok());
        QCOMPARE(reloaded->runs.size(), size_t(1));

        auto outside = runner::recordRun(p, "/somewhere/else/x.npudb", "x", "simulated");
        QVERIFY(outside.ok() && !outside.value());
        QCOMPARE(p.runs.size(), size_t(1));

        // Names stay unique within a second.
        std::filesystem::create_directories(dir);
        std::ofstream(dir / (name + ".npudb")) << "x";
        QVERIFY(runner::newRunName("sim", dir) != name);
    }
};

QTEST_GUILESS_MAIN(TestRunLocations)
#include "test_run_locations.moc"
