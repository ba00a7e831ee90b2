// Pipeline sends linked to their receives (profiler/store/collective_flows, FLOW kind
// "p2p"; the receives are engine/cluster/rank_timeline's "PP recv" slices). Each micro-
// batch's activations go from stage s to s + 1 and its gradients from s + 1 back to s:
// 2 x micro-batches x (stages - 1) flows per data/tensor-parallel replica laid out. The
// interleaved schedule sends per model chunk: 2 x micro-batches x (stages x chunks - 1),
// the last stage's activations going to the first stage's next chunk (and gradients back).
// A flow joins the same micro-batch and direction, the peer of the same replica, and the
// data arrives after it is sent (the receive ends when its pass starts, after the send;
// to the nanosecond: the two ends are rounded apart).

#include "engine/project/project.h"
#include "runner/runs/simulation_run.h"
#include "profiler/store/profile_db.h"
#include "profiler/store/sqlite_statement.h"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <QtTest>

using namespace npu;
using namespace npu::profiler;
using namespace npu::runner;

namespace {

struct P2pFlow {
    std::string from, to;                 // slice names
    std::int64_t fromRank = 0, toRank = 0;
    std::int64_t sendEnd = 0, recvEnd = 0;
};

std::int64_t rankOf(const std::string& device) {
    const auto at = device.find("rank ");
    return at == std::string::npos ? -1 : std::stoll(device.substr(at + 5));
}

std::vector<P2pFlow> p2pFlows(const ProfileDb& db) {
    std::map<std::int64_t, std::int64_t> rank;  // device -> rank
    for (const auto& d : db.devices()) rank[d.id] = rankOf(d.name);
    std::vector<P2pFlow> out;
    SqliteStatement q(db.handle(), "SELECT na.value, nb.value, ka.device_id, kb.device_id, a.start_ns + a.dur_ns, b.start_ns + b.dur_ns FROM FLOW f "
                                   "JOIN STRING_IDS s ON s.id = f.kind_id JOIN TASK a ON a.id = f.from_task JOIN TASK b ON b.id = f.to_task "
                                   "JOIN STRING_IDS na ON na.id = a.name_id JOIN STRING_IDS nb ON nb.id = b.name_id "
                                   "JOIN TRACK ka ON ka.id = a.track_id JOIN TRACK kb ON kb.id = b.track_id WHERE s.value = 'p2p'");
    while (q.valid() && q.step() == SQLITE_ROW)
        out.push_back({q.text(0), q.text(1), rank[q.int64(2)], rank[q.int64(3)], q.int64(4), q.int64(5)});
    return out;
}

// GPT with 4 layers; pipeline stages x data parallel devices on one node.
nlohmann::json pipelineDoc(const nlohmann::json& parallel, int devices) {
    return {{"format", "npustudio-project"}, {"version", 1}, {"name", "pp"}, {"device", "a100-80gb"},
            {"model", {{"zoo", "gpt"}, {"config", {{"hidden", 512}, {"layers", 4}, {"heads", 8}, {"vocab", 8192}, {"max_seq", 512}}}}},
            {"training", {{"batch", 16}, {"seq", 256}, {"precision", "bf16-amp"}}},
            {"parallel", parallel},
            {"cluster", {{"nodes", 1}, {"devices_per_node", devices}}}};
}

std::unique_ptr<ProfileDb> simulatedDb(const nlohmann::json& doc, const QTemporaryDir& dir) {
    auto project = engine::parseProject(doc, "p.json");
    if (!project) qFatal("%s", project.message().c_str());
    SimulationRunOptions o;
    o.dir = dir.path().toStdString();
    o.record = false;
    const auto run = runSimulation(*project, o);
    if (run.outcome != SimulationRun::Outcome::ok) qFatal("%s", run.error.c_str());
    auto db = ProfileDb::open(run.summary.db);
    if (!db) qFatal("%s", db.message().c_str());
    return std::move(*db);
}

// Every flow: a send to the receive of the same micro-batch and direction, on the peer
// stage (activations: next, gradients: previous; modulo the stages), after the send ends.
void checkFlows(const std::vector<P2pFlow>& flows, int stages, int inStage) {
    for (const P2pFlow& f : flows) {
        QVERIFY2(f.from.rfind("send ", 0) == 0 && f.to == "recv " + f.from.substr(5), (f.from + " -> " + f.to).c_str());
        const bool gradients = f.from.find("gradients") != std::string::npos;
        const std::int64_t stage = f.fromRank / inStage, peer = (stage + (gradients ? stages - 1 : 1)) % stages;
        QVERIFY2(f.toRank == peer * inStage + f.fromRank % inStage,
                 qPrintable(QStringLiteral("%1 from rank %2 to rank %3").arg(QString::fromStdString(f.from)).arg(f.fromRank).arg(f.toRank)));
        QVERIFY2(f.recvEnd + 1 >= f.sendEnd,  // times rounded to whole ns apart
                 qPrintable(QStringLiteral("%1 rank %2 -> %3: send ends %4, recv %5").arg(QString::fromStdString(f.from)).arg(f.fromRank).arg(f.toRank).arg(f.sendEnd).arg(f.recvEnd)));
    }
}

}  // namespace

class TestPipelineFlows : public QObject {
    Q_OBJECT
private slots:
    void oneFOneBEveryRank() {
        // PP 4 x DP 2, 4 micro-batches: 8 ranks, all stored: 2 x 4 x 3 x 2 = 48 flows.
        QTemporaryDir dir;
        const auto db = simulatedDb(pipelineDoc({{"pipeline_stages", 4}, {"data_parallel", 2}, {"micro_batches", 4}}, 8), dir);
        const auto flows = p2pFlows(*db);
        QCOMPARE(int(flows.size()), 2 * 4 * 3 * 2);
        checkFlows(flows, 4, 2);
        int activations = 0;
        for (const auto& f : flows) activations += f.from.find("activations") != std::string::npos;
        QCOMPARE(activations, 24);
    }

    void interleavedWrapsToTheFirstStage() {
        // PP 2, 2 chunks a stage, 4 micro-batches: 4 virtual stages, 2 x 4 x 3 = 24 flows,
        // 4 of them stage 1's first chunk's activations to stage 0's second chunk (and 4
        // gradients back).
        QTemporaryDir dir;
        const auto db = simulatedDb(
            pipelineDoc({{"pipeline_stages", 2}, {"micro_batches", 4}, {"schedule", "interleaved"}, {"virtual_stages", 2}}, 2), dir);
        const auto flows = p2pFlows(*db);
        QCOMPARE(int(flows.size()), 2 * 4 * 3);
        checkFlows(flows, 2, 1);
        int wrapped = 0;
        for (const auto& f : flows) wrapped += f.fromRank == 1 && f.from.find("activations") != std::string::npos;
        QCOMPARE(wrapped, 4);
    }

    void symmetricRunLinksItsStoredRanks() {
        // DP 64 x PP 2 on 128 devices (more than kMaxStoredRanks) is stored one rank a
        // stage (by symmetry): 2 x 4 x 1 flows.
        QTemporaryDir dir;
        nlohmann::json doc = pipelineDoc({{"pipeline_stages", 2}, {"data_parallel", 64}, {"micro_batches", 4}}, 8);
        doc["training"]["batch"] = 256;
        doc["cluster"]["nodes"] = 16;
        doc["cluster"]["inter_node"] = {{"nic_bandwidth_Gbps", 200}, {"nics_per_node", 8}};
        const auto db = simulatedDb(doc, dir);
        QCOMPARE(int(db->devices().size()), 2);
        const auto flows = p2pFlows(*db);
        QCOMPARE(int(flows.size()), 2 * 4 * 1);
        checkFlows(flows, 2, 64);
    }
};

QTEST_GUILESS_MAIN(TestPipelineFlows)
#include "test_pipeline_flows.moc"
