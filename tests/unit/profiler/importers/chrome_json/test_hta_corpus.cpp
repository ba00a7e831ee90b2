// HTA's own test corpus (../shared/data/third_party/hta_tests: AMD/ROCm, MTIA,
// ns-resolution, CUPTI counters, CPU-only, Triton, sync-heavy, multi-rank and execution
// traces) as an import-breadth check: every file imports, or is refused with an error
// that names the file. Plus the three Kineto gaps found on it: MTIA gets a device,
// cuda_sync events are not compute (HTA classes them as other), dma* kernels are memory.

#include "profiler/analysis/device_metrics.h"
#include "profiler/analysis/kernel_classification.h"
#include "profiler/importers/profile_import.h"
#include "profiler/store/profile_db.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace npu::profiler;
using npu::Expected;

namespace {
const std::filesystem::path kCorpus = std::filesystem::path(NPU_SHARED_DATA_DIR) / "third_party/hta_tests";
}

class TestHtaCorpus : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    int m_counter = 0;

    Expected<std::unique_ptr<ProfileDb>> importAndOpen(const std::filesystem::path& in) {
        const auto out = std::filesystem::path(m_dir.path().toStdString()) / ("run" + std::to_string(m_counter++) + ".npudb");
        auto r = importProfile(in, out);
        if (!r) return r.error();
        return ProfileDb::open(out);
    }

private slots:
    void initTestCase() {
        if (!std::filesystem::exists(kCorpus)) QSKIP("shared data third_party/hta_tests not present");
    }

    void everyFileImportsOrIsRefusedClearly() {
        int imported = 0, refused = 0;
        for (const auto& e : std::filesystem::recursive_directory_iterator(kCorpus)) {
            if (!e.is_regular_file()) continue;
            const std::string name = e.path().filename().string();
            if (name == "LICENSE" || name == "SOURCES.txt") continue;
            auto db = importAndOpen(e.path());
            if (db) {
                ++imported;
                continue;
            }
            ++refused;
            // A refusal says which file and what was wrong, never an empty or generic message.
            const std::string& why = db.message();
            qInfo("refused %s: %s", name.c_str(), why.c_str());
            QVERIFY2(why.find(name) != std::string::npos, why.c_str());
            QVERIFY2(why.size() > name.size() + 20, why.c_str());
        }
        qInfo("hta_tests: %d imported, %d refused", imported, refused);
        QVERIFY(imported >= 25);
    }

    void mtiaGetsADevice() {
        auto db = importAndOpen(kCorpus / "mtia_trace_single_rank/mtia_rank_0.json.gz");
        QVERIFY2(db.ok(), db.ok() ? "" : db.message().c_str());
        const ProfileDb& r = **db;
        std::int64_t mtia = -1;
        for (const auto& d : r.devices())
            if (d.kind == "mtia") mtia = d.id;
        QVERIFY(mtia >= 0);
        const auto kernels = loadDeviceKernels(r, mtia);
        // Every mtia_ccp_events slice lands on the device (python: 25,814 X events of that category).
        QCOMPARE(std::int64_t(kernels.size()), std::int64_t(25814));
        const auto m = computeDeviceMetrics(kernels);
        QVERIFY(m.memory_ns > 0);  // dma_request: HTA's ^dma memory pattern
        QVERIFY(m.compute_ns > 0);
    }

    void cudaSyncIsNotCompute() {
        auto db = importAndOpen(kCorpus / "critical_path/cuda_event_sync/event_sync_trace.json.gz");
        QVERIFY2(db.ok(), db.ok() ? "" : db.message().c_str());
        const ProfileDb& r = **db;
        std::int64_t syncs = 0;
        for (const auto& d : r.devices())
            for (const auto& k : loadDeviceKernels(r, d.id)) {
                const std::string& name = r.string(k.nameId);
                if (name == "Stream Sync" || name == "Stream Wait Event" || name == "Context Sync" || name == "Event Sync") {
                    QCOMPARE(k.cls, KernelClass::other);
                    ++syncs;
                }
            }
        QVERIFY(syncs > 0);
    }
};

QTEST_GUILESS_MAIN(TestHtaCorpus)
#include "test_hta_corpus.moc"
