#pragma once
// Projects the engine tests simulate: a small LLaMA built in code, and the calibration
// model's sample project (projects/llama-small-h200). Failures to load or simulate stop
// the test with the engine's message.

#include "engine/pipeline/simulation_pipeline.h"

#include <QtGlobal>

#include <filesystem>

namespace npu::engine::testing {

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
inline Project parsedProject(const nlohmann::json& doc) {
    auto p = parseProject(doc, "p.json");
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
