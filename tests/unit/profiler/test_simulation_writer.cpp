// A hand-built SimulationResult stored through writeSimulation and read back.
#include "profiler/analysis/memory_peaks.h"
#include "profiler/store/memory_block_store.h"
#include "profiler/analysis/op_statistics.h"
#include "profiler/store/simulated_structure.h"
#include "profiler/store/simulation_writer.h"
#include "profiler/store/profile_db.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

using namespace npu;
using namespace npu::profiler;

class TestSimulationWriter : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    static engine::SimulationResult makeResult() {
        engine::SimulationResult r;
        engine::DeviceResult d;
        d.id = 0;
        d.name = "npu0";
        d.streams = {{0, "Compute", engine::StreamKind::compute}, {1, "Communication", engine::StreamKind::comm}};
        auto task = [](std::int64_t start, std::int64_t dur, int stream, const char* name, const char* op,
                       engine::OpCategory cat, engine::Phase phase, double flops) {
            engine::SimTask t;
            t.start_ns = start; t.dur_ns = dur; t.stream = stream; t.name = name; t.op_type = op;
            t.category = cat; t.dtype = engine::DType::bf16; t.phase = phase; t.flops = flops; t.bytes = 1024;
            t.node = static_cast<int>(start);
            return t;
        };
        d.tasks = {task(0, 100, 0, "layers.0.q_proj", "MatMul", engine::OpCategory::matmul, engine::Phase::forward, 2e9),
                   task(100, 50, 0, "layers.0.norm", "RMSNorm", engine::OpCategory::norm, engine::Phase::forward, 1e6),
                   task(150, 200, 0, "layers.0.q_proj.grad", "MatMul", engine::OpCategory::matmul,
                        engine::Phase::backward, 4e9),
                   task(200, 120, 1, "allreduce.bucket0", "AllReduce", engine::OpCategory::comm,
                        engine::Phase::communication, 0)};
        d.memory = {{0, 100, 100, 1, engine::TensorRole::activation},
                    {120, 300, 400, 2, engine::TensorRole::activation},
                    {300, -250, 150, 1, engine::TensorRole::activation}};
        d.memory_blocks = {{0, 0, 512, 0, 300, "activations", "x", "q_proj"}, {1, 512, 512, 120, -1, "activations", "y", ""}};
        d.memory_segments = {{0, 2 << 20, 0, -1, false}};
        d.peak_bytes = 400;
        d.capacity_bytes = 1 << 30;
        r.devices.push_back(d);
        r.steps = {{0, 0, 350}};
        r.summary.model = "llama-tiny";
        r.summary.device = "h200";
        r.summary.params = 1234;
        r.summary.step_time_ms = 0.00035;
        r.summary.peak_bytes = 400;
        r.summary.capacity_bytes = 1 << 30;
        r.summary.precision = "bf16-amp";
        r.summary.batch = 8;
        r.summary.seq = 1024;
        r.summary.time_by_category_ms = {{"matmul", 0.0003}};
        return r;
    }

private slots:
    void storesEverything() {
        const auto path = std::filesystem::path(m_dir.path().toStdString()) / "sim.npudb";
        auto s = writeSimulation(makeResult(), {"demo", "/p/project.json", "sim-1"}, path);
        QVERIFY2(s.ok(), s.ok() ? "" : s.message().c_str());
        auto db = ProfileDb::open(path);
        QVERIFY(db.ok());
        const ProfileDb& r = **db;
        QCOMPARE(r.meta("source"), std::string("simulated"));
        QCOMPARE(r.meta("project"), std::string("demo"));
        QCOMPARE(r.meta("model"), std::string("llama-tiny"));
        QCOMPARE(r.meta("params"), std::string("1234"));
        QCOMPARE(r.meta("precision"), std::string("bf16-amp"));
        QCOMPARE(r.meta("seq"), std::string("1024"));
        const auto summary = nlohmann::json::parse(r.meta("summary"));
        QCOMPARE(summary["batch"].get<int>(), 8);
        QCOMPARE(summary["time_by_category_ms"]["matmul"].get<double>(), 0.0003);

        const auto devices = r.devices();
        QCOMPARE(devices.size(), size_t(1));
        QCOMPARE(devices[0].kind, std::string("npu"));
        const auto all = r.tracks();
        QCOMPARE(all.size(), size_t(4));
        QCOMPARE(all[0].name, std::string("Model structure"));  // first on its device (simulated_structure)
        QCOMPARE(all[0].kind, TrackKind::other);
        const std::vector<TrackRow> tracks(all.begin() + 1, all.end());
        QCOMPARE(tracks[0].kind, TrackKind::compute);
        QCOMPARE(tracks[1].kind, TrackKind::comm);
        QCOMPARE(tracks[2].kind, TrackKind::counter);
        QCOMPARE(tracks[2].name, std::string("Memory (live bytes)"));

        const auto compute = r.trackSlices(tracks[0].id);
        QCOMPARE(compute.size(), size_t(3));
        QCOMPARE(r.string(compute.categoryId[1]), std::string("norm"));
        auto mm = r.slice(compute.id[0]);
        QVERIFY(mm.ok());
        QCOMPARE(mm->opType, std::string("MatMul"));
        QCOMPARE(mm->dtype, std::string("bf16"));
        QCOMPARE(mm->flops, 2e9);
        const auto args = nlohmann::json::parse(mm->args_json);
        QCOMPARE(args["phase"].get<std::string>(), std::string("forward"));
        QCOMPARE(args["op_type"].get<std::string>(), std::string("MatMul"));
        QCOMPARE(args["bytes"].get<double>(), 1024.0);

        QCOMPARE(r.counter(tracks[2].id).value.size(), size_t(3));
        const auto peaks = computeMemoryPeaks(r);
        QCOMPARE(peaks.size(), size_t(1));
        QCOMPARE(peaks[0].peak_allocated_bytes, 400.0);
        QCOMPARE(r.steps().size(), size_t(1));
        QCOMPARE(r.steps()[0].end_ns, std::int64_t(350));

        OpStatOptions o;
        o.grouping = OpGrouping::byType;
        const auto byType = computeOpStatistics(r, o);
        QCOMPARE(byType.rows[0].key, std::string("MatMul"));
        QCOMPARE(byType.rows[0].count, 2);
        QCOMPARE(byType.rows[0].total_ns, 300);
        QCOMPARE(byType.reference_ns, 300 + 50 + 120);  // every kernel's time: matmuls, norm, all-reduce
        QCOMPARE(byType.rows[0].share, 300.0 / 470.0);

        // The memory map's blocks and segments, on the run's one device (id 0).
        const auto map = readMemoryMap(r, 0);
        QCOMPARE(map.blocks.size(), size_t(2));
        QCOMPARE(map.blocks[0].addr, std::int64_t(0));
        QCOMPARE(map.blocks[0].category, std::string("activations"));
        QCOMPARE(map.blocks[0].name, std::string("x"));
        QCOMPARE(map.blocks[1].free_ns, std::int64_t(-1));
        QCOMPARE(map.segments.size(), size_t(1));
        QCOMPARE(map.segments[0].pool, std::string("large"));
        QCOMPARE(memoryMapDevices(r), std::vector<std::int64_t>{0});
    }
    // The step, its phases and the layers they run, nested above the Compute lane: step 1 >
    // forward (micro-batch 0, 1) / backward > layers.N, from the tasks' labels; the
    // communication stream's tasks and the optimizer's layers are not a layer's.
    void nestsStepPhasesAndLayers() {
        engine::SimulationResult r = makeResult();
        auto& tasks = r.devices[0].tasks;
        for (auto& t : tasks) t.micro_batch = 0;
        engine::SimTask second = tasks[0];  // micro-batch 1's forward of layer 0, after the backward
        second.start_ns = 360;
        second.micro_batch = 1;
        tasks.push_back(second);
        engine::SimTask step = tasks[1];
        step.start_ns = 470;
        step.dur_ns = 30;
        step.name = "adamw.update";
        step.phase = engine::Phase::optimizer;
        step.micro_batch = -1;
        tasks.push_back(step);
        r.steps = {{0, 0, 500}};
        const auto slices = simulatedStructure(r.devices[0], r.steps);
        QStringList got;
        for (const auto& s : slices) got << QStringLiteral("%1 %2 %3+%4").arg(s.depth).arg(QString::fromStdString(s.name)).arg(s.start_ns).arg(s.dur_ns);
        const QStringList expected{QStringLiteral("0 step 1 0+500"),
                                   QStringLiteral("1 forward · micro-batch 0 0+150"),
                                   QStringLiteral("1 backward · micro-batch 0 150+200"),
                                   QStringLiteral("1 forward · micro-batch 1 360+100"),
                                   QStringLiteral("1 optimizer step 470+30"),
                                   QStringLiteral("2 layers.0 0+150"),
                                   QStringLiteral("2 layers.0 150+200"),
                                   QStringLiteral("2 layers.0 360+100")};
        QCOMPARE(got, expected);

        const auto path = std::filesystem::path(m_dir.path().toStdString()) / "nested.npudb";
        QVERIFY(writeSimulation(r, {"demo", "/p/project.json", "sim-2"}, path).ok());
        auto db = ProfileDb::open(path);
        QVERIFY(db.ok());
        const auto structure = (*db)->trackSlices((*db)->tracks()[0].id);
        QCOMPARE(structure.size(), size_t(expected.size()));
        QCOMPARE((*db)->string(structure.categoryId[0]), std::string("gpu_user_annotation"));
        // Operator statistics leave the ranges out: only the kernels count.
        OpStatOptions o;
        o.grouping = OpGrouping::byType;
        QCOMPARE(computeOpStatistics(**db, o).reference_ns, 300 + 50 + 120 + 100 + 30);
    }

    void storesHostTracksAndLaunchFlows() {
        // Two launches on the host, each issuing one kernel; one view; two batches.
        auto result = makeResult();
        auto& d = result.devices[0];
        d.host = {{0, 10, engine::HostSliceKind::launch, 1, "layers.0.q_proj", 0, 0},
                  {10, 5, engine::HostSliceKind::view, 2, "layers.0.view", -1, -1},
                  {15, 20, engine::HostSliceKind::launch, 3, "layers.0.norm", 0, 100},
                  {35, 300, engine::HostSliceKind::synchronize, -1, "synchronize", -1, -1}};
        d.loader = {{0, 400, 0, 0}, {0, 400, 1, 1}};
        d.loader_workers = 2;
        const auto path = std::filesystem::path(m_dir.path().toStdString()) / "host.npudb";
        auto s = writeSimulation(result, {"demo", "/p/project.json", "sim-2"}, path);
        QVERIFY2(s.ok(), s.ok() ? "" : s.message().c_str());
        auto db = ProfileDb::open(path);
        QVERIFY(db.ok());
        const ProfileDb& r = **db;
        std::int64_t host = -1, loader = -1, compute = -1;
        for (const auto& t : r.tracks()) {
            if (t.name == "Host (dispatch)") host = t.id;
            if (t.name == "Data loader") loader = t.id;
            if (t.name == "Compute") compute = t.id;
            if (t.name == "Host (dispatch)" || t.name == "Data loader") QCOMPARE(t.kind, TrackKind::host_thread);
        }
        QVERIFY(host >= 0 && loader >= 0 && compute >= 0);
        const TrackSlices hs = r.trackSlices(host), ks = r.trackSlices(compute), ls = r.trackSlices(loader);
        QCOMPARE(hs.size(), std::size_t{4});
        QCOMPARE(ls.size(), std::size_t{2});
        QCOMPARE(ls.maxDepth, 1);  // one row per worker
        // Each launch flows to the kernel that starts where it said; the view and the sync to nothing.
        for (std::size_t i = 0; i < hs.size(); ++i) {
            const auto flows = r.flowsOf(hs.id[i]);
            const std::int64_t kernelStart = i == 0 ? 0 : i == 2 ? 100 : -1;
            if (kernelStart < 0) {
                QVERIFY(flows.empty());
                continue;
            }
            QCOMPARE(flows.size(), std::size_t{1});
            QCOMPARE(flows[0].kind, std::string("ac2g"));
            std::size_t k = 0;
            while (k < ks.size() && ks.id[k] != flows[0].toSlice) ++k;
            QVERIFY(k < ks.size());
            QCOMPARE(ks.start_ns[k], kernelStart);
        }
    }
};

QTEST_GUILESS_MAIN(TestSimulationWriter)
#include "test_simulation_writer.moc"
