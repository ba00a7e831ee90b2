// Conversion time of the four reference models (best and median of 5 runs), plus the
// .npuom save/load time. Run: build/.../tests/benchmarks/onnx/bench_onnx_conversion
#include "engine/onnx/onnx_importer.h"
#include "engine/npuom/offline_model.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <vector>

using namespace npu::engine;
using Clock = std::chrono::steady_clock;

static double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

int main() {
    const std::filesystem::path dir = std::filesystem::path(NPU_SOURCE_DIR) / "tests/data/models";
    struct Case {
        const char* file;
        const char* shape;
    } cases[] = {{"resnet18_noweights.onnx", nullptr}, {"squeezenet1_1.onnx", nullptr},
                 {"mobilenet_v2.onnx", "input:1,3,224,224"}, {"tiny_bert.onnx", "input_ids:2,64"}};
    std::printf("%-26s %8s %10s %12s %10s %10s %10s\n", "model", "nodes", "params", "fwd GMACs", "best s", "median s", "npuom s");
    for (const auto& c : cases) {
        OnnxImportOptions options;
        if (c.shape) {
            auto spec = parseInputShapeSpec(c.shape);
            options.inputShapes[spec->first] = spec->second;
        }
        std::vector<double> times;
        ConversionResult last;
        for (int i = 0; i < 5; ++i) {
            const auto t = Clock::now();
            auto r = importOnnxForwardGraph(dir / c.file, options);
            times.push_back(since(t));
            if (!r) {
                std::printf("%s: %s\n", c.file, r.message().c_str());
                return 1;
            }
            last = std::move(r).value();
        }
        std::sort(times.begin(), times.end());
        const auto out = std::filesystem::temp_directory_path() / "bench.npuom";
        const auto t = Clock::now();
        if (!saveOfflineModel(last, out) || !loadOfflineModel(out)) return 1;
        const double npuom = since(t);
        std::filesystem::remove(out);
        std::printf("%-26s %8lld %10lld %12.3f %10.4f %10.4f %10.4f\n", c.file, static_cast<long long>(last.report.nodes),
                    static_cast<long long>(last.report.params), static_cast<double>(last.report.forwardMacs) / 1e9, times.front(),
                    times[times.size() / 2], npuom);
    }
    return 0;
}
