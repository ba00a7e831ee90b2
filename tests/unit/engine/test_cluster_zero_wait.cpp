// ZeRO's parameter all-gathers wait for the data-parallel group's slowest rank, like the
// other collectives (engine/cluster/rank_layout, rank_timeline). ZeRO-3 gathers a pass's
// weights before every pass, so the data-parallel group runs its passes in lock-step: a
// rank done early with pass i - 1 reaches pass i's gather and waits in it until the
// slowest rank arrives, i.e. (f - 1) x the pass's time when the slow rank computes f times
// slower; its first gradient bucket waits (f - 1) x the last backward pass the same way.
// Over an iteration the slow rank's DP peers wait (f - 1) x (forward + backward compute).
// ZeRO-1/2's gather of the updated weights waits for the slowest optimizer shard:
// (f - 1) x the shard's optimizer time. The slowed rank itself waits in none of them;
// symmetric runs wait nowhere.

#include "engine/driver/simulate_project.h"
#include "tests/unit/engine/sample_projects.h"

#include <QTest>

#include <cmath>

using namespace npu::engine;

namespace {

SimulationResult simulated(const nlohmann::json& doc) { return testing::simulateFiguresOrFail(testing::parsedProject(doc)); }

const RankTimeSplit& rank(const SimulationResult& r, int id) {
    for (const auto& k : r.summary.cluster.ranks)
        if (k.rank == id) return k;
    qFatal("rank %d not in the result", id);
}

// The rank's collective of this group and kind; a zero summary when it has none.
CollectiveSummary collective(const SimulationResult& r, int id, const std::string& group, const std::string& kind) {
    for (const auto& c : rank(r, id).collectives)
        if (c.group == group && c.kind == kind) return c;
    return {};
}

// The ZeRO-3 toy: DP 4 on one node, 2-layer GPT, buckets after the backward pass.
nlohmann::json zero(int stage) {
    nlohmann::json doc = testing::dpToyDoc();
    doc["parallel"]["zero_stage"] = stage;
    return doc;
}

bool near(double a, double b, double tolerance) { return std::abs(a - b) <= tolerance; }

// Task times are whole nanoseconds: a wait summed over a few passes is exact to ~100 ns.
constexpr double kRounding = 1e-4;

}  // namespace

class TestClusterZeroWait : public QObject {
    Q_OBJECT
private slots:
    void zero3GathersWaitForTheSlowRank() {
        const SimulationResult base = simulated(zero(3));
        const double f = 1.4;
        nlohmann::json doc = zero(3);
        doc["cluster"]["slow_ranks"] = {{{"rank", 3}, {"compute_factor", f}}};
        const SimulationResult slow = simulated(doc);
        const double F = base.summary.time_by_phase_ms.at("forward"), B = base.summary.time_by_phase_ms.at("backward");
        for (int r = 0; r < 4; ++r) {
            QCOMPARE(collective(base, r, "dp", "all_gather").wait_ms, 0.0);
            QCOMPARE(collective(base, r, "dp", "reduce_scatter").wait_ms, 0.0);
        }
        const CollectiveSummary slowGather = collective(slow, 3, "dp", "all_gather");
        QCOMPARE(slowGather.count, std::int64_t(2));  // forward and backward pass
        QVERIFY2(near(slowGather.wait_ms, 0, kRounding), qPrintable(QString::number(slowGather.wait_ms)));
        for (int other : {0, 1, 2}) {
            // Forward's gather: every rank arrives at 0; backward's: rank 3 arrives (f-1)F late.
            const CollectiveSummary ag = collective(slow, other, "dp", "all_gather");
            QVERIFY2(near(ag.wait_ms, (f - 1) * F, kRounding),
                     qPrintable(QStringLiteral("rank %1 waits %2 ms in gathers, expected (f-1) F = %3 ms").arg(other).arg(ag.wait_ms).arg((f - 1) * F)));
            QVERIFY(near(ag.transit_ms, collective(base, other, "dp", "all_gather").transit_ms, 1e-9));
            QVERIFY(near(ag.time_ms, ag.wait_ms + ag.transit_ms, 1e-9));
            QVERIFY(near(ag.wait_ratio, ag.wait_ms / (ag.wait_ms + ag.transit_ms), 1e-12));
            QCOMPARE(ag.synchronization_ms, ag.wait_ms);
            const CollectiveSummary rs = collective(slow, other, "dp", "reduce_scatter");
            QVERIFY2(near(rs.wait_ms, (f - 1) * B, kRounding),
                     qPrintable(QStringLiteral("rank %1 waits %2 ms in buckets, expected (f-1) B = %3 ms").arg(other).arg(rs.wait_ms).arg((f - 1) * B)));
            QCOMPARE(rank(slow, other).computing_ms, rank(base, other).computing_ms);
        }
        QVERIFY(near(rank(slow, 3).computing_ms, f * rank(base, 3).computing_ms, 1e-4 * rank(base, 3).computing_ms));
        bool named = false;
        int waiters = 0;
        for (const auto& n : slow.summary.cluster.notes) {
            named = named || n.find("ZeRO-3") != std::string::npos;
            waiters += n.find("in ZeRO's parameter all-gathers") != std::string::npos;
        }
        QVERIFY(named);
        QCOMPARE(waiters, 1);  // ranks 0, 1, 2 alike: one note
    }

    void zero3PipelinePeersWaitForTheSlowStageRank() {
        // PP 2 x DP 2, 4 micro-batches, 1F1B: rank 0 (stage 0, replica 0) slowed. Its DP
        // peer on stage 0 waits (f - 1) x every pass of it (gathers, then the first
        // bucket): (f - 1) x stage 0's forward + backward; stage 1 has no slow peer.
        nlohmann::json doc = zero(3);
        doc["parallel"] = {{"data_parallel", 2}, {"pipeline_stages", 2}, {"micro_batches", 4}, {"zero_stage", 3}};
        doc["training"]["framework"] = "fsdp";  // DeepSpeed's pipeline engine takes ZeRO 0/1 only
        const SimulationResult base = simulated(doc);
        const double f = 1.5;
        doc["cluster"]["slow_ranks"] = {{{"rank", 0}, {"compute_factor", f}}};
        const SimulationResult slow = simulated(doc);
        // Rank 0's forward + backward compute (its tasks give the report's phases).
        const double fb = base.summary.time_by_phase_ms.at("forward") + base.summary.time_by_phase_ms.at("backward");
        const double waited = collective(slow, 1, "dp", "all_gather").wait_ms + collective(slow, 1, "dp", "reduce_scatter").wait_ms;
        QVERIFY2(near(waited, (f - 1) * fb, kRounding),
                 qPrintable(QStringLiteral("rank 1 waits %1 ms, rank 0's extra forward + backward %2 ms").arg(waited).arg((f - 1) * fb)));
        QVERIFY(collective(slow, 1, "dp", "all_gather").wait_ms > 0);
        for (int r : {0, 2, 3})
            QVERIFY2(near(collective(slow, r, "dp", "all_gather").wait_ms, 0, kRounding), qPrintable(QString::number(r)));
        for (int r = 0; r < 4; ++r) QCOMPARE(collective(base, r, "dp", "all_gather").wait_ms, 0.0);
    }

    void zero1GathersTheUpdatedWeightsAfterTheSlowestShard() {
        const SimulationResult base = simulated(zero(1));
        const double f = 2;
        nlohmann::json doc = zero(1);
        doc["cluster"]["slow_ranks"] = {{{"rank", 2}, {"compute_factor", f}}};
        const SimulationResult slow = simulated(doc);
        const double shard = base.summary.time_by_phase_ms.at("optimizer");
        for (int r = 0; r < 4; ++r) QCOMPARE(collective(base, r, "dp", "all_gather").wait_ms, 0.0);
        QCOMPARE(collective(slow, 2, "dp", "all_gather").wait_ms, 0.0);
        for (int other : {0, 1, 3}) {
            const CollectiveSummary ag = collective(slow, other, "dp", "all_gather");
            QCOMPARE(ag.count, std::int64_t(1));
            QVERIFY2(near(ag.wait_ms, (f - 1) * shard, kRounding),
                     qPrintable(QStringLiteral("rank %1 waits %2 ms, expected (f-1) x optimizer shard %3 ms").arg(other).arg(ag.wait_ms).arg(shard)));
        }
    }
};

QTEST_GUILESS_MAIN(TestClusterZeroWait)
#include "test_cluster_zero_wait.moc"
