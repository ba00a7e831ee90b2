#include "engine/planner/strategy_search.h"
#include "engine/planner/strategy_space.h"

#include "base/heap_tuning.h"

#include "engine/cluster/cluster_setup.h"
#include "engine/cost/device_profile.h"
#include "engine/parallel/cluster_spec.h"
#include "engine/parallel/parallel_config.h"
#include "engine/project/parallel_settings.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <iterator>
#include <limits>
#include <mutex>
#include <set>
#include <thread>

namespace npu::engine {

namespace {

// In the order they save memory (selective: Megatron's, the attention core only; engine/passes/activation_checkpointing_pass).
constexpr std::array<const char*, 4> kCheckpointing{"none", "selective", "memory_bound", "full"};

std::string searchedFile(const Project& p) { return p.file.empty() ? p.name : p.file.string(); }

}  // namespace

Expected<StrategySearchResult> searchStrategies(const Project& project, const StrategySearchOptions& options, const Progress& progress) {
    const std::string file = searchedFile(project);
    if (!isClusterProject(project))
        return makeError(file + ": the strategy search needs a cluster: add a \"cluster\" block (nodes, devices_per_node) or "
                                "parallel degrees (docs/project-format.md, \"Cluster runs\")");
    auto current = parallelConfigOf(project);
    if (!current) return current.error();
    // With the device profile, so missing links (inter-node figures) fail here, once.
    auto device = loadDeviceProfile(project.device, options.simulation.devicesDir.empty() ? defaultDevicesDir() : options.simulation.devicesDir);
    if (!device) return makeError(file + ": " + device.message());
    auto cluster = parseClusterSpec(clusterDocument(project, *current), &*device, file);
    if (!cluster) return cluster.error();

    // Thousands of simulations on every core allocate and free the same blocks: keep them
    // (base/heap_tuning: the page faults of handing them back took 40% of the time).
    keepFreedHeapMemory();

    StrategySearchResult result;
    result.devices = cluster->devices();
    result.devicesPerNode = cluster->devicesPerNode;
    SimulationOptions sim = options.simulation;
    sim.keepGraphs = false;
    sim.adviseOnOom = false;
    // The playbooks re-simulate the candidate with changed settings: advice for the run a
    // user opens, not a figure the ranking reads.
    sim.adviseOnCommunication = false;
    sim.steps = 1;
    sim.rankTimelines = false;  // the ranking reads figures, not timelines

    const bool ppo = project.training.mode.name == "ppo";
    const std::int64_t layers = project.model.config.value("layers", std::int64_t{1});
    // The shapes: (tp, pp, micro-batches), dp following from the device count. Each is
    // searched over its schedules and, with tensor parallelism, with and without sequence
    // parallelism (the project's own setting first); those strategies share the shape's
    // single-device stage runs (a stage's run depends on neither).
    struct Shape { int tp, pp, dp, m; };
    // The project's own schedule (what the bounded search keeps).
    const std::pair<std::string, int> projectSchedule{std::string(pipelineScheduleName(current->schedule)),
                                                      current->schedule == PipelineSchedule::interleaved ? current->virtualStages : 1};
    std::vector<Shape> shapes;
    int thinned = 0;
    for (int tp : divisorsOf(result.devices)) {
        if (tp > cluster->devicesPerNode) continue;
        for (int pp : divisorsOf(result.devices / tp)) {
            const int dp = result.devices / tp / pp;
            if (project.training.batch % dp != 0) {
                shapes.push_back({tp, pp, dp, 1});  // refused by the validation, with its reason
                continue;
            }
            const std::int64_t perPipeline = project.training.batch / dp;
            // PPO without pipeline stages runs each rank's rollout as one batch: micro_batches
            // changes nothing there (engine/training/ppo_step), one count suffices.
            const int least = options.searchSchedules || projectSchedule.first == "gpipe" ? 1 : pp;
            const auto ms = ppo && pp == 1 ? std::vector<int>{1} : microBatchChoices(perPipeline, least, options.maxMicroBatchChoices > 0 ? options.maxMicroBatchChoices : std::numeric_limits<int>::max());
            const auto valid = microBatchChoices(perPipeline, least, std::numeric_limits<int>::max());
            thinned += static_cast<int>(valid.size() - ms.size());
            if (ms.empty()) shapes.push_back({tp, pp, dp, pp});  // refused by the validation, with its reason
            for (int m : ms) shapes.push_back({tp, pp, dp, m});
        }
    }
    result.bounds = {
        std::to_string(result.devices) + " devices (" + std::to_string(cluster->nodes) + " x " + std::to_string(cluster->devicesPerNode) +
            "): tensor_parallel up to " + std::to_string(cluster->devicesPerNode) + " (inside a node)",
        options.maxMicroBatchChoices > 0
            ? "micro_batches: at most " + std::to_string(options.maxMicroBatchChoices) + " of the valid counts per shape (the fewest, the most, "
                  "factors of two between); " + std::to_string(std::max(0, thinned)) + " counts not tried"
            : std::string("micro_batches: every count that splits the batch evenly (below one per stage: GPipe only)"),
        options.searchSchedules ? std::string("schedules with pipeline stages: 1F1B, GPipe and interleaved with every chunk count that splits "
                                              "a stage's layers (micro-batches a multiple of the stages)")
                                : std::string("schedule as in the project"),
        options.searchSequenceParallel ? "sequence parallelism on and off with tensor parallelism" : "sequence parallelism as in the project",
        "communication settings as in the project",
        "not simulated: strategies implied over memory by one saving more memory (ZeRO stage, recomputation), those with more "
            "recomputation than one of the same shape that fits (slower), ZeRO-1 when ZeRO-2 fits (same time, less memory), and GPipe when "
            "1F1B of the same strategy is over memory (GPipe holds every micro-batch in flight)",
        "at most " + std::to_string(options.maxSimulations) + " simulations, plus the project's own strategy"};

    // The cluster validation's verdict on a strategy ("" when valid), one line per problem.
    auto validationProblems = [&](const StrategyConfig& c) {
        const Project candidate = withStrategy(project, c);
        auto cfg = parallelConfigOf(candidate);
        std::string all;
        for (const auto& p : cfg ? validateParallel(*cfg, *cluster, candidate) : std::vector<std::string>{cfg.message()})
            all += (all.empty() ? "" : "; ") + p;
        return all;
    };
    // Shapes are searched on every core (each shape's pruning reads only its own trials);
    // what they share is counted atomically, progress is reported one call at a time.
    std::atomic<bool> stop{false}, cancelled{false}, truncated{false};
    std::atomic<int> simulations{0}, started{0};
    std::atomic<std::size_t> shapesDone{0};  // the progress fraction: shapes finished on any core
    std::atomic<std::int64_t> capacity{0};
    std::mutex progressMutex;
    auto report = [&](double fraction, const std::string& what) {
        const std::lock_guard<std::mutex> lock(progressMutex);
        progress(fraction, what);
    };
    // Simulates t's strategy into t; false when there is no time to rank (an error, which
    // makes t invalid, or a cancel).
    auto simulateTrial = [&](StrategyTrial& t, const SimulationOptions& with) {
        Progress sub;
        sub.cancel = progress.cancel;
        auto run = simulateProject(withStrategy(project, t.config), with, sub);
        ++simulations;
        if (!run) {
            if (run.cancelled()) {
                cancelled = stop = true;
                t.status = TrialStatus::not_run;
                t.reason = "cancelled";
            } else {
                t.status = TrialStatus::invalid;
                t.reason = run.message();
            }
            return false;
        }
        const SimSummary& s = run->summary;
        capacity = s.capacity_bytes;
        t.step_time_ms = s.step_time_ms;
        t.tokens_per_s = s.tokens_per_s;
        t.samples_per_s = s.samples_per_s;
        t.peak_bytes = std::max(s.peak_bytes, s.memory.reserved_peak_bytes);
        for (const DeviceResult& d : run->devices) t.peak_bytes = std::max(t.peak_bytes, d.peak_bytes);
        t.status = s.status == "ok" ? TrialStatus::fits : TrialStatus::over_memory;
        t.reason = s.status == "ok" ? "" : s.message.empty() ? "over device memory" : s.message;
        return true;
    };
    // One schedule and sequence-parallel setting of a shape (base), its ZeRO stages and
    // recomputation levels in search order, into `trials`.
    // The labels of a shape's 1F1B strategies found over memory: GPipe holds every micro-batch's activations until its backward passes,
    // 1F1B at most one per stage ahead, so the same strategy under GPipe is over memory too
    // (test_strategy_search::gpipeNeverHoldsLessThanOneFOneB holds the simulation to it).
    using OverUnder1F1B = std::set<std::string>;
    auto searchVariant = [&](const StrategyConfig& base, const Shape& sh, std::vector<StrategyTrial>& trials, const SimulationOptions& with,
                             OverUnder1F1B& over1f1b) {
        // Validation does not depend on recomputation, nor on ZeRO bar dp == 1 and the stages
        // a framework refuses with pipelines (below): once per shape.
        if (std::string problems = validationProblems(base); !problems.empty()) {
            StrategyTrial t;
            t.config = base;
            t.status = TrialStatus::invalid;
            t.reason = std::move(problems);
            trials.push_back(std::move(t));
            return;
        }
        // ZeRO from the most sharded down; a recomputation level over memory at stage z is
        // over memory at every lower stage too, so the next stage starts above it.
        std::vector<int> zeros = sh.dp > 1 ? std::vector<int>{3, 2, 1, 0} : std::vector<int>{0};
        // PPO with pipeline stages runs as NeMo-Aligner on Megatron-LM, which shards no
        // weights (engine/training/ppo_step refuses ZeRO-3 there, with the reason).
        if (ppo && sh.pp > 1 && sh.dp > 1) {
            StrategyConfig c = base;
            c.zeroStage = 3;
            StrategyTrial t;
            t.config = c;
            t.status = TrialStatus::invalid;
            t.reason = "training.mode \"ppo\" with pipeline stages: Megatron-LM's distributed optimizer shards optimizer states and gradients, not weights (ZeRO-3)";
            trials.push_back(std::move(t));
            zeros.erase(zeros.begin());
        }
        // Stages the framework refuses for this shape (DeepSpeed's pipeline engine: ZeRO 0/1
        // only) are listed invalid, with the reason, not simulated.
        for (auto it = zeros.begin(); it != zeros.end();) {
            StrategyConfig c = base;
            c.zeroStage = *it;
            std::string problems = *it >= 2 ? validationProblems(c) : std::string();
            if (problems.empty()) {
                ++it;
                continue;
            }
            StrategyTrial t;
            t.config = c;
            t.status = TrialStatus::invalid;
            t.reason = std::move(problems);
            trials.push_back(std::move(t));
            it = zeros.erase(it);
        }
        std::size_t minLevel = 0;
        std::string overAt;  // the strategy that implies the next ones over memory
        std::string zero2Fits;  // the ZeRO-2 strategy of this shape that fits, if any
        for (int z : zeros) {
            for (std::size_t level = 0; level < kCheckpointing.size(); ++level) {
                StrategyConfig c = base;
                c.zeroStage = z;
                c.activationCheckpointing = kCheckpointing[level];
                StrategyTrial t;
                t.config = c;
                if (level < minLevel) {
                    t.status = TrialStatus::implied_over_memory;
                    t.reason = "over memory like " + overAt + ", which saves more";
                    trials.push_back(std::move(t));
                    continue;
                }
                if (c.schedule == "gpipe") {
                    StrategyConfig under1f1b = c;
                    under1f1b.schedule = "1f1b";
                    if (over1f1b.count(under1f1b.label())) {
                        t.status = TrialStatus::implied_over_memory;
                        t.reason = "over memory like " + under1f1b.label() + " (1F1B), which holds fewer micro-batches in flight";
                        trials.push_back(std::move(t));
                        overAt = c.label();
                        minLevel = level + 1;
                        continue;
                    }
                }
                // ZeRO-1 and -2 move the same bytes and shard the optimizer step alike
                // (rank_timeline): same time, and -2 keeps less. Once -2 fits, -1 cannot win.
                if (z == 1 && !zero2Fits.empty()) {
                    t.status = TrialStatus::dominated;
                    t.reason = "not faster than " + zero2Fits + ", which fits (ZeRO-2 takes ZeRO-1's time and less memory)";
                    trials.push_back(std::move(t));
                    continue;
                }
                // A slot under the cap is claimed before simulating, so the cap holds on every core.
                if (progress.cancelled()) cancelled = true;
                if (stop || cancelled || started.fetch_add(1) >= options.maxSimulations) {
                    if (!cancelled) truncated = true;
                    stop = true;
                    t.reason = cancelled ? "cancelled" : "simulation cap reached";
                    trials.push_back(std::move(t));
                    continue;
                }
                report((static_cast<double>(shapesDone) + 0.5) / static_cast<double>(shapes.size()), "simulating " + c.label());
                if (!simulateTrial(t, with)) {
                    trials.push_back(std::move(t));
                    continue;
                }
                if (t.feasible()) {
                    if (z == 2) zero2Fits = c.label();
                    trials.push_back(std::move(t));
                    // More recomputation: same memory knobs otherwise, only more work.
                    for (std::size_t more = level + 1; more < kCheckpointing.size(); ++more) {
                        StrategyConfig d = c;
                        d.activationCheckpointing = kCheckpointing[more];
                        StrategyTrial slower;
                        slower.config = d;
                        slower.status = TrialStatus::dominated;
                        slower.reason = "slower than " + c.label() + ", which fits";
                        trials.push_back(std::move(slower));
                    }
                    break;
                }
                overAt = c.label();
                minLevel = level + 1;
                if (c.schedule == "1f1b" && c.pipelineStages > 1) over1f1b.insert(c.label());
                trials.push_back(std::move(t));
            }
        }
    };
    // One shape's strategies, in search order, into `trials`.
    auto searchShape = [&](std::size_t si, std::vector<StrategyTrial>& trials) {
        const Shape& sh = shapes[si];
        // The shape's stage runs, kept while its strategies are searched on this core.
        RankRunCache stageRuns;
        SimulationOptions shapeSim = sim;
        shapeSim.rankRuns = &stageRuns;
        std::vector<bool> sequenceParallel{current->sequenceParallel && sh.tp > 1};
        if (sh.tp > 1 && options.searchSequenceParallel) sequenceParallel.push_back(!current->sequenceParallel);
        OverUnder1F1B over1f1b;
        const auto schedules = !options.searchSchedules ? std::vector<std::pair<std::string, int>>{sh.pp > 1 ? projectSchedule : std::pair<std::string, int>{"1f1b", 1}}
                                                        : schedulesOf(sh.pp, sh.m, layers, ppo);
        for (const auto& [schedule, chunks] : schedules)
            for (bool sp : sequenceParallel) {
                StrategyConfig base;
                base.dataParallel = sh.dp;
                base.tensorParallel = sh.tp;
                base.pipelineStages = sh.pp;
                base.microBatches = sh.m;
                base.sequenceParallel = sp;
                base.schedule = schedule;
                base.virtualStages = chunks;
                searchVariant(base, sh, trials, shapeSim, over1f1b);
            }
    };
    std::vector<std::vector<StrategyTrial>> perShape(shapes.size());
    const int shardCount = std::max(1, options.shardCount);
    const int shardIndex = std::clamp(options.shardIndex, 0, shardCount - 1);
    const auto inShard = [&](std::size_t si) { return static_cast<int>(si % static_cast<std::size_t>(shardCount)) == shardIndex; };
    std::atomic<std::size_t> nextShape{0};
    std::string failure;  // the first exception a worker met (a bug: simulations report errors as values)
    auto worker = [&] {
        try {
            for (std::size_t si; (si = nextShape++) < shapes.size(); ++shapesDone) {
                if (!inShard(si)) continue;
                searchShape(si, perShape[si]);
                for (std::size_t k = 0; k < perShape[si].size(); ++k) {
                    perShape[si][k].shape = static_cast<int>(si);
                    perShape[si][k].order = static_cast<int>(k);
                }
            }
        } catch (const std::exception& e) {
            const std::lock_guard<std::mutex> lock(progressMutex);
            if (failure.empty()) failure = e.what();
            stop = true;
        }
    };
    const unsigned cores = options.threads > 0 ? static_cast<unsigned>(options.threads) : std::max(1u, std::thread::hardware_concurrency());
    const std::size_t threads = std::min<std::size_t>(shapes.size(), cores);
    std::vector<std::thread> pool;
    for (std::size_t i = 1; i < threads; ++i) pool.emplace_back(worker);
    worker();
    for (std::thread& t : pool) t.join();
    if (!failure.empty()) return makeError(file + ": the strategy search failed: " + failure);
    std::vector<StrategyTrial> trials;
    for (auto& shape : perShape) std::move(shape.begin(), shape.end(), std::back_inserter(trials));

    // The project's own strategy is the reference: simulated even when the bounds skipped
    // it (another micro-batch count, dominated), so the ranking says where it stands.
    StrategyConfig own;
    own.dataParallel = current->dataParallel;
    own.tensorParallel = current->tensorParallel;
    own.pipelineStages = current->pipelineStages;
    own.microBatches = current->microBatches;
    own.zeroStage = current->zeroStage;
    own.activationCheckpointing = project.training.activation_checkpointing;
    own.sequenceParallel = current->sequenceParallel;
    own.schedule = current->pipelineStages > 1 ? projectSchedule.first : "1f1b";
    own.virtualStages = current->pipelineStages > 1 ? projectSchedule.second : 1;
    // The shard of the own strategy's shape holds it (the first shard when no shape does).
    std::size_t ownShape = 0;
    for (std::size_t si = 0; si < shapes.size(); ++si)
        if (shapes[si].tp == own.tensorParallel && shapes[si].pp == own.pipelineStages && shapes[si].dp == own.dataParallel &&
            shapes[si].m == own.microBatches) {
            ownShape = si;
            break;
        }
    if (inShard(ownShape)) {
        auto it = std::find_if(trials.begin(), trials.end(), [&](const StrategyTrial& t) { return t.config == own; });
        if (it == trials.end()) {
            StrategyTrial t;
            t.config = own;
            t.reason = "not among the strategies searched";
            t.shape = static_cast<int>(shapes.size());
            t.order = 0;
            it = trials.insert(trials.end(), std::move(t));
        }
        it->current = true;
        // Past the simulation cap too (one more), not after a cancel.
        if (std::string problems = validationProblems(own); !problems.empty()) {
            it->status = TrialStatus::invalid;
            it->reason = std::move(problems);
        } else if (!it->simulated() && !progress.cancelled() && !cancelled) {
            progress(0.99, "simulating the project's own strategy");
            simulateTrial(*it, sim);
        }
    }

    result.simulations = simulations;
    result.capacity_bytes = capacity;
    result.cancelled = cancelled;
    result.truncated = truncated && !cancelled;
    result.shardIndex = shardIndex;
    result.shardCount = shardCount;
    result.strategies = std::move(trials);
    rankStrategies(result);
    progress(1.0, result.cancelled ? "search cancelled" : "search done");
    return result;
}

}  // namespace npu::engine
