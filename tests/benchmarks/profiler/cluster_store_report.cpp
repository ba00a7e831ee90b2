// Cluster runs at scale, whole process and by phase (issue 25's targets: <= 1.5 s and
// <= 64 MiB of .npudb each), printed, not asserted:
//   GPT-3 175B, TP 8 x PP 8 on 64 A100 (Korthikanti et al. 2022 Table 4's "present work"
//   row: batch 64, sequence parallelism, selective recomputation);
//   GPT-3 175B on 1,024 A100: DP 16 x TP 8 x PP 8, batch 1536 (Narayanan et al. 2021).
// For each: the phases in this process (simulate, write the .npudb, the report's
// operator statistics), then `npustudio --batch` as a child process (wall time, peak RSS)
// and the file it wrote, with its ranks stored and aliased (rank classes).
#include "engine/driver/simulate_project.h"
#include "profiler/analysis/op_statistics.h"
#include "profiler/store/profile_db.h"
#include "profiler/store/simulation_writer.h"
#include "tests/benchmarks/engine/korthikanti_setups.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>

using namespace npu;
namespace fs = std::filesystem;

namespace {

double since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

void report(const char* title, engine::Project p, const fs::path& dir) {
    std::printf("== %s\n", title);
    fs::create_directories(dir);
    auto t = std::chrono::steady_clock::now();
    auto r = engine::simulateProject(p, {});
    if (!r) {
        std::printf("  simulation failed: %s\n", r.message().c_str());
        return;
    }
    std::printf("  simulate            %6.2f s  (%zu rank devices in the result)\n", since(t), r->devices.size());
    const fs::path db = dir / "in-process.npudb";
    t = std::chrono::steady_clock::now();
    if (auto s = profiler::writeSimulation(*r, {p.name, "", "bench"}, db); !s) {
        std::printf("  write failed: %s\n", s.message().c_str());
        return;
    }
    std::printf("  write .npudb        %6.2f s  %6.1f MiB\n", since(t), fs::file_size(db) / 1048576.0);
    t = std::chrono::steady_clock::now();
    auto opened = profiler::ProfileDb::open(db);
    if (!opened) return;
    profiler::OpStatOptions o;
    o.grouping = profiler::OpGrouping::byType;
    const auto stats = profiler::computeOpStatistics(**opened, o);
    std::printf("  operator statistics %6.2f s  (%zu op types; %zu aliased ranks)\n", since(t), stats.rows.size(),
                (*opened)->rankClasses().ranks.size());
    opened->reset();

    // The whole process, as a user runs it.
    p.file = dir / "project.json";
    if (auto s = engine::saveProject(p, p.file); !s) {
        std::printf("  cannot save the project: %s\n", s.message().c_str());
        return;
    }
    fs::remove_all(dir / "runs");
    std::fflush(stdout);  // the child must not print this process's buffer again
    t = std::chrono::steady_clock::now();
    const pid_t child = fork();
    if (child == 0) {
        if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr)) _exit(126);
        execl(NPUSTUDIO_EXE, NPUSTUDIO_EXE, "--batch", p.file.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    int status = 0;
    rusage usage{};
    wait4(child, &status, 0, &usage);
    const double wall = since(t);
    std::uintmax_t bytes = 0;
    for (const auto& e : fs::directory_iterator(dir / "runs"))
        if (e.path().extension() == ".npudb") bytes = e.file_size();
    std::printf("  npustudio --batch   %6.2f s  peak RSS %.0f MiB, .npudb %.1f MiB (exit %d)\n", wall, usage.ru_maxrss / 1024.0,
                bytes / 1048576.0, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

}  // namespace

int main(int argc, char** argv) {
    // --keep: leave the projects and databases in the temporary folder (to profile them).
    const bool keep = argc > 1 && std::string(argv[1]) == "--keep";
    const fs::path dir = fs::temp_directory_path() / "npu_cluster_store_report";
    fs::remove_all(dir);
    report("GPT-3 175B, TP 8 x PP 8 on 64 x a100-80gb (batch 64, SP + selective)",
           korthikanti::gptProject("gpt3-175b-64", 96, 12288, 96, 8, 8, 1, 64, "selective", true), dir / "64");
    report("GPT-3 175B, DP 16 x TP 8 x PP 8 on 1024 x a100-80gb (batch 1536, SP + selective)",
           korthikanti::gptProject("gpt3-175b-1024", 96, 12288, 96, 8, 8, 16, 1536, "selective", true), dir / "1024");
    if (keep)
        std::printf("kept in %s\n", dir.c_str());
    else
        fs::remove_all(dir);
    return 0;
}
