// The cluster simulation's what-ifs and advice (engine/cluster): a slowed rank on a
// data-parallel toy cluster stretches the step by exactly its extra compute and makes the
// other ranks wait as long; slow links stretch the collectives; the what-if keys are
// validated with errors naming them; the communication playbook triggers above 30 %
// exposed communication (not below) and each suggestion's predicted step time is the
// changed project re-simulated.

#include "engine/result/cluster_summary_json.h"
#include "engine/driver/communication_advice.h"
#include "engine/driver/simulate_project.h"
#include "tests/unit/engine/sample_projects.h"
#include "engine/project/project.h"

#include <QTest>

#include <cmath>

using namespace npu::engine;

namespace {

nlohmann::json dpToy() { return testing::dpToyDoc(); }

Project project(const nlohmann::json& doc) { return testing::parsedProject(doc); }
SimulationResult simulated(const Project& p) { return testing::simulateFiguresOrFail(p); }

const RankTimeSplit& rank(const SimulationResult& r, int id) {
    for (const auto& k : r.summary.cluster.ranks)
        if (k.rank == id) return k;
    qFatal("rank %d not in the result", id);
}

const CollectiveSummary& collective(const SimulationResult& r, int id, const std::string& group) {
    for (const auto& c : rank(r, id).collectives)
        if (c.group == group && (c.kind == "all_reduce" || c.kind == "reduce_scatter")) return c;
    qFatal("rank %d has no %s collective", id, group.c_str());
}

// The rank's wait in its group's collectives (ms), 0 without any.
double wait(const SimulationResult& r, int id, const std::string& group) {
    double w = 0;
    for (const auto& c : rank(r, id).collectives)
        if (c.group == group) w += c.wait_ms;
    return w;
}

std::string errorOf(const nlohmann::json& doc) {
    auto p = parseProject(doc, "p.json");
    return p.ok() ? std::string() : p.message();
}

}  // namespace

class TestClusterWhatIf : public QObject {
    Q_OBJECT
private slots:
    void slowRankStretchesTheStepByItsExtraCompute() {
        const SimulationResult base = simulated(project(dpToy()));
        nlohmann::json doc = dpToy();
        const double f = 1.3;
        doc["cluster"]["slow_ranks"] = {{{"rank", 3}, {"compute_factor", f}}};
        const SimulationResult slow = simulated(project(doc));
        // Schedule: rank 3 runs forward + backward in f x (F + B), every rank's all-reduce
        // starts then (AR unchanged), rank 3's optimizer takes f x O. Step = f(F+B) + AR + fO,
        // so it grows by (f - 1) x computing (F + B + O, one compute stream) of the base rank.
        const double computing = rank(base, 3).computing_ms;
        const double expected = base.summary.step_time_ms + (f - 1) * computing;
        QVERIFY2(std::abs(slow.summary.step_time_ms - expected) < 1e-4 * expected,
                 qPrintable(QStringLiteral("step %1 ms, expected %2 ms (base %3, computing %4)")
                                .arg(slow.summary.step_time_ms).arg(expected).arg(base.summary.step_time_ms).arg(computing)));
        QVERIFY(std::abs(rank(slow, 3).computing_ms - f * computing) < 1e-4 * computing);
        // The others wait for it, (f - 1) x computing in all: (f - 1)(F + B) inside the
        // first gradient all-reduce (they reach it early: its wait, Ascend's definition,
        // counted as communication), (f - 1) O idle after their optimizer (free).
        QCOMPARE(wait(base, 0, "dp"), 0.0);
        QCOMPARE(wait(slow, 3, "dp"), 0.0);  // the slow rank arrives last
        for (int other : {0, 1, 2}) {
            const double freeGrew = rank(slow, other).free_ms - rank(base, other).free_ms;
            const double commGrew = rank(slow, other).communication_not_overlapped_ms - rank(base, other).communication_not_overlapped_ms;
            const double w = wait(slow, other, "dp");
            QVERIFY2(std::abs(freeGrew + w - (f - 1) * computing) < 1e-4 * computing + 1e-6,
                     qPrintable(QStringLiteral("rank %1 free grew %2 ms, waited %3 ms, expected %4 together").arg(other).arg(freeGrew).arg(w).arg((f - 1) * computing)));
            const double optimizer = base.summary.time_by_phase_ms.at("optimizer");  // rank 0's O
            QVERIFY2(std::abs(w - (f - 1) * (computing - optimizer)) < 1e-4 * computing, qPrintable(QString::number(w)));
            QVERIFY(std::abs(commGrew - w) < 1e-6 + 1e-6 * w);
            QCOMPARE(rank(slow, other).computing_ms, rank(base, other).computing_ms);
            // wait ratio = wait / (wait + transit); the transfer itself is unchanged.
            const CollectiveSummary& ar = collective(slow, other, "dp");
            QVERIFY(std::abs(ar.transit_ms - collective(base, other, "dp").transit_ms) < 1e-6);
            QVERIFY(std::abs(ar.wait_ratio - w / (w + ar.transit_ms)) < 1e-9);
            QCOMPARE(ar.synchronization_ms, ar.wait_ms);
            QVERIFY(std::abs(ar.time_ms - (ar.wait_ms + ar.transit_ms)) < 1e-9);
        }
        QCOMPARE(int(slow.summary.cluster.ranks.size()), 4);
        bool named = false;
        for (const auto& n : slow.summary.cluster.notes) named = named || n.find("waits") != std::string::npos;
        QVERIFY(named);
        // Without a what-if the symmetric path is untouched: all ranks equal.
        QCOMPARE(rank(base, 0).free_ms, rank(base, 3).free_ms);
    }

    void tensorParallelPartnersWaitForTheSlowRank() {
        // TP 2 x DP 2: rank 1 slowed; rank 0 (its TP partner) keeps its own kernels but
        // starts each block when rank 1 reaches the collective, replica 1 (ranks 2, 3)
        // waits at the gradient buckets. Each idles (f - 1) x computing; the step grows as much.
        nlohmann::json doc = dpToy();
        doc["parallel"] = {{"data_parallel", 2}, {"tensor_parallel", 2}};
        const SimulationResult base = simulated(project(doc));
        const double f = 1.5;
        doc["cluster"]["slow_ranks"] = {{{"rank", 1}, {"compute_factor", f}}};
        const SimulationResult slow = simulated(project(doc));
        const double computing = rank(base, 1).computing_ms;
        auto near = [](double a, double b) { return std::abs(a - b) < 1e-3 * std::max(1.0, std::abs(b)); };
        QVERIFY2(near(slow.summary.step_time_ms, base.summary.step_time_ms + (f - 1) * computing),
                 qPrintable(QStringLiteral("step %1, base %2, computing %3").arg(slow.summary.step_time_ms).arg(base.summary.step_time_ms).arg(computing)));
        QVERIFY(near(rank(slow, 1).computing_ms, f * computing));
        for (int other : {0, 2, 3}) {
            QVERIFY2(near(rank(slow, other).computing_ms, rank(base, other).computing_ms), qPrintable(QString::number(other)));
            const double waited = wait(slow, other, "tp") + wait(slow, other, "dp");
            QVERIFY2(near(rank(slow, other).free_ms - rank(base, other).free_ms + waited, (f - 1) * computing),
                     qPrintable(QStringLiteral("rank %1 free %2 -> %3, waited %4").arg(other).arg(rank(base, other).free_ms).arg(rank(slow, other).free_ms).arg(waited)));
        }
        // Rank 0 waits for rank 1 at every TP collective (it reaches each block's end
        // first), not at the buckets (its replica is the slow one); replica 1 the opposite.
        // Replica 1 waits for the whole of rank 1's extra forward + backward (F + B:
        // computing less the optimizer) at its first bucket; rank 0 most of it at the TP
        // collectives (the rest after each pass's last one: the loss, the embedding).
        const double passes = computing - base.summary.time_by_phase_ms.at("optimizer");
        QVERIFY2(wait(slow, 0, "tp") > 0.5 * (f - 1) * passes, qPrintable(QString::number(wait(slow, 0, "tp"))));
        QVERIFY(wait(slow, 0, "tp") < (f - 1) * passes);
        QCOMPARE(wait(slow, 0, "dp"), 0.0);
        QCOMPARE(wait(slow, 1, "tp"), 0.0);
        for (int r : {2, 3}) {
            QCOMPARE(wait(slow, r, "tp"), 0.0);
            QVERIFY2(near(wait(slow, r, "dp"), (f - 1) * passes), qPrintable(QString::number(wait(slow, r, "dp"))));
        }
    }

    void pipelineReceivesWaitForTheBubble() {
        // Two stages, 4 micro-batches, 1F1B: a stage's receive waits from when the stage
        // is free until its neighbour's data arrives (Ascend counts the bubble so). The
        // last stage only receives activations; stage 0 only gradients.
        nlohmann::json doc = dpToy();
        doc["parallel"] = {{"pipeline_stages", 2}, {"micro_batches", 4}};
        doc["cluster"]["devices_per_node"] = 2;
        const SimulationResult r = simulated(project(doc));
        for (int id : {0, 1}) {
            const CollectiveSummary* recv = nullptr;
            for (const auto& c : rank(r, id).collectives)
                if (c.kind == "recv") recv = &c;
            QVERIFY2(recv, qPrintable(QString::number(id)));
            QCOMPARE(recv->count, std::int64_t(4));  // one per micro-batch
            // The waits are the bubble, up to the data's own transfer (p2p) in each gap,
            // which the bars count as communication when the stage's sends fill it.
            const double bubble = rank(r, id).bubble_ms;
            QVERIFY2(bubble > 0 && std::abs(recv->wait_ms - bubble) <= recv->transit_ms + 1e-6,
                     qPrintable(QStringLiteral("rank %1: recv wait %2 ms, bubble %3 ms, transit %4 ms").arg(id).arg(recv->wait_ms).arg(bubble).arg(recv->transit_ms)));
            QVERIFY(std::abs(recv->wait_ratio - recv->wait_ms / (recv->wait_ms + recv->transit_ms)) < 1e-12);
        }
    }

    void slowRankOfALargeClusterBreaksOnlyItsSymmetry() {
        // 256 devices (DP 16, TP 8, PP 2): one timeline per distinct group, not per rank.
        nlohmann::json doc = dpToy();
        doc["model"]["config"]["layers"] = 4;
        doc["training"]["batch"] = 64;
        doc["parallel"] = {{"data_parallel", 16}, {"tensor_parallel", 8}, {"pipeline_stages", 2}, {"micro_batches", 4}};
        doc["cluster"] = {{"nodes", 32}, {"devices_per_node", 8}, {"intra_node", {{"bandwidth_GBps", 300}}},
                          {"inter_node", {{"nic_bandwidth_Gbps", 200}, {"nics_per_node", 8}}}};
        const SimulationResult base = simulated(project(doc));
        doc["cluster"]["slow_ranks"] = {{{"rank", 200}, {"compute_factor", 1.5}}};  // stage 1, replica 9
        const SimulationResult slow = simulated(project(doc));
        QVERIFY(slow.summary.step_time_ms > base.summary.step_time_ms);
        int represented = 0;
        for (const auto& k : slow.summary.cluster.ranks) represented += k.represents;
        QCOMPARE(represented, 256);
        // Per stage: every other replica's TP group, the slowed replica's; in stage 1 its
        // slowed rank apart from its 7 TP partners: 5 timelines.
        QCOMPARE(int(slow.summary.cluster.ranks.size()), 5);
        QCOMPARE(int(base.summary.cluster.ranks.size()), 2);
        const RankTimeSplit& slowed = rank(slow, 200);
        QCOMPARE(slowed.represents, 1);
        QCOMPARE(rank(slow, 201).represents, 7);
        QVERIFY(slowed.computing_ms > 1.4 * rank(base, 128).computing_ms);
    }

    void slowLinkStretchesTheGroupsCollectives() {
        const SimulationResult base = simulated(project(dpToy()));
        nlohmann::json doc = dpToy();
        doc["cluster"]["slow_links"] = {{{"rank", 1}, {"factor", 0.5}}};
        const SimulationResult slow = simulated(project(doc));
        QVERIFY(slow.summary.step_time_ms > base.summary.step_time_ms);
        // The whole DP group reduces at the slow link's pace: every rank's communication grows.
        for (int r = 0; r < 4; ++r) QVERIFY(rank(slow, r).communication_ms > 1.5 * rank(base, r).communication_ms);
    }

    void badWhatIfKeysAreNamed() {
        auto with = [](const char* key, nlohmann::json value) {
            nlohmann::json doc = dpToy();
            doc["cluster"][key] = std::move(value);
            return errorOf(doc);
        };
        const std::pair<std::string, std::string> cases[] = {
            {with("slow_ranks", {{{"rank", 4}, {"compute_factor", 1.3}}}), "p.json: cluster.slow_ranks[0].rank: expected an integer from 0 to 3, got 4"},
            {with("slow_ranks", {{{"rank", 1}, {"compute_factor", -1}}}), "cluster.slow_ranks[0].compute_factor: expected a positive number, got -1"},
            {with("slow_ranks", {{{"rank", 1}}}), "cluster.slow_ranks[0].compute_factor: required key is missing"},
            {with("slow_ranks", 3), "cluster.slow_ranks: expected a list of {\"rank\": 0..3, \"compute_factor\": a positive number}, got 3"},
            {with("slow_ranks", {{{"rank", 1}, {"compute_factor", 2}}, {{"rank", 1}, {"compute_factor", 3}}}), "cluster.slow_ranks[1].rank: rank 1 is listed twice"},
            {with("slow_links", {{{"rank", 0}, {"factr", 0.5}}}), "cluster.slow_links[0].factor: required key is missing"},
            {with("slow_links", {{{"rank", 0}, {"factr", 0.5}}}), "cluster.slow_links[0].factr: unknown key"},
        };
        for (const auto& [message, expected] : cases)
            QVERIFY2(message.find(expected) != std::string::npos, (message + "\n  expected: " + expected).c_str());
    }

    void adviceTriggersAboveThirtyPercentOnly() {
        // Fast NVLink, overlapped buckets: little exposed communication, no advice.
        nlohmann::json quiet = dpToy();
        quiet["communication"]["overlap"] = true;
        const SimulationResult q = simulated(project(quiet));
        QVERIFY2(exposedCommRatio(q.summary.cluster) < kCommunicationAdviceThreshold, qPrintable(QString::number(exposedCommRatio(q.summary.cluster))));
        QVERIFY(q.summary.cluster.advice.empty());

        // Four nodes of one device on 10 Gb/s NICs: the all-reduce dominates.
        nlohmann::json loud = dpToy();
        loud["cluster"] = {{"nodes", 4}, {"devices_per_node", 1}, {"inter_node", {{"nic_bandwidth_Gbps", 10}, {"nics_per_node", 1}}}};
        const Project p = project(loud);
        const SimulationResult r = simulated(p);
        const double ratio = exposedCommRatio(r.summary.cluster);
        QVERIFY2(ratio > kCommunicationAdviceThreshold, qPrintable(QString::number(ratio)));
        const auto& advice = r.summary.cluster.advice;
        QVERIFY(advice.size() >= 4);  // buckets / 2 and / 4, overlap, compression (TP 2 needs 2 devices a node)
        bool overlap = false, compression = false;
        for (std::size_t i = 0; i < advice.size(); ++i) {
            const CommunicationAdvice& a = advice[i];
            if (i > 0) QVERIFY(advice[i - 1].predicted_step_time_ms <= a.predicted_step_time_ms);
            overlap = overlap || a.change.contains("communication.overlap");
            compression = compression || a.change.contains("communication.gradient_compression");
            QVERIFY(!a.reason.empty());
            // The prediction is the changed project simulated.
            const SimulationResult direct = simulated(withChange(p, a.change));
            QCOMPARE(a.predicted_step_time_ms, direct.summary.step_time_ms);
            QCOMPARE(a.predicted_comm_ratio, exposedCommRatio(direct.summary.cluster));
        }
        QVERIFY(overlap && compression);
        QVERIFY(advice.front().predicted_step_time_ms < r.summary.step_time_ms);

        // The report's keys (docs/report-format.md).
        nlohmann::json report;
        addClusterReport(report, r.summary.cluster);
        QCOMPARE(report["advice"].size(), advice.size());
        const auto& first = report["advice"][0];
        QVERIFY(first["change"].is_object() && !first["change"].empty());
        QVERIFY(first["reason"].is_string());
        QCOMPARE(first["predicted_step_time_ms"].get<double>(), advice.front().predicted_step_time_ms);
        QCOMPARE(first["predicted_comm_ratio"].get<double>(), advice.front().predicted_comm_ratio);
    }

    void thresholdIsThirtyPercentOfComputing() {
        // The slowest rank's exposed communication / computing decides, just below and above.
        const Project p = project(dpToy());
        ClusterSummary run;
        run.present = true;
        RankTimeSplit fast, slowest;
        fast.rank = 0;
        fast.computing_ms = 1;
        fast.communication_not_overlapped_ms = 0.5;  // 50 %, but less busy: not the slowest
        slowest.rank = 1;
        slowest.computing_ms = 10;
        slowest.communication_not_overlapped_ms = 2.9;
        run.ranks = {fast, slowest};
        SimulationOptions o;
        QCOMPARE(exposedCommRatio(run), 0.29);
        QVERIFY(communicationAdvice(p, run, o).empty());
        run.ranks[1].communication_not_overlapped_ms = 3.1;
        const auto advice = communicationAdvice(p, run, o);
        QVERIFY(!advice.empty());
        QVERIFY2(advice.front().reason.find("31 % of computing on rank 1") != std::string::npos, advice.front().reason.c_str());
    }
};

QTEST_GUILESS_MAIN(TestClusterWhatIf)
#include "test_cluster_what_if.moc"
