// Prints the run report (or a comparison) of .npudb files or traces, and times it:
//   npudb_report RUN.npudb|TRACE.json[.gz] [B.npudb|TRACE]   [--chrome OUT.json]
// Traces are imported into a temporary .npudb first.
#include "profiler/analysis/device_metrics.h"
#include "profiler/analysis/memory_peaks.h"
#include "profiler/analysis/op_statistics.h"
#include "profiler/analysis/run_report.h"
#include "profiler/analysis/step_breakdown.h"
#include "profiler/exporters/chrome_trace_exporter.h"
#include "profiler/importers/trace_importer.h"
#include "profiler/store/profile_db.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

using namespace npu::profiler;
namespace fs = std::filesystem;

static std::unique_ptr<ProfileDb> load(const fs::path& p, int n) {
    fs::path db = p;
    if (p.extension() != ".npudb") {
        db = fs::temp_directory_path() / ("npudb_report_" + std::to_string(n) + ".npudb");
        auto r = importTrace(p, db);
        if (!r) {
            std::fprintf(stderr, "import failed: %s\n", r.message().c_str());
            return nullptr;
        }
    }
    auto opened = ProfileDb::open(db);
    if (!opened) {
        std::fprintf(stderr, "%s\n", opened.message().c_str());
        return nullptr;
    }
    return std::move(*opened);
}

int main(int argc, char** argv) {
    std::vector<fs::path> inputs;
    fs::path chrome;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--chrome") && i + 1 < argc) chrome = argv[++i];
        else inputs.emplace_back(argv[i]);
    }
    if (inputs.empty() || inputs.size() > 2) {
        std::fprintf(stderr, "usage: %s A [B] [--chrome OUT.json]\n", argv[0]);
        return 2;
    }
    auto a = load(inputs[0], 0);
    auto b = inputs.size() > 1 ? load(inputs[1], 1) : nullptr;
    if (!a || (inputs.size() > 1 && !b)) return 1;
    if (!b) {  // per-analysis timings on stderr
        auto time = [](const char* what, auto&& f) {
            const auto t = std::chrono::steady_clock::now();
            f();
            std::fprintf(stderr, "  %-18s %.3f s\n", what,
                         std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count());
        };
        time("device metrics", [&] { (void)computeAllDeviceMetrics(*a); });
        time("step breakdown", [&] { (void)computeStepBreakdown(*a); });
        time("op statistics", [&] { (void)computeOpStatistics(*a); });
        time("memory peaks", [&] { (void)computeMemoryPeaks(*a); });
    }
    const auto t0 = std::chrono::steady_clock::now();
    const auto report = b ? compareReport(*a, *b) : runReport(*a);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%s\n", report.dump(2).c_str());
    std::fprintf(stderr, "report computed in %.3f s\n", s);
    if (!chrome.empty()) {
        const auto t1 = std::chrono::steady_clock::now();
        auto e = exportChromeTrace(*a, chrome);
        if (!e) {
            std::fprintf(stderr, "export failed: %s\n", e.message().c_str());
            return 1;
        }
        std::fprintf(stderr, "chrome export: %lld slices, %lld counters, %lld flows in %.3f s\n",
                     static_cast<long long>(e->slices), static_cast<long long>(e->counters),
                     static_cast<long long>(e->flows),
                     std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count());
    }
    return 0;
}
