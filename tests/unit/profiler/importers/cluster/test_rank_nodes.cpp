// Ranks of imported multi-rank runs placed on nodes (profiler/importers/cluster/rank_nodes.h):
// the rules on handmade evidence, then real files: the two-rank Ascend text set (its
// communication_matrix.json links ranks 0 and 1 over HCCS: one node), the same set with
// its rank folders renamed as torch_npu names them on two hosts (a copy; the files are
// unchanged), the host a torch_npu database and a Kineto trace record, and HTA's two
// sampled ranks, which record no host at all (assumed one node, said by a diagnostic);
// the torch_npu database capture copied as two ranks (HOST_INFO: same host, then a
// changed copy on another), and msprof-analyze's cluster analyses.

#include "profiler/importers/cluster/rank_nodes.h"
#include "profiler/importers/profile_import.h"
#include "profiler/store/profile_db.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <fstream>
#include <set>

using namespace npu::profiler;

namespace {

const std::filesystem::path kData = std::filesystem::path(NPU_SHARED_DATA_DIR) / "third_party";

struct Imported {
    nlohmann::json nodes;
    std::set<std::string> devices;
    std::int64_t assumed = 0;
};

Imported importAndRead(const std::filesystem::path& input, const std::filesystem::path& outDir) {
    Imported r;
    const auto out = outDir / "run.npudb";
    auto imported = importProfile(input, out);
    if (!imported) {
        qWarning("%s", imported.message().c_str());
        return r;
    }
    auto db = ProfileDb::open(out);
    if (!db) return r;
    r.nodes = nlohmann::json::parse((*db)->meta("nodes"), nullptr, false);
    for (const auto& d : (*db)->devices()) r.devices.insert(d.name);
    for (const auto& d : (*db)->diagnostics())
        if (d.kind == "nodes_assumed") r.assumed = d.count;
    return r;
}

}  // namespace

class TestRankNodes : public QObject {
    Q_OBJECT
private slots:
    void hostNamesNumberNodesInRankOrder() {
        const auto p = placeRanksOnNodes({{2, "b", 0}, {0, "a", 0}, {3, "b", 0}, {1, "a", 0}}, {});
        QCOMPARE(p.nodes, 2);
        QCOMPARE(p.nodeOfRank.at(1), 0);
        QCOMPARE(p.nodeOfRank.at(2), 1);
        QCOMPARE(p.basis, std::string("host names"));  // before the rank-order rule, which says one node here
        QCOMPARE(p.devicePrefix(3), std::string("node 1 · rank3 "));
        QCOMPARE(p.hostOfNode.at(1), std::string("b"));  // the timeline's node header names it
        const auto one = placeRanksOnNodes({{0, "h", -1}, {1, "h", -1}}, {});
        QCOMPARE(one.nodes, 1);
        QCOMPARE(one.devicePrefix(1), std::string("rank1 "));  // one node: plain names, as simulated runs
        QVERIFY(placeRanksOnNodes({{0, "", 0}, {8, "", 1}}, {}).hostOfNode.empty());  // no hosts, none named
    }

    void rankOrderThenLinksThenAssumed() {
        const auto byOrder = placeRanksOnNodes({{0, "", 0}, {8, "", 1}}, {});
        QCOMPARE(byOrder.nodes, 2);
        QCOMPARE(byOrder.devicePrefix(8), std::string("node 1 · rank8 "));
        // HCCS joins 0-1 and 2-3; RDMA between 1 and 2 separates the pairs.
        const std::vector<RankLink> links{{0, 1, true}, {2, 3, true}, {1, 2, false}};
        const auto linked = placeRanksOnNodes({{0, "", -1}, {1, "", -1}, {2, "", -1}, {3, "", -1}}, links);
        QCOMPARE(linked.nodes, 2);
        QCOMPARE(linked.nodeOfRank.at(1), 0);
        QCOMPARE(linked.nodeOfRank.at(2), 1);
        // Rank 4 is in no link: the links do not place every rank, so nothing is claimed.
        const auto partial = placeRanksOnNodes({{0, "", -1}, {1, "", -1}, {4, "", -1}}, links);
        QCOMPARE(partial.nodes, 1);
        QVERIFY(partial.basis.starts_with("assumed"));
    }

    void hostFromTorchNpuFolderName() {
        QCOMPARE(hostFromAscendFolder("/r/node-a_3096504_20250109075840123_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json"),
                 std::string("node-a"));
        QCOMPARE(hostFromAscendFolder("/r/my_host_12_34_ascend_pt/ASCEND_PROFILER_OUTPUT/x.db"), std::string("my_host"));
        QCOMPARE(hostFromAscendFolder("/r/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json"), std::string());
        QCOMPARE(hostFromAscendFolder("/r/trace_view.json"), std::string());
    }

    void ascendTextSetIsOneNodeByItsLinks() {
        const auto set = kData / "msinsight/pt_text_level1";
        if (!std::filesystem::exists(set)) QSKIP("shared data third_party/msinsight/pt_text_level1 not present");
        QTemporaryDir dir;
        const Imported r = importAndRead(set, dir.path().toStdString());
        QCOMPARE(r.nodes.value("count", 0), 1);
        QVERIFY2(r.nodes.value("basis", "").starts_with("communication matrix"), r.nodes.dump().c_str());
        QCOMPARE(r.assumed, std::int64_t{0});
        QVERIFY(r.devices.count("rank1 NPU 0"));
    }

    void ascendTextSetOnTwoHosts() {
        const auto set = kData / "msinsight/pt_text_level1";
        if (!std::filesystem::exists(set)) QSKIP("shared data third_party/msinsight/pt_text_level1 not present");
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        const auto copy = root / "two_hosts";
        std::filesystem::create_directories(copy);
        for (const auto& [from, to] : {std::pair{"rank0_ascend_pt", "hostA_3096504_20250109075840123_ascend_pt"},
                                       std::pair{"rank1_ascend_pt", "hostB_3096506_20250109075840456_ascend_pt"}})
            std::filesystem::copy(set / from, copy / to, std::filesystem::copy_options::recursive);
        const Imported r = importAndRead(copy, root);
        QCOMPARE(r.nodes.value("basis", ""), std::string("host names"));
        QCOMPARE(r.nodes.value("count", 0), 2);
        QCOMPARE(r.nodes["host_of_node"].value("1", ""), std::string("hostB"));
        // The trace's devices and memory_record.csv's counters land on the same named devices.
        QCOMPARE(r.devices, (std::set<std::string>{"node 0 · rank0 CPU", "node 0 · rank0 NPU 0", "node 1 · rank1 CPU",
                                                   "node 1 · rank1 NPU 0"}));
    }

    void hostsRecordedByTorchNpuDbAndKineto() {
        const auto db = kData / "msinsight/pt_db_level2/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db";
        const auto kineto = kData / "hta_tests/ns_resolution_trace";
        if (!std::filesystem::exists(db) || !std::filesystem::exists(kineto)) QSKIP("shared data third_party/msinsight or hta_tests not present");
        QCOMPARE(hostOfAscendDb(db), std::string("uid 3538958389648580163 (ubuntu)"));  // its HOST_INFO row
        QTemporaryDir dir;
        const Imported r = importAndRead(kineto, dir.path().toStdString());  // a folder of one rank with "host_name"
        QCOMPARE(r.nodes.value("basis", ""), std::string("host names"));
        QCOMPARE(r.nodes.value("count", 0), 1);
    }

    void ascendDbRanksByHostInfo() {
        const auto capture = kData / "msinsight/pt_db_level2/rank0_ascend_pt";
        if (!std::filesystem::exists(capture)) QSKIP("shared data third_party/msinsight/pt_db_level2 not present");
        // The one real capture twice, as ranks 0 and 1; then rank 1's copy given another host
        // in its HOST_INFO (the only change to the copied files).
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        std::filesystem::create_directories(root / "set");
        for (const char* rank : {"rank0_ascend_pt", "rank1_ascend_pt"})
            std::filesystem::copy(capture, root / "set" / rank, std::filesystem::copy_options::recursive);
        const Imported same = importAndRead(root / "set", root);
        QCOMPARE(same.nodes.value("basis", ""), std::string("host names"));
        QCOMPARE(same.nodes.value("count", 0), 1);
        QVERIFY(same.devices.count("rank1 NPU 0"));

        sqlite3* db = nullptr;
        const auto file = root / "set/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db";
        QCOMPARE(sqlite3_open(file.string().c_str(), &db), SQLITE_OK);
        QCOMPARE(sqlite3_exec(db, "UPDATE HOST_INFO SET hostUid = '42', hostName = 'other'", nullptr, nullptr, nullptr), SQLITE_OK);
        sqlite3_close(db);
        std::filesystem::remove(root / "run.npudb");
        const Imported two = importAndRead(root / "set", root);
        QCOMPARE(two.nodes.value("count", 0), 2);
        QVERIFY(two.devices.count("node 0 · rank0 NPU 0"));
        QVERIFY(two.devices.count("node 1 · rank1 NPU 0"));
    }

    void clusterAnalysesByTheirMatrix() {
        const auto db = kData / "msinsight/cluster_db_2024/cluster_analysis.db";
        const auto json = kData / "msinsight/cluster_analysis_output";
        if (!std::filesystem::exists(db) || !std::filesystem::exists(json)) QSKIP("shared data third_party/msinsight not present");
        QTemporaryDir a, b;
        // 8 ranks joined by HCCS links in ClusterCommAnalyzerMatrix: one node.
        const Imported fromDb = importAndRead(db, a.path().toStdString());
        QVERIFY2(fromDb.nodes.value("basis", "").starts_with("communication matrix"), fromDb.nodes.dump().c_str());
        QCOMPARE(fromDb.nodes["node_of_rank"].size(), size_t(8));
        QCOMPARE(fromDb.nodes.value("count", 0), 1);
        // The json excerpt links only ranks 0, 1, 7 (HCCS), 8 (RDMA from 0) and 9 of 16: not
        // every rank is placed, so none is claimed from it.
        const Imported fromJson = importAndRead(json, b.path().toStdString());
        QCOMPARE(fromJson.assumed, std::int64_t{16});
    }

    void devicesListNodeByNode() {
        // Three tiny Kineto ranks whose files interleave hosts (A, B, A): written node by
        // node, so device ids (the timeline's order) keep a node's ranks together.
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        std::filesystem::create_directories(root / "ranks");
        for (int rank = 0; rank < 3; ++rank) {
            const nlohmann::json trace = {
                {"distributedInfo", {{"rank", rank}, {"world_size", 3}}},
                {"host_name", rank == 1 ? "B" : "A"},
                {"traceEvents", {{{"ph", "X"}, {"cat", "kernel"}, {"name", "k"}, {"pid", 0}, {"tid", 7}, {"ts", 1}, {"dur", 2}}}}};
            std::ofstream(root / "ranks" / ("rank" + std::to_string(rank) + ".json")) << trace.dump();
        }
        auto imported = importProfile(root / "ranks", root / "run.npudb");
        QVERIFY2(imported.ok(), imported.ok() ? "" : imported.message().c_str());
        auto db = ProfileDb::open(root / "run.npudb");
        QVERIFY(db.ok());
        std::vector<std::string> names;
        for (const auto& d : (*db)->devices()) names.push_back(d.name);
        QCOMPARE(names, (std::vector<std::string>{"node 0 · rank0 GPU 0", "node 0 · rank2 GPU 0", "node 1 · rank1 GPU 0"}));
    }

    void htaSampledRanksRecordNoHost() {
        const auto folder = kData / "hta_tests/trace_filter";
        if (!std::filesystem::exists(folder)) QSKIP("shared data third_party/hta_tests not present");
        QTemporaryDir dir;
        const Imported r = importAndRead(folder, dir.path().toStdString());
        // world_size 128 but no deviceProperties, host_name or matrix: one node, and the diagnostic says so.
        QCOMPARE(r.nodes.value("count", 0), 1);
        QCOMPARE(r.assumed, std::int64_t{2});
        QVERIFY(r.devices.count("rank1 GPU 1"));
    }
};

QTEST_GUILESS_MAIN(TestRankNodes)
#include "test_rank_nodes.moc"
