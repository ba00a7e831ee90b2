// The cluster simulation (engine/cluster) end to end on small zoo models: the
// configuration (parallel, communication, the seed's parallel_strategy) and its
// validation, Megatron-LM's FLOPs per iteration, the 1F1B bubble, ring all-reduce time
// against its formula, symmetry (one stage rank simulated for many) and layer symmetry
// (a stage grown from two simulated layers matches the whole graph simulated).

#include "engine/cluster/step_scheduler.h"
#include "engine/cluster/rank_time_split.h"
#include "engine/parallel/collective_cost.h"
#include "engine/parallel/parallel_config.h"
#include "engine/project/parallel_settings.h"
#include "engine/driver/simulate_project.h"
#include "tests/unit/engine/sample_projects.h"
#include "engine/project/project.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>

#include <chrono>
#include <cmath>

using namespace npu::engine;

namespace {

nlohmann::json gptDoc(int layers, int hidden, int heads, int vocab = 51200) {
    return {{"format", "npustudio-project"},
            {"version", 1},
            {"name", "gpt-cluster"},
            {"device", "a100-80gb"},
            {"model", {{"zoo", "gpt"}, {"config", {{"hidden", hidden}, {"layers", layers}, {"heads", heads}, {"vocab", vocab}, {"max_seq", 1024}}}}},
            {"training", {{"batch", 8}, {"seq", 512}, {"precision", "bf16-amp"}}},
            {"cluster", {{"nodes", 1}, {"devices_per_node", 8}, {"intra_node", {{"bandwidth_GBps", 300}, {"latency_us", 2}}}}}};
}

Project project(const nlohmann::json& doc) { return testing::parsedProject(doc); }
SimulationResult simulated(const Project& p) { return testing::simulateFiguresOrFail(p); }

}  // namespace

class TestClusterSimulation : public QObject {
    Q_OBJECT
private slots:
    void seedParallelStrategyIsAcceptedAsWritten() {
        nlohmann::json doc = gptDoc(8, 512, 8);
        doc["parallel_strategy"] = {{"data_parallel", 8},
                                    {"model_parallel", {{"pipeline_stages", 4}, {"tensor_slicing", {{{"hidden_size", 2}}, {{"attention_heads", 2}}}}}},
                                    {"communication", {{"gradient_allreduce", "hierarchical"}, {"overlap_optimization", true}}}};
        const Project p = project(doc);
        auto c = parallelConfigOf(p);
        QVERIFY2(c.ok(), c.ok() ? "" : c.message().c_str());
        QCOMPARE(c->dataParallel, 8);
        QCOMPARE(c->pipelineStages, 4);
        QCOMPARE(c->tensorParallel, 2);
        QVERIFY(c->comm.gradientAllreduce == CollectiveAlgorithm::hierarchical);
        QVERIFY(c->comm.overlap);
        QVERIFY(isClusterProject(p));

        doc["parallel_strategy"]["model_parallel"]["tensor_slicing"] = {{{"hidden_size", 2}}, {{"attention_heads", 4}}};
        auto bad = parseProject(doc, "p.json");
        QVERIFY(!bad.ok());
        QVERIFY2(bad.message().find("parallel_strategy.model_parallel.tensor_slicing") != std::string::npos, bad.message().c_str());
    }

    void yamlProjectWithTheSeedBlock() {
        QTemporaryDir dir;
        const std::string file = dir.filePath(QStringLiteral("project.yaml")).toStdString();
        std::ofstream(file) << "format: npustudio-project\nversion: 1\nname: 'seed'\n"
                               "model:\n  zoo: llama\n  config: {hidden: 512, ffn: 1024, layers: 8, heads: 8, vocab: 32000}\n"
                               "device: ascend-910b\ntraining:\n  batch: 16\n  seq: 256\n"
                               "parallel_strategy:\n  data_parallel: 2\n  model_parallel:\n    pipeline_stages: 2\n"
                               "    tensor_slicing: [{hidden_size: 2}, {attention_heads: 2}]\n"
                               "  communication:\n    gradient_allreduce: hierarchical\n    overlap_optimization: true\n";
        auto p = loadProject(file);
        QVERIFY2(p.ok(), p.ok() ? "" : p.message().c_str());
        QCOMPARE(p->parallel.value("tensor_parallel", 0), 2);
        QCOMPARE(p->communication.value("gradient_allreduce", std::string()), std::string("hierarchical"));
        SimulationOptions o;
        o.keepGraphs = false;
        auto r = simulateProject(*p, o);
        QVERIFY2(r.ok(), r.ok() ? "" : r.message().c_str());
        QCOMPARE(r->summary.cluster.data_parallel * r->summary.cluster.tensor_parallel * r->summary.cluster.pipeline_stages, 8);
        std::ofstream(file) << "format: npustudio-project\nmodel: [unclosed\n";
        auto bad = loadProject(file);
        QVERIFY(!bad.ok());
        QVERIFY2(bad.message().find("project.yaml: malformed YAML at line") != std::string::npos, bad.message().c_str());
    }

    void everyViolationIsNamed() {
        nlohmann::json doc = gptDoc(6, 512, 6);
        doc["parallel"] = {{"data_parallel", 2}, {"tensor_parallel", 4}, {"pipeline_stages", 4}, {"micro_batches", 2}};
        SimulationOptions o;
        auto r = simulateProject(project(doc), o);
        QVERIFY(!r.ok());
        const std::string m = r.message();
        // 2 x 4 x 4 = 32 devices on an 8-device cluster; 6 heads / TP 4; 6 layers / 4 stages;
        // 2 micro-batches < 4 stages under 1F1B; batch 8 / (2 x 2) is fine.
        for (const char* key : {"p.json: parallel: data_parallel 2 x tensor_parallel 4 x pipeline_stages 4 = 32 devices",
                                "parallel.tensor_parallel: 4 does not divide model.config.heads 6",
                                "parallel.pipeline_stages: 4 stages do not divide model.config.layers 6",
                                "parallel.micro_batches: 2 is fewer than pipeline_stages 4"})
            QVERIFY2(m.find(key) != std::string::npos, m.c_str());
        QVERIFY2(m.find("training.batch") == std::string::npos, m.c_str());
    }

    void absurdLayerCountIsRefusedQuickly() {
        nlohmann::json doc = gptDoc(100000, 512, 8);
        doc["parallel"] = {{"tensor_parallel", 8}};
        const auto t0 = std::chrono::steady_clock::now();
        SimulationOptions o;
        auto r = simulateProject(project(doc), o);
        QVERIFY(!r.ok());
        QVERIFY2(r.message().find("model.config.layers: 100000") != std::string::npos, r.message().c_str());
        QVERIFY(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(20));
        doc.erase("cluster");
        doc.erase("parallel");
        auto single = simulateProject(project(doc), o);
        QVERIFY(!single.ok() && single.message().find("model.config.layers") != std::string::npos);
    }

    void megatronFlopsPerIteration() {
        // Narayanan et al. 2021: model FLOPs per iteration (no recomputation)
        // 72 B s l h^2 (1 + s/(6h) + V/(12 l h)).
        const double B = 8, s = 512, l = 4, h = 1024, V = 51200;
        nlohmann::json doc = gptDoc(4, 1024, 16);
        doc["parallel"] = {{"data_parallel", 2}, {"tensor_parallel", 4}, {"micro_batches", 2}};
        const SimulationResult r = simulated(project(doc));
        const double formula = 72 * B * s * l * h * h * (1 + s / (6 * h) + V / (12 * l * h));
        const double ratio = r.summary.flops_per_step / formula;
        // The zoo GPT adds biases, LayerNorms, position embeddings and the softmax.
        QVERIFY2(std::abs(ratio - 1) < 0.03, qPrintable(QStringLiteral("simulated %1 vs formula %2").arg(r.summary.flops_per_step).arg(formula)));
        QVERIFY(r.summary.cluster.present);
        QCOMPARE(r.summary.cluster.micro_batch_size, std::int64_t{2});
    }

    void oneFOneBBubbleAndRankSplit() {
        // Stages of 4 layers with a small vocabulary: the embedding and lm_head of the first
        // and last stages hardly unbalance them.
        nlohmann::json doc = gptDoc(16, 1024, 16, 2048);
        doc["training"]["batch"] = 16;
        doc["parallel"] = {{"data_parallel", 2}, {"pipeline_stages", 4}, {"micro_batches", 8}, {"schedule", "1f1b"}};
        const SimulationResult r = simulated(project(doc));
        const ClusterSummary& c = r.summary.cluster;
        const double p = 4, m = 8;
        QVERIFY2(std::abs(c.bubble_fraction - (p - 1) / (m + p - 1)) < 0.03, qPrintable(QString::number(c.bubble_fraction)));
        QCOMPARE(int(r.devices.size()), 8);  // every rank of a small cluster
        QCOMPARE(int(c.ranks.size()), 8);
        for (const RankTimeSplit& k : c.ranks) {
            const double total = k.computing_ms + k.communication_not_overlapped_ms + k.bubble_ms + k.free_ms;
            QVERIFY2(std::abs(total - r.summary.step_time_ms) < 1e-3 * r.summary.step_time_ms + 1e-3,
                     qPrintable(QStringLiteral("rank %1: %2 vs %3").arg(k.rank).arg(total).arg(r.summary.step_time_ms)));
        }
        QVERIFY(c.ranks.front().bubble_ms > 0);
        bool pp = false, dp = false;
        for (const auto& k : c.collectives) {
            pp = pp || (k.group == "pp" && k.kind == "send_recv" && k.count == 8);
            dp = dp || (k.group == "dp" && k.kind == "all_reduce" && k.count >= 1);
        }
        QVERIFY(pp && dp);
        // Every rank shows its compute and communication streams: TP, PP send, DP, and
        // with pipeline stages PP recv (its receives, linked to their sends).
        int comm = 0;
        for (const auto& s : r.devices.front().streams) comm += s.kind == StreamKind::comm;
        QCOMPARE(comm, 4);
    }

    void ringAllReduceOfTensorParallelMatchesItsFormula() {
        nlohmann::json doc = gptDoc(2, 1024, 16);
        doc["parallel"] = {{"tensor_parallel", 8}, {"micro_batches", 1}};
        doc["training"]["batch"] = 1;
        const SimulationResult r = simulated(project(doc));
        const double bytes = 1 * 512 * 1024 * 2, n = 8;
        const double expected = 2 * (n - 1) * 2000 + 2 * (n - 1) / n * bytes / 300e9 * 1e9;  // alpha-beta ring
        bool found = false;
        for (const auto& k : r.summary.cluster.collectives) {
            if (k.group != "tp") continue;
            found = true;
            QCOMPARE(k.kind, std::string("all_reduce"));
            // forward: embedding + 2 per layer; backward: lm_head + 2 per layer.
            QCOMPARE(k.count, std::int64_t{10});
            QVERIFY2(std::abs(k.time_ms * 1e6 / double(k.count) - expected) < 2, qPrintable(QString::number(k.time_ms)));
        }
        QVERIFY(found);
    }

    // Megatron's TP collectives per layer: one after attention and one after the MLP, forward
    // and backward, again in full recomputation; selective recomputation redoes only cheap
    // ops (with bf16-amp the biased GPT's parameter casts too), which need none.
    void tensorParallelCollectivesPerRecomputationMode_data() {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<int>("perLayer");
        QTest::newRow("none") << "none" << 4;
        QTest::newRow("selective") << "selective" << 4;
        QTest::newRow("full") << "full" << 6;
    }
    void tensorParallelCollectivesPerRecomputationMode() {
        QFETCH(QString, mode);
        QFETCH(int, perLayer);
        nlohmann::json doc = gptDoc(2, 1024, 16);
        doc["parallel"] = {{"tensor_parallel", 8}, {"micro_batches", 1}};
        doc["training"]["batch"] = 1;
        doc["training"]["activation_checkpointing"] = mode.toStdString();
        const SimulationResult r = simulated(project(doc));
        for (const auto& k : r.summary.cluster.collectives)
            if (k.group == "tp") QCOMPARE(k.count, std::int64_t{2 * perLayer + 2});  // + embedding and lm_head
    }

    void symmetryStoresOneRankPerStageOfALargeCluster() {
        nlohmann::json doc = gptDoc(8, 512, 8);
        doc["training"]["batch"] = 64;
        doc["cluster"] = {{"nodes", 32}, {"devices_per_node", 8}, {"intra_node", {{"bandwidth_GBps", 300}}},
                          {"inter_node", {{"nic_bandwidth_Gbps", 200}, {"nics_per_node", 8}}}};
        doc["parallel"] = {{"data_parallel", 16}, {"tensor_parallel", 4}, {"pipeline_stages", 4}, {"micro_batches", 4},
                           {"sequence_parallel", true}, {"zero_stage", 1}};
        doc["communication"] = {{"gradient_allreduce", "hierarchical"}};
        const SimulationResult r = simulated(project(doc));
        QCOMPARE(int(r.devices.size()), 4);
        QCOMPARE(r.summary.cluster.ranks.front().represents, 64);
        bool rs = false, ag = false;
        for (const auto& k : r.summary.cluster.collectives) {
            rs = rs || (k.group == "dp" && k.kind == "reduce_scatter" && k.algorithm == "hierarchical" && k.link == "intra+inter");
            ag = ag || (k.group == "tp" && k.kind == "all_gather");
        }
        QVERIFY(rs && ag);
    }

    // Issue 24 Major 2: a cluster run's figures say what they are of. The graph (passes,
    // kernels_per_step) is one micro-batch of one rank's stage, two of its layers, and
    // says so; the step split's device busy time is rank 0's whole step, not that pass's.
    void figuresSayWhatTheyAreOf() {
        nlohmann::json doc = gptDoc(6, 512, 8);
        doc["training"]["batch"] = 8;
        doc["parallel"] = {{"data_parallel", 4}, {"tensor_parallel", 2}, {"micro_batches", 2}};
        const SimulationResult r = simulated(project(doc));
        QVERIFY2(r.graph_scope.find("one micro-batch (1 sequence) of one rank, its 1/2 tensor-parallel shard, 2 of its 6 layers") == 0,
                 r.graph_scope.c_str());
        QVERIFY(!r.summary.cluster.ranks.empty());
        QCOMPARE(r.summary.device_busy_ms, r.summary.cluster.ranks.front().computing_ms);
        QVERIFY2(r.summary.device_busy_ms > 0.5 * r.summary.step_time_ms,
                 qPrintable(QStringLiteral("busy %1 ms of a %2 ms step").arg(r.summary.device_busy_ms).arg(r.summary.step_time_ms)));
        doc.erase("parallel");
        doc.erase("cluster");
        QVERIFY(simulated(project(doc)).graph_scope.empty());  // one device: the whole model
    }

    void grownLayersMatchTheWholeGraph() {
        // One device through the cluster path (a 6-layer stage simulated with two layers
        // and grown) against the single-device path on the whole graph.
        nlohmann::json doc = gptDoc(6, 512, 8);
        doc["training"]["batch"] = 2;
        doc["cluster"] = {{"nodes", 1}, {"devices_per_node", 1}};
        doc["parallel"] = {{"micro_batches", 1}};
        const SimulationResult grown = simulated(project(doc));
        doc.erase("cluster");
        doc.erase("parallel");
        const SimulationResult whole = simulated(project(doc));
        const double dt = grown.summary.step_time_ms / whole.summary.step_time_ms - 1;
        QVERIFY2(std::abs(dt) < 0.01, qPrintable(QStringLiteral("%1 vs %2 ms").arg(grown.summary.step_time_ms).arg(whole.summary.step_time_ms)));
        QCOMPARE(grown.summary.params, whole.summary.params);
        const double dm = double(grown.summary.peak_bytes) / double(whole.summary.peak_bytes) - 1;
        QVERIFY2(std::abs(dm) < 0.05, qPrintable(QStringLiteral("%1 vs %2").arg(grown.summary.peak_bytes).arg(whole.summary.peak_bytes)));
    }
};

QTEST_GUILESS_MAIN(TestClusterSimulation)
#include "test_cluster_simulation.moc"
