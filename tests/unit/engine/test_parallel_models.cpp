// The distributed building blocks against their published formulas: pipeline bubbles
// (Megatron-LM: (p-1)/(m+p-1) for GPipe/1F1B, /v with interleaving), alpha-beta
// collectives (nccl-tests' bus bandwidth 2(n-1)/n for all-reduce), HCCL's hierarchical
// order across nodes, and the cluster section of a project.

#include "engine/cost/device_profile.h"
#include "engine/parallel/cluster_spec.h"
#include "engine/parallel/collective_cost.h"
#include "engine/parallel/pipeline_schedule.h"
#include "engine/driver/simulate_project.h"
#include "engine/project/project.h"

#include <QTest>

#include <cmath>

using namespace npu::engine;

namespace {

PipelineSetup uniform(int p, int m, PipelineSchedule sched, int v = 1) {
    PipelineSetup s;
    s.stages = p;
    s.microBatches = m;
    s.schedule = sched;
    s.virtualStages = v;
    s.forwardNs.assign(static_cast<std::size_t>(p), 1000);
    s.backwardNs.assign(static_cast<std::size_t>(p), 2000);
    return s;
}

ClusterSpec dgxA100(int nodes) {
    // Korthikanti et al. 2022 setup: 8 A100 per node, NVLink 300 GB/s per direction,
    // 8 x 200 Gb/s InfiniBand per node.
    nlohmann::json j = {{"nodes", nodes},
                        {"devices_per_node", 8},
                        {"intra_node", {{"bandwidth_GBps", 300}, {"latency_us", 2}, {"topology", "switch"}}},
                        {"inter_node", {{"nic_bandwidth_Gbps", 200}, {"nics_per_node", 8}, {"latency_us", 5}}}};
    auto c = parseClusterSpec(j, nullptr, "p.json");
    return c.value();
}

}  // namespace

class TestParallelModels : public QObject {
    Q_OBJECT
private slots:
    void oneFOneBBubbleIsMegatrons() {
        for (auto sched : {PipelineSchedule::one_f_one_b, PipelineSchedule::gpipe}) {
            for (auto [p, m] : {std::pair{4, 8}, std::pair{8, 32}, std::pair{2, 2}}) {
                auto t = simulatePipeline(uniform(p, m, sched));
                QVERIFY(t.ok());
                QCOMPARE(t->iterationNs, (m + p - 1) * 3000.0);
                QVERIFY(std::abs(t->bubbleFraction() - double(p - 1) / (m + p - 1)) < 1e-12);
            }
        }
    }

    void oneFOneBKeepsFewerMicroBatchesInFlight() {
        // 1F1B's point: stage 0 holds at most p activations, GPipe all m.
        auto inFlight = [](const PipelineTimeline& t) {
            int live = 0, peak = 0;
            for (const auto& pass : t.stages[0]) {
                live += pass.backward ? -1 : 1;
                peak = std::max(peak, live);
            }
            return peak;
        };
        QCOMPARE(inFlight(simulatePipeline(uniform(4, 16, PipelineSchedule::one_f_one_b)).value()), 4);
        QCOMPARE(inFlight(simulatePipeline(uniform(4, 16, PipelineSchedule::gpipe)).value()), 16);
    }

    void interleavingDividesTheBubble() {
        const int p = 4, m = 8, v = 2;
        auto t = simulatePipeline(uniform(p, m, PipelineSchedule::interleaved, v));
        QVERIFY2(t.ok(), t.ok() ? "" : t.message().c_str());
        const double expected = double(p - 1) / (v * m + p - 1);  // bubble (p-1)(tf+tb)/v
        QVERIFY2(std::abs(t->bubbleFraction() - expected) < 0.02,
                 qPrintable(QStringLiteral("%1 vs %2").arg(t->bubbleFraction()).arg(expected)));
        QVERIFY(t->bubbleFraction() < simulatePipeline(uniform(p, m, PipelineSchedule::one_f_one_b))->bubbleFraction());
        auto bad = simulatePipeline(uniform(4, 6, PipelineSchedule::interleaved, 2));
        QVERIFY(!bad.ok() && bad.message().find("micro_batches") != std::string::npos);
    }

    void aSlowStageMakesTheOthersWait() {
        PipelineSetup s = uniform(4, 8, PipelineSchedule::one_f_one_b);
        s.forwardNs[2] *= 1.5;
        s.backwardNs[2] *= 1.5;
        auto t = simulatePipeline(s).value();
        QVERIFY(t.iterationNs > 33000);
        QVERIFY(t.bubbleNs[0] > t.bubbleNs[2]);  // the slow stage idles least
    }

    void ringAllReduceIsItsFormula() {
        ClusterSpec c = dgxA100(1);
        const double bytes = 1e9, n = 8;
        const auto g = placeGroup(c, 8, 1);
        QCOMPARE(g.nodes, 1);
        const auto cost = collectiveCost(CollectiveKind::all_reduce, CollectiveAlgorithm::ring, bytes, g, c);
        const double expected = 2 * (n - 1) * 2000 + 2 * (n - 1) / n * bytes / 300e9 * 1e9;
        QVERIFY(std::abs(cost.timeNs - expected) < 1e-6 * expected);
        QVERIFY(std::abs(cost.busBandwidth / 300e9 - 1) < 0.01);  // busbw reaches the link rate
        const auto rs = collectiveCost(CollectiveKind::reduce_scatter, CollectiveAlgorithm::ring, bytes, g, c);
        QVERIFY(std::abs(rs.transferNs * 2 - cost.transferNs) < 1e-6 * cost.transferNs);
        QCOMPARE(collectiveCost(CollectiveKind::all_reduce, CollectiveAlgorithm::ring, bytes, placeGroup(c, 1, 1), c).timeNs, 0.0);
    }

    // nccl-tests' busbw is algbw x a factor of the collective and n only, whatever the
    // algorithm (doc/PERFORMANCE.md): a tree all-reduce moves twice its buffer in the
    // model's transfer term, yet reports the ring's factor.
    void busBandwidthIsNcclTestsDefinition() {
        const ClusterSpec one = dgxA100(1), eight = dgxA100(8);
        const double bytes = 256e6;
        struct Case {
            CollectiveKind kind;
            CollectiveAlgorithm algorithm;
            const ClusterSpec* cluster;
            int ranks;
            double factor;
        };
        for (const Case& k : {Case{CollectiveKind::all_reduce, CollectiveAlgorithm::ring, &one, 8, 2.0 * 7 / 8},
                              Case{CollectiveKind::all_reduce, CollectiveAlgorithm::tree, &one, 8, 2.0 * 7 / 8},
                              Case{CollectiveKind::all_reduce, CollectiveAlgorithm::halving_doubling, &one, 8, 2.0 * 7 / 8},
                              Case{CollectiveKind::all_reduce, CollectiveAlgorithm::hierarchical, &eight, 64, 2.0 * 63 / 64},
                              Case{CollectiveKind::reduce_scatter, CollectiveAlgorithm::ring, &one, 8, 7.0 / 8},
                              Case{CollectiveKind::all_gather, CollectiveAlgorithm::hierarchical, &eight, 64, 63.0 / 64},
                              Case{CollectiveKind::broadcast, CollectiveAlgorithm::tree, &one, 8, 1.0}}) {
            const auto c = collectiveCost(k.kind, k.algorithm, bytes, placeGroup(*k.cluster, k.ranks, 1), *k.cluster);
            const QByteArray what = QByteArray(collectiveKindName(k.kind).data()) + " " + collectiveAlgorithmName(k.algorithm).data();
            QVERIFY2(std::abs(c.busBandwidth / (c.algBandwidth * k.factor) - 1) < 1e-9, what.constData());
            QVERIFY2(std::abs(c.busBytes / (bytes * k.factor) - 1) < 1e-9, what.constData());
        }
        QCOMPARE(busBandwidthFactor(CollectiveKind::all_reduce, 1), 1.0);
        // The tree's time still moves 2x the buffer over the link.
        const auto tree = collectiveCost(CollectiveKind::all_reduce, CollectiveAlgorithm::tree, bytes, placeGroup(one, 8, 1), one);
        QVERIFY(std::abs(tree.transferNs / (2 * bytes / 300e9 * 1e9) - 1) < 1e-9);
        QCOMPARE(tree.wireBytes, 2 * bytes);
    }

    void hierarchicalBeatsAFlatRingAcrossNodes() {
        ClusterSpec c = dgxA100(8);
        const auto g = placeGroup(c, 64, 1);
        QCOMPARE(g.nodes, 8);
        QCOMPARE(g.ranksPerNode, 8);
        const double bytes = 2e9;
        const auto flatRing = collectiveCost(CollectiveKind::all_reduce, CollectiveAlgorithm::ring, bytes, g, c);
        const auto hier = collectiveCost(CollectiveKind::all_reduce, CollectiveAlgorithm::hierarchical, bytes, g, c);
        QVERIFY(hier.timeNs < flatRing.timeNs);
        QCOMPARE(QString::fromStdString(hier.link), QStringLiteral("intra+inter"));
        // Small messages: halving-doubling's log2(n) steps beat the ring's 2(n-1).
        const auto smallRing = collectiveCost(CollectiveKind::all_reduce, CollectiveAlgorithm::ring, 4096, g, c);
        const auto smallHd = collectiveCost(CollectiveKind::all_reduce, CollectiveAlgorithm::halving_doubling, 4096, g, c);
        QVERIFY(smallHd.timeNs < smallRing.timeNs);
        // A data-parallel group strided by TP 8 has one rank per node and all 8 groups share NICs.
        const auto dp = placeGroup(c, 8, 8);
        QCOMPARE(dp.nodes, 8);
        QCOMPARE(dp.ranksPerNode, 1);
        QCOMPARE(dp.sharersPerNic, 8);
    }

    void clusterSectionIsChecked() {
        auto dev = loadDeviceProfile("a100-80gb", defaultDevicesDir());
        QVERIFY2(dev.ok(), dev.ok() ? "" : dev.message().c_str());
        QCOMPARE(dev->peak(DType::bf16), 312e12);
        auto c = parseClusterSpec({{"nodes", 2}, {"devices_per_node", 8}, {"inter_node", {{"nic_bandwidth_Gbps", 200}, {"nics_per_node", 8}}}},
                                  &dev.value(), "p.json");
        QVERIFY2(c.ok(), c.ok() ? "" : c.message().c_str());
        QCOMPARE(c->devices(), 16);
        QCOMPARE(c->intra.bandwidth, 230e9);  // the profile's measured NVLink busBw (nvlink_bus_bandwidth), not the 300 GB/s line rate
        QCOMPARE(c->nodeInterBandwidth(), 200e9);
        auto missing = parseClusterSpec({{"nodes", 2}, {"devices_per_node", 8}}, &dev.value(), "p.json");
        QVERIFY(!missing.ok() && missing.message().find("cluster.inter_node") != std::string::npos);
        nlohmann::json doc = {{"format", "npustudio-project"}, {"version", 1}, {"name", "x"}, {"model", {{"zoo", "llama"}}},
                              {"cluster", {{"nodes", 2}, {"devices_per_node", 8}, {"inter_node", {{"nic_bandwidth_Gbps", 200}}}}}};
        auto project = parseProject(doc, "p.json");
        QVERIFY2(project.ok(), project.ok() ? "" : project.message().c_str());
        QCOMPARE(projectToJson(project.value())["cluster"]["nodes"].get<int>(), 2);
        doc["cluster"].erase("inter_node");
        auto refused = parseProject(doc, "p.json");
        QVERIFY(!refused.ok() && refused.message().find("cluster.inter_node") != std::string::npos);
        auto typo = parseClusterSpec({{"nodes", 2}, {"devices", 8}}, &dev.value(), "p.json");
        QVERIFY(!typo.ok() && typo.message().find("p.json") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestParallelModels)
#include "test_parallel_models.moc"
