#include "engine/planner/strategy_search.h"

// The search's results: labels, statuses, the report's JSON, the Pareto front and the
// project edits that apply a strategy (the search itself is strategy_search.cpp).

#include <algorithm>

namespace npu::engine {

std::string StrategyConfig::label() const {
    std::string s = "DP " + std::to_string(dataParallel) + " · TP " + std::to_string(tensorParallel) + (sequenceParallel ? "+SP" : "") +
                    " · PP " + std::to_string(pipelineStages) + " · " + std::to_string(microBatches) + " micro-batch" +
                    (microBatches == 1 ? "" : "es");
    if (zeroStage > 0) s += " · ZeRO-" + std::to_string(zeroStage);
    if (activationCheckpointing != "none") s += " · " + activationCheckpointing + " recomputation";
    return s;
}

nlohmann::json StrategyConfig::toJson() const {
    return {{"data_parallel", dataParallel},   {"tensor_parallel", tensorParallel},
            {"pipeline_stages", pipelineStages}, {"micro_batches", microBatches},
            {"zero_stage", zeroStage},           {"activation_checkpointing", activationCheckpointing},
            {"sequence_parallel", sequenceParallel}};
}

std::string_view trialStatusName(TrialStatus s) {
    switch (s) {
    case TrialStatus::fits: return "fits";
    case TrialStatus::over_memory: return "over_memory";
    case TrialStatus::implied_over_memory: return "implied_over_memory";
    case TrialStatus::dominated: return "dominated";
    case TrialStatus::invalid: return "invalid";
    case TrialStatus::not_run: return "not_run";
    }
    return "?";
}

nlohmann::json StrategySearchResult::toJson() const {
    nlohmann::json list = nlohmann::json::array();
    int rank = 0;
    const std::vector<std::size_t> front = paretoFront(*this);
    for (const StrategyTrial& t : strategies) {
        nlohmann::json j = {{"config", t.config.toJson()}, {"label", t.config.label()}, {"status", trialStatusName(t.status)},
                            {"feasible", t.feasible()}, {"simulated", t.simulated()}};
        if (t.feasible()) j["rank"] = ++rank;
        if (t.current) j["current"] = true;
        if (std::find(front.begin(), front.end(), static_cast<std::size_t>(&t - strategies.data())) != front.end()) j["pareto"] = true;
        if (t.simulated()) {
            j["step_time_ms"] = t.step_time_ms;
            j["tokens_per_s"] = t.tokens_per_s;
            j["samples_per_s"] = t.samples_per_s;
            j["peak_bytes"] = t.peak_bytes;
        }
        if (!t.reason.empty()) j["reason"] = t.reason;
        list.push_back(std::move(j));
    }
    return {{"devices", devices},       {"devices_per_node", devicesPerNode}, {"capacity_bytes", capacity_bytes},
            {"feasible", feasibleCount}, {"simulations", simulations},         {"cancelled", cancelled},
            {"truncated", truncated},    {"bounds", bounds},                   {"strategies", list}};
}

const StrategyTrial* StrategySearchResult::current() const {
    for (const StrategyTrial& t : strategies)
        if (t.current) return &t;
    return nullptr;
}

std::vector<std::size_t> paretoFront(const StrategySearchResult& result) {
    std::vector<std::size_t> fits;
    for (std::size_t i = 0; i < result.strategies.size(); ++i)
        if (result.strategies[i].feasible()) fits.push_back(i);
    const auto& s = result.strategies;
    // Least memory first, and of equal memory the fastest first: each one then is on the
    // front when it is faster than every one before it.
    std::stable_sort(fits.begin(), fits.end(), [&](std::size_t a, std::size_t b) {
        return s[a].peak_bytes != s[b].peak_bytes ? s[a].peak_bytes < s[b].peak_bytes : s[a].tokens_per_s > s[b].tokens_per_s;
    });
    std::vector<std::size_t> front;
    double best = -1;
    for (std::size_t i : fits)
        if (s[i].tokens_per_s > best) {
            front.push_back(i);
            best = s[i].tokens_per_s;
        }
    return front;
}

std::vector<std::pair<std::string, nlohmann::json>> strategyEdits(const StrategyConfig& c) {
    return {{"/parallel/data_parallel", c.dataParallel},
            {"/parallel/tensor_parallel", c.tensorParallel},
            {"/parallel/pipeline_stages", c.pipelineStages},
            {"/parallel/micro_batches", c.microBatches},
            {"/parallel/zero_stage", c.zeroStage},
            {"/parallel/sequence_parallel", c.sequenceParallel},
            {"/training/activation_checkpointing", c.activationCheckpointing}};
}

Project withStrategy(const Project& project, const StrategyConfig& config) {
    Project p = project;
    for (const auto& [pointer, value] : strategyEdits(config)) {
        static const std::string parallel = "/parallel/";
        if (pointer.rfind(parallel, 0) == 0) p.parallel[pointer.substr(parallel.size())] = value;
        else if (pointer == "/training/activation_checkpointing") p.training.activation_checkpointing = value.get<std::string>();
    }
    return p;
}

}  // namespace npu::engine
