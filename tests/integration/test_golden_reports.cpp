// Golden reports: the sample projects simulated, sample traces imported and sample
// models converted through the real npustudio --batch, their JSON reports held against
// the copies kept in tests/golden/. A change that moves a figure fails here and shows up
// in review as a diff of tests/golden/*.json.
//
// Regenerate after an intended change with scripts/update-golden.sh (which runs this test
// with NPU_UPDATE_GOLDEN=1: the one place that knows how reports are normalised).

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSaveFile>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

namespace {

// Keys whose values differ from run to run (paths of outputs, wall-clock times); dropped
// at every depth before comparing.
bool isVolatileKey(const QString& key) {
    static const QStringList keys = {QStringLiteral("db"),      QStringLiteral("file"),
                                     QStringLiteral("out"),     QStringLiteral("seconds"),
                                     QStringLiteral("wall_ms"), QStringLiteral("timings_ms"),
                                     QStringLiteral("created"), QStringLiteral("timestamp"),
                                     QStringLiteral("ms") /* a pass's own wall time */};
    return keys.contains(key);
}

QJsonValue normalised(const QJsonValue& v) {
    if (v.isObject()) {
        QJsonObject out;
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            if (!isVolatileKey(it.key())) out.insert(it.key(), normalised(it.value()));
        return out;
    }
    if (v.isArray()) {
        QJsonArray out;
        for (const QJsonValue& e : v.toArray()) out.append(normalised(e));
        return out;
    }
    return v;
}

// Lists every difference as "path: golden -> now". Numbers agree to 1e-9 relative, so a
// last-digit change of the libm does not fail the test but any real move of a figure does.
void diffJson(const QString& path, const QJsonValue& golden, const QJsonValue& now, QStringList& out) {
    if (golden.isDouble() && now.isDouble()) {
        const double a = golden.toDouble(), b = now.toDouble();
        if (std::abs(a - b) > 1e-9 * std::max(std::abs(a), std::abs(b))) {
            out << QStringLiteral("%1: %2 -> %3").arg(path).arg(a, 0, 'g', 12).arg(b, 0, 'g', 12);
        }
        return;
    }
    if (golden.type() != now.type()) {
        out << QStringLiteral("%1: type changed").arg(path);
        return;
    }
    if (golden.isObject()) {
        const QJsonObject g = golden.toObject(), n = now.toObject();
        for (auto it = g.begin(); it != g.end(); ++it) {
            if (!n.contains(it.key()))
                out << QStringLiteral("%1.%2: removed").arg(path, it.key());
            else
                diffJson(path + QLatin1Char('.') + it.key(), it.value(), n.value(it.key()), out);
        }
        for (auto it = n.begin(); it != n.end(); ++it)
            if (!g.contains(it.key())) out << QStringLiteral("%1.%2: added").arg(path, it.key());
        return;
    }
    if (golden.isArray()) {
        const QJsonArray g = golden.toArray(), n = now.toArray();
        if (g.size() != n.size()) out << QStringLiteral("%1: %2 -> %3 items").arg(path).arg(g.size()).arg(n.size());
        for (qsizetype i = 0; i < std::min(g.size(), n.size()); ++i)
            diffJson(QStringLiteral("%1[%2]").arg(path).arg(i), g.at(i), n.at(i), out);
        return;
    }
    if (golden != now) out << QStringLiteral("%1: %2 -> %3").arg(path, golden.toVariant().toString(), now.toVariant().toString());
}

}  // namespace

class TestGoldenReports : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;

    // Runs npustudio --batch ARGS --report R from the source tree (so reports name
    // relative paths) and returns the normalised report.
    QJsonObject runReport(const QString& name, const QStringList& args) {
        const QString report = m_tmp.filePath(name + QStringLiteral(".report.json"));
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("DISPLAY"));
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("minimal"));
        p.setProcessEnvironment(env);
        p.setWorkingDirectory(QStringLiteral(NPU_SOURCE_DIR));
        p.start(QStringLiteral(NPUSTUDIO_EXE), QStringList{QStringLiteral("--batch")} + args +
                                                   QStringList{QStringLiteral("--report"), report});
        if (!p.waitForFinished(240000)) {
            p.kill();
            p.waitForFinished();
            return {};
        }
        if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
            qWarning("%s", p.readAllStandardError().constData());
            return {};
        }
        QFile f(report);
        if (!f.open(QIODevice::ReadOnly)) return {};
        return normalised(QJsonDocument::fromJson(f.readAll()).object()).toObject();
    }

    void check(const QString& name, const QStringList& args) {
        const QJsonObject now = runReport(name, args);
        QVERIFY2(!now.isEmpty(), qPrintable(QStringLiteral("npustudio --batch %1 gave no report").arg(args.join(QLatin1Char(' ')))));
        const QString goldenPath = QStringLiteral(NPU_SOURCE_DIR "/tests/golden/") + name + QStringLiteral(".json");
        if (qEnvironmentVariableIsSet("NPU_UPDATE_GOLDEN")) {
            QSaveFile out(goldenPath);  // atomic: a killed update leaves the old golden
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write(QJsonDocument(now).toJson(QJsonDocument::Indented));
            QVERIFY(out.commit());
            qInfo("updated %s", qPrintable(goldenPath));
            return;
        }
        QFile f(goldenPath);
        QVERIFY2(f.open(QIODevice::ReadOnly),
                 qPrintable(goldenPath + QStringLiteral(" is missing: run scripts/update-golden.sh")));
        const QJsonObject golden = QJsonDocument::fromJson(f.readAll()).object();
        QStringList diffs;
        diffJson(name, golden, now, diffs);
        QVERIFY2(diffs.isEmpty(), qPrintable(QStringLiteral("%1 differs from its golden report (if intended, run "
                                                            "scripts/update-golden.sh and review the diff):\n  %2")
                                                 .arg(name, diffs.join(QStringLiteral("\n  ")))));
    }

private slots:
    void initTestCase() { QVERIFY(m_tmp.isValid()); }

    void simulatedSamples_data() {
        QTest::addColumn<QString>("project");
        QTest::newRow("llama-small-h200") << QStringLiteral("projects/llama-small-h200/project.json");
        QTest::newRow("resnet50") << QStringLiteral("projects/resnet50/project.json");
        QTest::newRow("llama-7b") << QStringLiteral("projects/llama-7b/project.json");
        // 40 fp16 steps with dynamic loss scaling: the loss_scale report keys.
        QTest::newRow("llama-small-fp16-loss-scale") << QStringLiteral("projects/llama-small-fp16-loss-scale/project.json");
    }
    void simulatedSamples() {
        QFETCH(QString, project);
        // --out outside the project folder: the run is not recorded in project.json.
        check(QString::fromLatin1(QTest::currentDataTag()),
              {project, QStringLiteral("--out"), m_tmp.filePath(QString::fromLatin1(QTest::currentDataTag()))});
    }

    void importedTraces_data() {
        QTest::addColumn<QString>("trace");
        QTest::newRow("import-resnet50-kineto") << QStringLiteral("tests/data/traces/resnet50_amp_bf16_b64_h200.json.gz");
        QTest::newRow("import-ascend-small") << QStringLiteral("tests/data/traces/ascend_small.json");
    }
    void importedTraces() {
        QFETCH(QString, trace);
        const QString tag = QString::fromLatin1(QTest::currentDataTag());
        check(tag, {QStringLiteral("--import"), trace, QStringLiteral("--out"), m_tmp.filePath(tag + QStringLiteral(".npudb"))});
    }

    void convertedModels_data() {
        QTest::addColumn<QString>("model");
        QTest::newRow("convert-tiny-bert") << QStringLiteral("tests/data/models/tiny_bert.onnx");
        QTest::newRow("convert-mobilenet-v2") << QStringLiteral("tests/data/models/mobilenet_v2.onnx");
        QTest::newRow("convert-resnet18-noweights") << QStringLiteral("tests/data/models/resnet18_noweights.onnx");
    }
    void convertedModels() {
        QFETCH(QString, model);
        const QString tag = QString::fromLatin1(QTest::currentDataTag());
        check(tag, {QStringLiteral("--convert"), model, QStringLiteral("--out"), m_tmp.filePath(tag + QStringLiteral(".npuom"))});
    }
};

QTEST_GUILESS_MAIN(TestGoldenReports)
#include "test_golden_reports.moc"
