// Simulator: schedule, memory events, OOM, steps, progress and cancellation; the sample
// projects end to end.
#include "engine/driver/simulate_project.h"
#include "tests/unit/engine/sample_projects.h"

#include <QtTest>

#include <fstream>
#include <set>

using namespace npu::engine;
using npu::Progress;

namespace {

using testing::smallLlama;
}  // namespace

class TestSimulator : public QObject {
    Q_OBJECT
private slots:
    void scheduleAndMemory() {
        auto r = simulateProject(smallLlama(), {});
        QVERIFY2(r.ok(), r.ok() ? "" : r.message().c_str());
        const auto& s = r->summary;
        QCOMPARE(s.status, std::string("ok"));
        QVERIFY(s.step_time_ms > 0);
        QVERIFY(s.tokens_per_s > 0);
        QVERIFY(s.mfu > 0 && s.mfu < 1);
        const auto& dev = r->devices.at(0);
        QVERIFY(!dev.tasks.empty());
        std::int64_t lastEnd = 0;
        std::set<std::string> phases;
        for (const auto& t : dev.tasks) {
            QVERIFY(t.dur_ns > 0);
            QVERIFY2(t.start_ns >= lastEnd, "tasks overlap on the compute stream");
            lastEnd = t.start_ns + t.dur_ns;
            phases.insert(std::string(phaseName(t.phase)));
        }
        QVERIFY(phases.count("forward") && phases.count("backward") && phases.count("optimizer"));
        std::int64_t live = 0, peak = 0, lastT = 0;
        for (const auto& e : dev.memory) {
            QVERIFY(e.t_ns >= lastT);
            lastT = e.t_ns;
            live += e.delta_bytes;
            QCOMPARE(e.live_bytes, live);
            QVERIFY(live >= 0);
            peak = std::max(peak, live);
        }
        // The live-bytes peak is the lower bound; the allocated peak counts the caching
        // allocator's rounded blocks (engine/memory), so it is at least that.
        QCOMPARE(peak, r->summary.memory.lower_bound_bytes);
        QVERIFY(dev.peak_bytes >= peak);
        std::int64_t roles = 0;
        for (const auto& [role, bytes] : dev.peak_by_role) roles += bytes;
        QCOMPARE(roles, peak);
        QVERIFY(dev.peak_by_role.count("optimizer_state"));
    }
    void stepsBackToBack() {
        SimulationOptions o;
        o.steps = 3;
        auto r = simulateProject(smallLlama(), o);
        QVERIFY(r.ok());
        QCOMPARE(r->steps.size(), std::size_t{3});
        QCOMPARE(r->steps[1].start_ns, r->steps[0].end_ns);
        QCOMPARE(r->steps[2].end_ns - r->steps[2].start_ns, r->steps[0].end_ns - r->steps[0].start_ns);
    }
    void oomOnTinyDevice() {
        QTemporaryDir dir;
        auto h200 = nlohmann::json::parse(std::ifstream(defaultDevicesDir() / "h200.json"));
        h200["name"] = "tiny";
        h200["hbm"]["bytes"]["value"] = 1e6;
        std::ofstream(dir.filePath(QStringLiteral("tiny.json")).toStdString()) << h200.dump();
        SimulationOptions o;
        o.devicesDir = dir.path().toStdString();
        Project p = smallLlama();
        p.device = "tiny";
        auto r = simulateProject(p, o);
        QVERIFY(r.ok());
        QCOMPARE(r->summary.status, std::string("oom"));
        QVERIFY2(r->summary.message.find("reserved, the tiny has 0.00 GB; training fails at ") != std::string::npos, r->summary.message.c_str());
        QVERIFY(!r->devices[0].tasks.empty());
    }
    void checkpointingLowersPeakAndAddsRecompute() {
        Project p = smallLlama();
        auto plain = simulateProject(p, {});
        p.training.activation_checkpointing = "full";
        auto ckpt = simulateProject(p, {});
        QVERIFY(plain.ok() && ckpt.ok());
        QVERIFY(ckpt->summary.peak_bytes < plain->summary.peak_bytes);
        QVERIFY(ckpt->summary.step_time_ms > plain->summary.step_time_ms);
        QVERIFY(ckpt->summary.time_by_phase_ms.count("recompute"));
        QCOMPARE(ckpt->summary.flops_per_step, plain->summary.flops_per_step);
        p.training.activation_checkpointing = "selective";
        auto sel = simulateProject(p, {});
        QVERIFY(sel.ok());
        QVERIFY(sel->summary.peak_bytes < plain->summary.peak_bytes);
        QVERIFY(sel->summary.peak_bytes >= ckpt->summary.peak_bytes);
        QVERIFY(sel->summary.step_time_ms < ckpt->summary.step_time_ms);
    }
    void progressAndCancel() {
        std::vector<double> fractions;
        Progress progress;
        progress.report = [&](double f, std::string_view) { fractions.push_back(f); };
        auto r = simulateProject(smallLlama(), {}, progress);
        QVERIFY(r.ok());
        QVERIFY(fractions.size() > 3);
        QVERIFY(std::is_sorted(fractions.begin(), fractions.end()));
        QCOMPARE(fractions.back(), 1.0);
        std::atomic<bool> cancel{true};
        Progress cancelled;
        cancelled.cancel = &cancel;
        auto c = simulateProject(smallLlama(), {}, cancelled);
        QVERIFY(!c.ok());
        QCOMPARE(c.message(), std::string("cancelled"));
    }
    void errorsNameTheProject() {
        Project p = smallLlama();
        p.file = "projects/x/project.json";
        p.model.config["hidden"] = -1;
        auto r = simulateProject(p, {});
        QVERIFY(!r.ok());
        QVERIFY2(r.message().find("projects/x/project.json: model.config.hidden") != std::string::npos, r.message().c_str());
        p = smallLlama();
        p.device = "nowhere";
        QVERIFY(!simulateProject(p, {}).ok());
    }
    void onnxModelTrains() {
        const std::filesystem::path model = std::filesystem::path(QFINDTESTDATA("../../data/models/mobilenet_v2.onnx").toStdString());
        QVERIFY2(std::filesystem::exists(model), "tests/data/models/mobilenet_v2.onnx is tracked: it must be there");
        Project p;
        p.name = "onnx";
        p.model.onnx = model.string();
        p.model.inputs["input"] = {4, 3, 224, 224};
        p.training.batch = 4;
        auto r = simulateProject(p, {});
        QVERIFY2(r.ok(), r.ok() ? "" : r.message().c_str());
        // torchvision mobilenet_v2 has 3,504,872; the exporter folded BatchNorm into the convs.
        QVERIFY(std::abs(double(r->summary.params) / 3504872 - 1) < 0.01);
        // 0.30 GMACs per image forward -> 3 x 2 x 0.30e9 x 4 model FLOPs per step.
        QVERIFY2(std::abs(r->summary.flops_per_step / (3 * 2 * 0.30e9 * 4) - 1) < 0.05, qPrintable(QString::number(r->summary.flops_per_step)));
        QVERIFY(r->summary.time_by_phase_ms.count("backward"));
        QVERIFY(r->summary.time_by_phase_ms.count("optimizer"));
    }
    void sampleProjectsSimulate() {
        for (const char* name : {"llama-7b", "llama-small-h200", "resnet50"}) {
            auto p = loadProject(std::filesystem::path(NPU_SOURCE_DIR) / "projects" / name / "project.json");
            QVERIFY(p.ok());
            auto r = simulateProject(*p, {});
            QVERIFY2(r.ok(), r.ok() ? "" : r.message().c_str());
            QVERIFY2(r->summary.status == "ok", (std::string(name) + ": " + r->summary.message).c_str());
            QVERIFY(r->summary.step_time_ms > 0);
        }
    }
};

QTEST_GUILESS_MAIN(TestSimulator)
#include "test_simulator.moc"
