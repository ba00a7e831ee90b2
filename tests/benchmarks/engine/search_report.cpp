// The strategy search at cluster scale (issue 25), printed, not asserted: GPT-3 175B on
// 1,024 A100-80GB (128 DGX A100 nodes), the project DP 16 · TP 8 + SP · PP 8, global batch
// 1536 (Narayanan et al. 2021's setup), searched over every DP x TP x PP x micro-batch
// count x schedule (1F1B, GPipe, interleaved x chunks) x sequence parallelism x ZeRO stage
// x recomputation, on every core. Prints the candidates by status, the simulations, the
// wall time and the best strategy, against issue 25's targets: >= 10,000 candidates,
// >= 2,000 simulated in full, none not_run, <= 60 s.
#include "engine/planner/strategy_search.h"
#include "tests/benchmarks/engine/korthikanti_setups.h"

#include <chrono>
#include <cstdio>
#include <map>
#include <thread>

using namespace npu;

int main() {
    engine::Project p = korthikanti::gptProject("gpt3-175b-1024", 96, 12288, 96, 8, 8, 16, 1536, "selective", true);
    engine::StrategySearchOptions options;
    const auto t0 = std::chrono::steady_clock::now();
    auto r = engine::searchStrategies(p, options);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!r) {
        std::fprintf(stderr, "search failed: %s\n", r.message().c_str());
        return 1;
    }
    std::map<std::string, int> byStatus;
    for (const auto& t : r->strategies) ++byStatus[std::string(engine::trialStatusName(t.status))];
    std::printf("== strategy search: GPT-3 175B, %d x a100-80gb (%u cores)\n", r->devices, std::thread::hardware_concurrency());
    std::printf("candidates %zu, simulated %d, wall %.1f s (%.0f ms a simulation and core)\n", r->strategies.size(), r->simulations, seconds,
                r->simulations > 0 ? 1e3 * seconds * std::thread::hardware_concurrency() / r->simulations : 0.0);
    for (const auto& [status, n] : byStatus) std::printf("  %-20s %d\n", status.c_str(), n);
    if (const auto* best = r->best()) std::printf("best: %s, %.0f tokens/s, step %.1f ms\n", best->config.label().c_str(), best->tokens_per_s, best->step_time_ms);
    std::printf("truncated %s; not_run %d\n", r->truncated ? "yes" : "no", byStatus["not_run"]);
    std::map<std::string, int> bySchedule;
    for (const auto& t : r->strategies)
        if (t.simulated()) ++bySchedule[t.config.schedule + (t.config.sequenceParallel ? " +SP" : "")];
    std::printf("simulated by schedule:");
    for (const auto& [schedule, n] : bySchedule) std::printf(" %s %d;", schedule.c_str(), n);
    std::printf("\ntargets: candidates >= 10000 %s, simulated >= 2000 %s, not_run 0 %s, wall <= 60 s %s\n",
                r->strategies.size() >= 10000 ? "met" : "MISSED", r->simulations >= 2000 ? "met" : "MISSED",
                byStatus["not_run"] == 0 ? "met" : "MISSED", seconds <= 60 ? "met" : "MISSED");
    return 0;
}
