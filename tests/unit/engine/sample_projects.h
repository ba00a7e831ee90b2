#pragma once
// Projects the engine tests simulate: a small LLaMA built in code, and the calibration
// model's sample project (projects/llama-small-h200). Failures to load or simulate stop
// the test with the engine's message.

#include "engine/driver/simulate_project.h"

#include <QtGlobal>

#include <filesystem>

namespace npu::engine::testing {

// The RLHF-PPO sample (projects/llama-7b-ppo) at batch 8 on one node of `devices`
// devices with the given parallel block.
inline Project ppoOn(const nlohmann::json& parallel, int devices = 8) {
    auto p = loadProject(std::filesystem::path(NPU_SOURCE_DIR) / "projects/llama-7b-ppo/project.json");
    if (!p) qFatal("%s", p.message().c_str());
    p->training.batch = 8;
    p->parallel = parallel;
    p->cluster = {{"nodes", 1}, {"devices_per_node", devices}};
    p->runs.clear();
    return *p;
}

inline Project smallLlama() {
    Project p;
    p.name = "t";
    p.device = "h200";
    p.model.zoo = "llama";
    p.model.config = {{"hidden", 256}, {"ffn", 704}, {"layers", 2}, {"heads", 4}, {"vocab", 1000}};
    p.training.batch = 2;
    p.training.seq = 128;
    return p;
}

inline Project calibrationProject() {
    auto p = loadProject(std::filesystem::path(NPU_SOURCE_DIR) / "projects/llama-small-h200/project.json");
    if (!p) qFatal("%s", p.message().c_str());
    return *p;
}

inline SimulationResult simulateOrFail(const Project& p, const SimulationOptions& o = {}) {
    auto r = simulateProject(p, o);
    if (!r) qFatal("%s", r.message().c_str());
    return *r;
}

// A project document as project.json would hold it (the cluster tests build theirs in code).
inline Project parsedProject(const nlohmann::json& doc, const std::string& source = "p.json") {
    auto p = parseProject(doc, source);
    if (!p) qFatal("%s", p.message().c_str());
    return *p;
}

// GPT, 2 layers, on one node of 4 devices, data parallel only, buckets reduced after
// the backward pass (no overlap), so the schedule is forward, backward, all-reduce,
// optimizer on every rank.
inline nlohmann::json dpToyDoc() {
    return {{"format", "npustudio-project"},
            {"version", 1},
            {"name", "dp-toy"},
            {"device", "a100-80gb"},
            {"model", {{"zoo", "gpt"}, {"config", {{"hidden", 512}, {"layers", 2}, {"heads", 8}, {"vocab", 8192}, {"max_seq", 512}}}}},
            {"training", {{"batch", 8}, {"seq", 256}, {"precision", "bf16-amp"}}},
            {"parallel", {{"data_parallel", 4}}},
            {"communication", {{"overlap", false}}},
            {"cluster", {{"nodes", 1}, {"devices_per_node", 4}, {"intra_node", {{"bandwidth_GBps", 300}, {"latency_us", 2}}}}}};
}

// A small LLaMA on 8 devices of 1 node, data parallel, as project.json holds it: the
// strategy search ranks its strategies in well under a second.
inline nlohmann::json smallClusterDoc() {
    return {{"format", "npustudio-project"},
            {"version", 1},
            {"name", "search"},
            {"device", "ascend-910b"},
            {"model", {{"zoo", "llama"}, {"config", {{"hidden", 512}, {"ffn", 1376}, {"layers", 4}, {"heads", 8}, {"vocab", 32000}}}}},
            {"training", {{"batch", 8}, {"seq", 256}, {"precision", "bf16-amp"}}},
            {"cluster", {{"nodes", 1}, {"devices_per_node", 8}}},
            {"parallel", {{"data_parallel", 8}, {"micro_batches", 1}}}};
}

inline Project smallCluster() { return parsedProject(smallClusterDoc(), "search.json"); }

// The LLaMA-7B cluster sample (projects/llama-7b-cluster: 8 devices, dp2 tp4).
inline Project llama7bCluster() {
    auto p = loadProject(std::filesystem::path(NPU_SOURCE_DIR) / "projects/llama-7b-cluster/project.json");
    if (!p) qFatal("%s", p.message().c_str());
    return *p;
}

// Figures only: the cluster tests read ranks and summaries, not the graphs.
inline SimulationResult simulateFiguresOrFail(const Project& p) {
    SimulationOptions o;
    o.keepGraphs = false;
    return simulateOrFail(p, o);
}

// A small fp16 LLaMA with dynamic loss scaling over 6 steps, overflowing at steps 1 and 4
// (init scale 1024, doubling after 2 clean steps): the scale per step is pinned exactly.
inline Project lossScaledLlama(const std::string& precision) {
    Project p;
    p.name = "ls";
    p.model.zoo = "llama";
    p.model.config = {{"hidden", 64}, {"ffn", 128}, {"layers", 2}, {"heads", 4}, {"vocab", 100}};
    p.training.batch = 2;
    p.training.seq = 32;
    p.training.precision = precision;
    p.training.steps = 6;
    p.training.overflow_steps = {1, 4};
    p.training.loss_scaling = {{"init_scale", 1024}, {"growth_interval", 2}};
    return p;
}

}  // namespace npu::engine::testing
