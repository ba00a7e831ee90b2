// The cluster timeline's data (profiler/store/collective_flows, engine/cluster device
// names): a simulated 2-node cluster (DP 2 x TP 2, 2 devices a node) lists its ranks
// node by node under "node N", and each collective is linked across its group's ranks:
// rank 0 -> 1 and 2 -> 3 for every TP collective, 0 -> 2 and 1 -> 3 for every gradient
// bucket (flows = 2 x TP count + 2 x DP count of one rank). HTA's two sampled Kineto ranks
// run ncclKernel_SendRecv 10 times each (counted in the JSON with Python; no process
// group args): 10 flows rank 0 -> rank 1, the i-th call to the i-th. Four synthetic
// Kineto ranks on two hosts: node-grouped names, flows and the Communication view's
// waits, sizes and bandwidths per NCCL process group.

#include "engine/project/project.h"
#include "profiler/analysis/communication_overview.h"
#include "profiler/importers/profile_import.h"
#include "runner/runs/simulation_run.h"
#include "profiler/store/profile_db.h"
#include "profiler/store/sqlite_statement.h"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <cmath>
#include <fstream>
#include <set>
#include <QtTest>

using namespace npu;
using namespace npu::profiler;
using namespace npu::runner;

namespace {

std::unique_ptr<ProfileDb> openOrDie(const std::filesystem::path& p) {
    auto db = ProfileDb::open(p);
    if (!db) qFatal("%s", db.message().c_str());
    return std::move(*db);
}

// Collective flows: (from slice name, from device, to device) per flow.
std::vector<std::tuple<std::string, std::int64_t, std::int64_t, std::int64_t, std::int64_t>> collectiveFlows(const ProfileDb& db) {
    std::vector<std::tuple<std::string, std::int64_t, std::int64_t, std::int64_t, std::int64_t>> out;
    SqliteStatement q(db.handle(), "SELECT na.value, ka.device_id, kb.device_id, a.start_ns, b.start_ns FROM FLOW f "
                                   "JOIN STRING_IDS s ON s.id = f.kind_id JOIN TASK a ON a.id = f.from_task JOIN TASK b ON b.id = f.to_task "
                                   "JOIN STRING_IDS na ON na.id = a.name_id JOIN STRING_IDS nb ON nb.id = b.name_id "
                                   "JOIN TRACK ka ON ka.id = a.track_id JOIN TRACK kb ON kb.id = b.track_id "
                                   "WHERE s.value = 'collective' AND na.value = nb.value");
    while (q.valid() && q.step() == SQLITE_ROW) out.emplace_back(q.text(0), q.int64(1), q.int64(2), q.int64(3), q.int64(4));
    return out;
}

// Rank r of four on two hosts of 2 GPUs: a default-group all-reduce, then one of its
// host's group ("1" or "2").
nlohmann::json fourRankTrace(int r) {
    auto allReduce = [](int ts, int elems, int groupSize, const std::string& group) {
        return nlohmann::json{{"ph", "X"}, {"cat", "kernel"}, {"name", "ncclKernel_AllReduce_RING_LL_Sum_float"}, {"pid", 0}, {"tid", 20},
                              {"ts", ts}, {"dur", 40},
                              {"args", {{"Collective name", "allreduce"}, {"In msg nelems", elems}, {"Out msg nelems", elems}, {"dtype", "Float"},
                                        {"Group size", groupSize}, {"Process Group Name", group}}}};
    };
    return {{"deviceProperties", {{{"id", 0}, {"name", "H100"}}, {{"id", 1}, {"name", "H100"}}}},
            {"distributedInfo", {{"backend", "nccl"}, {"rank", r}, {"world_size", 4}}},
            {"traceEvents",
             {{{"ph", "M"}, {"name", "process_labels"}, {"pid", 0}, {"tid", 0}, {"args", {{"labels", "GPU 0"}}}},
              {{"ph", "X"}, {"cat", "user_annotation"}, {"name", "ProfilerStep#1"}, {"pid", 9}, {"tid", 9}, {"ts", 100}, {"dur", 500}},
              allReduce(120 + r, 1024, 4, "0"), allReduce(300, 64, 2, r < 2 ? "1" : "2")}}};
}

std::int64_t collectiveFlowCount(const ProfileDb& db) {
    SqliteStatement q(db.handle(), "SELECT COUNT(*) FROM FLOW f JOIN STRING_IDS s ON s.id = f.kind_id WHERE s.value = 'collective'");
    return q.valid() && q.step() == SQLITE_ROW ? q.int64(0) : -1;
}

}  // namespace

class TestCollectiveFlows : public QObject {
    Q_OBJECT
private slots:
    void simulatedClusterByNodeAndLinked() {
        const nlohmann::json doc = {
            {"format", "npustudio-project"}, {"version", 1}, {"name", "two-nodes"}, {"device", "a100-80gb"},
            {"model", {{"zoo", "gpt"}, {"config", {{"hidden", 512}, {"layers", 2}, {"heads", 8}, {"vocab", 8192}, {"max_seq", 512}}}}},
            {"training", {{"batch", 8}, {"seq", 256}, {"precision", "bf16-amp"}}},
            {"parallel", {{"data_parallel", 2}, {"tensor_parallel", 2}}},
            {"cluster", {{"nodes", 2}, {"devices_per_node", 2}, {"inter_node", {{"nic_bandwidth_Gbps", 200}, {"nics_per_node", 1}}}}}};
        auto project = engine::parseProject(doc, "p.json");
        QVERIFY2(project.ok(), project.ok() ? "" : project.message().c_str());
        QTemporaryDir dir;
        SimulationRunOptions o;
        o.dir = dir.path().toStdString();
        o.record = false;
        const auto run = runSimulation(*project, o);
        QVERIFY2(run.outcome == SimulationRun::Outcome::ok, run.error.c_str());
        const auto db = openOrDie(run.summary.db);

        // Ranks in order, a node's ranks together under its name.
        const auto devices = db->devices();
        QCOMPARE(devices.size(), std::size_t(4));
        for (std::size_t i = 0; i < devices.size(); ++i) {
            const std::string expected = "node " + std::to_string(i / 2) + " · rank " + std::to_string(i);
            QCOMPARE(devices[i].name, expected);
        }
        std::int64_t tp = 0, dp = 0;
        for (const auto& c : run.summary.sim.cluster.ranks.front().collectives) {
            if (c.group == "tp") tp += c.count;
            if (c.group == "dp") dp += c.count;
        }
        QVERIFY(tp > 0 && dp > 0);
        QCOMPARE(collectiveFlowCount(*db), 2 * tp + 2 * dp);
        // Each flow joins the same collective on two ranks of one group, at one time (no skew).
        std::map<std::pair<std::int64_t, std::int64_t>, int> pairs;
        for (const auto& [name, from, to, fromStart, toStart] : collectiveFlows(*db)) {
            ++pairs[{from, to}];
            QCOMPARE(fromStart, toStart);
            QVERIFY2(name.rfind("TP ", 0) == 0 ? to == from + 1 && from % 2 == 0 : to == from + 2, name.c_str());
        }
        QCOMPARE(int(pairs.size()), 4);  // 0->1, 2->3 (TP); 0->2, 1->3 (DP)
        QCOMPARE(collectiveFlowCount(*db), std::int64_t(collectiveFlows(*db).size()));
    }

    void kinetoRanksByNodeAndProcessGroup() {
        // Four ranks on two hosts of 2 GPUs (deviceProperties lists 2, world_size 4):
        // nodes 0, 0, 1, 1. One all-reduce of the default group ("0") on every rank, one
        // of group "1" on ranks 0, 1 and one of group "2" on ranks 2, 3 (same kernel name):
        // 0->1->2->3 for the first, 0->1 and 2->3 for the others.
        QTemporaryDir dir;
        const auto folder = std::filesystem::path(dir.path().toStdString()) / "ranks";
        std::filesystem::create_directories(folder);
        for (int r = 0; r < 4; ++r) {
            std::ofstream(folder / ("rank-" + std::to_string(r) + ".json")) << fourRankTrace(r).dump();
        }
        const auto out = std::filesystem::path(dir.path().toStdString()) / "four.npudb";
        auto imported = importProfile(folder, out);
        QVERIFY2(imported.ok(), imported.ok() ? "" : imported.message().c_str());
        const auto db = openOrDie(out);
        std::map<std::int64_t, std::int64_t> rankOf;  // device -> rank
        std::vector<std::string> gpus;
        for (const auto& d : db->devices()) {
            const auto at = d.name.find("rank");
            QVERIFY2(at != std::string::npos, d.name.c_str());
            rankOf[d.id] = std::stoll(d.name.substr(at + 4));
            if (d.name.find("GPU") != std::string::npos) gpus.push_back(d.name);
        }
        QCOMPARE(gpus, (std::vector<std::string>{"node 0 · rank0 GPU 0", "node 0 · rank1 GPU 0", "node 1 · rank2 GPU 0", "node 1 · rank3 GPU 0"}));
        std::multiset<std::pair<std::int64_t, std::int64_t>> links;
        for (const auto& [name, from, to, fromStart, toStart] : collectiveFlows(*db)) links.insert({rankOf[from], rankOf[to]});
        const std::multiset<std::pair<std::int64_t, std::int64_t>> expected{{0, 1}, {1, 2}, {2, 3}, {0, 1}, {2, 3}};
        QCOMPARE(links, expected);

        // The Communication view matches calls per process group: rank r reaches the
        // default group's all-reduce at 120 + r us and waits for rank 3 (3 - r us); the
        // hosts' groups start together. 1024 floats = 4096 B; over 4 ranks busbw = 2(n-1)/n
        // = 1.5 x algbw, over 2 ranks 1 x.
        const CommunicationOverview o = communicationOverview(*db);
        int rows = 0;
        for (const auto& c : o.collectives) {
            ++rows;
            const double transitUs = c.group == "0" ? 40 - (3 - c.rank) : 40;
            QVERIFY2(std::abs(c.wait_ms - (c.group == "0" ? (3 - c.rank) / 1e3 : 0.0)) < 1e-9, qPrintable(QStringLiteral("rank %1 group %2 wait %3").arg(c.rank).arg(QString::fromStdString(c.group)).arg(c.wait_ms)));
            QVERIFY(std::abs(c.transit_ms - transitUs / 1e3) < 1e-9);
            const double bytes = c.group == "0" ? 4096 : 256;
            QVERIFY(std::abs(c.size_mb - bytes / 1e6) < 1e-12);
            double algbw = 0, busbw = 0;
            for (const auto& [kind, v] : c.bandwidth_gbps) (kind == "algbw" ? algbw : busbw) = v;
            QVERIFY(std::abs(algbw - bytes / (transitUs * 1e3)) < 1e-9);  // B / ns = GB/s
            QVERIFY(std::abs(busbw - algbw * (c.group == "0" ? 1.5 : 1.0)) < 1e-9);
        }
        QCOMPARE(rows, 8);  // 4 ranks x (default group, their host's group)
    }

    void kinetoRanksLinkedByCall() {
        const auto hta = std::filesystem::path(NPU_SHARED_DATA_DIR) / "third_party/hta";
        if (!std::filesystem::exists(hta / "sampled_rank-1.json.gz")) QSKIP("shared data third_party/hta/sampled_rank-*.json.gz not present");
        QTemporaryDir dir;
        const auto folder = std::filesystem::path(dir.path().toStdString()) / "ranks";
        std::filesystem::create_directories(folder);
        for (const char* f : {"sampled_rank-0.json.gz", "sampled_rank-1.json.gz"}) std::filesystem::create_symlink(hta / f, folder / f);
        const auto out = std::filesystem::path(dir.path().toStdString()) / "hta.npudb";
        auto imported = importProfile(folder, out);
        QVERIFY2(imported.ok(), imported.ok() ? "" : imported.message().c_str());
        const auto db = openOrDie(out);
        const auto flows = collectiveFlows(*db);
        QCOMPARE(int(flows.size()), 10);
        QCOMPARE(collectiveFlowCount(*db), std::int64_t(10));
        std::map<std::int64_t, std::string> nameOf;
        for (const auto& d : db->devices()) nameOf[d.id] = d.name;
        for (const auto& [name, from, to, fromStart, toStart] : flows) {
            QVERIFY2(name.rfind("ncclKernel_SendRecv", 0) == 0, name.c_str());
            QVERIFY(nameOf[from].rfind("rank0 ", 0) == 0);
            QVERIFY(nameOf[to].rfind("rank1 ", 0) == 0);
        }
    }
};

QTEST_GUILESS_MAIN(TestCollectiveFlows)
#include "test_collective_flows.moc"
