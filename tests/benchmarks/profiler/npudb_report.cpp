// Prints the run report (or a comparison) of .npudb files or traces, and times it:
//   npudb_report RUN.npudb|TRACE.json[.gz] [B.npudb|TRACE]   [--chrome OUT.json]
// Traces are imported into a temporary .npudb first.
#include "profiler/analysis/run_report.h"
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
