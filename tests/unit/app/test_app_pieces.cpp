// App pieces without a window: command-line parsing and the job runner's cancel. Where
// runs go and how they are recorded is the runner's (tests/unit/runner/test_run_locations).

#include "app/command_line_parser.h"
#include "app/job_runner.h"

#include <QSignalSpy>
#include <QTest>

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
        runner::CommandLine cmd;
        QVERIFY(app::readCommandLine(parser, cmd).isEmpty());
        QVERIFY(cmd.batch);
        QVERIFY(cmd.compare);
        QCOMPARE(cmd.positional, std::vector<std::string>({"a.npudb", "b.npudb"}));
        QCOMPARE(cmd.report, std::string("d.json"));

        QCommandLineParser bad;
        app::addOptions(bad);
        QVERIFY(bad.parse({QStringLiteral("npustudio"), QStringLiteral("--export-csv"), QStringLiteral("--group-by"),
                           QStringLiteral("colour"), QStringLiteral("a"), QStringLiteral("b")}));
        runner::CommandLine c2;
        QVERIFY(app::readCommandLine(bad, c2).contains(QStringLiteral("--group-by")));
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
