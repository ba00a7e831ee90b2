// App pieces without a window: command-line parsing, where runs go and how they are
// recorded, the default import target, the job runner's cancel.

#include "app/batch_import.h"
#include "app/command_line_parser.h"
#include "app/job_runner.h"
#include "app/run_recorder.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <thread>

using namespace npu;

class TestAppPieces : public QObject {
    Q_OBJECT
private slots:
    void commandLine() {
        QCommandLineParser parser;
        app::addOptions(parser);
        QVERIFY(parser.parse({QStringLiteral("npustudio"), QStringLiteral("--batch"), QStringLiteral("--compare"),
                              QStringLiteral("a.npudb"), QStringLiteral("b.npudb"), QStringLiteral("--report"),
                              QStringLiteral("d.json")}));
        app::CommandLine cmd;
        QVERIFY(app::readCommandLine(parser, cmd).isEmpty());
        QVERIFY(cmd.batch);
        QVERIFY(cmd.compare);
        QCOMPARE(cmd.positional, std::vector<std::string>({"a.npudb", "b.npudb"}));
        QCOMPARE(cmd.report, std::string("d.json"));

        QCommandLineParser bad;
        app::addOptions(bad);
        QVERIFY(bad.parse({QStringLiteral("npustudio"), QStringLiteral("--export-csv"), QStringLiteral("--group-by"),
                           QStringLiteral("colour"), QStringLiteral("a"), QStringLiteral("b")}));
        app::CommandLine c2;
        QVERIFY(app::readCommandLine(bad, c2).contains(QStringLiteral("--group-by")));
    }

    // --batch --import without --out writes <name>.npudb in the current folder, never
    // beside the input (a read-only or shared capture); the GUI keeps "beside".
    void defaultImportTarget() {
        const auto cwd = std::filesystem::current_path();
        QCOMPARE(app::defaultImportDb("/t/run.json.gz"), cwd / "run.npudb");
        QCOMPARE(app::defaultImportDb("/t/run.json"), cwd / "run.npudb");
        QCOMPARE(app::defaultImportDb("/data/cluster_db_2024/cluster_analysis.db"), cwd / "cluster_analysis.npudb");
        QCOMPARE(app::besideImportDb("/t/run.json.gz").string(), std::string("/t/run.npudb"));
        QTemporaryDir tmp;
        const std::string folder = tmp.filePath(QStringLiteral("ranks")).toStdString();
        std::filesystem::create_directories(folder);
        QCOMPARE(app::defaultImportDb(folder + "/"), cwd / "ranks.npudb");
        QCOMPARE(app::besideImportDb(folder + "/").string(), folder + ".npudb");
        QCOMPARE(app::importDbFileName(folder + "/."), std::filesystem::path("ranks.npudb"));
    }

    void recordRunInsideProjectOnly() {
        QTemporaryDir tmp;
        engine::Project p;
        p.name = "p";
        p.model.zoo = "llama";
        p.model.config = {{"hidden", 64}, {"ffn", 128}, {"layers", 1}, {"heads", 2}, {"kv_heads", 2}, {"vocab", 100}};
        p.file = tmp.filePath(QStringLiteral("project.json")).toStdString();
        QVERIFY(engine::saveProject(p, p.file).ok());
        const auto dir = app::runsFolder(p);
        QCOMPARE(dir, p.folder() / "runs");
        const std::string name = app::newRunName("sim", dir);
        QVERIFY(QString::fromStdString(name).startsWith(QStringLiteral("sim-")));

        auto inside = app::recordRun(p, dir / (name + ".npudb"), name, "simulated");
        QVERIFY(inside.ok() && inside.value());
        QCOMPARE(p.runs.size(), size_t(1));
        QCOMPARE(p.runs[0].db, "runs/" + name + ".npudb");
        auto reloaded = engine::loadProject(p.file);
        QVERIFY(reloaded.ok());
        QCOMPARE(reloaded->runs.size(), size_t(1));

        auto outside = app::recordRun(p, "/somewhere/else/x.npudb", "x", "simulated");
        QVERIFY(outside.ok() && !outside.value());
        QCOMPARE(p.runs.size(), size_t(1));

        // Names stay unique within a second.
        std::filesystem::create_directories(dir);
        std::ofstream(dir / (name + ".npudb")) << "x";
        QVERIFY(app::newRunName("sim", dir) != name);
    }

    void jobRunnerCancels() {
        app::JobRunner jobs;
        QSignalSpy progress(&jobs, &app::JobRunner::progressChanged);
        QSignalSpy done(&jobs, &app::JobRunner::finished);
        QVERIFY(jobs.start(QStringLiteral("spin"), [](const Progress& p) {
            for (int i = 0; i < 100000 && !p.cancelled(); ++i) {
                p(i / 100000.0, "spinning");
                std::this_thread::sleep_for(std::chrono::microseconds(50));
            }
            return app::JobResult{p.cancelled() ? app::JobResult::Outcome::failed : app::JobResult::Outcome::ok, {}, {}, {}};
        }));
        QVERIFY(jobs.busy());
        QVERIFY(!jobs.start(QStringLiteral("second"), [](const Progress&) { return app::JobResult{}; }));
        QVERIFY(progress.wait(5000));
        jobs.cancel();
        QVERIFY(done.wait(10000));
        QCOMPARE(int(done.at(0).at(0).value<app::JobResult>().outcome), int(app::JobResult::Outcome::cancelled));
        QVERIFY(!jobs.busy());
        // Throttled: far fewer signals than the 100000 reports.
        QVERIFY(progress.size() < 1000);
    }
};

QTEST_GUILESS_MAIN(TestAppPieces)
#include "test_app_pieces.moc"
