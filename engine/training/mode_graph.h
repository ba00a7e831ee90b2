#pragma once
// The forward graph of one training step of a project's training.mode: the model (with
// its PEFT adapters), or for DPO the policy and its frozen reference in one graph
// (engine/training/model_ensemble), or for PPO the rollout and the four models
// (engine/training/ppo_graph). The training passes then add backward and optimizer for
// whatever is not frozen.

#include "base/expected.h"
#include "engine/ir/graph.h"
#include "engine/project/project.h"
#include "engine/training/peft_adapters.h"

#include <map>
#include <string>
#include <vector>

namespace npu::engine {

struct ModeGraph {
    Graph graph;
    std::string mainModel = "model";          // the model that trains ("policy" for DPO)
    std::vector<std::string> otherModels;     // name prefixes of the other models ("reference")
    std::int64_t sequencesPerSample = 1;      // DPO: a preference pair is 2 sequences (chosen, rejected)
    std::int64_t sequenceLength = 0;          // tokens per sequence when the mode sets it (PPO: prompt + generated)
    int lossOutputs = 1;                      // graph outputs that seed backward (PPO: actor and critic)
    bool ppo = false;                         // the step needs engine/training/ppo_graph's schedule
    ParameterSplit parameters;                // over every model
    std::map<std::string, ParameterSplit> parametersByModel;  // models of an ensemble (DPO, PPO)
};

// halfType: the precision's half dtype (bf16/f16), f32 for fp32/tf32.
Expected<ModeGraph> buildModeGraph(const Project& project, DType halfType);

}  // namespace npu::engine
