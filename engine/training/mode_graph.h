#pragma once
// The forward graph of one training step of a project's training.mode: the model (with
// its PEFT adapters), or for DPO the policy and its frozen reference in one graph
// (engine/training/model_ensemble). The training passes then add backward and optimizer
// for whatever is not frozen.

#include "engine/core/expected.h"
#include "engine/ir/graph.h"
#include "engine/project/project.h"
#include "engine/training/peft_adapters.h"

#include <string>
#include <vector>

namespace npu::engine {

struct ModeGraph {
    Graph graph;
    std::string mainModel = "model";          // the model that trains ("policy" for DPO)
    std::vector<std::string> otherModels;     // name prefixes of the other models ("reference")
    std::int64_t sequencesPerSample = 1;      // DPO: a preference pair is 2 sequences (chosen, rejected)
    ParameterSplit parameters;                // over every model
};

// halfType: the precision's half dtype (bf16/f16), f32 for fp32/tf32.
Expected<ModeGraph> buildModeGraph(const Project& project, DType halfType);

}  // namespace npu::engine
