// The strategy search sharded as a Slurm array or CI matrix would run it: `--search
// --shard K/N` in separate processes, then `--merge` of their reports, gives exactly the
// single search's report (its ranking, every figure, the bounds), and the search is
// complete (no strategy not_run). A shard given twice or missing is refused by name.

#include "tests/integration/batch_process.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <vector>

namespace {

QJsonObject readJson(const QString& file) {
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

}  // namespace

class TestBatchSearchShards : public QObject {
    Q_OBJECT
private slots:
    void shardsMergeToTheSingleSearch() {
        QTemporaryDir tmp;
        const QString project = tmp.filePath(QStringLiteral("project.json"));
        QVERIFY(QFile::copy(QStringLiteral(NPU_SOURCE_DIR "/projects/llama-7b-cluster/project.json"), project));
        const QString single = tmp.filePath(QStringLiteral("single.json"));
        const BatchRun s = runNpustudio({QStringLiteral("--batch"), QStringLiteral("--search"), project, QStringLiteral("--report"), single});
        QVERIFY2(s.exitCode == 0, qPrintable(s.err + s.out));
        QJsonObject want = readJson(single);
        for (const QJsonValue& v : want.value(QStringLiteral("strategies")).toArray())
            QVERIFY2(v.toObject().value(QStringLiteral("status")).toString() != QStringLiteral("not_run"),
                     qPrintable(v.toObject().value(QStringLiteral("label")).toString()));

        const int n = 3;
        QStringList parts;
        for (int k = 1; k <= n; ++k) {
            parts << tmp.filePath(QStringLiteral("shard-%1.json").arg(k));
            const BatchRun r = runNpustudio({QStringLiteral("--batch"), QStringLiteral("--search"), project, QStringLiteral("--shard"),
                                             QStringLiteral("%1/%2").arg(k).arg(n), QStringLiteral("--report"), parts.back()});
            QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
            QCOMPARE(readJson(parts.back()).value(QStringLiteral("shard")).toObject().value(QStringLiteral("index")).toInt(), k);
        }
        const QString merged = tmp.filePath(QStringLiteral("merged.json"));
        const BatchRun m = runNpustudio(QStringList{QStringLiteral("--batch"), QStringLiteral("--merge")} + parts +
                                        QStringList{QStringLiteral("--report"), merged});
        QVERIFY2(m.exitCode == 0, qPrintable(m.err + m.out));
        QVERIFY2(m.out.contains(QStringLiteral("project's strategy: rank")), qPrintable(m.out));
        QJsonObject got = readJson(merged);
        for (QJsonObject* j : {&want, &got}) j->remove(QStringLiteral("search_seconds"));
        QVERIFY(!got.value(QStringLiteral("strategies")).toArray().isEmpty());
        QCOMPARE(got, want);

        // A shard twice, or one missing: refused, naming it.
        const BatchRun twice = runNpustudio({QStringLiteral("--batch"), QStringLiteral("--merge"), parts[0], parts[0], parts[2],
                                             QStringLiteral("--report"), tmp.filePath(QStringLiteral("x.json"))});
        QCOMPARE(twice.exitCode, 2);
        QVERIFY2(twice.err.contains(QStringLiteral("again")) && twice.err.contains(parts[0]), qPrintable(twice.err));
        const BatchRun missing = runNpustudio({QStringLiteral("--batch"), QStringLiteral("--merge"), parts[0], parts[1],
                                               QStringLiteral("--report"), tmp.filePath(QStringLiteral("y.json"))});
        QCOMPARE(missing.exitCode, 2);
        QVERIFY2(missing.err.contains(QStringLiteral("shard 3 of 3 is missing")), qPrintable(missing.err));
    }
};

QTEST_GUILESS_MAIN(TestBatchSearchShards)
#include "test_batch_search_shards.moc"
