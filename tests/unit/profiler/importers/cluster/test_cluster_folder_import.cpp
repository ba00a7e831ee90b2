// Folder imports (profiler/importers/cluster/cluster_import): the two-rank fixture
// (tests/data/traces/cluster) as one run of rank-prefixed devices, and a folder mixing
// two jobs' traces (world sizes 2 and 128) refused with both files named.

#include "profiler/importers/trace_import_into.h"

#include "tests/unit/profiler/importers/import_memory_sink.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <fstream>
#include <iterator>

using namespace npu::profiler;
using npu::profiler::testing::MemorySink;

namespace {

std::filesystem::path fixture(const char* name) { return std::filesystem::path(QFINDTESTDATA("../../../../data/traces").toStdString()) / name; }

}  // namespace

class TestClusterFolderImport : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void clusterFolder() {
        MemorySink sink;
        auto r = importTraceInto(fixture("cluster"), sink, ImportOptions{2});
        QVERIFY2(r.ok(), r.ok() ? "" : r.message().c_str());
        QCOMPARE(r->events, std::int64_t(9));
        std::vector<std::string> names;
        for (const auto& d : sink.devices) names.push_back(d.name);
        std::sort(names.begin(), names.end());
        const std::vector<std::string> expected = {"rank0 CPU", "rank0 GPU 0", "rank1 CPU", "rank1 GPU 0"};
        QCOMPARE(names, expected);
        QCOMPARE(sink.meta["cluster"], std::string("true"));
        QCOMPARE(sink.meta["ranks"], std::string("2"));
        QCOMPARE(sink.meta["world_size"], std::string("2"));
        QCOMPARE(sink.steps.size(), size_t(1));  // the first rank's
        QCOMPARE(sink.count("unmatched_end"), std::int64_t(1));
        QVERIFY(sink.diagnostics["unmatched_end"].example.starts_with("rank-1.json: "));
        QCOMPARE(sink.slicesWithCategory("kernel"), std::int64_t(4));
    }

    // Issue 24 Minor: a folder holding traces of two jobs (world sizes 2 and 128) is refused,
    // naming both files and their world sizes, instead of merging into one timeline that
    // spans years.
    void foldersOfDifferentJobsAreRefused() {
        const auto folder = std::filesystem::path(m_dir.path().toStdString()) / "two-jobs";
        std::filesystem::create_directories(folder);
        std::filesystem::copy_file(fixture("cluster") / "rank-0.json", folder / "rank-0.json");
        std::ifstream in(fixture("cluster") / "rank-1.json");
        std::string other((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const std::string head = "{\"traceEvents\": [";
        QVERIFY(other.starts_with(head));  // rank 5 of a 128-rank job
        other.replace(0, head.size(), "{\"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 5, \"world_size\": 128}, \"traceEvents\": [");
        std::ofstream(folder / "rank-1.json") << other;
        MemorySink sink;
        auto r = importTraceInto(folder, sink, ImportOptions{2});
        QVERIFY(!r.ok());
        QVERIFY2(r.message().find("different jobs") != std::string::npos && r.message().find("rank-0.json has distributedInfo.world_size 2") != std::string::npos &&
                     r.message().find("rank-1.json has 128") != std::string::npos,
                 r.message().c_str());
    }

};

QTEST_GUILESS_MAIN(TestClusterFolderImport)
#include "test_cluster_folder_import.moc"
