// base/parallel_for: every piece runs exactly once, on more than one thread when asked,
// and a piece's exception reaches the caller once the others are done.

#include "base/parallel_for.h"

#include <QTest>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using namespace npu;

class TestParallelFor : public QObject {
    Q_OBJECT
private slots:
    void everyPieceRunsOnce() {
        for (const unsigned threads : {0u, 1u, 2u, 7u}) {
            std::vector<std::atomic<int>> runs(1000);
            parallelFor(runs.size(), threads, [&](std::size_t i) { ++runs[i]; });
            for (const auto& r : runs) QCOMPARE(r.load(), 1);
        }
        parallelFor(0, 2, [](std::size_t) { QFAIL("no piece to run"); });
    }

    void piecesShareTheThreads() {
        // Each piece waits until two threads have started one, so one thread alone never ends.
        std::mutex m;
        std::set<std::thread::id> seen;
        std::atomic<int> started{0};
        parallelFor(2, 2, [&](std::size_t) {
            {
                const std::lock_guard<std::mutex> lock(m);
                seen.insert(std::this_thread::get_id());
            }
            ++started;
            for (int spin = 0; started.load() < 2 && spin < 5000; ++spin) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        });
        QCOMPARE(seen.size(), std::size_t(2));
        QCOMPARE(started.load(), 2);
    }

    void aPieceExceptionReachesTheCaller() {
        std::atomic<int> done{0};
        bool caught = false;
        try {
            parallelFor(100, 2, [&](std::size_t i) {
                if (i == 17) throw std::runtime_error("piece 17");
                ++done;
            });
        } catch (const std::runtime_error& e) {
            caught = std::string(e.what()) == "piece 17";
        }
        QVERIFY(caught);
        QCOMPARE(done.load(), 99);  // the others still ran
    }
};

QTEST_APPLESS_MAIN(TestParallelFor)
#include "test_parallel_for.moc"
