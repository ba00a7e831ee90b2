#include "engine/planner/resource_estimator.h"

#include "engine/planner/strategy_search.h"

#include <cmath>
#include <numeric>

namespace npu::engine {

nlohmann::json ResourceEstimate::toJson() const {
    nlohmann::json j = {{"fits", fits},
                        {"devices", devices},
                        {"strategy", strategy},
                        {"bytes_per_device", bytes_per_device},
                        {"capacity_bytes", capacity_bytes},
                        {"step_time_ms", step_time_ms},
                        {"tokens_per_step", tokens_per_step},
                        {"seconds_for_tokens", seconds_for_tokens},
                        {"device_hours", device_hours},
                        {"assumptions", assumptions}};
    nlohmann::json t = nlohmann::json::array();
    for (const DeviceCountTrial& d : trials) {
        nlohmann::json row = {{"devices", d.devices}, {"fits", d.fits}, {"peak_bytes", d.peak_bytes}, {"step_time_ms", d.step_time_ms}};
        if (!d.strategy.empty()) row["strategy"] = d.strategy;
        if (d.fits) row["seconds_for_tokens"] = d.seconds_for_tokens, row["device_hours"] = d.device_hours;
        t.push_back(std::move(row));
    }
    j["trials"] = t;
    return j;
}

namespace {

std::int64_t peakOf(const SimulationResult& r) {
    return r.summary.memory.reserved_peak_bytes > 0 ? r.summary.memory.reserved_peak_bytes : r.summary.peak_bytes;
}

// The project on n devices: servers of the project's size (or 8), its links kept.
Project onDevices(const Project& project, int n) {
    Project p = project;
    const int perNodeWanted = project.cluster.is_object() ? project.cluster.value("devices_per_node", 8) : 8;
    const int perNode = std::max(1, std::min(n, perNodeWanted));
    nlohmann::json cluster = project.cluster.is_object() ? project.cluster : nlohmann::json::object();
    cluster["nodes"] = (n + perNode - 1) / perNode;
    cluster["devices_per_node"] = perNode;
    p.cluster = cluster;
    // The search's reference strategy: data parallel where the batch splits, else tensor
    // parallel inside a node, else pipeline stages.
    const std::int64_t dp = std::gcd<std::int64_t>(project.training.batch, n);
    const int rest = static_cast<int>(n / dp);
    const int tp = std::gcd(rest, perNode);
    p.parallel = {{"data_parallel", dp}, {"tensor_parallel", tp}, {"pipeline_stages", rest / tp},
                  {"micro_batches", std::max<std::int64_t>(rest / tp, 1)}};
    return p;
}

}  // namespace

Expected<ResourceEstimate> estimateResources(const Project& project, const EstimateRequest& request) {
    if (!(request.tokens > 0)) return makeError("--tokens: expected a positive number of training tokens");
    if (request.devicesMax < 1) return makeError("--devices-max: expected a positive integer");
    const TrainingSettings& t = project.training;
    if (t.seq <= 0) return makeError("training.seq: the estimate counts tokens and needs a sequence length");
    SimulationOptions options = request.simulation;
    options.keepGraphs = false;
    options.adviseOnOom = false;
    options.steps = 1;
    const bool ppo = t.mode.name == "ppo";

    ResourceEstimate e;
    std::int64_t sequenceTokens = ppo ? t.mode.ppo.prompt_tokens + t.mode.ppo.generate_tokens : t.seq;
    // training.batch sequences per optimizer step whatever the device count (a DPO pair is
    // 2 sequences), so the steps the tokens take are the same on every count.
    const double sequences = static_cast<double>(t.batch * t.gradient_accumulation) * (t.mode.name == "dpo" ? 2 : 1);
    const double tokensPerStep = sequences * static_cast<double>(sequenceTokens);
    const double stepsForTokens = std::ceil(request.tokens / tokensPerStep);
    // Powers of two: the sizes clusters are built in. One optimizer step of training.batch
    // sequences (the global batch) on each count; the first count where some strategy
    // fits is the answer, with the fastest strategy found there.
    for (int n = 1; n <= request.devicesMax; n *= 2) {
        DeviceCountTrial trial;
        trial.devices = n;
        if (n == 1) {
            Project p = project;
            p.cluster = nlohmann::json::object();
            p.parallel = nlohmann::json::object();
            auto r = simulateProject(p, options);
            if (!r) return r.error();
            trial = {1, r->summary.status == "ok", peakOf(*r), r->summary.step_time_ms, "single device"};
            e.capacity_bytes = r->summary.capacity_bytes;
        } else {
            StrategySearchOptions search;
            search.simulation = options;
            search.maxSimulations = request.maxSimulationsPerCount;
            // Under a cap that is reached, which strategies get simulated must not depend on
            // the cores' timing: one core, and the three micro-batch counts a shape had when
            // the estimator's figures were set (the fewest, the most, factors of two between).
            search.threads = 1;
            search.maxMicroBatchChoices = 3;
            search.searchSchedules = false;
            search.searchSequenceParallel = false;
            auto found = searchStrategies(onDevices(project, n), search);
            if (!found) return found.error();
            if (const StrategyTrial* best = found->best()) {
                trial = {n, true, best->peak_bytes, best->step_time_ms, best->config.label()};
            } else {
                // None fits: the one that came closest in memory, to show how far off it is.
                const StrategyTrial* closest = nullptr;
                for (const auto& s : found->strategies)
                    if (s.simulated() && (!closest || s.peak_bytes < closest->peak_bytes)) closest = &s;
                if (closest) trial = {n, false, closest->peak_bytes, closest->step_time_ms, closest->config.label()};
            }
            e.capacity_bytes = found->capacity_bytes;
        }
        if (trial.fits) {
            trial.seconds_for_tokens = stepsForTokens * trial.step_time_ms / 1e3;
            trial.device_hours = trial.seconds_for_tokens * n / 3600;
        }
        e.trials.push_back(trial);
        if (!trial.fits) continue;
        if (!e.fits) {  // the fewest devices that fit are the answer
            e.fits = true;
            e.devices = n;
            e.strategy = trial.strategy;
            e.bytes_per_device = trial.peak_bytes;
            e.step_time_ms = trial.step_time_ms;
            e.tokens_per_step = tokensPerStep;
            e.seconds_for_tokens = trial.seconds_for_tokens;
            e.device_hours = trial.device_hours;
        }
        if (!request.everyCount) break;
    }
    e.assumptions = {
        "training.mode \"" + t.mode.name + "\", precision " + t.precision + ", global batch " + std::to_string(t.batch) + " x " +
            std::to_string(sequenceTokens) + (ppo ? " (prompt + generated)" : "") + " tokens per optimizer step, gradient accumulation " +
            std::to_string(t.gradient_accumulation) + ", on every device count",
        "device counts tried: powers of two up to " + std::to_string(request.devicesMax) + ", in servers of " +
            std::to_string(project.cluster.is_object() ? project.cluster.value("devices_per_node", 8) : 8) +
            " with the project's links (or the device profile's)",
        "more than one device: the strategy search (DP/TP/PP, micro-batches, ZeRO, recomputation) on that count, at most " +
                  std::to_string(request.maxSimulationsPerCount) + " simulations each, every one a cluster simulation with its collectives; "
                  "the fastest strategy that fits is reported" +
                  (ppo ? std::string(" (PPO: generation, scoring and training of the four models; pipeline stages as NeMo-Aligner runs them)") : std::string()),
        "time for the tokens = ceil(tokens / tokens per step) steps at the simulated step time; no data loading, "
        "evaluation or checkpoint time",
    };
    return e;
}

}  // namespace npu::engine
