#include "engine/planner/strategy_search.h"

// The search's results: labels, statuses, the report's JSON, the Pareto front and the
// project edits that apply a strategy (the search itself is strategy_search.cpp).

#include <algorithm>
#include <iterator>

namespace npu::engine {

std::string StrategyConfig::label() const {
    std::string s = "DP " + std::to_string(dataParallel) + " · TP " + std::to_string(tensorParallel) + (sequenceParallel ? "+SP" : "") +
                    " · PP " + std::to_string(pipelineStages) + " · " + std::to_string(microBatches) + " micro-batch" +
                    (microBatches == 1 ? "" : "es");
    if (schedule == "gpipe" || schedule == "interleaved") s += " · " + scheduleName();  // 1F1B is not named
    if (zeroStage > 0) s += " · ZeRO-" + std::to_string(zeroStage);
    if (activationCheckpointing != "none") s += " · " + activationCheckpointing + " recomputation";
    return s;
}

std::string StrategyConfig::scheduleName() const {
    if (schedule == "gpipe") return "GPipe";
    if (schedule == "interleaved") return "interleaved ×" + std::to_string(virtualStages);
    return "1F1B";
}

nlohmann::json StrategyConfig::toJson() const {
    return {{"data_parallel", dataParallel},   {"tensor_parallel", tensorParallel},
            {"pipeline_stages", pipelineStages}, {"micro_batches", microBatches},
            {"zero_stage", zeroStage},           {"activation_checkpointing", activationCheckpointing},
            {"sequence_parallel", sequenceParallel}, {"schedule", schedule},
            {"virtual_stages", virtualStages}};
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
        j["search_order"] = {t.shape, t.order};
        list.push_back(std::move(j));
    }
    nlohmann::json out = {{"devices", devices},       {"devices_per_node", devicesPerNode}, {"capacity_bytes", capacity_bytes},
                          {"feasible", feasibleCount}, {"simulations", simulations},         {"cancelled", cancelled},
                          {"truncated", truncated},    {"bounds", bounds},                   {"strategies", list}};
    if (shardCount > 1) out["shard"] = {{"index", shardIndex + 1}, {"count", shardCount}};
    return out;
}

void rankStrategies(StrategySearchResult& result) {
    auto& s = result.strategies;
    std::stable_sort(s.begin(), s.end(), [](const StrategyTrial& a, const StrategyTrial& b) {
        return a.shape != b.shape ? a.shape < b.shape : a.order < b.order;
    });
    std::stable_partition(s.begin(), s.end(), [](const StrategyTrial& t) { return t.feasible(); });
    result.feasibleCount = static_cast<int>(std::count_if(s.begin(), s.end(), [](const StrategyTrial& t) { return t.feasible(); }));
    std::stable_sort(s.begin(), s.begin() + result.feasibleCount, [](const StrategyTrial& a, const StrategyTrial& b) {
        return a.tokens_per_s != b.tokens_per_s ? a.tokens_per_s > b.tokens_per_s : a.samples_per_s > b.samples_per_s;
    });
}

bool isStrategySearchReport(const nlohmann::json& report) {
    return report.is_object() && report.contains("strategies") && report.contains("devices");
}

namespace {

Expected<TrialStatus> statusNamed(const std::string& name) {
    for (TrialStatus t : {TrialStatus::fits, TrialStatus::over_memory, TrialStatus::implied_over_memory, TrialStatus::dominated,
                          TrialStatus::invalid, TrialStatus::not_run})
        if (trialStatusName(t) == name) return t;
    return makeError("status: expected fits, over_memory, implied_over_memory, dominated, invalid or not_run, got \"" + name + "\"");
}

}  // namespace

Expected<StrategySearchResult> strategySearchFromJson(const nlohmann::json& report, const std::string& file) {
    if (!isStrategySearchReport(report)) return makeError(file + ": not a strategy search report (expected \"devices\" and \"strategies\")");
    StrategySearchResult r;
    std::string where = "the report";
    try {
        r.devices = report.at("devices").get<int>();
        r.devicesPerNode = report.value("devices_per_node", 0);
        r.capacity_bytes = report.value("capacity_bytes", std::int64_t{0});
        r.simulations = report.value("simulations", 0);
        r.cancelled = report.value("cancelled", false);
        r.truncated = report.value("truncated", false);
        r.bounds = report.value("bounds", std::vector<std::string>{});
        if (report.contains("shard")) {
            where = "shard";
            r.shardIndex = report.at("shard").at("index").get<int>() - 1;
            r.shardCount = report.at("shard").at("count").get<int>();
        }
        const auto& list = report.at("strategies");
        for (std::size_t i = 0; i < list.size(); ++i) {
            where = "strategies[" + std::to_string(i) + "]";
            const nlohmann::json& j = list.at(i);
            const nlohmann::json& c = j.at("config");
            StrategyTrial t;
            t.config.dataParallel = c.at("data_parallel").get<int>();
            t.config.tensorParallel = c.at("tensor_parallel").get<int>();
            t.config.pipelineStages = c.at("pipeline_stages").get<int>();
            t.config.microBatches = c.at("micro_batches").get<int>();
            t.config.zeroStage = c.at("zero_stage").get<int>();
            t.config.activationCheckpointing = c.at("activation_checkpointing").get<std::string>();
            t.config.sequenceParallel = c.value("sequence_parallel", false);
            t.config.schedule = c.value("schedule", std::string("1f1b"));
            t.config.virtualStages = c.value("virtual_stages", 1);
            auto status = statusNamed(j.at("status").get<std::string>());
            if (!status) return makeError(file + ": " + where + "." + status.message());
            t.status = *status;
            t.step_time_ms = j.value("step_time_ms", 0.0);
            t.tokens_per_s = j.value("tokens_per_s", 0.0);
            t.samples_per_s = j.value("samples_per_s", 0.0);
            t.peak_bytes = j.value("peak_bytes", std::int64_t{0});
            t.reason = j.value("reason", std::string());
            t.current = j.value("current", false);
            const auto order = j.value("search_order", std::vector<int>{});
            if (order.size() != 2) return makeError(file + ": " + where + ".search_order: expected [shape, position] (a report of this version)");
            t.shape = order[0];
            t.order = order[1];
            r.strategies.push_back(std::move(t));
        }
    } catch (const nlohmann::json::exception& e) {
        return makeError(file + ": " + where + ": " + e.what());
    }
    rankStrategies(r);
    return r;
}

Expected<StrategySearchResult> mergeStrategySearches(std::vector<StrategySearchResult> parts, const std::vector<std::string>& files) {
    if (parts.empty()) return makeError("--merge: no strategy search reports to merge");
    const auto name = [&](std::size_t i) { return i < files.size() ? files[i] : "part " + std::to_string(i + 1); };
    const int count = parts.front().shardCount;
    std::vector<int> seen(static_cast<std::size_t>(std::max(count, 1)), -1);
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const StrategySearchResult& p = parts[i];
        if (p.shardCount != count || p.devices != parts.front().devices)
            return makeError(name(i) + ": a shard of another search (" + std::to_string(p.devices) + " devices, " + std::to_string(p.shardCount) +
                             " shards) than " + name(0) + " (" + std::to_string(parts.front().devices) + " devices, " + std::to_string(count) + " shards)");
        int& owner = seen[static_cast<std::size_t>(std::clamp(p.shardIndex, 0, std::max(count, 1) - 1))];
        if (owner >= 0) return makeError(name(i) + ": shard " + std::to_string(p.shardIndex + 1) + " of " + std::to_string(count) + " again (also " + name(static_cast<std::size_t>(owner)) + ")");
        owner = static_cast<int>(i);
    }
    for (std::size_t k = 0; k < seen.size(); ++k)
        if (seen[k] < 0) return makeError("--merge: shard " + std::to_string(k + 1) + " of " + std::to_string(count) + " is missing");
    StrategySearchResult out;
    out.devices = parts.front().devices;
    out.devicesPerNode = parts.front().devicesPerNode;
    out.bounds = parts.front().bounds;
    for (StrategySearchResult& p : parts) {
        out.capacity_bytes = std::max(out.capacity_bytes, p.capacity_bytes);
        out.simulations += p.simulations;
        out.cancelled = out.cancelled || p.cancelled;
        out.truncated = out.truncated || p.truncated;
        std::move(p.strategies.begin(), p.strategies.end(), std::back_inserter(out.strategies));
    }
    rankStrategies(out);
    return out;
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
            {"/parallel/schedule", c.schedule},
            {"/parallel/virtual_stages", c.virtualStages},
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
