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

}  // namespace npu::engine::testing
