// Pipeline stages' memory through their schedules (engine/cluster/stage_memory):
// - the micro-batches a stage holds at once, counted from the schedule's own passes:
//   GPipe m; 1F1B p - s (capped at m); Megatron-LM's interleaved schedule
//   ((p - s - 1) * 2 + (v - 1) * p + 1) / v, which on the first stage is Megatron's
//   p * (1 + (p - 1) / (p * v)) (Korthikanti et al. 2022, sec. 4.2.3);
// - a GPT stage's activations per micro-batch against Korthikanti's eq. 2,
//   sbh(10 + 24/t + 5as/(ht)) per layer (16-bit, dropout on, eager attention, no sequence
//   parallelism), and the stage's peak: its one-micro-batch pass peak plus the activations
//   of the other micro-batches in flight, in the report's memory.rank_classes;
// - out of memory when the fullest stage no longer fits, though one micro-batch does;
// - every rank's memory map (engine/cluster/stage_allocations) consistent with its curve.
#include "engine/cluster/stage_memory.h"
#include "engine/driver/simulate_project.h"
#include "engine/memory/activation_formula.h"
#include "engine/result/task_layer.h"
#include "tests/benchmarks/engine/korthikanti_setups.h"

#include <QtTest>

#include <cmath>
#include <set>

using namespace npu::engine;
namespace korthikanti = npu::korthikanti;

namespace {

double inFlight(PipelineSchedule schedule, int p, int m, int v, int stage) {
    PipelineSetup s;
    s.stages = p;
    s.microBatches = m;
    s.virtualStages = v;
    s.schedule = schedule;
    s.forwardNs.assign(static_cast<std::size_t>(p), 1000);
    s.backwardNs.assign(static_cast<std::size_t>(p), 2000);
    auto tl = simulatePipeline(s);
    if (!tl) qFatal("%s", tl.message().c_str());
    return inFlightActivations(tl->stages[static_cast<std::size_t>(stage)], v).microBatches;
}

// A small GPT as Korthikanti's model counts it: eager attention, dropout on, bf16.
Project smallGpt(int tp, int pp, int microBatches, const std::string& schedule = "1f1b", int virtualStages = 1) {
    Project p = korthikanti::gptProject("gpt-pipeline-memory", 16, 1024, 8, tp, pp, 1, microBatches, "none", false);
    p.training.seq = 1024;
    p.model.config["max_seq"] = 1024;
    p.model.config["vocab"] = 1024;
    p.model.config["attention"] = "eager";
    p.model.config["dropout"] = 0.1;
    p.parallel["schedule"] = schedule;
    if (virtualStages > 1) p.parallel["virtual_stages"] = virtualStages;
    return p;
}

SimulationResult run(const Project& p) {
    SimulationOptions o;
    o.keepGraphs = false;
    o.adviseOnCommunication = false;
    auto r = simulateProject(p, o);
    if (!r) qFatal("%s", r.message().c_str());
    return *r;
}

}  // namespace

class TestPipelineMemory : public QObject {
    Q_OBJECT
private slots:
    void microBatchesInFlightFollowTheSchedule() {
        for (int s = 0; s < 4; ++s) {
            QCOMPARE(inFlight(PipelineSchedule::gpipe, 4, 8, 1, s), 8.0);
            QCOMPARE(inFlight(PipelineSchedule::one_f_one_b, 4, 8, 1, s), double(4 - s));
            QCOMPARE(inFlight(PipelineSchedule::one_f_one_b, 4, 2, 1, s), double(std::min(4 - s, 2)));
            QCOMPARE(inFlight(PipelineSchedule::interleaved, 4, 8, 2, s), ((4.0 - s - 1) * 2 + (2 - 1) * 4 + 1) / 2);
        }
        // Megatron-LM's first-stage factor: p * (1 + (p - 1) / (p * v)).
        for (int v : {2, 3, 4}) QCOMPARE(inFlight(PipelineSchedule::interleaved, 8, 16, v, 0), 8 * (1 + 7.0 / (8 * v)));
    }

    void stageActivationsAreKorthikantisPerMicroBatch() {
        const int tp = 2, pp = 4, m = 8;
        const SimulationResult r = run(smallGpt(tp, pp, m));
        const auto& classes = r.summary.memory.rank_classes;
        QCOMPARE(int(classes.size()), pp);
        // A middle stage holds its two layers' activations and the received hidden states' 16-bit copy.
        const ActivationFormulaInput shape{1024, 1, 1024, 16};
        const double sbh = shape.seq * shape.batch * shape.hidden;
        const double perLayer = sbh * (10 + 24.0 / tp + 5 * shape.heads * shape.seq / (shape.hidden * tp));
        const double held = double(classes[1].activation_bytes_per_micro_batch);
        QVERIFY2(std::abs(held / (2 * perLayer) - 1) < 0.02,
                 qPrintable(QStringLiteral("stage 1 holds %1 B a micro-batch, Korthikanti's two layers %2 B").arg(held).arg(2 * perLayer)));
        for (const RankClassMemory& c : classes) {
            QCOMPARE(c.micro_batches_in_flight, double(std::min(pp - c.stage, m)));
            QCOMPARE(c.ranks, tp);
            QVERIFY(c.reserved_peak_bytes >= c.peak_bytes);
            QVERIFY(c.breakdown.count("activation"));
        }
        // Stages 1 and 2 run the same layers: they differ by one micro-batch in flight.
        QCOMPARE(classes[1].peak_bytes - classes[2].peak_bytes, classes[1].activation_bytes_per_micro_batch);
        // The report's peak is the fullest stage's.
        std::int64_t most = 0;
        for (const RankClassMemory& c : classes) most = std::max(most, c.peak_bytes);
        QCOMPARE(r.summary.peak_bytes, most);
    }

    // Each rank's "Memory (live bytes)" counter through its schedule: the resident states,
    // a micro-batch's activations added by each forward pass and freed by its backward, at
    // most the stage's in-flight count at once, back to the resident bytes at the end; the
    // fullest stage's highest point is the run's live peak.
    void eachRankHasItsLiveBytesOverTheIteration() {
        const int pp = 4, m = 8;
        const SimulationResult r = run(smallGpt(2, pp, m));
        QCOMPARE(r.devices.size(), r.summary.cluster.ranks.size());
        std::int64_t highest = 0;
        for (std::size_t i = 0; i < r.devices.size(); ++i) {
            const auto& events = r.devices[i].memory;
            const int stage = r.summary.cluster.ranks[i].stage;
            QVERIFY2(!events.empty(), r.devices[i].name.c_str());
            // Activations come and go layer by layer: count them in micro-batches' worth.
            const double perMicroBatch = static_cast<double>(r.summary.memory.rank_classes[static_cast<std::size_t>(stage)].activation_bytes_per_micro_batch);
            QVERIFY(perMicroBatch > 0);
            std::int64_t held = 0, most = 0, saved = 0;
            std::int64_t top = 0;
            for (const MemoryEvent& e : events) {
                if (e.role == TensorRole::activation) {
                    held += e.delta_bytes;
                    if (e.delta_bytes > 0) saved += e.delta_bytes;
                }
                most = std::max(most, held);
                top = std::max(top, e.live_bytes);
                QVERIFY(e.live_bytes >= 0);
            }
            QCOMPARE(std::llround(static_cast<double>(saved) / perMicroBatch), std::int64_t{m});
            QCOMPARE(held, std::int64_t{0});
            QCOMPARE(std::llround(static_cast<double>(most) / perMicroBatch), std::int64_t{std::min(pp - stage, m)});
            // Back to the resident states: what the blocks allocated at the start hold.
            std::int64_t resident = 0;
            for (const MemoryEvent& e : events)
                if (e.t_ns == events.front().t_ns) resident = e.live_bytes;
            QCOMPARE(events.back().live_bytes, resident);
            highest = std::max(highest, top);
        }
        QCOMPARE(highest, r.summary.memory.lower_bound_bytes);
    }

    // Each rank's memory map: its blocks (each layer's activations per micro-batch, model
    // states, gradients, working sets) through the project's allocator, with the segments
    // it reserved and its reserved curve; at the live peak the blocks live then hold at
    // least the live bytes (the allocator rounds sizes up), and never more than reserved.
    void eachRankHasItsMemoryMap() {
        const int pp = 4, m = 8;
        const SimulationResult r = run(smallGpt(2, pp, m));
        for (const DeviceResult& d : r.devices) {
            QVERIFY2(!d.memory_blocks.empty() && !d.memory_segments.empty() && !d.allocator_samples.empty(), d.name.c_str());
            const auto peak = std::max_element(d.memory.begin(), d.memory.end(),
                                               [](const MemoryEvent& a, const MemoryEvent& b) { return a.live_bytes < b.live_bytes; });
            std::int64_t live = 0;
            bool named = false;
            for (const PlacedBlock& b : d.memory_blocks) {
                if (b.alloc_ns <= peak->t_ns && (b.free_ns < 0 || b.free_ns > peak->t_ns)) live += b.size;
                named = named || b.name.find("activations · micro-batch ") == 0;
                QVERIFY2(!b.category.empty(), b.name.c_str());
            }
            QVERIFY(named);
            QVERIFY2(live >= peak->live_bytes, d.name.c_str());
            std::int64_t reserved = 0;
            for (const AllocatorSample& s : d.allocator_samples) {
                QVERIFY(s.reserved >= s.allocated);
                reserved = std::max(reserved, s.reserved);
            }
            QVERIFY(reserved >= peak->live_bytes);
        }
    }

    // Each stage's kernels carry the model's layer numbers (the timeline's layers.N): stage s
    // of the 8-layer model on 4 stages runs layers 2s, 2s+1 under 1F1B; interleaved with 2
    // chunks, layers s and 4+s (Megatron's virtual stages c * p + s).
    void stagesNameTheModelsLayers() {
        for (const auto& [schedule, v] : {std::pair{std::string("1f1b"), 1}, std::pair{std::string("interleaved"), 2}}) {
            const SimulationResult r = run(smallGpt(2, 4, 8, schedule, v));
            for (std::size_t i = 0; i < r.devices.size(); ++i) {
                const int stage = r.summary.cluster.ranks[i].stage;
                std::set<int> layers;
                for (const SimTask& t : r.devices[i].tasks)
                    if (layerOfTaskName(t.name) >= 0) layers.insert(layerOfTaskName(t.name));
                std::set<int> expected;
                for (int c = 0; c < v; ++c)
                    for (int l = 0; l < 2 / v; ++l) expected.insert((c * 4 + stage) * (2 / v) + l);
                if (layers != expected) {
                    QStringList got;
                    for (int l : layers) got << QString::number(l);
                    qWarning("%s stage %d: layers %s", schedule.c_str(), stage, qPrintable(got.join(QLatin1Char(','))));
                }
                QCOMPARE(layers, expected);
            }
        }
    }

    void gpipeHoldsEveryMicroBatch() {
        const SimulationResult oneF = run(smallGpt(2, 4, 8));
        const SimulationResult gpipe = run(smallGpt(2, 4, 8, "gpipe"));
        const RankClassMemory& a = oneF.summary.memory.rank_classes[1];
        const RankClassMemory& b = gpipe.summary.memory.rank_classes[1];
        QCOMPARE(b.micro_batches_in_flight, 8.0);
        QCOMPARE(a.micro_batches_in_flight, 3.0);
        // GPipe's peak: all eight at the first backward pass (before gradients accumulate),
        // or seven at the second with them; 1F1B's: three, gradients held.
        QVERIFY(b.peak_bytes >= a.peak_bytes + (8 - 3 - 1) * a.activation_bytes_per_micro_batch);
    }

    void theFullestStageRunsOutOfMemory() {
        // GPT-3 175B on 64 A100-80GB, TP 8 x PP 8, 1F1B, no recomputation: one micro-batch
        // fits, eight in flight on the first stage do not (Korthikanti et al.'s Figure 1).
        Project p = korthikanti::gptProject("gpt3-175b-64", 96, 12288, 96, 8, 8, 1, 64, "none", false);
        p.model.config["dropout"] = 0.1;
        p.model.config["attention"] = "eager";
        const SimulationResult r = run(p);
        const RankClassMemory& first = r.summary.memory.rank_classes.front();
        QCOMPARE(first.micro_batches_in_flight, 8.0);
        QVERIFY(first.oom);
        QCOMPARE(r.summary.status, std::string("oom"));
        QVERIFY2(r.summary.message.find("pipeline stage 0") == 0 && r.summary.message.find("8 micro-batches in flight") != std::string::npos,
                 r.summary.message.c_str());
        QVERIFY(r.summary.memory.oom.present);
        // The out-of-memory panel's largest blocks: stage 0's rank at that instant, largest first.
        const auto& top = r.summary.memory.oom.top_tensors;
        QCOMPARE(top.size(), size_t(10));
        for (std::size_t i = 1; i < top.size(); ++i) QVERIFY(top[i - 1].bytes >= top[i].bytes);
        QVERIFY2(!top.front().name.empty() && !top.front().category.empty(), top.front().name.c_str());
        QVERIFY(!r.summary.memory.rank_classes.back().oom);  // the last stage holds one
    }
};

QTEST_APPLESS_MAIN(TestPipelineMemory)
#include "test_pipeline_memory.moc"
