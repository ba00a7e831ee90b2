// Atomic saves: the target is replaced whole or not at all, and temporaries left by a
// writer that was killed mid-write are cleaned by the next write of the same file.

#include "base/atomic_file.h"

#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

std::string readAll(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void touch(const fs::path& p) { std::ofstream(p) << "partial"; }

// A pid that certainly belongs to no running process: a child that was SIGKILLed mid-write
// and reaped, as a batch run killed by CI would be.
pid_t deadPid(const fs::path& target) {
    const pid_t child = ::fork();
    if (child == 0) {
        touch(npu::temporarySiblingPath(target));
        ::raise(SIGKILL);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    return child;
}

}  // namespace

class TestAtomicFile : public QObject {
    Q_OBJECT
private slots:
    void replacesWhole() {
        QTemporaryDir dir;
        const fs::path target = dir.filePath(QStringLiteral("project.json")).toStdString();
        QVERIFY(npu::writeFileAtomically(target, "first").ok());
        QVERIFY(npu::writeFileAtomically(target, "second").ok());
        QCOMPARE(readAll(target), std::string("second"));
        int files = 0;
        for (const auto& e : fs::directory_iterator(dir.path().toStdString())) files += e.is_regular_file();
        QCOMPARE(files, 1);  // no temporary left beside it
    }

    void killedWriterLeavesTargetAndItsTemporaryIsCleaned() {
        QTemporaryDir dir;
        const fs::path target = dir.filePath(QStringLiteral("run.npudb")).toStdString();
        QVERIFY(npu::writeFileAtomically(target, "previous run").ok());
        const pid_t dead = deadPid(target);
        const fs::path stale = target.string() + ".tmp-" + std::to_string(dead) + "-1-0";
        touch(stale);
        touch(stale.string() + "-journal");
        // A live writer's temporary (ours) must survive; another target's must too.
        const fs::path live = target.string() + ".tmp-" + std::to_string(::getpid()) + "-1-0";
        touch(live);
        const fs::path other = dir.filePath(QStringLiteral("other.npudb.tmp-%1-1-0").arg(dead)).toStdString();
        touch(other);
        QCOMPARE(readAll(target), std::string("previous run"));  // the kill did not touch it

        QVERIFY(npu::writeFileAtomically(target, "next run").ok());
        QCOMPARE(readAll(target), std::string("next run"));
        QVERIFY(!fs::exists(stale));
        QVERIFY(!fs::exists(stale.string() + "-journal"));
        QVERIFY(fs::exists(live));
        QVERIFY(fs::exists(other));
        // The child's own temporary (from temporarySiblingPath) is gone too.
        int leftovers = 0;
        for (const auto& e : fs::directory_iterator(dir.path().toStdString()))
            leftovers += e.path().filename().string().find("run.npudb.tmp-" + std::to_string(dead)) == 0;
        QCOMPARE(leftovers, 0);
    }

    void ignoresNamesThatAreNotTemporaries() {
        QTemporaryDir dir;
        const fs::path target = dir.filePath(QStringLiteral("a.json")).toStdString();
        const fs::path lookalike = dir.filePath(QStringLiteral("a.json.tmp-notapid")).toStdString();
        touch(lookalike);
        QCOMPARE(npu::removeStaleTemporaries(target), 0);
        QVERIFY(fs::exists(lookalike));
    }
};

QTEST_GUILESS_MAIN(TestAtomicFile)
#include "test_atomic_file.moc"
