// The cluster simulation against published measurements: Korthikanti et al. 2022 Tables 3
// and 4 (GPT 22B to 1T on DGX A100-80GB clusters, full recomputation and sequence
// parallelism + selective recomputation), the setups of tests/benchmarks/engine/
// korthikanti_setups.h (Megatron's bf16-o2 at graph_level 2). Issue 11 asks each iteration
// time within 15 %. The device's matmul curve is an estimate anchored on one published A100
// figure (resources/devices/a100-80gb.json), so this guards the whole chain (compute model,
// fusion, recomputation, TP/SP collectives, 1F1B) against drifting, not the curve itself.

#include "engine/driver/simulate_project.h"
#include "tests/benchmarks/engine/korthikanti_setups.h"

#include <QTest>

#include <cmath>
#include <string>

using namespace npu::engine;

class TestClusterKorthikanti : public QObject {
    Q_OBJECT
private slots:
    void iterationTimeWithinFifteenPercent_data() {
        QTest::addColumn<int>("index");
        const auto& table = npu::korthikanti::table();
        for (std::size_t i = 0; i < table.size(); ++i) QTest::newRow(table[i].name) << static_cast<int>(i);
    }
    void iterationTimeWithinFifteenPercent() {
        QFETCH(int, index);
        const npu::korthikanti::Setup& s = npu::korthikanti::table()[static_cast<std::size_t>(index)];
        SimulationOptions o;
        o.keepGraphs = false;
        auto r = simulateProject(npu::korthikanti::project(s), o);
        QVERIFY2(r.ok(), r.ok() ? "" : r.message().c_str());
        const double simulated = r->summary.step_time_ms / 1e3, error = simulated / s.measuredSeconds - 1;
        QVERIFY2(std::abs(error) < 0.15,
                 qPrintable(QStringLiteral("%1: simulated %2 s, measured %3 s").arg(QString::fromUtf8(s.name)).arg(simulated).arg(s.measuredSeconds)));
        // Megatron's collectives per layer and micro-batch: forward and backward, one per
        // attention and MLP block, plus the two again in full recomputation (selective
        // recomputation redoes no row-parallel linear); sequence parallelism splits each
        // all-reduce into a reduce-scatter and an all-gather of the same bytes.
        const int layersPerStage = s.layers / s.pp;
        const bool full = std::string(s.recompute) == "full";
        const std::int64_t perMicroBatch = std::int64_t{layersPerStage} * (full ? 6 : 4);
        for (const auto& c : r->summary.cluster.collectives) {
            if (c.group != "tp") continue;
            const bool expected = s.sequenceParallel ? c.kind == "all_gather" || c.kind == "reduce_scatter" : c.kind == "all_reduce";
            QVERIFY2(expected, c.kind.c_str());
            const std::int64_t perRank = c.count / s.batch;
            QVERIFY2(perRank >= perMicroBatch && perRank <= perMicroBatch + 2,  // + the embedding's and the loss's
                     qPrintable(QStringLiteral("%1 %2 x%3").arg(QString::fromUtf8(s.name)).arg(QString::fromStdString(c.kind)).arg(c.count)));
        }
    }
};

QTEST_GUILESS_MAIN(TestClusterKorthikanti)
#include "test_cluster_korthikanti.moc"
