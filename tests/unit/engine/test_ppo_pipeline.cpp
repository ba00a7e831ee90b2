// training.mode "ppo" with pipeline stages (engine/cluster/program_pipeline running
// engine/training/ppo_program's step program): the layout on
// hand-made stage runs, where every figure follows from the pipeline by formula (a decode
// step = the stages' step times + the hops + the token back; a forward-only pipeline of m
// micro-batches = (p-1) x (pass + hop) + m x pass), then LLaMA-7B PPO on 8 H200s
// (projects/llama-7b-ppo) with PP2 x DP4 and PP2 x TP4: phases, bubbles, memory per stage.
#include "engine/cluster/cluster_setup.h"
#include "engine/planner/strategy_search.h"
#include "engine/driver/simulate_project.h"
#include "engine/planner/resource_estimator.h"
#include "engine/training/ppo_graph.h"
#include "engine/cluster/program_pipeline.h"
#include "engine/training/ppo_program.h"
#include "sample_projects.h"
#include "task_tape.h"

#include <QtTest>

using namespace npu::engine;

namespace {

using testing::ppoOn;

// One stage's PPO step on one device: prefill [0, 1000), decode steps 1 and 2 (each
// `decode` long, plus 100 of host gap), the three scoring forwards (`score` each, the
// reward's followed by 90 of host gap), actor
// and critic forward (`fwd`), backward (2 x fwd) and optimizer step (50).
SimulationResult stageRun(std::int64_t decode, std::int64_t score, std::int64_t fwd) {
    SimulationResult r;
    DeviceResult d;
    d.streams.push_back({0, "Compute", StreamKind::compute});
    testing::TaskTape task{d};
    task("actor.generate.prefill", "DecodePrefill", Phase::forward, 1000);
    task("actor.generate.decode.1", "DecodeStep", Phase::forward, decode, 100);
    task("actor.generate.decode.2", "DecodeStep", Phase::forward, decode, 100);
    // The reward model's forward leaves the device idle 90 after its kernel (a host-bound gap).
    for (const char* m : {"reward", "reference", "critic.score"}) task(std::string(m) + ".layers.0.mlp", "MatMul", Phase::forward, score, m == std::string("reward") ? 90 : 0);
    for (const char* m : {"actor", "critic"}) {
        task(std::string(m) + ".layers.0.mlp", "MatMul", Phase::forward, fwd);
        task(std::string(m) + ".layers.0.mlp.grad", "MatMul", Phase::backward, 2 * fwd);
        task(std::string(m) + ".optimizer.adamw", "AdamW", Phase::optimizer, 50);
    }
    r.devices.push_back(d);
    labelPpoTasks(r);  // as the simulation of the PPO graph labels its tasks
    r.summary.params_by_model["actor"].trainable = 1000;
    r.summary.params_by_model["critic"].trainable = 1000;
    return r;
}

ClusterSetup pipelineOf(int stages, int microBatches) {
    auto device = loadDeviceProfile("h200", defaultDevicesDir());
    if (!device) qFatal("%s", device.message().c_str());
    ClusterSetup s;
    auto cluster = parseClusterSpec({{"nodes", 1}, {"devices_per_node", stages}}, &*device, "test");
    if (!cluster) qFatal("%s", cluster.message().c_str());
    s.cluster = *cluster;
    s.parallel.pipelineStages = stages;
    s.parallel.microBatches = microBatches;
    return s;
}

}  // namespace

class TestPpoPipeline : public QObject {
    Q_OBJECT
private slots:
    void megatronInferenceMicroBatches() {
        QCOMPARE(inferenceMicroBatches(8, 1), 1);     // decode steps of a small batch: not pipelined
        QCOMPARE(inferenceMicroBatches(2, 255), 1);   // 510 < 512
        QCOMPARE(inferenceMicroBatches(2, 256), 1);   // 512 sequences-tokens: pipelined, 2 per micro-batch
        QCOMPARE(inferenceMicroBatches(8, 256), 4);
        QCOMPARE(inferenceMicroBatches(3, 1000), 3);  // one sequence per micro-batch at least
    }

    void decodeStepAndForwardOnlyPipelineByFormula() {
        const SimulationResult a = stageRun(400, 600, 300), b = stageRun(700, 600, 300);
        const int m = 3;
        const ClusterSetup setup = pipelineOf(2, m);
        PpoOptions ppo;
        ppo.prompt_tokens = 16;
        ppo.generate_tokens = 2;
        // 6 rollout sequences of 18 tokens, one layer per stage.
        const StepProgram program = ppoStepProgram(6, ppo, 4096, 2);
        QCOMPARE(program.sequenceTokens, std::int64_t{18});
        auto laid = layOutProgramPipeline({&a, &b}, setup, program);
        QVERIFY2(laid, laid ? "" : laid.message().c_str());
        const double act = setup.activationBytes;
        // A decode step: stage 0's step (400 + 100 host gap), one hop of 6 tokens' hidden
        // states, stage 1's (700 + 100), then 6 token ids back to stage 0.
        const double hop = collectiveCost(CollectiveKind::send_recv, CollectiveAlgorithm::ring, 6 * 4096 * act, setup.ppPair(), setup.cluster).timeNs;
        const double back = collectiveCost(CollectiveKind::send_recv, CollectiveAlgorithm::ring, 6 * 8, setup.ppPair(), setup.cluster).timeNs;
        QVERIFY(hop > 0 && back > 0);
        QCOMPARE(laid->decodeStepNs, 500.0 + hop + 800.0 + back);
        QCOMPARE(laid->decodeMicroBatches, 1);
        // Scoring: three forward-only pipelines of m micro-batches, each a pass of the
        // kernels' 600/m plus, for the reward model, its 90 of idle device (the host issues
        // every op again for every micro-batch).
        const double mbHop = collectiveCost(CollectiveKind::send_recv, CollectiveAlgorithm::ring, 6.0 / m * 18 * 4096 * act, setup.ppPair(), setup.cluster).timeNs;
        const double scoring = 2 * ((2 - 1) * (200 + mbHop) + m * 200) + ((2 - 1) * (290 + mbHop) + m * 290);
        QVERIFY2(std::abs(laid->phaseWallMs.at("scoring") * 1e6 - scoring) <= 3, qPrintable(QString::number(laid->phaseWallMs.at("scoring") * 1e6)));
        // Each stage is idle while the other runs its part of a decode step: the bubble.
        QVERIFY(laid->bubbleMs.at("generation") > 0);
        double phases = 0;
        for (const auto& [phase, ms] : laid->phaseWallMs) phases += ms;
        QVERIFY(std::abs(phases * 1e6 - static_cast<double>(laid->iterationNs)) <= 3);
        QCOMPARE(laid->stages.size(), std::size_t{2});
        // Every stage runs every micro-batch's forward and backward of actor and critic.
        int passes = 0;
        for (const SimTask& t : laid->stages[1].device.tasks) passes += t.name == "actor.layers.0.mlp.grad";
        QCOMPARE(passes, m);
    }

    // The layout reads each phase's collectives from the phase, not from its kind: a train
    // phase whose gradients are not reduced gets no data-parallel bucket.
    void phasesCollectivesDriveTheLayout() {
        const SimulationResult a = stageRun(400, 600, 300), b = stageRun(700, 600, 300);
        ClusterSetup setup = pipelineOf(2, 2);
        auto device = loadDeviceProfile("h200", defaultDevicesDir());
        QVERIFY2(device, device ? "" : device.message().c_str());
        auto cluster = parseClusterSpec({{"nodes", 1}, {"devices_per_node", 4}}, &*device, "test");
        QVERIFY2(cluster, cluster ? "" : cluster.message().c_str());
        setup.cluster = *cluster;
        setup.parallel.dataParallel = 2;
        PpoOptions ppo;
        StepProgram program = ppoStepProgram(4, ppo, 4096, 2);
        auto buckets = [&](const StepProgram& p) {
            auto laid = layOutProgramPipeline({&a, &b}, setup, p);
            if (!laid) qFatal("%s", laid.message().c_str());
            int n = 0;
            for (const RankTimeline& stage : laid->stages)
                for (const SimTask& t : stage.device.tasks) n += t.name.find(" bucket ") != std::string::npos;
            return n;
        };
        QCOMPARE(buckets(program), 4);  // actor and critic, one bucket each, on each of 2 stages
        for (StepProgramPhase& phase : program.phases) phase.collectives.gradients = false;
        QCOMPARE(buckets(program), 0);
    }

    void llama7bOn8H200() {
        const SimulationResult dp8 = testing::simulateOrFail(ppoOn({{"data_parallel", 8}}));
        const SimulationResult pp2 = testing::simulateOrFail(ppoOn({{"data_parallel", 4}, {"pipeline_stages", 2}}));
        const SimulationResult pp2tp4 = testing::simulateOrFail(ppoOn({{"tensor_parallel", 4}, {"pipeline_stages", 2}, {"micro_batches", 4}}));
        for (const SimulationResult* r : {&pp2, &pp2tp4}) {
            QCOMPARE(r->summary.status, std::string("ok"));
            QCOMPARE(r->summary.cluster.pipeline_stages, 2);
            QCOMPARE(r->devices.size(), std::size_t{8});
            double phases = 0;
            for (const char* p : {"generation", "scoring", "training"}) {
                const double bubble = r->summary.time_by_phase_ms.at(std::string(p) + "_bubble");
                QVERIFY2(bubble > 0 && bubble < r->summary.time_by_phase_ms.at(p), p);
                phases += r->summary.time_by_phase_ms.at(p);
            }
            // Rank 0's task time, waits and bubble: the step but for its host-bound gaps.
            QVERIFY2(phases <= r->summary.step_time_ms * 1.001, qPrintable(QString::number(phases)));
            QVERIFY(r->summary.cluster.bubble_fraction > 0 && r->summary.cluster.bubble_fraction < 1);
            bool sends = false;
            for (const auto& c : r->summary.cluster.collectives) sends = sends || (c.group == "pp" && c.kind == "send_recv" && c.count > 0);
            QVERIFY(sends);
            QCOMPARE(r->summary.params_by_model.at("actor").trainable, std::int64_t{6738415616});
        }
        // Memory per stage: half of every model's layers. The first stage holds the
        // embedding and not the LM head, so its actor weights are half the whole model's.
        const double whole = static_cast<double>(dp8.summary.bytes_by_model.at("actor").trainable_weights);
        const double stage = static_cast<double>(pp2.summary.bytes_by_model.at("actor").trainable_weights);
        QVERIFY2(std::abs(stage / whole - 0.5) < 0.01, qPrintable(QString::number(stage / whole)));
        QVERIFY(pp2.summary.peak_bytes < dp8.summary.peak_bytes);
        // A decode step goes through both stages in turn: PP does not shorten generation,
        // which reads each stage's weights in sequence (memory bound).
        QVERIFY(pp2.summary.time_by_phase_ms.at("generation") > 0.9 * dp8.summary.time_by_phase_ms.at("generation"));
        // Every decode step sends each token's hidden states to stage 1 and the token back.
        std::int64_t sendCount = 0;
        for (const auto& c : pp2.summary.cluster.collectives)
            if (c.group == "pp") sendCount += c.count;
        QVERIFY2(sendCount >= 256, qPrintable(QString::number(sendCount)));
    }

    // The strategy search enumerates PPO strategies through the PPO cluster simulation: a
    // small LLaMA PPO on 4 H200s (pipeline stages among them), ZeRO-3 under stages listed
    // invalid with the reason, the best strategy's figures those of its own simulation.
    void strategySearchCoversPpo() {
        Project p = ppoOn({{"data_parallel", 4}}, 4);
        p.model.config = {{"hidden", 256}, {"layers", 4}, {"heads", 4}, {"kv_heads", 4}, {"ffn", 512}, {"vocab", 1000}, {"tie_embeddings", false}};
        p.training.mode.ppo.prompt_tokens = 16;
        p.training.mode.ppo.generate_tokens = 8;
        StrategySearchOptions options;
        options.maxSimulations = 40;
        auto found = searchStrategies(p, options);
        QVERIFY2(found, found ? "" : found.message().c_str());
        QVERIFY(found->best());
        bool pipelined = false, zero3Refused = false;
        for (const StrategyTrial& t : found->strategies) {
            pipelined = pipelined || (t.feasible() && t.config.pipelineStages > 1);
            if (t.config.pipelineStages > 1 && t.config.dataParallel > 1 && t.config.zeroStage == 3) {
                QCOMPARE(t.status, TrialStatus::invalid);
                QVERIFY2(t.reason.find("ZeRO-3") != std::string::npos, t.reason.c_str());
                zero3Refused = true;
            }
        }
        QVERIFY(pipelined);
        QVERIFY(zero3Refused);
        const SimulationResult best = testing::simulateOrFail(withStrategy(p, found->best()->config));
        QCOMPARE(best.summary.step_time_ms, found->best()->step_time_ms);
    }

    // Slow-rank and slow-link what-ifs pace a PPO step: rank 5 (stage 1 of PP2 x DP4) at
    // twice the time stretches stage 1's work, hence every decode step; a slow link
    // stretches the collectives' transfers.
    void whatIfsPaceThePpoStep() {
        Project base = ppoOn({{"data_parallel", 4}, {"pipeline_stages", 2}});
        Project slow = base, slowLink = ppoOn({{"data_parallel", 4}, {"tensor_parallel", 2}});
        slow.cluster["slow_ranks"] = {{{"rank", 5}, {"compute_factor", 2.0}}};
        slowLink.cluster["slow_links"] = {{{"rank", 0}, {"factor", 0.25}}};
        const SimulationResult b = testing::simulateOrFail(base), s = testing::simulateOrFail(slow);
        const SimulationResult l0 = testing::simulateOrFail(ppoOn({{"data_parallel", 4}, {"tensor_parallel", 2}})), l = testing::simulateOrFail(slowLink);
        // Generation: stage 1's half of every decode step takes twice as long, so rank 0
        // (stage 0) waits about twice as long for it.
        const double gen = b.summary.time_by_phase_ms.at("generation_bubble"), genSlow = s.summary.time_by_phase_ms.at("generation_bubble");
        QVERIFY2(genSlow > 1.8 * gen && genSlow < 2.1 * gen, qPrintable(QString::number(genSlow / gen)));
        QVERIFY(s.summary.step_time_ms > b.summary.step_time_ms);
        bool noted = false;
        for (const auto& n : s.summary.cluster.notes) noted = noted || n.find("rank 5 computes at 2.00x") != std::string::npos;
        QVERIFY(noted);
        // The 25 MB gradient buckets (mostly bandwidth) take 2.5-4x; the decode steps' small
        // TP all-reduces (latency-bound, the latency kept) longer too.
        auto find = [](const SimulationResult& r, const char* group) {
            for (const auto& c : r.summary.cluster.collectives)
                if (c.group == group) return c;
            return CollectiveSummary{};
        };
        const CollectiveSummary dp = find(l0, "dp"), dpSlow = find(l, "dp"), tp = find(l0, "tp"), tpSlow = find(l, "tp");
        QVERIFY(dp.count > 0 && tp.count > 0);
        QCOMPARE(tpSlow.count, tp.count);
        QVERIFY2(dpSlow.time_ms > 2.5 * dp.time_ms && dpSlow.time_ms <= 4.0 * dp.time_ms, qPrintable(QString::number(dpSlow.time_ms / dp.time_ms)));
        QVERIFY(tpSlow.time_ms > tp.time_ms);
        QVERIFY(l.summary.step_time_ms > l0.summary.step_time_ms);
    }

    // The estimator asks the strategy search for PPO too: LLaMA-7B PPO without the
    // optimizer offload does not fit one 64 GiB Ascend 910B; on 2 the strategy reported is
    // one the search simulated (its label names the micro-batches), not a fixed DP + ZeRO-3.
    void estimatorSearchesPpoStrategies() {
        Project p = ppoOn({}, 1);
        p.parallel = nlohmann::json::object();
        p.cluster = nlohmann::json::object();
        p.device = "ascend-910b";
        p.training.offload_optimizer = false;
        EstimateRequest req;
        req.tokens = 1e6;
        req.devicesMax = 2;
        req.maxSimulationsPerCount = 3;
        auto e = estimateResources(p, req);
        QVERIFY2(e, e ? "" : e.message().c_str());
        QCOMPARE(e->trials.size(), std::size_t{2});
        QVERIFY(!e->trials.front().fits);
        QVERIFY2(e->trials.back().strategy.find("micro-batch") != std::string::npos, e->trials.back().strategy.c_str());
    }

    // The communication playbook runs on PPO cluster runs: DP 2 over two servers joined by
    // one 10 Gb/s NIC spends most of the step reducing 2 x 7B fp32 gradients; its advice is
    // re-simulated, the best first and faster than the run.
    void communicationPlaybookOnPpo() {
        Project p = ppoOn({{"data_parallel", 2}}, 1);
        p.cluster = {{"nodes", 2}, {"devices_per_node", 1}, {"inter_node", {{"nic_bandwidth_Gbps", 10}, {"nics_per_node", 1}}}};
        const SimulationResult r = testing::simulateOrFail(p);
        QVERIFY(!r.summary.cluster.advice.empty());
        QVERIFY(r.summary.cluster.advice.front().predicted_step_time_ms < r.summary.step_time_ms);
    }

    void refusedCombinations() {
        auto zero3 = simulateProject(ppoOn({{"data_parallel", 4}, {"pipeline_stages", 2}, {"zero_stage", 3}}), {});
        QVERIFY(!zero3);
        QVERIFY2(zero3.message().find("parallel.zero_stage: 3 with pipeline_stages 2") != std::string::npos, zero3.message().c_str());
        auto interleaved = simulateProject(
            ppoOn({{"data_parallel", 2}, {"pipeline_stages", 4}, {"micro_batches", 4}, {"schedule", "interleaved"}, {"virtual_stages", 2}}), {});
        QVERIFY(!interleaved);
        QVERIFY2(interleaved.message().find("interleaved") != std::string::npos, interleaved.message().c_str());
    }
};

QTEST_MAIN(TestPpoPipeline)
#include "test_ppo_pipeline.moc"
