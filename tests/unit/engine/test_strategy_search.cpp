// The strategy search (engine/planner/strategy_search): every strategy it ranks passes
// the cluster validation and fits memory, the ranking is by throughput, the best one's
// time is what a direct simulation of it gives, cancelling stops early with partial
// results, and LLaMA-7B on 8 devices finishes in seconds (the figure is printed).

#include "engine/cluster/cluster_setup.h"
#include "engine/planner/strategy_search.h"
#include "engine/cost/device_profile.h"
#include "engine/parallel/parallel_config.h"
#include "engine/driver/simulate_project.h"
#include "engine/project/project.h"
#include "tests/unit/engine/sample_projects.h"

#include <QTest>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <set>

using namespace npu::engine;

using testing::llama7bCluster;
using testing::smallCluster;

class TestStrategySearch : public QObject {
    Q_OBJECT
private slots:
    void rankedStrategiesAreValidFitAndOrdered() {
        const Project project = smallCluster();
        auto r = searchStrategies(project, {});
        QVERIFY2(r.ok(), r.ok() ? "" : r.message().c_str());
        QCOMPARE(r->devices, 8);
        QVERIFY(!r->cancelled);
        QVERIFY(r->feasibleCount >= 3);
        auto device = loadDeviceProfile(project.device, defaultDevicesDir());
        QVERIFY(device.ok());
        double previous = 1e300;
        for (int i = 0; i < r->feasibleCount; ++i) {
            const StrategyTrial& t = r->strategies[static_cast<std::size_t>(i)];
            QVERIFY(t.feasible());
            const StrategyConfig& c = t.config;
            QCOMPARE(c.dataParallel * c.tensorParallel * c.pipelineStages, 8);
            // Valid by the cluster's own validation, not by the search's say-so.
            auto setup = resolveClusterSetup(withStrategy(project, c), *device);
            QVERIFY2(setup.ok(), setup.ok() ? "" : setup.message().c_str());
            QVERIFY(t.peak_bytes > 0 && t.peak_bytes <= r->capacity_bytes);
            QVERIFY2(t.tokens_per_s <= previous, c.label().c_str());
            previous = t.tokens_per_s;
        }
        // Not feasible ones say why, and are never ranked.
        for (std::size_t i = static_cast<std::size_t>(r->feasibleCount); i < r->strategies.size(); ++i) {
            QVERIFY(!r->strategies[i].feasible());
            QVERIFY2(!r->strategies[i].reason.empty(), r->strategies[i].config.label().c_str());
        }
        // Heads 8 do not split 16 ways, but every divisor of 8 is a TP degree of a node of 8.
        bool sawTp8 = false;
        for (const auto& t : r->strategies) sawTp8 = sawTp8 || t.config.tensorParallel == 8;
        QVERIFY(sawTp8);
        // The project's own strategy (DP 8, 1 micro-batch) is there as the reference.
        const StrategyTrial* own = r->current();
        QVERIFY(own && own->simulated());
        QCOMPARE(own->config.dataParallel, 8);
        if (own->feasible()) QVERIFY(own->tokens_per_s <= r->best()->tokens_per_s);
        const nlohmann::json j = r->toJson();
        QCOMPARE(j["strategies"].size(), r->strategies.size());
        QCOMPARE(j["strategies"][0]["rank"].get<int>(), 1);
        QVERIFY(j["strategies"][0].contains("step_time_ms"));
    }

    void bestTimeEqualsADirectSimulation() {
        const Project project = smallCluster();
        auto r = searchStrategies(project, {});
        QVERIFY(r.ok() && r->best());
        SimulationOptions o;
        o.keepGraphs = false;
        o.adviseOnOom = false;
        auto direct = simulateProject(withStrategy(project, r->best()->config), o);
        QVERIFY2(direct.ok(), direct.ok() ? "" : direct.message().c_str());
        QCOMPARE(direct->summary.status, std::string("ok"));
        QCOMPARE(direct->summary.step_time_ms, r->best()->step_time_ms);
        QCOMPARE(direct->summary.tokens_per_s, r->best()->tokens_per_s);
    }

    // The search simulates without rank timelines (SimulationOptions::rankTimelines): every
    // figure it reads must be what a run with them gives, for every strategy it simulated,
    // and under a slow-rank what-if (its own layout).
    void figuresWithoutTimelinesEqualAFullRun() {
        const Project project = smallCluster();
        auto r = searchStrategies(project, {});
        QVERIFY(r.ok());
        std::vector<Project> checked;
        std::vector<const StrategyTrial*> trials;  // the search's own figures (its stage runs shared through RankRunCache)
        for (const StrategyTrial& t : r->strategies)
            if (t.simulated()) {
                checked.push_back(withStrategy(project, t.config));
                trials.push_back(&t);
            }
        QVERIFY(checked.size() >= 8);
        Project slow = checked.back();
        slow.cluster["slow_ranks"] = nlohmann::json::array({nlohmann::json{{"rank", 1}, {"compute_factor", 1.5}}});
        checked.push_back(slow);
        for (std::size_t i = 0; i < checked.size(); ++i) {
            const Project& p = checked[i];
            SimulationOptions full;
            full.keepGraphs = false;
            full.adviseOnOom = false;
            full.adviseOnCommunication = false;
            SimulationOptions figures = full;
            figures.rankTimelines = false;
            auto a = simulateProject(p, full), b = simulateProject(p, figures);
            QVERIFY2(a.ok() && b.ok(), a.ok() ? (b.ok() ? "" : b.message().c_str()) : a.message().c_str());
            const SimSummary &x = a->summary, &y = b->summary;
            const std::string what = nlohmann::json(p.parallel).dump() + " " + nlohmann::json(p.cluster).dump();
            QVERIFY2(x.step_time_ms == y.step_time_ms && x.tokens_per_s == y.tokens_per_s, what.c_str());
            QVERIFY2(x.peak_bytes == y.peak_bytes && x.memory.reserved_peak_bytes == y.memory.reserved_peak_bytes, what.c_str());
            QVERIFY2(x.status == y.status && x.message == y.message, what.c_str());
            if (i < trials.size())
                QVERIFY2(trials[i]->step_time_ms == y.step_time_ms && trials[i]->tokens_per_s == y.tokens_per_s &&
                             trials[i]->feasible() == (y.status == "ok"),
                         trials[i]->config.label().c_str());
            QCOMPARE(x.cluster.bubble_fraction, y.cluster.bubble_fraction);
            QCOMPARE(x.cluster.ranks.size(), y.cluster.ranks.size());
            QCOMPARE(x.cluster.collectives.size(), y.cluster.collectives.size());
            for (std::size_t c = 0; c < x.cluster.collectives.size(); ++c) {
                const CollectiveSummary &u = x.cluster.collectives[c], &v = y.cluster.collectives[c];
                QVERIFY2(u.group == v.group && u.kind == v.kind && u.count == v.count && u.bytes == v.bytes && u.time_ms == v.time_ms &&
                             u.wait_ms == v.wait_ms && u.bus_GBps == v.bus_GBps,
                         (what + " " + u.group + " " + u.kind).c_str());
            }
            for (std::size_t k = 0; k < x.cluster.ranks.size(); ++k)
                QVERIFY2(x.cluster.ranks[k].computing_ms == y.cluster.ranks[k].computing_ms &&
                             x.cluster.ranks[k].bubble_ms == y.cluster.ranks[k].bubble_ms, what.c_str());
            QCOMPARE(a->devices.size(), b->devices.size());
            for (std::size_t d = 0; d < a->devices.size(); ++d) QCOMPARE(a->devices[d].peak_bytes, b->devices[d].peak_bytes);
            // What the figures-only run leaves out: the tasks.
            QVERIFY(!a->devices.front().tasks.empty());
            QVERIFY(b->devices.front().tasks.empty());
        }
    }

    // Exhaustive (issue 25): every strategy is simulated or pruned by a rule, none left
    // not_run; with pipeline stages every schedule is tried (GPipe also below one
    // micro-batch per stage, interleaved with each chunk count that splits the stage's
    // layers), with tensor parallelism sequence parallelism both ways.
    void everyStrategyIsSimulatedOrPrunedByARule() {
        const Project project = smallCluster();
        auto r = searchStrategies(project, {});
        QVERIFY(r.ok());
        QVERIFY(!r->truncated);
        std::set<std::string> schedules;
        bool spOn = false, spOff = false, gpipeBelowStages = false;
        for (const StrategyTrial& t : r->strategies) {
            QVERIFY2(t.status != TrialStatus::not_run, t.config.label().c_str());
            if (t.status == TrialStatus::invalid) continue;
            const StrategyConfig& c = t.config;
            if (c.pipelineStages > 1) schedules.insert(c.schedule + " " + std::to_string(c.virtualStages));
            if (c.pipelineStages == 1) QCOMPARE(c.schedule, std::string("1f1b"));
            if (c.schedule == "interleaved") {
                QCOMPARE(c.microBatches % c.pipelineStages, 0);
                QVERIFY(c.virtualStages >= 2);
            }
            if (c.schedule == "1f1b" && c.pipelineStages > 1) QVERIFY(c.microBatches >= c.pipelineStages);
            gpipeBelowStages = gpipeBelowStages || (c.schedule == "gpipe" && c.microBatches < c.pipelineStages);
            if (c.tensorParallel > 1) (c.sequenceParallel ? spOn : spOff) = true;
            QVERIFY(!c.sequenceParallel || c.tensorParallel > 1);
        }
        QVERIFY(schedules.count("1f1b 1") && schedules.count("gpipe 1") && schedules.count("interleaved 2"));
        QVERIFY(gpipeBelowStages);
        QVERIFY(spOn && spOff);
        // Every strategy once.
        for (std::size_t i = 0; i < r->strategies.size(); ++i)
            for (std::size_t j = i + 1; j < r->strategies.size(); ++j)
                QVERIFY2(!(r->strategies[i].config == r->strategies[j].config), r->strategies[i].config.label().c_str());
        // The bounded search (the resource estimator's) keeps the project's schedule and
        // sequence parallelism.
        StrategySearchOptions bounded;
        bounded.searchSchedules = false;
        bounded.searchSequenceParallel = false;
        auto b = searchStrategies(project, bounded);
        QVERIFY(b.ok());
        QVERIFY(b->strategies.size() < r->strategies.size());
        for (const StrategyTrial& t : b->strategies) {
            QCOMPARE(t.config.schedule, std::string("1f1b"));
            QCOMPARE(t.config.sequenceParallel, false);
        }
    }

    // The search does not simulate GPipe when 1F1B of the same strategy is over memory,
    // because GPipe holds every micro-batch in flight; if the simulation ever gives GPipe
    // less memory, this fails and the rule must go.
    void gpipeNeverHoldsLessThanOneFOneB() {
        SimulationOptions o;
        o.keepGraphs = false;
        o.rankTimelines = false;
        int compared = 0;
        for (int m : {2, 4})
            for (const char* recompute : {"none", "full"}) {
                StrategyConfig c;
                c.dataParallel = 2;
                c.tensorParallel = 2;
                c.pipelineStages = 2;
                c.microBatches = m;
                c.activationCheckpointing = recompute;
                c.schedule = "1f1b";
                auto oneF = simulateProject(withStrategy(smallCluster(), c), o);
                c.schedule = "gpipe";
                auto gpipe = simulateProject(withStrategy(smallCluster(), c), o);
                QVERIFY2(oneF.ok() && gpipe.ok(), c.label().c_str());
                QVERIFY2(gpipe->summary.peak_bytes >= oneF->summary.peak_bytes, c.label().c_str());
                QVERIFY2(gpipe->summary.memory.reserved_peak_bytes >= oneF->summary.memory.reserved_peak_bytes, c.label().c_str());
                ++compared;
            }
        QVERIFY(compared >= 4);
        // In the search: a GPipe strategy implied over memory names its 1F1B twin, which
        // was simulated and over memory.
        Project tight = smallCluster();
        tight.model.config = {{"hidden", 4096}, {"ffn", 11008}, {"layers", 8}, {"heads", 32}, {"vocab", 32000}};
        tight.training.batch = 64;
        tight.training.seq = 4096;
        auto r = searchStrategies(tight, {});
        QVERIFY(r.ok());
        int implied = 0;
        for (const StrategyTrial& t : r->strategies) {
            if (t.config.schedule != "gpipe" || t.status != TrialStatus::implied_over_memory || t.reason.find("(1F1B)") == std::string::npos) continue;
            ++implied;
            StrategyConfig twin = t.config;
            twin.schedule = "1f1b";
            const auto it = std::find_if(r->strategies.begin(), r->strategies.end(), [&](const StrategyTrial& u) { return u.config == twin; });
            QVERIFY(it != r->strategies.end());
            QCOMPARE(it->status, TrialStatus::over_memory);
        }
        qInfo("%d GPipe strategies implied over memory by their 1F1B twin", implied);
        QVERIFY(implied > 0);
    }

    // The search skips ZeRO-1 once ZeRO-2 fits because the simulation times them alike;
    // if that ever changes, this fails and the bound must go.
    void zeroOneAndTwoTakeTheSameTime() {
        StrategyConfig c;
        c.dataParallel = 4;
        c.tensorParallel = 2;
        c.microBatches = 2;
        SimulationOptions o;
        o.keepGraphs = false;
        c.zeroStage = 1;
        auto one = simulateProject(withStrategy(smallCluster(), c), o);
        c.zeroStage = 2;
        auto two = simulateProject(withStrategy(smallCluster(), c), o);
        QVERIFY(one.ok() && two.ok());
        QCOMPARE(one->summary.step_time_ms, two->summary.step_time_ms);
        QVERIFY(two->summary.peak_bytes <= one->summary.peak_bytes);
    }

    void overMemoryIsDroppedWithAReason() {
        Project project = smallCluster();
        project.device = "ascend-910b";
        // A model whose states do not fit unsharded on one device: only ZeRO/TP/PP fit.
        project.model.config = {{"hidden", 8192}, {"ffn", 22016}, {"layers", 16}, {"heads", 64}, {"vocab", 32000}};
        project.training.seq = 2048;
        auto r = searchStrategies(project, {});
        QVERIFY2(r.ok(), r.ok() ? "" : r.message().c_str());
        int over = 0, implied = 0;
        for (const auto& t : r->strategies) {
            over += t.status == TrialStatus::over_memory;
            implied += t.status == TrialStatus::implied_over_memory;
            if (t.status == TrialStatus::over_memory) QVERIFY(t.peak_bytes > r->capacity_bytes);
        }
        QVERIFY(over > 0);
        QVERIFY(implied > 0);  // ZeRO-0 after ZeRO-1 was over, never simulated
        for (int i = 0; i < r->feasibleCount; ++i) QVERIFY(r->strategies[static_cast<std::size_t>(i)].peak_bytes <= r->capacity_bytes);
    }

    void cancellingStopsEarlyWithPartialResults() {
        const Project project = smallCluster();
        auto full = searchStrategies(project, {});
        QVERIFY(full.ok());
        std::atomic<bool> cancel{false};
        npu::Progress progress;
        progress.cancel = &cancel;
        int reports = 0;
        progress.report = [&](double, std::string_view what) {
            if (what.rfind("simulating", 0) == 0 && ++reports == 3) cancel = true;
        };
        auto r = searchStrategies(project, {}, progress);
        QVERIFY(r.ok());
        QVERIFY(r->cancelled);
        QVERIFY(r->simulations < full->simulations);
        QVERIFY(r->feasibleCount >= 1 && r->feasibleCount < full->feasibleCount);
        int notRun = 0;
        for (const auto& t : r->strategies) notRun += t.status == TrialStatus::not_run;
        QVERIFY(notRun > 0);
        QCOMPARE(r->toJson()["cancelled"].get<bool>(), true);
    }

    void simulationCapTruncates() {
        StrategySearchOptions o;
        o.maxSimulations = 2;
        auto r = searchStrategies(smallCluster(), o);
        QVERIFY(r.ok());
        // Two, plus the project's own strategy as the reference.
        QCOMPARE(r->simulations, 3);
        QVERIFY(r->current() && r->current()->simulated());
        QVERIFY(r->truncated);
        QVERIFY(!r->cancelled);
    }

    void notAClusterIsAClearError() {
        Project p = smallCluster();
        p.cluster = nlohmann::json::object();
        p.parallel = nlohmann::json::object();
        auto r = searchStrategies(p, {});
        QVERIFY(!r.ok());
        QVERIFY2(r.message().find("search.json") != std::string::npos && r.message().find("cluster") != std::string::npos,
                 r.message().c_str());
    }

    void llama7bOnEightDevicesInSeconds() {
        const auto start = std::chrono::steady_clock::now();
        auto r = searchStrategies(llama7bCluster(), {});
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        QVERIFY2(r.ok(), r.ok() ? "" : r.message().c_str());
        QVERIFY(r->best());
        qInfo("LLaMA-7B on 8 devices: %zu strategies, %d simulated, %d feasible, %.2f s; best %s: %.1f ms, %.0f tokens/s",
              r->strategies.size(), r->simulations, r->feasibleCount, seconds, r->best()->config.label().c_str(), r->best()->step_time_ms,
              r->best()->tokens_per_s);
        QVERIFY(!r->truncated);
        // The sample's own strategy (TP 4 + SP, DP 2, 8 micro-batches, ZeRO-1, selective) is
        // outside the searched set's simulated ones (dominated) but simulated as the reference.
        QVERIFY(r->current() && r->current()->simulated());
        QCOMPARE(r->current()->config.tensorParallel, 4);
        QCOMPARE(r->current()->config.activationCheckpointing, std::string("selective"));
        QVERIFY2(seconds < 20, "the search should take seconds, not minutes");  // generous: the machine is shared
    }
};

QTEST_GUILESS_MAIN(TestStrategySearch)
#include "test_strategy_search.moc"
