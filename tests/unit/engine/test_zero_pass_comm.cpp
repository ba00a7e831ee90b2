// ZeRO-2/3's data-parallel traffic inside the passes (engine/cluster/zero_pass_comm) and
// each framework's default gradient bucket (engine/project/parallel_settings):
//  - stage 3 gathers each pass's weights module by module, a pass waits for its gathers
//    (it takes the longer of its compute and its gathers, plus the first fetch), in
//    backward also for the reduce-scatters sharing the link;
//  - stages 2 and 3 reduce-scatter every micro-batch's gradients, stage 1 once per step;
//  - buckets: DeepSpeed's 5e8 elements, Megatron-Core's max(40M, 1M x dp) parameters,
//    PyTorch DDP's 25 MB for FSDP; an explicit communication.bucket_size_mb wins;
//  - DeepSpeed's pipeline engine takes ZeRO stage 0 or 1 only.
#include "engine/cluster/cluster_setup.h"
#include "engine/cost/device_profile.h"
#include "engine/driver/simulate_project.h"
#include "engine/project/parallel_settings.h"
#include "tests/unit/engine/sample_projects.h"

#include <QTest>

#include <cmath>

using namespace npu::engine;

namespace {

// The DP toy (GPT, 2 layers, 4 devices of one node) in bf16-o2 with 2 micro-batches.
nlohmann::json toy(int zeroStage) {
    nlohmann::json doc = testing::dpToyDoc();
    doc["parallel"] = {{"data_parallel", 4}, {"micro_batches", 2}, {"zero_stage", zeroStage}};
    doc["training"]["precision"] = "bf16-o2";
    doc["communication"] = {{"overlap", true}};
    return doc;
}

SimulationResult simulated(const nlohmann::json& doc) { return testing::simulateFiguresOrFail(testing::parsedProject(doc)); }

int countTasks(const SimulationResult& r, const std::string& prefix) {
    int n = 0;
    for (const SimTask& t : r.devices.front().tasks) n += t.name.starts_with(prefix);
    return n;
}

double phaseMs(const SimulationResult& r, const char* phase) {
    const auto it = r.summary.time_by_phase_ms.find(phase);
    return it == r.summary.time_by_phase_ms.end() ? 0 : it->second;
}

}  // namespace

class TestZeroPassComm : public QObject {
    Q_OBJECT
private slots:
    void reduceScatterEveryMicroBatchFromStage2() {
        const SimulationResult one = simulated(toy(1)), two = simulated(toy(2));
        // One bucket per micro-batch (a 5e8-element DeepSpeed bucket holds the toy's gradients).
        QCOMPARE(countTasks(one, "DP reduce_scatter"), 1);
        QCOMPARE(countTasks(two, "DP reduce_scatter mb "), 1);  // the first micro-batch's, in its backward pass
        QCOMPARE(countTasks(two, "DP reduce_scatter"), 2);
        QVERIFY(two.summary.step_time_ms >= one.summary.step_time_ms);
    }

    void zero3PassesWaitForTheirGathers() {
        nlohmann::json doc = toy(3);
        const SimulationResult fast = simulated(doc);
        // The same on a network 1000x slower: the gathers, not the compute, set the passes.
        doc["cluster"]["intra_node"]["bandwidth_GBps"] = 0.3;
        const SimulationResult slow = simulated(doc);
        const ClusterSetup setup = *resolveClusterSetup(testing::parsedProject(doc), *loadDeviceProfile("a100-80gb", defaultDevicesDir()));
        const double weightBytes = static_cast<double>(slow.summary.params) * setup.weightBytes;
        int gathers = 0;
        for (const SimTask& t : slow.devices.front().tasks)
            if (t.name.starts_with("ZeRO-3 gather weights")) ++gathers;
        QCOMPARE(gathers, 4);  // forward and backward of 2 micro-batches
        // Each pass moves about the model's weights over 300 MB/s: (n-1)/n x bytes / bw.
        const double gatherMs = weightBytes * 3.0 / 4.0 / 0.3e9 * 1e3;
        const double computeMs = phaseMs(slow, "forward") + phaseMs(slow, "backward");
        qInfo("weights %.1f MB, one gather %.1f ms, compute %.2f ms, step %.1f ms (fast network: %.2f ms)", weightBytes / 1e6, gatherMs,
              computeMs, slow.summary.step_time_ms, fast.summary.step_time_ms);
        QVERIFY(computeMs < 0.1 * gatherMs);
        // 4 passes of gathers (the embedding and head too) and the 2 backward passes'
        // reduce-scatters of as many 16-bit gradient bytes: about 6 gathers' time.
        QVERIFY(slow.summary.step_time_ms > 5.5 * gatherMs);
        QVERIFY(slow.summary.step_time_ms < 7 * gatherMs);
        QVERIFY(fast.summary.step_time_ms < 0.1 * slow.summary.step_time_ms);
    }

    // DeepSpeed's PipelineEngine asserts ZeRO stage < 2; FSDP shards under a pipeline.
    void deepSpeedPipelinesTakeZeroStageOneAtMost() {
        nlohmann::json doc = toy(2);
        doc["parallel"] = {{"data_parallel", 2}, {"pipeline_stages", 2}, {"micro_batches", 2}, {"zero_stage", 2}};
        auto refused = simulateProject(testing::parsedProject(doc), {});
        QVERIFY(!refused.ok());
        QVERIFY2(refused.message().find("parallel.zero_stage: 2 with pipeline_stages 2: DeepSpeed's pipeline engine runs ZeRO stage 0 or 1 only") !=
                     std::string::npos,
                 refused.message().c_str());
        doc["training"]["framework"] = "fsdp";
        QVERIFY(simulateProject(testing::parsedProject(doc), {}).ok());
        doc["training"]["framework"] = "deepspeed";
        doc["parallel"]["zero_stage"] = 1;
        QVERIFY(simulateProject(testing::parsedProject(doc), {}).ok());
    }

    void frameworkBuckets() {
        Project p = testing::parsedProject(toy(1));
        p.communication.erase("bucket_size_mb");
        p.training.framework = "deepspeed";  // bf16-o2: 16-bit gradients
        QCOMPARE(parallelConfigOf(p)->comm.bucketMb, 1000.0);
        p.training.framework = "megatron";  // fp32 main_grad, 40M parameters below dp 40
        QCOMPARE(parallelConfigOf(p)->comm.bucketMb, 160.0);
        p.parallel["data_parallel"] = 64;
        QCOMPARE(parallelConfigOf(p)->comm.bucketMb, 256.0);
        QVERIFY(parallelConfigOf(p)->comm.bucketDefault.find("Megatron-Core") != std::string::npos);
        p.training.framework = "fsdp";
        QCOMPARE(parallelConfigOf(p)->comm.bucketMb, 25.0);
        p.communication["bucket_size_mb"] = 50;
        QCOMPARE(parallelConfigOf(p)->comm.bucketMb, 50.0);
        QVERIFY(parallelConfigOf(p)->comm.bucketDefault.empty());
        // A cluster run says which bucket it used.
        const SimulationResult r = simulated(toy(1));
        bool said = false;
        for (const std::string& n : r.summary.cluster.notes) said = said || n.find("DeepSpeed's reduce_bucket_size default") != std::string::npos;
        QVERIFY(said);
    }
};

QTEST_MAIN(TestZeroPassComm)
#include "test_zero_pass_comm.moc"
