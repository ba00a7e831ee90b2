// Regression suites end to end through the real npustudio: every case kind, exit codes
// 0/1/2, --update-baseline, determinism, -j, --shard and --merge, JUnit, bad suites.

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <sqlite3.h>

class TestRegressionSuites : public QObject {
    Q_OBJECT

    struct Run {
        int exitCode = -1;
        QString out, err;
    };

    Run npustudio(const QStringList& args) {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("DISPLAY"));
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("minimal"));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(NPUSTUDIO_EXE), args);
        if (!p.waitForFinished(240000)) {
            p.kill();
            p.waitForFinished();
            return {};
        }
        return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2, QString::fromUtf8(p.readAllStandardOutput()),
                QString::fromUtf8(p.readAllStandardError())};
    }

    QString path(const QString& name) const { return m_tmp.filePath(name); }

    void write(const QString& name, const QJsonObject& doc) {
        QFile f(path(name));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(doc).toJson());
    }

    static QJsonObject readJson(const QString& file) {
        QFile f(file);
        if (!f.open(QIODevice::ReadOnly)) return {};
        return QJsonDocument::fromJson(f.readAll()).object();
    }

    static QJsonObject metric(double rel) { return {{QStringLiteral("rel"), rel}}; }

    // Drops what legitimately differs between two runs: wall times and output paths.
    static QJsonObject stable(QJsonObject report) {
        QJsonArray cases;
        for (const QJsonValue& v : report[QStringLiteral("cases")].toArray()) {
            QJsonObject c = v.toObject();
            c.remove(QStringLiteral("wall_ms"));
            c.remove(QStringLiteral("db"));
            cases.append(c);
        }
        report[QStringLiteral("cases")] = cases;
        return report;
    }

    // Every row of every table of an .npudb as text, table by table in name order, rows in
    // rowid order, minus what legitimately differs between two runs of the same case:
    // the run's name (a timestamp) and the passes' wall times (PASS_STATS.ms).
    static QStringList npudbContent(const QString& file) {
        QStringList rows;
        sqlite3* db = nullptr;
        if (sqlite3_open_v2(file.toUtf8().constData(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
            sqlite3_close(db);
            return {QStringLiteral("cannot open ") + file};
        }
        QStringList tables;
        sqlite3_stmt* st = nullptr;
        sqlite3_prepare_v2(db, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name", -1, &st, nullptr);
        while (sqlite3_step(st) == SQLITE_ROW) tables << QString::fromUtf8(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)));
        sqlite3_finalize(st);
        for (const QString& table : tables) {
            const QByteArray sql = "SELECT * FROM \"" + table.toUtf8() + "\"";
            if (sqlite3_prepare_v2(db, sql.constData(), -1, &st, nullptr) != SQLITE_OK) continue;
            while (sqlite3_step(st) == SQLITE_ROW) {
                QStringList cells;
                for (int c = 0; c < sqlite3_column_count(st); ++c) {
                    const QString column = QString::fromUtf8(sqlite3_column_name(st, c));
                    if (table == QStringLiteral("PASS_STATS") && column == QStringLiteral("ms")) continue;
                    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(st, c));
                    cells << (text ? QString::fromUtf8(text) : QStringLiteral("NULL"));
                }
                if (table == QStringLiteral("META_DATA") && !cells.isEmpty() && cells.front() == QStringLiteral("run")) continue;
                rows << table + QLatin1Char('|') + cells.join(QLatin1Char('|'));
            }
            sqlite3_finalize(st);
        }
        sqlite3_close(db);
        return rows;
    }

    QTemporaryDir m_tmp;

private slots:
    void initTestCase() {
        QVERIFY(m_tmp.isValid());
        // The project next to the suite, so relative paths resolve against the suite folder.
        QDir().mkpath(path(QStringLiteral("tiny")));
        QVERIFY(QFile::copy(QFINDTESTDATA("../data/projects/tiny-llama/project.json"),
                            path(QStringLiteral("tiny/project.json"))));
        // A .npudb to import: the cluster traces imported once.
        const Run imported = npustudio({QStringLiteral("--batch"), QStringLiteral("--import"),
                                        QFINDTESTDATA("../data/traces/cluster"), QStringLiteral("--out"),
                                        path(QStringLiteral("cluster.npudb"))});
        QCOMPARE(imported.exitCode, 0);
        const QJsonArray cases = {
            QJsonObject{{QStringLiteral("name"), QStringLiteral("tiny")},
                        {QStringLiteral("project"), QStringLiteral("tiny/project.json")},
                        {QStringLiteral("metrics"), QJsonObject{{QStringLiteral("step_time_ms"), metric(0.02)},
                                                                {QStringLiteral("memory.peak_bytes"), metric(0.01)}}}},
            QJsonObject{{QStringLiteral("name"), QStringLiteral("tiny-b4")},
                        {QStringLiteral("project"), QStringLiteral("tiny/project.json")},
                        {QStringLiteral("set"), QJsonObject{{QStringLiteral("training.batch"), 4},
                                                            {QStringLiteral("parallel.tensor_parallel"), 2}}},
                        {QStringLiteral("metrics"), QJsonObject{{QStringLiteral("training.batch"),
                                                                 QJsonObject{{QStringLiteral("min"), 4}, {QStringLiteral("max"), 4}}},
                                                                {QStringLiteral("step_time_ms"), metric(0.02)}}}},
            QJsonObject{{QStringLiteral("name"), QStringLiteral("convert")},
                        {QStringLiteral("convert"), QFINDTESTDATA("../data/models/resnet18_noweights.onnx")},
                        {QStringLiteral("metrics"), QJsonObject{{QStringLiteral("forward_macs"), metric(0)}}}},
            QJsonObject{{QStringLiteral("name"), QStringLiteral("trace")},
                        {QStringLiteral("import"), QFINDTESTDATA("../data/traces/cluster")},
                        {QStringLiteral("metrics"),
                         QJsonObject{{QStringLiteral("devices[*].comm_comp_overlap_pct"), QJsonObject{{QStringLiteral("abs"), 0.5}}}}}},
            QJsonObject{{QStringLiteral("name"), QStringLiteral("npudb")},
                        {QStringLiteral("import"), QStringLiteral("cluster.npudb")},
                        {QStringLiteral("metrics"), QJsonObject{{QStringLiteral("devices[0].kernels"), metric(0)}}}},
        };
        write(QStringLiteral("suite.json"), {{QStringLiteral("version"), 1}, {QStringLiteral("cases"), cases}});
    }

    void updateBaselineThenPass() {
        const QString baseline = path(QStringLiteral("baseline.json"));
        const Run first = npustudio({QStringLiteral("--batch"), path(QStringLiteral("suite.json")), QStringLiteral("--baseline"),
                                     baseline, QStringLiteral("--update-baseline"), QStringLiteral("--out"),
                                     path(QStringLiteral("runs-a")), QStringLiteral("-j"), QStringLiteral("2")});
        QVERIFY2(first.exitCode == 0, qPrintable(first.out + first.err));
        const QJsonObject b = readJson(baseline);
        QCOMPARE(b[QStringLiteral("format")].toString(), QStringLiteral("npustudio-suite-baseline"));
        QCOMPARE(b[QStringLiteral("cases")].toObject().size(), 5);
        // Wildcards are stored per element, with the element's index.
        QVERIFY(b[QStringLiteral("cases")][QStringLiteral("trace")][QStringLiteral("metrics")].toObject().contains(
            QStringLiteral("devices[1].comm_comp_overlap_pct")));
        // Runs inside the baseline's folder are named relative to it (the panel opens them).
        QCOMPARE(b[QStringLiteral("cases")][QStringLiteral("tiny")][QStringLiteral("db")].toString(),
                 QStringLiteral("runs-a/tiny/run.npudb"));
        QVERIFY(QDir(m_tmp.path()).entryList({QStringLiteral("baseline.json.tmp-*")}).isEmpty());
        // The project the suite checked was not edited (no run recorded in it).
        QVERIFY(!readJson(path(QStringLiteral("tiny/project.json"))).contains(QStringLiteral("runs")));

        const Run second = npustudio({QStringLiteral("--batch"), path(QStringLiteral("suite.json")), QStringLiteral("--baseline"),
                                      baseline, QStringLiteral("--out"), path(QStringLiteral("runs-b")), QStringLiteral("--report"),
                                      path(QStringLiteral("r1.json")), QStringLiteral("--junit"), path(QStringLiteral("j.xml"))});
        QVERIFY2(second.exitCode == 0, qPrintable(second.out + second.err));
        QVERIFY(second.out.contains(QStringLiteral("5 case(s): 5 passed, 0 failed, 0 could not run")));
        QVERIFY2(second.out.contains(QStringLiteral("tiny-b4")) && second.out.contains(QStringLiteral("training.batch")),
                 qPrintable(second.out));
        QVERIFY(second.err.contains(QStringLiteral("[5/5]")));  // progress on stderr
        const QJsonObject r1 = readJson(path(QStringLiteral("r1.json")));
        QCOMPARE(r1[QStringLiteral("exit_code")].toInt(), 0);
        QCOMPARE(r1[QStringLiteral("cases")].toArray().size(), 5);
        QCOMPARE(r1[QStringLiteral("cases")][0][QStringLiteral("baseline_db")].toString(),
                 QDir::cleanPath(path(QStringLiteral("runs-a/tiny/run.npudb"))));
        QFile junit(path(QStringLiteral("j.xml")));
        QVERIFY(junit.open(QIODevice::ReadOnly));
        const QByteArray xml = junit.readAll();
        QVERIFY(xml.contains("<testsuite name=\"suite\" tests=\"5\" failures=\"0\" errors=\"0\""));

        // Deterministic: the same suite again (in parallel this time) gives the same report.
        const Run third = npustudio({QStringLiteral("--batch"), path(QStringLiteral("suite.json")), QStringLiteral("--baseline"),
                                     baseline, QStringLiteral("--out"), path(QStringLiteral("runs-c")), QStringLiteral("--report"),
                                     path(QStringLiteral("r2.json")), QStringLiteral("-j"), QStringLiteral("3")});
        QCOMPARE(third.exitCode, 0);
        QCOMPARE(stable(readJson(path(QStringLiteral("r2.json")))), stable(r1));
        // ... and the same database content (apart from the run's timestamped name and wall times).
        const QStringList dbA = npudbContent(path(QStringLiteral("runs-a/tiny/run.npudb")));
        const QStringList dbC = npudbContent(path(QStringLiteral("runs-c/tiny/run.npudb")));
        QVERIFY2(dbA.size() > 100, qPrintable(dbA.join(QLatin1Char('\n')).left(300)));
        QCOMPARE(dbC, dbA);
    }

    void regressionAndBudgetExitOne() {
        // A baseline 10 % off for one metric: a regression, named, exit 1.
        QJsonObject b = readJson(path(QStringLiteral("baseline.json")));
        QJsonObject cases = b[QStringLiteral("cases")].toObject();
        QJsonObject tiny = cases[QStringLiteral("tiny")].toObject();
        QJsonObject metrics = tiny[QStringLiteral("metrics")].toObject();
        metrics[QStringLiteral("step_time_ms")] = metrics[QStringLiteral("step_time_ms")].toDouble() * 1.1;
        tiny[QStringLiteral("metrics")] = metrics;
        cases[QStringLiteral("tiny")] = tiny;
        b[QStringLiteral("cases")] = cases;
        write(QStringLiteral("baseline-off.json"), b);
        const Run run = npustudio({QStringLiteral("--batch"), path(QStringLiteral("suite.json")), QStringLiteral("--baseline"),
                                   path(QStringLiteral("baseline-off.json")), QStringLiteral("--out"), path(QStringLiteral("runs-d")),
                                   QStringLiteral("--junit"), path(QStringLiteral("j-off.xml"))});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.out.contains(QStringLiteral("regression: moved")), qPrintable(run.out));
        QVERIFY(run.out.contains(QStringLiteral("fail: tiny")));
        QFile junit(path(QStringLiteral("j-off.xml")));
        QVERIFY(junit.open(QIODevice::ReadOnly));
        QVERIFY(junit.readAll().contains("<failure message=\"step_time_ms: moved"));

        // A budget: peak memory below 1 kB cannot hold.
        write(QStringLiteral("budget.json"),
              {{QStringLiteral("cases"),
                QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("tiny")},
                                       {QStringLiteral("project"), QStringLiteral("tiny/project.json")},
                                       {QStringLiteral("metrics"), QJsonObject{{QStringLiteral("memory.peak_bytes"),
                                                                                QJsonObject{{QStringLiteral("max"), 1000}}}}}}}}});
        const Run budget = npustudio({QStringLiteral("--batch"), path(QStringLiteral("budget.json")), QStringLiteral("--out"),
                                      path(QStringLiteral("runs-e"))});
        QCOMPARE(budget.exitCode, 1);
        QVERIFY2(budget.out.contains(QStringLiteral("budget:")) && budget.out.contains(QStringLiteral("above max 1000")),
                 qPrintable(budget.out));
    }

    void aCaseThatCannotRunIsNamedAndTheOthersRun() {
        write(QStringLiteral("broken.json"),
              {{QStringLiteral("cases"),
                QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("bad-set")},
                                       {QStringLiteral("project"), QStringLiteral("tiny/project.json")},
                                       {QStringLiteral("set"), QJsonObject{{QStringLiteral("training.colour"), QStringLiteral("red")}}}},
                           QJsonObject{{QStringLiteral("name"), QStringLiteral("missing-metric")},
                                       {QStringLiteral("project"), QStringLiteral("tiny/project.json")},
                                       {QStringLiteral("metrics"), QJsonObject{{QStringLiteral("devices[3].x"), metric(0)}}}},
                           QJsonObject{{QStringLiteral("name"), QStringLiteral("fine")},
                                       {QStringLiteral("project"), QStringLiteral("tiny/project.json")},
                                       {QStringLiteral("metrics"), QJsonObject{{QStringLiteral("step_time_ms"),
                                                                                QJsonObject{{QStringLiteral("min"), 0}}}}}}}}});
        const Run run = npustudio({QStringLiteral("--batch"), path(QStringLiteral("broken.json")), QStringLiteral("--out"),
                                   path(QStringLiteral("runs-f")), QStringLiteral("-j"), QStringLiteral("2"), QStringLiteral("--report"),
                                   path(QStringLiteral("broken-report.json"))});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.out.contains(QStringLiteral("error: bad-set (")) && run.out.contains(QStringLiteral("training.colour: unknown key")),
                 qPrintable(run.out));
        QVERIFY2(run.out.contains(QStringLiteral("error: missing-metric (")), qPrintable(run.out));
        const QJsonArray cases = readJson(path(QStringLiteral("broken-report.json")))[QStringLiteral("cases")].toArray();
        QCOMPARE(cases.size(), 3);
        QCOMPARE(cases[2][QStringLiteral("status")].toString(), QStringLiteral("pass"));
    }

    void shardsMergeIntoTheWholeSuite() {
        const QString baseline = path(QStringLiteral("baseline.json"));
        for (const char* shard : {"1/2", "2/2"}) {
            const Run run = npustudio({QStringLiteral("--batch"), path(QStringLiteral("suite.json")), QStringLiteral("--baseline"),
                                       baseline, QStringLiteral("--shard"), QLatin1String(shard), QStringLiteral("--out"),
                                       path(QStringLiteral("runs-s")), QStringLiteral("--report"),
                                       path(QStringLiteral("shard-%1.json").arg(QLatin1Char(shard[0])))});
            QCOMPARE(run.exitCode, 0);
        }
        QCOMPARE(readJson(path(QStringLiteral("shard-1.json")))[QStringLiteral("cases")].toArray().size(), 3);
        QCOMPARE(readJson(path(QStringLiteral("shard-2.json")))[QStringLiteral("cases")].toArray().size(), 2);
        const Run merged = npustudio({QStringLiteral("--batch"), QStringLiteral("--merge"), path(QStringLiteral("shard-2.json")),
                                      path(QStringLiteral("shard-1.json")), QStringLiteral("--report"), path(QStringLiteral("all.json")),
                                      QStringLiteral("--junit"), path(QStringLiteral("all.xml"))});
        QVERIFY2(merged.exitCode == 0, qPrintable(merged.out + merged.err));
        QJsonObject all = stable(readJson(path(QStringLiteral("all.json"))));
        QCOMPARE(all[QStringLiteral("shards")].toArray().size(), 2);
        all.remove(QStringLiteral("shards"));
        QCOMPARE(all, stable(readJson(path(QStringLiteral("r1.json")))));
        // The same shard twice is refused.
        const Run twice = npustudio({QStringLiteral("--batch"), QStringLiteral("--merge"), path(QStringLiteral("shard-1.json")),
                                     path(QStringLiteral("shard-1.json")), QStringLiteral("--report"), path(QStringLiteral("x.json"))});
        QCOMPARE(twice.exitCode, 2);
        QVERIFY(twice.err.contains(QStringLiteral("overlapping shards")));
    }

    void badSuitesAreRefusedWithTheCaseAndKey() {
        write(QStringLiteral("bad.json"),
              {{QStringLiteral("cases"), QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("x")},
                                                                {QStringLiteral("project"), QStringLiteral("nowhere/project.json")},
                                                                {QStringLiteral("metric"), QJsonObject{}}}}}});
        const Run bad = npustudio({QStringLiteral("--batch"), path(QStringLiteral("bad.json"))});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains(QStringLiteral("cases[0] \"x\".project: no such file or folder")), qPrintable(bad.err));
        QVERIFY2(bad.err.contains(QStringLiteral("cases[0] \"x\".metric: unknown key")), qPrintable(bad.err));

        write(QStringLiteral("newer.json"), {{QStringLiteral("version"), 2}, {QStringLiteral("cases"), QJsonArray{}}});
        const Run newer = npustudio({QStringLiteral("--batch"), path(QStringLiteral("newer.json"))});
        QCOMPARE(newer.exitCode, 2);
        QVERIFY2(newer.err.contains(QStringLiteral("suite version 2 is newer than this npustudio reads (version 1)")),
                 qPrintable(newer.err));

        const Run noBaseline = npustudio({QStringLiteral("--batch"), path(QStringLiteral("suite.json")), QStringLiteral("--baseline"),
                                          path(QStringLiteral("missing.json"))});
        QCOMPARE(noBaseline.exitCode, 2);
        QVERIFY(noBaseline.err.contains(QStringLiteral("missing.json: cannot open the baseline")));

        const Run badShard = npustudio({QStringLiteral("--batch"), path(QStringLiteral("suite.json")), QStringLiteral("--shard"),
                                        QStringLiteral("3/2")});
        QCOMPARE(badShard.exitCode, 2);
        QVERIFY(badShard.err.contains(QStringLiteral("--shard: expected K/N")));
    }
};

QTEST_GUILESS_MAIN(TestRegressionSuites)
#include "test_regression_suites.moc"
