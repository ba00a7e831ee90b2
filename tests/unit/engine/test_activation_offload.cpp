// training.offload_activations on the calibration model (engine/passes/activation_offload_pass):
// the saved activations go to the host after each layer's forward and come back before
// its backward, on the memcpy stream at the device profile's PCIe rate. Checked: the
// peak drops by most of the layers' saved bytes, every byte offloaded is reloaded, each
// copy takes bytes / PCIe bandwidth (+ launch), and the device's work grows by exactly the
// copies' time (the single-device schedule runs them in program order).
#include "engine/cost/device_profile.h"
#include "engine/driver/simulate_project.h"
#include "tests/unit/engine/sample_projects.h"

#include <QtTest>

using namespace npu::engine;

namespace {

using testing::calibrationProject;
using testing::simulateOrFail;
}  // namespace

class TestActivationOffload : public QObject {
    Q_OBJECT
private slots:
    void offloadCutsThePeakAndCostsPcieTime() {
        Project p = calibrationProject();
        const SimulationResult base = simulateOrFail(p);
        p.training.offload_activations = true;
        const SimulationResult off = simulateOrFail(p);
        QCOMPARE(off.summary.status, std::string("ok"));

        auto device = loadDeviceProfile(p.device, defaultDevicesDir());
        QVERIFY(device.ok());
        const double pcie = device->links.at("pcie_bandwidth");
        QVERIFY(pcie > 0);

        const DeviceResult& dev = off.devices.front();
        int memcpyStream = -1;
        for (const auto& s : dev.streams)
            if (s.kind == StreamKind::memcpy) memcpyStream = s.id;
        QVERIFY(memcpyStream >= 0);
        double down = 0, up = 0, copyNs = 0;
        int d2h = 0, h2d = 0;
        for (const SimTask& t : dev.tasks) {
            if (t.op_type != "MemcpyD2H" && t.op_type != "MemcpyH2D") continue;
            QCOMPARE(t.stream, memcpyStream);
            // Each copy at the link's rate plus the launch overhead (ns rounding: 1 ns).
            QVERIFY(std::abs(double(t.dur_ns) - (t.bytes / pcie * 1e9 + device->launchOverheadNs)) <= 1.0);
            (t.op_type == "MemcpyD2H" ? down : up) += t.bytes;
            ++(t.op_type == "MemcpyD2H" ? d2h : h2d);
            copyNs += double(t.dur_ns);
        }
        const int layers = 8;
        QCOMPARE(d2h, layers);  // one copy each way per decoder layer
        QCOMPARE(h2d, layers);
        QCOMPARE(down, up);     // what went out comes back
        // The device's work grows by the copies' time, nothing else changes in a serial
        // schedule. The wall time grows by less: copies fill some of the idle the device
        // spent waiting for the host's launches (engine/sim/host_dispatch).
        QVERIFY(std::abs((off.summary.device_busy_ms - base.summary.device_busy_ms) * 1e6 - copyNs) < 1.0 + 2e-9 * copyNs);
        QVERIFY(off.summary.step_time_ms > base.summary.step_time_ms);

        // The live peak drops by most of the offloaded bytes: at the end of forward the
        // device held every layer's saved activations; now at most about one layer's.
        const double drop = double(base.summary.memory.lower_bound_bytes - off.summary.memory.lower_bound_bytes);
        qInfo("offload_activations: live peak %.2f -> %.2f GB, allocated %.2f -> %.2f GB, reserved %.2f -> %.2f GB, "
              "step %.1f -> %.1f ms; %.2f GB each way, copies %.1f ms at %.0f GB/s",
              base.summary.memory.lower_bound_bytes / 1e9, off.summary.memory.lower_bound_bytes / 1e9,
              base.summary.peak_bytes / 1e9, off.summary.peak_bytes / 1e9, base.summary.memory.reserved_peak_bytes / 1e9,
              off.summary.memory.reserved_peak_bytes / 1e9, base.summary.step_time_ms, off.summary.step_time_ms, down / 1e9,
              copyNs / 1e6, pcie / 1e9);
        QVERIFY2(drop > 0.7 * down * (layers - 1) / layers,
                 qPrintable(QStringLiteral("drop %1 of %2 offloaded").arg(drop).arg(down)));
        QVERIFY(off.summary.peak_bytes < base.summary.peak_bytes);
        QVERIFY(off.summary.memory.reserved_peak_bytes < base.summary.memory.reserved_peak_bytes);
    }

    void combinesWithCheckpointing() {
        // Full checkpointing keeps only each layer's input: that is what is offloaded.
        Project p = calibrationProject();
        p.training.activation_checkpointing = "full";
        const SimulationResult ckpt = simulateOrFail(p);
        p.training.offload_activations = true;
        const SimulationResult both = simulateOrFail(p);
        QCOMPARE(both.summary.status, std::string("ok"));
        QVERIFY(both.summary.memory.lower_bound_bytes < ckpt.summary.memory.lower_bound_bytes);
        double down = 0;
        for (const SimTask& t : both.devices.front().tasks)
            if (t.op_type == "MemcpyD2H") down += t.bytes;
        qInfo("with full checkpointing: live peak %.2f -> %.2f GB, %.3f GB offloaded", ckpt.summary.memory.lower_bound_bytes / 1e9,
              both.summary.memory.lower_bound_bytes / 1e9, down / 1e9);
        // Eight layer inputs of b*s*h fp32 (the bf16-amp residual stream): 8 * 8*1024*1024*4.
        QVERIFY2(std::abs(down / (8.0 * 8 * 1024 * 1024 * 4) - 1) < 0.01, qPrintable(QString::number(down)));
    }

    void projectKeyRoundTrips() {
        Project p = calibrationProject();
        QVERIFY(!p.training.offload_activations);
        p.training.offload_activations = true;
        auto back = parseProject(projectToJson(p), "p.json");
        QVERIFY(back.ok());
        QVERIFY(back->training.offload_activations);
        nlohmann::json bad = projectToJson(p);
        bad["training"]["offload_activations"] = "yes";
        auto err = parseProject(bad, "p.json");
        QVERIFY(!err.ok());
        QVERIFY(err.message().find("offload_activations") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestActivationOffload)
#include "test_activation_offload.moc"
