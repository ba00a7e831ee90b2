// The simulated rank x rank matrix follows the algorithm the gradient all-reduce runs
// (engine/cluster/comm_matrix, engine/parallel/collective_traffic): on 4 data-parallel
// ranks with payload B per rank, ring sends 2(n-1)/n B = 1.5 B to the next rank only;
// halving-doubling sends B/2 .. B/4 both ways to the partners 2 and 1 away (B to the
// rank 2 away, B/2 to the one 1 away); the double binary tree B/2 per tree edge;
// hierarchical on 2 nodes x 2 sends B (reduce-scatter + all-gather, 2 ranks) inside the
// node and 2 (m-1)/m x B/2 = B/2 to the same place in the other node.

#include "engine/driver/simulate_project.h"
#include "tests/unit/engine/sample_projects.h"

#include <QTest>

#include <cmath>
#include <map>

using namespace npu::engine;

namespace {

nlohmann::json dpFour(const char* algorithm, int nodes) {
    return {{"format", "npustudio-project"},
            {"version", 1},
            {"name", "dp-four"},
            {"device", "a100-80gb"},
            {"model", {{"zoo", "gpt"}, {"config", {{"hidden", 512}, {"layers", 2}, {"heads", 8}, {"vocab", 8192}, {"max_seq", 512}}}}},
            {"training", {{"batch", 8}, {"seq", 256}, {"precision", "bf16-amp"}}},
            {"parallel", {{"data_parallel", 4}}},
            {"communication", {{"overlap", false}, {"gradient_allreduce", algorithm}}},
            {"cluster", {{"nodes", nodes}, {"devices_per_node", 4 / nodes}, {"intra_node", {{"bandwidth_GBps", 300}, {"latency_us", 2}}},
                         {"inter_node", {{"nic_bandwidth_Gbps", 200}, {"nics_per_node", 1}}}}}};
}

struct Matrix {
    std::map<std::pair<int, int>, CommLink> links;
    double payload = 0;   // rank 0's all-reduced bytes
    double transit = 0;   // rank 0's all-reduce transit, ms
    double bus = 0;       // its bus bandwidth, GB/s
};

Matrix matrixOf(const char* algorithm, int nodes = 1) {
    const SimulationResult r = testing::simulateFiguresOrFail(testing::parsedProject(dpFour(algorithm, nodes)));
    Matrix m;
    for (const auto& l : r.summary.cluster.links) m.links[{l.src, l.dst}] = l;
    for (const auto& c : r.summary.cluster.ranks.front().collectives)
        if (c.group == "dp" && c.kind == "all_reduce") m.payload = c.bytes, m.transit = c.transit_ms, m.bus = c.bus_GBps;
    if (m.payload <= 0) qFatal("no data-parallel all-reduce on rank 0");
    return m;
}

double bytes(const Matrix& m, int src, int dst) {
    auto it = m.links.find({src, dst});
    return it == m.links.end() ? 0 : it->second.bytes;
}

bool near(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b)); }

}  // namespace

class TestClusterCommMatrix : public QObject {
    Q_OBJECT
private slots:
    void ringSendsToTheNextRankOnly() {
        const Matrix m = matrixOf("ring");
        QCOMPARE(int(m.links.size()), 4);
        for (int r = 0; r < 4; ++r) QVERIFY2(near(bytes(m, r, (r + 1) % 4), 1.5 * m.payload), qPrintable(QString::number(bytes(m, r, (r + 1) % 4))));
        QCOMPARE(bytes(m, 0, 2), 0.0);
        const CommLink& l = m.links.at({0, 1});
        QCOMPARE(l.link, std::string("intra"));
        // One peer: the link carries the whole transit; its bandwidth is the bus bandwidth.
        QVERIFY(near(l.time_ms, m.transit));
        QVERIFY(std::abs(l.bytes / 1e6 / l.time_ms - m.bus) < 1e-6 * m.bus);
    }

    void halvingDoublingExchangesWithItsPartners() {
        const Matrix m = matrixOf("halving_doubling");
        QCOMPARE(int(m.links.size()), 8);  // each rank with its partners 2 and 1 away
        QVERIFY(near(bytes(m, 0, 2), m.payload));
        QVERIFY(near(bytes(m, 2, 0), m.payload));
        QVERIFY(near(bytes(m, 0, 1), 0.5 * m.payload));
        QVERIFY(near(bytes(m, 3, 2), 0.5 * m.payload));
        QCOMPARE(bytes(m, 0, 3), 0.0);
        // Same link: the transit is shared by bytes, 2/3 to the far partner.
        QVERIFY(near(m.links.at({0, 2}).time_ms, m.transit * 2 / 3));
    }

    void treeCarriesHalfThePayloadPerEdge() {
        const Matrix m = matrixOf("tree");
        // Tree 1 (heap order): 1-0, 2-0, 3-1; tree 2 (mirror): 2-3, 1-3, 0-2.
        QVERIFY(near(bytes(m, 0, 1), 0.5 * m.payload));
        QVERIFY(near(bytes(m, 0, 2), m.payload));  // an edge of both trees
        QVERIFY(near(bytes(m, 1, 3), m.payload));
        QVERIFY(near(bytes(m, 3, 2), 0.5 * m.payload));
        QCOMPARE(bytes(m, 0, 3), 0.0);
    }

    void hierarchicalSplitsIntraAndInterNode() {
        const Matrix m = matrixOf("hierarchical", 2);
        QCOMPARE(int(m.links.size()), 8);
        QVERIFY(near(bytes(m, 0, 1), m.payload));
        QCOMPARE(m.links.at({0, 1}).link, std::string("intra"));
        QVERIFY(near(bytes(m, 0, 2), 0.5 * m.payload));
        QCOMPARE(m.links.at({0, 2}).link, std::string("inter"));
        QCOMPARE(bytes(m, 0, 3), 0.0);
        // The inter-node link is the slow one: 25 GB/s against 300 GB/s inside the node.
        const CommLink& inter = m.links.at({0, 2});
        const CommLink& intra = m.links.at({0, 1});
        QVERIFY(inter.bytes / inter.time_ms < intra.bytes / intra.time_ms);
        QVERIFY(near(inter.time_ms + intra.time_ms, m.transit));
    }
};

QTEST_GUILESS_MAIN(TestClusterCommMatrix)
#include "test_cluster_comm_matrix.moc"
