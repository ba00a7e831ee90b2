#include "engine/training/resource_estimator.h"

#include <cmath>

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
    for (const DeviceCountTrial& d : trials)
        t.push_back({{"devices", d.devices}, {"fits", d.fits}, {"peak_bytes", d.peak_bytes}, {"step_time_ms", d.step_time_ms}});
    j["trials"] = t;
    return j;
}

Expected<ResourceEstimate> estimateResources(const Project& project, const EstimateRequest& request) {
    if (!(request.tokens > 0)) return makeError("--tokens: expected a positive number of training tokens");
    if (request.devicesMax < 1) return makeError("--devices-max: expected a positive integer");
    const TrainingSettings& t = project.training;
    if (t.seq <= 0) return makeError("training.seq: the estimate counts tokens and needs a sequence length");
    SimulationOptions options = request.simulation;
    options.keepGraphs = false;
    options.adviseOnOom = false;
    options.steps = 1;

    ResourceEstimate e;
    std::int64_t sequenceTokens = t.mode.name == "ppo" ? t.mode.ppo.prompt_tokens + t.mode.ppo.generate_tokens : t.seq;
    // Powers of two: the data-parallel sizes clusters are built in.
    for (int n = 1; n <= request.devicesMax; n *= 2) {
        // The project's own parallel settings are replaced by the candidate: one device, or
        // N data-parallel ranks with ZeRO-3.
        Project p = project;
        p.parallel["data_parallel"] = n;
        if (n > 1) p.training.zero_stage = 3;
        auto r = simulateProject(p, options);
        if (!r) return r.error();
        DeviceCountTrial trial{n, r->summary.status == "ok", r->summary.memory.reserved_peak_bytes > 0 ? r->summary.memory.reserved_peak_bytes : r->summary.peak_bytes,
                               r->summary.step_time_ms};
        e.trials.push_back(trial);
        e.capacity_bytes = r->summary.capacity_bytes;
        if (!trial.fits) {
            if (n > request.devicesMax / 2) break;
            continue;
        }
        e.fits = true;
        e.devices = n;
        e.strategy = n == 1 ? "single device" : "data parallel " + std::to_string(n) + ", ZeRO-3";
        e.bytes_per_device = trial.peak_bytes;
        e.step_time_ms = trial.step_time_ms;
        // A DPO step runs 2 sequences per pair: tokens count every sequence trained on.
        const double sequences = static_cast<double>(t.batch * t.gradient_accumulation) * (t.mode.name == "dpo" ? 2 : 1);
        // The simulated sequence: training.seq, or PPO's prompt + generated tokens.
        sequenceTokens = r->summary.seq > 0 ? r->summary.seq : t.seq;
        e.tokens_per_step = sequences * static_cast<double>(sequenceTokens) * n;
        const double steps = std::ceil(request.tokens / e.tokens_per_step);
        e.seconds_for_tokens = steps * e.step_time_ms / 1e3;
        e.device_hours = e.seconds_for_tokens * n / 3600;
        break;
    }
    e.assumptions = {
        "training.mode \"" + t.mode.name + "\", precision " + t.precision + ", micro-batch " + std::to_string(t.batch) + " x " +
            std::to_string(sequenceTokens) + (t.mode.name == "ppo" ? " (prompt + generated)" : "") + " tokens, gradient accumulation " + std::to_string(t.gradient_accumulation) + " on every device",
        "device counts tried: powers of two up to " + std::to_string(request.devicesMax) +
            "; more than one device = data parallel with ZeRO-3 (weights, gradients and optimizer states sharded 1/N)",
        "one device's memory and step simulated (distributed simulation does not exist yet): the all-gather and "
        "reduce-scatter traffic of ZeRO-3 and the gradient all-reduce are not timed, so time is a lower bound",
        "ZeRO-3's transient gathered parameters are not in the memory figure (engine/memory/zero_sharding)",
        "time for the tokens = ceil(tokens / tokens per step) steps at the simulated step time; no data loading, "
        "evaluation or checkpoint time",
    };
    return e;
}

}  // namespace npu::engine
