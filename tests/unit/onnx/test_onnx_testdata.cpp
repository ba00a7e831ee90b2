// Every model of Debian's libonnx-testdata (node-level tests, PyTorch-converted and
// PyTorch-operator models, real and simple models: ~1,072 files) goes through the
// converter: each converts fully or reports its unsupported ops; none crashes, none hangs
// (per-model time limit), none fails with an error. Prints the counts and the most
// frequent unsupported ops. On every converted model the conversion report's FLOPs equal
// the simulator's (the cost model's, node by node), and every op the converter accepts has
// the op registry's shape rule: op knowledge has one definition.

#include "engine/cost/cost_model.h"
#include "engine/cost/device_profile.h"
#include "engine/onnx/onnx_importer.h"
#include "engine/ir/op_registry.h"
#include "engine/driver/simulate_project.h"

#include <QTest>

#include <algorithm>
#include <chrono>
#include <future>
#include <iostream>
#include <map>
#include <thread>

using namespace npu::engine;

namespace {
const std::filesystem::path kTestData = "/usr/share/libonnx-testdata/data";
constexpr auto kPerModelLimit = std::chrono::seconds(30);
}  // namespace

class TestOnnxTestdata : public QObject {
    Q_OBJECT
private slots:
    void convertsEveryModel() {
        if (!std::filesystem::exists(kTestData)) QSKIP("libonnx-testdata is not installed (scripts/install-deps.sh)");
        std::vector<std::filesystem::path> files;
        for (const auto& e : std::filesystem::recursive_directory_iterator(kTestData))
            if (e.path().extension() == ".onnx") files.push_back(e.path());
        std::sort(files.begin(), files.end());
        QVERIFY(files.size() > 1000);

        auto profile = loadDeviceProfile("h200", defaultDevicesDir());
        QVERIFY2(profile.ok(), profile.ok() ? "" : profile.message().c_str());
        const CostModel simulator(*profile);
        const auto& registry = OpRegistry::instance();
        std::map<std::string, double> simulatedFlopsByOp;
        std::vector<std::string> mismatches;
        int full = 0, partial = 0;
        std::vector<std::string> errors;
        std::map<std::string, int> unsupportedModels;
        double slowest = 0;
        std::string slowestName;
        for (const auto& file : files) {
            const auto start = std::chrono::steady_clock::now();
            auto future = std::async(std::launch::async, [file] { return importOnnxForwardGraph(file, {}); });
            if (future.wait_for(kPerModelLimit) != std::future_status::ready) {
                std::cerr << "HANG: " << file << "\n";
                std::quick_exit(1);  // the worker cannot be stopped; fail the test loudly
            }
            auto r = future.get();
            const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            if (s > slowest) slowest = s, slowestName = file.string();
            if (!r.ok()) {
                errors.push_back(r.message());
                continue;
            }
            std::int64_t simulated = 0;
            for (const Node& n : r->graph.nodes()) {
                const double flops = simulator.time(r->graph, n).flops;
                simulated += static_cast<std::int64_t>(flops);
                simulatedFlopsByOp[n.op] = std::max(simulatedFlopsByOp[n.op], flops);
                if (!n.opaque && !(registry.find(n.op) && registry.find(n.op)->inferShapes))
                    mismatches.push_back(file.string() + ": op " + n.op + " accepted without a registry shape rule");
            }
            if (simulated != r->report.forwardFlops)
                mismatches.push_back(file.string() + ": report " + std::to_string(r->report.forwardFlops) +
                                     " FLOPs, simulator " + std::to_string(simulated));
            if (r->report.unsupported.empty()) ++full;
            else {
                ++partial;
                for (const auto& u : r->report.unsupported) ++unsupportedModels[u.opType];
                // Opaque nodes stay in the graph, flagged.
                QVERIFY(std::any_of(r->graph.nodes().begin(), r->graph.nodes().end(), [](const Node& n) { return n.opaque; }));
            }
        }
        std::vector<std::pair<int, std::string>> top;
        for (const auto& [op, n] : unsupportedModels) top.emplace_back(n, op);
        std::sort(top.rbegin(), top.rend());
        std::cout << "libonnx-testdata: " << files.size() << " models, " << full << " converted fully, " << partial
                  << " with unsupported ops kept opaque, " << errors.size() << " errors; slowest " << slowest << " s ("
                  << slowestName << ")\ntop unsupported ops (models):";
        for (size_t i = 0; i < top.size() && i < 15; ++i) std::cout << " " << top[i].second << " " << top[i].first;
        std::cout << "\n";
        for (const auto& e : errors) std::cout << "error: " << e << "\n";
        QCOMPARE(static_cast<size_t>(full + partial) + errors.size(), files.size());
        QVERIFY2(errors.empty(), errors.empty() ? "" : errors.front().c_str());
        QVERIFY(full > static_cast<int>(files.size()) / 2);
        for (const auto& m : mismatches) std::cout << "mismatch: " << m << "\n";
        QVERIFY2(mismatches.empty(), mismatches.empty() ? "" : mismatches.front().c_str());
        // Ops that once had FLOPs in the conversion report only (a second table) and bytes
        // only in the simulator.
        for (const char* op : {"Einsum", "TopK", "CumSum", "InstanceNormalization", "LRN"})
            QVERIFY2(simulatedFlopsByOp[op] > 0, op);
    }
};

QTEST_GUILESS_MAIN(TestOnnxTestdata)
#include "test_onnx_testdata.moc"
