// A pipeline stage of many layers is simulated with one and two layers and grown (engine/
// cluster/pass_memory, grownPassMemory). The grown figures must be those of a run of all the
// layers, also where the two short runs peak at different moments: under ZeRO-3 with full
// recomputation the one-layer run peaks in its only layer's backward, the two-layer run in
// its lowest layer's (which in a stage of many layers is the second from the top, with the
// checkpoints of every layer below still held). Growing the difference of the two peaks
// instead put a 96-layer GPT-3 175B rank of four sequences (ZeRO-3 over 384) at 83.9 GiB
// with 73.7 GiB of activations where its checkpoints and one layer's working set are about
// 21 GiB, and at 1536 ranks ZeRO-3's gathered modules in flight (constant in the layers)
// grew to 108 GiB.
#include "engine/cluster/pass_memory.h"
#include "engine/driver/simulate_project.h"
#include "tests/benchmarks/engine/korthikanti_setups.h"
#include "tests/unit/engine/sample_projects.h"

#include <QtTest>

#include <cmath>

using namespace npu::engine;
namespace korthikanti = npu::korthikanti;

namespace {

// One device, one micro-batch: what a stage rank runs (no cluster, nothing grown).
// dataParallel and zeroStage as a stage rank's project has them (engine/cluster/
// stage_profile's stageProject: ZeRO shards this rank's memory, its gathers are counted).
Project gpt(int layers, const std::string& recompute, int batch, int dataParallel, int zeroStage) {
    Project p = korthikanti::gptProject("gpt-grown-stage", 96, 12288, layers, 1, 1, 1, batch, recompute, false);
    p.cluster = nlohmann::json::object();
    p.parallel = nlohmann::json::object();
    if (dataParallel > 1) p.parallel = {{"data_parallel", dataParallel}, {"zero_stage", zeroStage}};
    p.model.config.erase("attention");  // the zoo's defaults
    p.model.config.erase("dropout");
    p.training.framework = "deepspeed";
    return p;
}

SimulationOptions quick() {
    SimulationOptions o;
    o.keepGraphs = false;
    o.adviseOnOom = false;
    o.adviseOnCommunication = false;
    return o;
}

PassMemory probe(const Project& p) {
    const SimulationResult r = testing::simulateOrFail(p, quick());
    if (r.devices.empty()) qFatal("no device");
    return probePassMemory(r.devices.front());
}

void compare(const char* what, double grown, double direct) {
    QVERIFY2(std::abs(grown - direct) <= 0.01 * direct,
             qPrintable(QStringLiteral("%1: grown %2 B, simulated with every layer %3 B").arg(QLatin1String(what)).arg(grown).arg(direct)));
}

}  // namespace

class TestGrownStageMemory : public QObject {
    Q_OBJECT
private slots:
    void grownStageMatchesAFullRun_data() {
        QTest::addColumn<QString>("recompute");
        QTest::addColumn<int>("batch");
        QTest::addColumn<int>("dataParallel");
        QTest::addColumn<int>("zeroStage");
        QTest::addColumn<bool>("peaksShift");  // the short runs peak at different moments
        QTest::newRow("ZeRO-3 of 384, full recomputation, 4 sequences") << "full" << 4 << 384 << 3 << false;
        QTest::newRow("ZeRO-3 of 1536, full recomputation, 1 sequence") << "full" << 1 << 1536 << 3 << true;
        QTest::newRow("ZeRO-2 of 8, no recomputation, 1 sequence") << "none" << 1 << 8 << 2 << false;
        QTest::newRow("one device, selective recomputation, 2 sequences") << "selective" << 2 << 1 << 0 << false;
    }
    void grownStageMatchesAFullRun() {
        QFETCH(QString, recompute);
        QFETCH(int, batch);
        QFETCH(int, dataParallel);
        QFETCH(int, zeroStage);
        QFETCH(bool, peaksShift);
        const int layers = 6;
        const auto at = [&](int l) { return probe(gpt(l, recompute.toStdString(), batch, dataParallel, zeroStage)); };
        const PassMemory one = at(1), two = at(2), all = at(layers);
        const PassMemory grown = grownPassMemory(one, two, layers);
        compare("held after the forward pass", double(grown.heldAfterForward), double(all.heldAfterForward));
        compare("passes' peak", double(grown.passPeak), double(all.passPeak));
        compare("optimizer peak", double(grown.optimizerPeak), double(all.optimizerPeak));
        // The rows that matter: there growing the difference of the short runs' peaks misses.
        if (peaksShift) {
            const double naive = double(growByLayers(one.passPeak, two.passPeak, layers));
            QVERIFY2(std::abs(naive - double(all.passPeak)) > 0.05 * double(all.passPeak),
                     qPrintable(QStringLiteral("the peaks' difference grown: %1 B, every layer %2 B").arg(naive).arg(all.passPeak)));
        }
        for (const char* role : {"activation", "weight", "optimizer_state"})
            compare(role, double(roleBytes(grown.passPeakByRole, role)), double(roleBytes(all.passPeakByRole, role)));
    }

    // The probe's pass peak is the higher of its two parts.
    void passPeakIsTheHigherPart() {
        const PassMemory pm = probe(gpt(2, "none", 1, 1, 0));
        QCOMPARE(pm.passPeak, std::max(pm.upperPeak, pm.lowestLayerPeak));
        QVERIFY(pm.upperPeak > 0 && pm.lowestLayerPeak > 0);
        QVERIFY(pm.gradientsAfterBackward > 0);
    }

    // ZeRO-3 on a cluster: the gathered weights at a grown stage's peak are the modules in
    // flight (DeepSpeed's estimator counts the largest layer's few), not every layer's.
    void zero3GatheredWeightsDoNotGrowWithTheLayers() {
        Project p = korthikanti::underZero3(korthikanti::gptProject("gpt-zero3", 16, 2048, 24, 1, 1, 8, 8, "full", false));
        p.training.seq = 1024;
        p.model.config["max_seq"] = 1024;
        p.model.config["dropout"] = 0.1;
        const SimulationResult r = testing::simulateOrFail(p, quick());
        QVERIFY(!r.summary.memory.rank_classes.empty());
        const auto& breakdown = r.summary.memory.rank_classes.front().breakdown;
        const double layerWeights = 12.0 * 2048 * 2048 * 2;  // one layer's bf16 weights
        const auto it = breakdown.find("gathered_weight");
        QVERIFY(it != breakdown.end());
        QVERIFY2(double(it->second) <= 3 * layerWeights,
                 qPrintable(QStringLiteral("gathered %1 B at the peak, one layer's weights %2 B").arg(it->second).arg(layerWeights)));
    }
};

QTEST_APPLESS_MAIN(TestGrownStageMemory)
#include "test_grown_stage_memory.moc"
