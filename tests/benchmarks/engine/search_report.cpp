// The strategy search at cluster scale (issue 25), printed, not asserted: GPT-3 175B on
// 1,024 A100-80GB (128 DGX A100 nodes), the project DP 16 · TP 8 + SP · PP 8, global batch
// 1536 (Narayanan et al. 2021's setup), searched over every DP x TP x PP x micro-batch
// count x ZeRO stage x recomputation the search enumerates, on every core. Prints the
// candidates by status, the simulations, the wall time and the best strategy.
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
    return 0;
}
