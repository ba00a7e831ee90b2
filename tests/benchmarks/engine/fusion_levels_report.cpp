// Prints, for the small LLaMA (projects/llama-small-h200) and ResNet-50 (projects/resnet50:
// zoo resnet, bf16-amp, batch 64), kernels per step and the simulated step time at
// graph_level 0-3 next to the eager measurements (../shared/data/hardware/
// h200_llama_small_training.json and the kernel traces of ../shared/data/traces) and the
// torch.compile range the issue gives for the LLaMA (1.8-2.2x faster than eager).
// Usage: fusion_levels_report [--ops]   (--ops: the LLaMA's time per op type and phase at
// each level, top 12, to see where a level's time goes)
#include "base/gzip_codec.h"
#include "engine/driver/simulate_project.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

using namespace npu;
using namespace npu::engine;

namespace {

struct TraceFigures {
    int kernels = 0;
    double kernelMs = 0;  // sum of kernel durations (device busy time)
};

TraceFigures readTrace(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return {};
    std::stringstream buf;
    buf << in.rdbuf();
    auto text = gzipDecompress(buf.str());
    if (!text) return {};
    const auto doc = nlohmann::json::parse(*text, nullptr, false);
    TraceFigures f;
    if (!doc.is_object()) return f;
    for (const auto& e : doc.value("traceEvents", nlohmann::json::array()))
        if (e.value("cat", "") == "kernel") {
            ++f.kernels;
            f.kernelMs += e.value("dur", 0.0) / 1e3;
        }
    return f;
}

bool g_ops = false;

void printOps(const SimulationResult& r) {
    std::map<std::string, std::pair<int, double>> byOp;
    for (const SimTask& t : r.devices[0].tasks) {
        auto& e = byOp[t.op_type + (t.phase == Phase::backward ? " (bwd)" : "")];
        ++e.first;
        e.second += t.dur_ns / 1e6;
    }
    std::vector<std::pair<std::string, std::pair<int, double>>> rows(byOp.begin(), byOp.end());
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second.second > b.second.second; });
    for (std::size_t i = 0; i < rows.size() && i < 12; ++i)
        std::printf("           %-32s %5d %8.2f ms\n", rows[i].first.c_str(), rows[i].second.first, rows[i].second.second);
}

void report(const char* project, double eagerMs, const TraceFigures& trace, const char* compiled) {
    auto p = loadProject(std::filesystem::path(NPU_SOURCE_DIR) / "projects" / project / "project.json");
    if (!p) {
        std::printf("%s: %s\n", project, p.message().c_str());
        return;
    }
    std::printf("\nprojects/%s (%s, batch %lld)\n", project, p->training.precision.c_str(), static_cast<long long>(p->training.batch));
    std::printf("  eager measured: step %s, %d kernels (trace kernel time %.2f ms); compiled: %s\n",
                eagerMs > 0 ? (std::to_string(eagerMs).substr(0, 5) + " ms").c_str() : "n/a", trace.kernels, trace.kernelMs, compiled);
    std::printf("  %-6s %8s %10s %9s %9s %9s\n", "level", "kernels", "step ms", "vs eager", "speed-up", "peak GB");
    double level0 = 0;
    for (int level = 0; level <= 3; ++level) {
        p->optimizations["graph_level"] = level;
        SimulationOptions o;
        o.keepGraphs = false;
        auto r = simulateProject(*p, o);
        if (!r) {
            std::printf("  %-6d error: %s\n", level, r.message().c_str());
            continue;
        }
        const double ms = r->summary.step_time_ms;
        if (level == 0) level0 = ms;
        const double ref = eagerMs > 0 ? eagerMs : trace.kernelMs;
        std::printf("  %-6d %8d %10.2f %+8.1f%% %8.2fx %9.2f\n", level, r->kernels_per_step, ms, 100 * (ms / ref - 1), level0 / ms,
                    r->summary.peak_bytes / 1e9);
        if (g_ops && !r->devices.empty()) printOps(*r);
    }
}

}  // namespace

int main(int argc, char** argv) {
    g_ops = argc > 1 && std::strcmp(argv[1], "--ops") == 0;
    double llamaEager = 0;
    if (std::ifstream in(NPU_SHARED_DATA_DIR "/hardware/h200_llama_small_training.json"); in) {
        const auto doc = nlohmann::json::parse(in, nullptr, false);
        if (doc.is_object())
            for (const auto& run : doc["llama_small"]["runs"])
                if (run.value("mode", "") == "amp_bf16" && !run.value("ckpt", true)) llamaEager = run.value("step_ms", 0.0);
    }
    report("llama-small-h200", llamaEager, readTrace(NPU_SHARED_DATA_DIR "/traces/llama_small_amp_bf16_b8s1024_h200.json.gz"),
           llamaEager > 0 ? ("1.8-2.2x faster: " + std::to_string(llamaEager / 2.2).substr(0, 5) + "-" +
                             std::to_string(llamaEager / 1.8).substr(0, 5) + " ms (issue 7)").c_str()
                          : "n/a");
    // ResNet-50: the trace's span includes host gaps (eager Python launch-bound at this
    // size); its kernel time is the device-side eager reference.
    report("resnet50", 0, readTrace(NPU_SHARED_DATA_DIR "/traces/resnet50_amp_bf16_b64_h200.json.gz"), "not measured");
    return 0;
}
