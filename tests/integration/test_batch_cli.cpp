// The batch CLI end to end: the real npustudio executable, its exit codes, its report
// keys and its messages.

#include "tests/integration/batch_process.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

class TestBatchCli : public QObject {
    Q_OBJECT

    using Run = BatchRun;
    Run npustudio(const QStringList& args, int timeoutMs = 240000, const QString& workingDir = {}) { return runNpustudio(args, timeoutMs, workingDir); }

    // Tests never write into tests/data: each gets a copy of the project.
    QString copyProject(const QString& name) {
        const QString src = QFINDTESTDATA(QStringLiteral("../data/projects/") + name + QStringLiteral("/project.json"));
        const QString dir = m_tmp.filePath(name + QString::number(m_copies++));
        QDir().mkpath(dir);
        const QString dst = dir + QStringLiteral("/project.json");
        if (!QFile::copy(src, dst)) return {};
        return dst;
    }

    static QJsonObject readJson(const QString& file) {
        QFile f(file);
        if (!f.open(QIODevice::ReadOnly)) return {};
        return QJsonDocument::fromJson(f.readAll()).object();
    }

    // A fresh copy of tiny-llama simulated in --batch: its run's .npudb ("" on failure).
    QString simulatedRun(const QString& reportName) {
        const QString project = copyProject(QStringLiteral("tiny-llama"));
        const QString report = m_tmp.filePath(reportName);
        if (project.isEmpty() || npustudio({QStringLiteral("--batch"), project, QStringLiteral("--report"), report}).exitCode != 0) return {};
        return readJson(report).value(QStringLiteral("db")).toString();
    }

    QTemporaryDir m_tmp;
    int m_copies = 0;

private slots:
    void initTestCase() { QVERIFY(m_tmp.isValid()); }

    void helpAndVersionWithoutDisplay() {
        const Run help = npustudio({QStringLiteral("--help")});
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains(QStringLiteral("--batch")));
        QVERIFY(help.out.contains(QStringLiteral("--import")));
        QVERIFY(help.out.contains(QStringLiteral("--compare")));
        const Run version = npustudio({QStringLiteral("--version")});
        QCOMPARE(version.exitCode, 0);
        QVERIFY2(version.out.contains(QStringLiteral(".")), qPrintable(version.out));
    }

    void simulateProjectNamedWithoutFolder() {
        // "npustudio --batch project.json" from the project's folder: the folder is ".",
        // not an empty path (this aborted with a filesystem_error before).
        const QString project = copyProject(QStringLiteral("tiny-llama"));
        QVERIFY(!project.isEmpty());
        const QString dir = QFileInfo(project).absolutePath();
        const Run r = npustudio({QStringLiteral("--batch"), QStringLiteral("project.json")}, 240000, dir);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        QVERIFY(QDir(dir + QStringLiteral("/runs")).entryList({QStringLiteral("*.npudb")}).size() == 1);
        QVERIFY(readJson(dir + QStringLiteral("/runs/runs.json")).value(QStringLiteral("runs")).toArray().size() == 1);  // recorded
    }

    void simulateProject() {
        const QString project = copyProject(QStringLiteral("tiny-llama"));
        QVERIFY(!project.isEmpty());
        const QString report = m_tmp.filePath(QStringLiteral("report.json"));
        const Run r = npustudio({QStringLiteral("--batch"), project, QStringLiteral("--report"), report});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        // Progress goes to stderr (stdout stays the summary): at least the first stage.
        QVERIFY2(r.err.contains(QStringLiteral("npustudio:   0 % building model graph")), qPrintable(r.err));
        QVERIFY(!r.out.contains(QStringLiteral("building model graph")));
        const QJsonObject j = readJson(report);
        QCOMPARE(j.value(QStringLiteral("status")).toString(), QStringLiteral("ok"));
        for (const char* key : {"step_time_ms", "samples_per_s", "tokens_per_s", "db", "mfu", "top_ops"})
            QVERIFY2(j.contains(QLatin1String(key)), key);
        const QJsonObject model = j.value(QStringLiteral("model")).toObject();
        QVERIFY(model.value(QStringLiteral("params")).toDouble() > 0);
        QVERIFY(model.value(QStringLiteral("flops_per_step")).toDouble() > 0);
        const QJsonObject mem = j.value(QStringLiteral("memory")).toObject();
        QVERIFY(mem.value(QStringLiteral("peak_bytes")).toDouble() > 0);
        QVERIFY(mem.value(QStringLiteral("capacity_bytes")).toDouble() > mem.value(QStringLiteral("peak_bytes")).toDouble());
        QVERIFY(j.value(QStringLiteral("step_time_ms")).toDouble() > 0);
        QVERIFY(j.value(QStringLiteral("tokens_per_s")).toDouble() > 0);
        QVERIFY(!j.value(QStringLiteral("top_ops")).toArray().isEmpty());

        // The database is in the project's runs/ folder and listed in its runs/runs.json;
        // project.json itself is not rewritten.
        const QString run = j.value(QStringLiteral("db")).toString();
        QVERIFY2(QFile::exists(run), qPrintable(run));
        QVERIFY(run.contains(QStringLiteral("/runs/")));
        const QJsonArray runs = readJson(QFileInfo(project).absolutePath() + QStringLiteral("/runs/runs.json")).value(QStringLiteral("runs")).toArray();
        QCOMPARE(runs.size(), 1);
        QVERIFY(!readJson(project).contains(QStringLiteral("runs")) || readJson(project).value(QStringLiteral("runs")).toArray().isEmpty());
        QVERIFY(runs[0].toObject().value(QStringLiteral("db")).toString().startsWith(QStringLiteral("runs/")));
        QCOMPARE(runs[0].toObject().value(QStringLiteral("source")).toString(), QStringLiteral("simulated"));

        // The one-screen summary names what matters.
        for (const char* word : {"parameters", "FLOPs/step", "step time", "samples/s", "tokens/s", "MFU", "peak memory", "db:"})
            QVERIFY2(r.out.contains(QLatin1String(word)), word);
        QVERIFY(r.out.count(QLatin1Char('\n')) < 40);
    }

    void estimateDevicesAndTime() {
        const QString project = copyProject(QStringLiteral("tiny-llama"));
        const QString report = m_tmp.filePath(QStringLiteral("estimate.json"));
        const Run r = npustudio({QStringLiteral("--batch"), QStringLiteral("--estimate"), project, QStringLiteral("--tokens"),
                                 QStringLiteral("1e9"), QStringLiteral("--devices-max"), QStringLiteral("8"),
                                 QStringLiteral("--report"), report});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        for (const char* word : {"devices", "per device", "step", "device-hours", "assumptions:"})
            QVERIFY2(r.out.contains(QLatin1String(word)), word);
        const QJsonObject j = readJson(report);
        QVERIFY(j.value(QStringLiteral("fits")).toBool());
        QCOMPARE(j.value(QStringLiteral("devices")).toInt(), 1);  // a tiny model fits one device
        const double stepMs = j.value(QStringLiteral("step_time_ms")).toDouble();
        const double tokensPerStep = j.value(QStringLiteral("tokens_per_step")).toDouble();
        QVERIFY(stepMs > 0 && tokensPerStep > 0);
        // The time for N tokens is ceil(N / tokens per step) steps of the simulated step.
        QVERIFY(qAbs(j.value(QStringLiteral("seconds_for_tokens")).toDouble() - std::ceil(1e9 / tokensPerStep) * stepMs / 1e3) <
                1e-6 * j.value(QStringLiteral("seconds_for_tokens")).toDouble());
        QVERIFY(!j.value(QStringLiteral("assumptions")).toArray().isEmpty());
        // The estimate never records a run in the project.
        QVERIFY(!readJson(project).contains(QStringLiteral("runs")));

        const Run bad = npustudio({QStringLiteral("--batch"), QStringLiteral("--estimate"), project, QStringLiteral("--tokens"),
                                   QStringLiteral("lots")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains(QStringLiteral("--tokens")) && bad.err.contains(QStringLiteral("\"lots\"")), qPrintable(bad.err));
    }

    void searchRanksStrategies() {
        // The sample cluster project: LLaMA-7B on 8 Ascend 910B.
        const QString dir = m_tmp.filePath(QStringLiteral("search"));
        QDir().mkpath(dir);
        const QString project = dir + QStringLiteral("/project.json");
        QVERIFY(QFile::copy(QStringLiteral(NPU_SOURCE_DIR "/projects/llama-7b-cluster/project.json"), project));
        const QString report = m_tmp.filePath(QStringLiteral("search.json"));
        const Run r = npustudio({QStringLiteral("--batch"), QStringLiteral("--search"), project, QStringLiteral("--top"), QStringLiteral("5"),
                                 QStringLiteral("--report"), report});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        for (const char* word : {"8 devices", "rank", "tokens/s", "bounds:", "over_memory"}) QVERIFY2(r.out.contains(QLatin1String(word)), word);
        const QJsonObject j = readJson(report);
        QCOMPARE(j.value(QStringLiteral("devices")).toInt(), 8);
        const QJsonArray list = j.value(QStringLiteral("strategies")).toArray();
        const int feasible = j.value(QStringLiteral("feasible")).toInt();
        QVERIFY(feasible > 0 && feasible < list.size());
        double previous = 1e300;
        for (int i = 0; i < list.size(); ++i) {
            const QJsonObject s = list[i].toObject();
            QCOMPARE(s.value(QStringLiteral("feasible")).toBool(), i < feasible);
            const QJsonObject c = s.value(QStringLiteral("config")).toObject();
            QCOMPARE(c.value(QStringLiteral("data_parallel")).toInt() * c.value(QStringLiteral("tensor_parallel")).toInt() *
                         c.value(QStringLiteral("pipeline_stages")).toInt(),
                     8);
            if (i < feasible) {
                const double tps = s.value(QStringLiteral("tokens_per_s")).toDouble();
                QVERIFY(tps > 0 && tps <= previous);
                previous = tps;
                QVERIFY(s.value(QStringLiteral("peak_bytes")).toDouble() <= j.value(QStringLiteral("capacity_bytes")).toDouble());
            } else {
                QVERIFY(!s.value(QStringLiteral("reason")).toString().isEmpty());
            }
        }
        QVERIFY(!readJson(project).value(QStringLiteral("runs")).toArray().size());

        const Run bad = npustudio({QStringLiteral("--batch"), QStringLiteral("--search"), copyProject(QStringLiteral("tiny-llama"))});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains(QStringLiteral("cluster")), qPrintable(bad.err));
    }

    void outFolderIsNotRecorded() {
        const QString project = copyProject(QStringLiteral("tiny-llama"));
        const QString out = m_tmp.filePath(QStringLiteral("elsewhere"));
        const Run r = npustudio({QStringLiteral("--batch"), project, QStringLiteral("--out"), out});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(QDir(out).entryList({QStringLiteral("*.npudb")}).size(), 1);
        QVERIFY(readJson(project).value(QStringLiteral("runs")).toArray().isEmpty());
    }

    // training.zero_stage (parallel.zero_stage's alias) runs, with a note that names it.
    void zeroStageAliasIsANote() {
        const QString project = copyProject(QStringLiteral("tiny-llama"));
        QJsonObject doc = readJson(project);
        QJsonObject training = doc.value(QStringLiteral("training")).toObject();
        training.insert(QStringLiteral("zero_stage"), 0);
        doc.insert(QStringLiteral("training"), training);
        QFile f(project);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(QJsonDocument(doc).toJson());
        f.close();
        const Run r = npustudio({QStringLiteral("--batch"), project, QStringLiteral("--out"), m_tmp.filePath(QStringLiteral("alias"))});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("npustudio: note: ")) &&
                     r.err.contains(QStringLiteral("training.zero_stage is read as parallel.zero_stage")),
                 qPrintable(r.err));
    }

    void badProjectNamesTheKey() {
        const QString project = copyProject(QStringLiteral("bad-type"));
        const Run r = npustudio({QStringLiteral("--batch"), project});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("training.batch")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("project.json")), qPrintable(r.err));
    }

    void missingProjectIsBadInput() {
        const Run r = npustudio({QStringLiteral("--batch"), m_tmp.filePath(QStringLiteral("nope/project.json"))});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(QStringLiteral("nope")));
    }

    void badOptionIsBadInput() {
        const Run r = npustudio({QStringLiteral("--batch"), QStringLiteral("--steps"), QStringLiteral("zero"), QStringLiteral("x.json")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(QStringLiteral("--steps")));
    }

    void outOfMemoryRunFails() {
        const QString project = copyProject(QStringLiteral("oom-llama"));
        const QString report = m_tmp.filePath(QStringLiteral("oom.json"));
        const Run r = npustudio({QStringLiteral("--batch"), project, QStringLiteral("--report"), report});
        QVERIFY2(r.exitCode == 1, qPrintable(r.err + r.out));
        const QJsonObject j = readJson(report);
        QCOMPARE(j.value(QStringLiteral("status")).toString(), QStringLiteral("oom"));
        const QJsonObject mem = j.value(QStringLiteral("memory")).toObject();
        QVERIFY(mem.value(QStringLiteral("peak_bytes")).toDouble() > mem.value(QStringLiteral("capacity_bytes")).toDouble());
    }

    void importTrace() {
        const QString out = m_tmp.filePath(QStringLiteral("nesting.npudb"));
        const QString report = m_tmp.filePath(QStringLiteral("import.json"));
        const Run r = npustudio({QStringLiteral("--batch"), QStringLiteral("--import"),
                                 QFINDTESTDATA("../data/traces/nesting.json"), QStringLiteral("--out"), out,
                                 QStringLiteral("--report"), report});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        QVERIFY(QFile::exists(out));
        const QJsonObject j = readJson(report);
        QVERIFY(j.value(QStringLiteral("events")).toInt() > 0);
        QVERIFY(j.contains(QStringLiteral("devices")));
        QVERIFY(j.contains(QStringLiteral("diagnostics")));
        QCOMPARE(j.value(QStringLiteral("db")).toString(), out);
    }

    void importMalformedTraceIsBadInput() {
        const QString bad = m_tmp.filePath(QStringLiteral("bad.json"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"traceEvents\": [ {\"ph\": \"X\", \"ts\": ");
        f.close();
        const QString out = m_tmp.filePath(QStringLiteral("bad.npudb"));
        const Run r = npustudio({QStringLiteral("--batch"), QStringLiteral("--import"), bad, QStringLiteral("--out"), out});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("bad.json")), qPrintable(r.err));
        QVERIFY(!QFile::exists(out));
    }

    void compareRuns() {
        // Two runs of the same project, each simulated here (no test depends on another's).
        const QString runA = simulatedRun(QStringLiteral("a.json")), runB = simulatedRun(QStringLiteral("b.json"));
        QVERIFY2(QFile::exists(runA), qPrintable(runA));
        QVERIFY2(QFile::exists(runB), qPrintable(runB));
        const QString diff = m_tmp.filePath(QStringLiteral("diff.json"));
        const Run r = npustudio({QStringLiteral("--batch"), QStringLiteral("--compare"), runA, runB, QStringLiteral("--report"), diff});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject j = readJson(diff);
        QVERIFY(!j.value(QStringLiteral("by_name")).toArray().isEmpty());
        QVERIFY(j.contains(QStringLiteral("steps_a")));
        QVERIFY(j.contains(QStringLiteral("steps_b")));
        // The same project twice: no operator changes.
        for (const auto& row : j.value(QStringLiteral("by_name")).toArray())
            QCOMPARE(row.toObject().value(QStringLiteral("delta_count")).toInt(), 0);

        const Run one = npustudio({QStringLiteral("--batch"), QStringLiteral("--compare"), runA});
        QCOMPARE(one.exitCode, 2);
    }

    // --against: the report's "against" keys (docs/report-format.md) and --fit's overlay,
    // which a project then names as "h200+overlay.json".
    void againstMeasuredTrace() {
        const QString project = copyProject(QStringLiteral("tiny-llama"));
        const QString report = m_tmp.filePath(QStringLiteral("against.json"));
        const QString fit = QFileInfo(project).absolutePath() + QStringLiteral("/fit.json");
        const Run r = npustudio({QStringLiteral("--batch"), project, QStringLiteral("--against"),
                                 QFINDTESTDATA("../data/traces/resnet50_amp_bf16_b64_h200.json.gz"),
                                 QStringLiteral("--fit"), fit, QStringLiteral("--report"), report});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        QVERIFY2(r.out.contains(QStringLiteral("Against measured run")), qPrintable(r.out));
        const QJsonObject against = readJson(report).value(QStringLiteral("against")).toObject();
        const QJsonObject step = against.value(QStringLiteral("step")).toObject();
        for (const char* key : {"simulated_ms", "measured_ms", "measured_busy_ms", "measured_idle_ms"})
            QVERIFY2(step.value(QLatin1String(key)).isDouble(), key);
        QVERIFY(step.value(QStringLiteral("measured_busy_ms")).toDouble() > 15.0);
        QVERIFY(step.value(QStringLiteral("measured_busy_ms")).toDouble() < step.value(QStringLiteral("measured_ms")).toDouble());
        bool conv = false;
        for (const auto& v : against.value(QStringLiteral("categories")).toArray()) {
            const QJsonObject row = v.toObject();
            for (const char* key : {"category", "simulated_ms", "measured_ms", "simulated_count", "measured_count"})
                QVERIFY2(row.contains(QLatin1String(key)), key);
            if (row.value(QStringLiteral("category")).toString() == QStringLiteral("conv")) {
                conv = true;
                QCOMPARE(row.value(QStringLiteral("measured_count")).toInt(), 201);
                QCOMPARE(row.value(QStringLiteral("simulated_count")).toInt(), 0);  // a language model has no conv
            }
        }
        QVERIFY(conv);
        // The imported measured run is listed under the project's Runs (issue 24), once
        // however often it is compared.
        auto measuredRuns = [&] {
            int n = 0;
            const QJsonObject sidecar = readJson(QFileInfo(project).absolutePath() + QStringLiteral("/runs/runs.json"));
            for (const auto& v : sidecar.value(QStringLiteral("runs")).toArray()) {
                const QJsonObject run = v.toObject();
                if (run.value(QStringLiteral("db")).toString() != QStringLiteral("runs/measured-resnet50_amp_bf16_b64_h200.npudb"))
                    continue;
                ++n;
                if (run.value(QStringLiteral("source")).toString() != QStringLiteral("imported")) return -1;
            }
            return n;
        };
        QCOMPARE(measuredRuns(), 1);
        const Run again = npustudio({QStringLiteral("--batch"), project, QStringLiteral("--against"),
                                     QFINDTESTDATA("../data/traces/resnet50_amp_bf16_b64_h200.json.gz")});
        QVERIFY2(again.exitCode == 0, qPrintable(again.err + again.out));
        QCOMPARE(measuredRuns(), 1);
        const QJsonObject overlay = readJson(fit);
        QCOMPARE(overlay.value(QStringLiteral("format")).toString(), QStringLiteral("npustudio-device-overlay"));
        // A language model against a ResNet trace: norm is on both sides and fitted; conv
        // only measured, and the trace's 3 tiny fc kernels are mostly launch gap: skipped.
        QVERIFY(overlay.value(QStringLiteral("efficiency_scale")).toObject().contains(QStringLiteral("norm")));
        QStringList skipped;
        for (const auto& v : overlay.value(QStringLiteral("skipped")).toArray())
            skipped << v.toObject().value(QStringLiteral("category")).toString();
        QVERIFY2(skipped.contains(QStringLiteral("conv")) && skipped.contains(QStringLiteral("matmul")),
                 qPrintable(skipped.join(QLatin1Char(','))));

        // The project names the base profile plus the overlay (relative to its folder).
        QFile f(project);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray text = f.readAll();
        f.close();
        text.replace("\"device\": \"h200\"", "\"device\": \"h200+fit.json\"");
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(text);
        f.close();
        const Run refit = npustudio({QStringLiteral("--batch"), project});
        QVERIFY2(refit.exitCode == 0, qPrintable(refit.err + refit.out));

        const Run noAgainst = npustudio({QStringLiteral("--batch"), project, QStringLiteral("--fit"), fit});
        QCOMPARE(noAgainst.exitCode, 2);
        QVERIFY2(noAgainst.err.contains(QStringLiteral("--fit needs --against")), qPrintable(noAgainst.err));
        const Run missing = npustudio({QStringLiteral("--batch"), project, QStringLiteral("--against"),
                                       m_tmp.filePath(QStringLiteral("nope.json"))});
        QCOMPARE(missing.exitCode, 2);
        QVERIFY2(missing.err.contains(QStringLiteral("nope.json")), qPrintable(missing.err));
    }
};

QTEST_GUILESS_MAIN(TestBatchCli)
#include "test_batch_cli.moc"
