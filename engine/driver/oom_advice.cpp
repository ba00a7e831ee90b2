#include "engine/driver/oom_advice.h"


namespace npu::engine {

namespace {

OomAdvice resimulate(const Project& changed, const SimulationOptions& options, std::string action, std::string change) {
    OomAdvice a;
    a.action = std::move(action);
    a.change = std::move(change);
    SimulationOptions o = options;
    o.adviseOnOom = false;
    o.keepGraphs = false;  // advice needs figures, not graphs to show
    o.steps = 1;
    auto r = simulateProject(changed, o);
    if (!r) {
        a.change += " (not simulated: " + r.message() + ")";
        return a;
    }
    a.predicted_peak_bytes = r->summary.peak_bytes;
    a.predicted_reserved_bytes = r->summary.memory.reserved_peak_bytes;
    a.predicted_step_time_ms = r->summary.step_time_ms;
    a.fits = r->summary.status == "ok";
    return a;
}

}  // namespace

std::vector<OomAdvice> oomAdvice(const Project& project, const SimulationOptions& options) {
    std::vector<OomAdvice> out;
    const TrainingSettings& t = project.training;
    if (!project.optimizations.contains("memory_optimizer")) {
        Project p = project;
        p.optimizations["memory_optimizer"] = {{"strategy", "aggressive"}, {"max_fragmentation", 0.15}};
        p.optimizations.erase("allocator");
        out.push_back(resimulate(p, options, "memory_optimizer",
                                 "optimizations.memory_optimizer: {strategy: aggressive, max_fragmentation: 0.15}"));
    }
    if (t.batch > 1) {
        // Halve until it fits (or reaches 1): the largest micro-batch that fits is the
        // advice; gradient accumulation keeps the global batch where it divides evenly.
        for (std::int64_t b = t.batch / 2;; b /= 2) {
            Project p = project;
            p.training.batch = b;
            std::string change = "training.batch: " + std::to_string(t.batch) + " -> " + std::to_string(b);
            if (t.batch % b == 0) {
                p.training.gradient_accumulation = t.gradient_accumulation * (t.batch / b);
                change += ", training.gradient_accumulation: " + std::to_string(t.gradient_accumulation) + " -> " +
                          std::to_string(p.training.gradient_accumulation);
            }
            OomAdvice a = resimulate(p, options, "micro_batch", change);
            // A change that cannot be simulated (too many micro-batches) ends the search: smaller ones would not either.
            if (a.fits || b <= 1 || a.predicted_step_time_ms <= 0) {
                out.push_back(std::move(a));
                break;
            }
        }
    }
    if (t.activation_checkpointing != "full") {
        Project p = project;
        // Megatron's selective recomputation saves only the attention core's bytes (nothing
        // under flash attention): the playbook's lighter step is memory_bound.
        p.training.activation_checkpointing = t.activation_checkpointing == "memory_bound" ? "full" : "memory_bound";
        out.push_back(resimulate(p, options, "activation_checkpointing",
                                 "training.activation_checkpointing: " + t.activation_checkpointing + " -> " +
                                     p.training.activation_checkpointing));
        if (!out.back().fits && p.training.activation_checkpointing == "memory_bound") {
            p.training.activation_checkpointing = "full";
            out.push_back(resimulate(p, options, "activation_checkpointing",
                                     "training.activation_checkpointing: " + t.activation_checkpointing + " -> full"));
        }
    }
    const std::int64_t dp = project.parallel.value("data_parallel", std::int64_t{1});
    if (dp > 1)
        for (int stage = zeroStage(project) + 1; stage <= 3; ++stage) {
            Project p = project;
            setZeroStage(p, stage);
            out.push_back(resimulate(p, options, "zero",
                                     "parallel.zero_stage: " + std::to_string(zeroStage(project)) + " -> " + std::to_string(stage) +
                                         " (data_parallel " + std::to_string(dp) + ")"));
            if (out.back().fits) break;
        }
    if (!t.offload_optimizer) {
        Project p = project;
        p.training.offload_optimizer = true;
        out.push_back(resimulate(p, options, "offload", "training.offload_optimizer: false -> true"));
    }
    if (!t.offload_activations) {
        Project p = project;
        p.training.offload_activations = true;
        out.push_back(resimulate(p, options, "offload", "training.offload_activations: false -> true"));
    }
    return out;
}

}  // namespace npu::engine
