// A multi-rank import sharded as a Slurm array or CI matrix would run it: each rank's
// folder imported alone (`--import RANK_FOLDER --out R_k.npudb`, separate processes),
// then `--merge R_*.npudb --out CLUSTER.npudb`, gives the database a single `--import`
// of the folder of all ranks gives: every table row for row (strings and argument
// objects compared by value; diagnostics' examples that quote a time are on the rank's own
// clock), with the ranks aligned at their first step and placed on
// their two hosts. A rank given twice, and a file that is not a rank import, are refused
// by name.

#include "profiler/store/sqlite_statement.h"
#include "tests/integration/batch_process.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <map>
#include <vector>

using npu::profiler::SqliteStatement;

namespace {

// Rank k of a 4-rank job on two hosts (ranks 0, 1 on hostA; 2, 3 on hostB), its clock
// 1 ms × k ahead, so aligning moves ranks 1–3; a kernel outlasting its stream's enclosing
// slice makes an overlapping_slices diagnostic on rank 2.
QByteArray rankTrace(int k) {
    const long long t0 = 1000000 + 1000LL * k;
    QByteArray s = QStringLiteral(
                       R"({"distributedInfo": {"backend": "nccl", "rank": %1, "world_size": 4}, "host_name": "%2",
"deviceProperties": [{"id": 0, "name": "NVIDIA A100-SXM4-80GB"}, {"id": 1, "name": "NVIDIA A100-SXM4-80GB"}],
"traceEvents": [
{"ph": "M", "name": "process_labels", "pid": 0, "tid": 0, "args": {"labels": "GPU 0"}},
{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 9, "tid": 9, "ts": %3, "dur": 20, "args": {"External id": 1}},
{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#7", "pid": 9, "tid": 9, "ts": %4, "dur": 300},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 9, "tid": 9, "ts": %5, "dur": 5, "args": {"correlation": %6}},
{"ph": "f", "id": %6, "pid": 0, "tid": 7, "ts": %7, "cat": "ac2g", "name": "ac2g", "bp": "e"},
{"ph": "s", "id": %6, "pid": 9, "tid": 9, "ts": %5, "cat": "ac2g", "name": "ac2g"},
{"ph": "X", "cat": "kernel", "name": "ampere_sgemm_128x64_nn", "pid": 0, "tid": 7, "ts": %7, "dur": 40, "args": {"correlation": %6, "grid": [%1, 1, 1]}},
{"ph": "X", "cat": "kernel", "name": "ncclKernel_AllReduce_RING_LL_Sum_float", "pid": 0, "tid": 20, "ts": %8, "dur": 60})")
                       .arg(k)
                       .arg(k < 2 ? QStringLiteral("hostA") : QStringLiteral("hostB"))
                       .arg(t0)
                       .arg(t0 + 50)
                       .arg(t0 + 60)
                       .arg(100 + k)
                       .arg(t0 + 70)
                       .arg(t0 + 120)
                       .toUtf8();
    if (k == 2)
        s += R"(,
{"ph": "X", "cat": "gpu_user_annotation", "name": "outer", "pid": 0, "tid": 30, "ts": 1002200, "dur": 10},
{"ph": "X", "cat": "kernel", "name": "inner_outlasting", "pid": 0, "tid": 30, "ts": 1002205, "dur": 20})";
    s += "\n]}\n";
    return s;
}

bool write(const QString& file, const QByteArray& text) {
    QDir().mkpath(QFileInfo(file).path());
    QFile f(file);
    return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
}

// Every table a trace import fills, rows in id order with names resolved (ids of strings
// and argument objects follow the order they were first written, which may differ).
std::map<std::string, std::vector<std::string>> contents(const QString& file) {
    std::map<std::string, std::vector<std::string>> out;
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(file.toUtf8().constData(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) return out;
    const auto S = [](const char* col) { return std::string("(SELECT value FROM STRING_IDS WHERE id = ") + col + ")"; };
    const std::map<std::string, std::string> queries = {
        {"DEVICE", "SELECT id, " + S("name_id") + ", kind FROM DEVICE ORDER BY id"},
        {"TRACK", "SELECT id, device_id, parent_id, kind, " + S("name_id") + ", sort_index FROM TRACK ORDER BY id"},
        {"TASK", "SELECT id, track_id, start_ns, dur_ns, depth, " + S("name_id") + ", " + S("category_id") +
                     ", (SELECT json FROM ARGS WHERE id = args_id) FROM TASK ORDER BY id"},
        {"FLOW", "SELECT id, from_task, to_task, " + S("kind_id") + " FROM FLOW ORDER BY id"},
        {"COUNTER", "SELECT track_id, ts_ns, value FROM COUNTER ORDER BY 1, 2, 3"},
        {"STEP", "SELECT id, start_ns, end_ns FROM STEP ORDER BY id"},
        // A rank's own diagnostics quote times on the clock it was imported on: the
        // examples of a merged file name them before alignment.
        {"DIAGNOSTIC", "SELECT " + S("kind_id") + ", severity, count, CASE WHEN example LIKE '% ns %' THEN '' ELSE example END "
                       "FROM DIAGNOSTIC ORDER BY 1, 4"},
        {"META_DATA", "SELECT name, value FROM META_DATA ORDER BY name"},
        {"TRACK_SUMMARY", "SELECT * FROM TRACK_SUMMARY ORDER BY track_id"},
        {"TRACK_DENSITY", "SELECT * FROM TRACK_DENSITY ORDER BY 1, 2, 3"},
    };
    for (const auto& [table, sql] : queries) {
        SqliteStatement q(db, sql);
        auto& rows = out[table];
        while (q.valid() && q.step() == SQLITE_ROW) {
            std::string row;
            for (int c = 0; c < sqlite3_column_count(q.get()); ++c) row += (q.isNull(c) ? std::string("NULL") : q.text(c)) + "|";
            rows.push_back(std::move(row));
        }
    }
    sqlite3_close(db);
    return out;
}

}  // namespace

class TestBatchImportShards : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;

    QString path(const QString& name) const { return m_tmp.filePath(name); }

private slots:
    void initTestCase() {
        for (int k = 0; k < 4; ++k) {
            QVERIFY(write(path(QStringLiteral("all/rank-%1.json").arg(k)), rankTrace(k)));
            QVERIFY(write(path(QStringLiteral("rank%1/rank-%1.json").arg(k)), rankTrace(k)));
        }
    }

    void shardsMergeToTheSingleImport() {
        const BatchRun whole = runNpustudio({QStringLiteral("--batch"), QStringLiteral("--import"), path(QStringLiteral("all")),
                                             QStringLiteral("--out"), path(QStringLiteral("whole.npudb")), QStringLiteral("--align-ranks")});
        QVERIFY2(whole.exitCode == 0, qPrintable(whole.err + whole.out));
        QStringList shards;
        for (int k : {2, 0, 3, 1}) {  // any order: the merge takes them in rank order
            shards << path(QStringLiteral("R_%1.npudb").arg(k));
            const BatchRun r = runNpustudio({QStringLiteral("--batch"), QStringLiteral("--import"), path(QStringLiteral("rank%1").arg(k)),
                                             QStringLiteral("--out"), shards.back()});
            QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        }
        const QString merged = path(QStringLiteral("merged.npudb"));
        const BatchRun m = runNpustudio(QStringList{QStringLiteral("--batch"), QStringLiteral("--merge")} + shards +
                                        QStringList{QStringLiteral("--out"), merged, QStringLiteral("--align-ranks")});
        QVERIFY2(m.exitCode == 0, qPrintable(m.err + m.out));
        QVERIFY2(m.out.contains(QStringLiteral("node 1 · rank3 GPU 0")), qPrintable(m.out));

        const auto want = contents(path(QStringLiteral("whole.npudb"))), got = contents(merged);
        QCOMPARE(want.at("DEVICE").size(), std::size_t(8));  // GPU and CPU of 4 ranks
        QCOMPARE(want.at("FLOW").size(), std::size_t(7));  // 4 launches, 3 all-reduce links between the ranks
        bool aligned = false, overlap = false;
        for (const std::string& d : want.at("DIAGNOSTIC")) {
            aligned = aligned || d.starts_with("ranks_aligned|0|3|");
            overlap = overlap || d.starts_with("overlapping_slices|");
        }
        QVERIFY(aligned);
        QVERIFY(overlap);
        for (const auto& [table, rows] : want) {
            const auto& other = got.at(table);
            QVERIFY2(rows.size() == other.size(), qPrintable(QString::fromStdString(table)));
            for (std::size_t i = 0; i < rows.size(); ++i)
                QVERIFY2(rows[i] == other[i], qPrintable(QString::fromStdString(table + ": " + rows[i] + " != " + other[i])));
        }
    }

    void aRankTwiceOrANonRankFileIsRefused() {
        const QString a = path(QStringLiteral("twice_a.npudb")), b = path(QStringLiteral("twice_b.npudb"));
        for (const QString& out : {a, b}) {
            const BatchRun r = runNpustudio({QStringLiteral("--batch"), QStringLiteral("--import"), path(QStringLiteral("rank1")),
                                             QStringLiteral("--out"), out});
            QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        }
        const BatchRun twice = runNpustudio({QStringLiteral("--batch"), QStringLiteral("--merge"), a, b, QStringLiteral("--out"),
                                             path(QStringLiteral("bad.npudb"))});
        QCOMPARE(twice.exitCode, 2);
        QVERIFY2(twice.err.contains(QStringLiteral("both hold rank 1")) && twice.err.contains(QStringLiteral("twice_b.npudb")), qPrintable(twice.err));
        QVERIFY(!QFile::exists(path(QStringLiteral("bad.npudb"))));

        const BatchRun whole = runNpustudio({QStringLiteral("--batch"), QStringLiteral("--import"), path(QStringLiteral("all")),
                                             QStringLiteral("--out"), path(QStringLiteral("four.npudb"))});
        QVERIFY2(whole.exitCode == 0, qPrintable(whole.err));
        const BatchRun many = runNpustudio({QStringLiteral("--batch"), QStringLiteral("--merge"), a, path(QStringLiteral("four.npudb")),
                                            QStringLiteral("--out"), path(QStringLiteral("bad.npudb"))});
        QCOMPARE(many.exitCode, 2);
        QVERIFY2(many.err.contains(QStringLiteral("four.npudb: holds 4 ranks")), qPrintable(many.err));

        const BatchRun noOut = runNpustudio({QStringLiteral("--batch"), QStringLiteral("--merge"), a});
        QCOMPARE(noOut.exitCode, 2);
        QVERIFY2(noOut.err.contains(QStringLiteral("needs --out")), qPrintable(noOut.err));
    }
};

QTEST_GUILESS_MAIN(TestBatchImportShards)
#include "test_batch_import_shards.moc"
