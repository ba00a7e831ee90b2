#pragma once
// The strategy search (issue 11): for a cluster project, the parallel strategies that
// use exactly its devices — data_parallel x tensor_parallel x pipeline_stages, with
// micro_batches, zero_stage and activation_checkpointing — each checked by the cluster
// validation (validateParallel: heads, layers, batch divide), simulated by the cluster
// simulation (the cluster scheduler, engine/cluster/step_scheduler, by symmetry) and ranked by predicted tokens/s; the ones
// over device memory are kept in the list as not feasible, with the reason.
// (engine/planner/resource_estimator answers the other question, how many devices, by
// device counts; this keeps the project's devices and looks for the strategy.)
//
// Bounds (why the search finishes in seconds, see the .cpp for the order):
// - tensor_parallel stays inside a node (Megatron-LM's placement; across nodes its
//   per-layer all-reduces would run on the NICs);
// - micro_batches: every valid count, or at most maxMicroBatchChoices of them (the fewest,
//   the most and ones spread between them by factors of two);
// - with pipeline stages every schedule (1F1B, GPipe, interleaved with each chunk count),
//   with tensor parallelism sequence parallelism both ways (searchSchedules,
//   searchSequenceParallel); a shape's strategies share its stage runs (RankRunCache);
// - memory is monotone in ZeRO stage and recomputation: a strategy is not simulated when
//   one that saves more memory of the same shape is already over memory ("implied");
// - recomputation only adds work: when a strategy fits, the same one with more
//   recomputation is slower and not simulated ("dominated");
// - ZeRO-1 is not simulated when ZeRO-2 of the same shape fits: the cluster simulation
//   times them alike (same collectives, same sharded optimizer step) and -2 keeps less;
// - at most maxSimulations simulations (a guard), then the search stops (truncated; which
//   strategies were left then depends on the cores' timing).
// Shapes (tp, pp, micro-batches) are searched on every core; the playbooks that re-simulate
// a run with changed settings (OOM, communication advice) are off, they rank nothing.
// The project's own strategy is always simulated (flagged current) as the reference, past
// the cap too; a cancel stops everything. training.mode "ppo" is searched alike through its
// cluster simulation (engine/training/ppo_step: generation, scoring and training of the
// four models), without ZeRO-3 under pipeline stages (which that simulation refuses).

#include "base/expected.h"
#include "base/progress.h"
#include "engine/driver/simulate_project.h"
#include "engine/project/project.h"
#include "engine/project/parallel_settings.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace npu::engine {

struct StrategyConfig {
    int dataParallel = 1;
    int tensorParallel = 1;
    int pipelineStages = 1;
    int microBatches = 1;
    int zeroStage = 0;
    std::string activationCheckpointing = "none";  // none | selective | memory_bound | full
    bool sequenceParallel = false;                  // searched both ways when tensor_parallel > 1
    std::string schedule = "1f1b";                  // parallel.schedule: 1f1b | gpipe | interleaved
    int virtualStages = 1;                          // model chunks per stage (interleaved), else 1

    bool operator==(const StrategyConfig&) const = default;
    // "DP 2 · TP 4 · PP 2 · 8 micro-batches · interleaved ×3 · ZeRO-1 · selective recomputation"
    // (1F1B, the default schedule, is not named)
    std::string label() const;
    // "1F1B", "GPipe", "interleaved ×3": the schedule as the label, table and chart name it.
    std::string scheduleName() const;
    nlohmann::json toJson() const;  // project.json key names
};

enum class TrialStatus {
    fits,                 // simulated, within device memory: ranked
    over_memory,          // simulated, over device memory
    implied_over_memory,  // not simulated: a strategy saving more memory is over
    dominated,            // not simulated: the same with less recomputation fits and is faster
    invalid,              // refused by the cluster validation (reason)
    not_run,              // not simulated: cancelled or the simulation cap reached
};
std::string_view trialStatusName(TrialStatus s);

struct StrategyTrial {
    StrategyConfig config;
    TrialStatus status = TrialStatus::not_run;
    double step_time_ms = 0;
    double tokens_per_s = 0;
    double samples_per_s = 0;
    std::int64_t peak_bytes = 0;  // the largest per-device peak over the pipeline stages
    std::string reason;           // why not feasible / not simulated
    bool current = false;         // the project's own strategy (always simulated when valid)
    // Where the search met it: the shape's index and the position among its strategies (the
    // project's own, when no shape holds it, after every shape). Shards keep it so a merge
    // ranks exactly as a single search does (equal throughputs keep search order).
    int shape = -1, order = -1;

    bool feasible() const { return status == TrialStatus::fits; }
    bool simulated() const { return status == TrialStatus::fits || status == TrialStatus::over_memory; }
};

struct StrategySearchOptions {
    SimulationOptions simulation;  // device lookup; graphs are never kept
    int maxMicroBatchChoices = 0;  // 0: every valid count
    // Search the pipeline schedules (1F1B, GPipe, interleaved with every chunk count) and
    // sequence parallelism both ways; false: the project's schedule and sequence parallelism
    // only (the resource estimator's bounded search, whose figures were set that way).
    bool searchSchedules = true;
    bool searchSequenceParallel = true;
    // A guard, not a bound: the exhaustive search of GPT-3 175B on 1,024 devices simulates
    // about 6,200 strategies (tests/benchmarks/engine/search_report).
    int maxSimulations = 100000;
    // Search the shard-th (0-based) of shardCount disjoint parts: every shardCount-th shape
    // (tp, pp, micro-batches); the project's own strategy in the shard of its shape (or the
    // first). mergeStrategySearches puts the parts back together.
    int shardIndex = 0, shardCount = 1;
    // Cores to search on; 0: all. When maxSimulations is reached on several cores, which
    // strategies were left not_run depends on their timing.
    int threads = 0;
};

struct StrategySearchResult {
    int devices = 0;
    int devicesPerNode = 0;
    std::int64_t capacity_bytes = 0;
    // Feasible strategies first, fastest first; then the others in search order.
    std::vector<StrategyTrial> strategies;
    int feasibleCount = 0;
    int simulations = 0;
    bool cancelled = false;
    bool truncated = false;       // maxSimulations reached
    std::vector<std::string> bounds;  // how the search was bounded, with figures
    int shardIndex = 0, shardCount = 1;  // a shard's part (as the options), or 0 of 1

    const StrategyTrial* best() const { return feasibleCount > 0 ? &strategies.front() : nullptr; }
    const StrategyTrial* current() const;
    nlohmann::json toJson() const;
};

Expected<StrategySearchResult> searchStrategies(const Project& project, const StrategySearchOptions& options,
                                                const Progress& progress = {});

// Orders the strategies as the search reports them: the ones that fit first, by throughput
// (tokens/s, or samples/s for models without tokens; equal ones in search order), then the
// others in search order; sets feasibleCount.
void rankStrategies(StrategySearchResult& result);

// A search report (StrategySearchResult::toJson, `--search --report`) read back; errors name
// the file and the key.
Expected<StrategySearchResult> strategySearchFromJson(const nlohmann::json& report, const std::string& file);
// The shards of one search (`--search --shard K/N`) as the single search: each part once, of
// the same cluster; errors name the files.
Expected<StrategySearchResult> mergeStrategySearches(std::vector<StrategySearchResult> parts, const std::vector<std::string>& files);
// True when a report is a strategy search's (it has "strategies" and "devices").
bool isStrategySearchReport(const nlohmann::json& report);

// The Pareto front of a search: the strategies that fit and that no other fitting one beats
// on both tokens/s (higher) and peak memory per device (lower); indices into
// result.strategies, by ascending peak memory (so by ascending tokens/s too).
std::vector<std::size_t> paretoFront(const StrategySearchResult& result);

// The project.json edits that apply a strategy (JSON pointer, value): the parallel degrees,
// micro-batches, ZeRO stage, sequence parallelism and training.activation_checkpointing.
std::vector<std::pair<std::string, nlohmann::json>> strategyEdits(const StrategyConfig& config);
// The project with those edits (what the search simulates, and what Apply writes).
Project withStrategy(const Project& project, const StrategyConfig& config);

}  // namespace npu::engine
