// training.mode "ppo" on 8 devices (engine/training/ppo_step, engine/cluster/phased_step): the sample project
// projects/llama-7b-ppo (LLaMA-7B actor/reference, 7B critic/reward with a value head,
// 256 + 256 tokens, bf16-o2, optimizer offloaded) with the rollout batch of 8 split by data
// parallelism, sharded by tensor parallelism and ZeRO-3. The phases keep their split,
// and each degree moves the per-rank time and memory the way it must.
#include "engine/driver/simulate_project.h"
#include "sample_projects.h"

#include <QtTest>

using namespace npu::engine;

namespace {

using testing::ppoOn;

double phase(const SimulationResult& r, const char* name) { return r.summary.time_by_phase_ms.at(name); }

const CollectiveSummary* collective(const SimulationResult& r, const std::string& group, const std::string& kind) {
    for (const auto& c : r.summary.cluster.collectives)
        if (c.group == group && c.kind == kind) return &c;
    return nullptr;
}

}  // namespace

class TestPpoCluster : public QObject {
    Q_OBJECT
private slots:
    void dataAndTensorParallelOn8Devices() {
        const SimulationResult dp2 = testing::simulateOrFail(ppoOn({{"data_parallel", 2}}, 2));  // the baseline: 2 devices
        const SimulationResult dp8 = testing::simulateOrFail(ppoOn({{"data_parallel", 8}}));
        const SimulationResult tp2 = testing::simulateOrFail(ppoOn({{"data_parallel", 4}, {"tensor_parallel", 2}}));
        const SimulationResult zero3 = testing::simulateOrFail(ppoOn({{"data_parallel", 8}, {"zero_stage", 3}}));
        for (const SimulationResult* r : {&dp2, &dp8, &tp2, &zero3}) {
            QCOMPARE(r->summary.status, std::string("ok"));
            QVERIFY(r->summary.cluster.present);
            double phases = 0;
            for (const char* p : {"generation", "scoring", "training"}) {
                QVERIFY2(phase(*r, p) > 0, p);
                phases += phase(*r, p);
            }
            // Task time plus waits on communication: never more than the step.
            QVERIFY2(phases <= r->summary.step_time_ms * 1.001, qPrintable(QString::number(phases)));
            // Memory per device: one rank's, under the H200's 141 GiB, on every rank's track.
            QVERIFY(r->summary.peak_bytes > 0 && r->summary.peak_bytes < r->summary.capacity_bytes);
            for (const auto& d : r->devices) QVERIFY(!d.memory.empty());
            // The four models' parameters are the whole models', whatever the shard.
            QCOMPARE(r->summary.params_by_model.at("actor").trainable, std::int64_t{6738415616});
            QCOMPARE(r->summary.params_by_model.at("reward").frozen, std::int64_t{6607347712});
        }
        QCOMPARE(dp8.devices.size(), std::size_t{8});
        QCOMPARE(dp2.devices.size(), std::size_t{2});

        // Data parallelism: each rank scores and trains 1 sequence instead of 4; its decode
        // reads the same weights (memory bound), so generation does not grow. The gradients
        // of actor and critic are all-reduced in 16 bits (bf16-o2 under DeepSpeed's
        // convention, training.framework's default; Megatron's fp32 main_grad would be 4).
        QVERIFY(phase(dp8, "scoring") < 0.5 * phase(dp2, "scoring"));
        QVERIFY(phase(dp8, "training") < phase(dp2, "training"));
        QVERIFY(phase(dp8, "generation") <= phase(dp2, "generation"));
        const CollectiveSummary* grads = collective(dp8, "dp", "all_reduce");
        QVERIFY(grads);
        QCOMPARE(grads->bytes, (6738415616.0 + 6607347712.0) * 2);
        QVERIFY(!collective(dp8, "tp", "all_reduce"));
        QVERIFY(dp8.summary.peak_bytes <= dp2.summary.peak_bytes);

        // Tensor parallelism 2 (x DP 4): each rank holds half of every model, so a decode step
        // reads half the weights and the optimizer updates half, despite 2 sequences instead
        // of 1 and the all-reduces of every token; memory per device about halves.
        QVERIFY(phase(tp2, "generation") < phase(dp8, "generation"));
        QVERIFY(phase(tp2, "training") < phase(dp8, "training"));
        QVERIFY(tp2.summary.peak_bytes < 0.6 * dp8.summary.peak_bytes);
        const CollectiveSummary* tp = collective(tp2, "tp", "all_reduce");
        QVERIFY(tp);
        QVERIFY2(tp->count >= 255 * (2 * 32 + 1), qPrintable(QString::number(tp->count)));  // every decode step's
        QVERIFY(tp2.summary.step_time_ms < dp8.summary.step_time_ms);

        // ZeRO-3 over 8: model states (all four models' weights too) and the offloaded
        // optimizer's work are split 8 ways; the weights are gathered before each pass, and
        // each module's weights are live in full while it (and the module before) runs.
        // (18.8 GB against 53.8 GB: the gathered weights of the modules in flight come on top
        // of the shards, DeepSpeed's stage-3 fetch; without ZeRO the offloaded optimizer
        // already takes each gradient to the host as backward makes it.)
        QVERIFY(zero3.summary.peak_bytes < dp8.summary.peak_bytes / 2.5);
        QVERIFY(phase(zero3, "training") < 0.5 * phase(dp8, "training"));
        QVERIFY(collective(zero3, "dp", "all_gather"));
        QVERIFY(collective(zero3, "dp", "reduce_scatter"));
    }
};

QTEST_MAIN(TestPpoCluster)
#include "test_ppo_cluster.moc"
