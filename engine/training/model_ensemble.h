#pragma once
// Several models in one simulated step (DPO's policy and frozen reference; PPO's actor,
// critic, reward and reference): each model's graph is appended to one graph under its
// name ("reference.layers.0.attn.q_proj"), so the simulator schedules them on the device
// one after the other and the memory planner sees every model's weights at once. A frozen
// model that only runs forward (a reference, a reward model) gets no backward nodes from
// the training pass, so its activations are freed after their last forward use, as under
// torch.no_grad().

#include "engine/ir/graph.h"
#include "engine/result/simulation_result.h"

#include <functional>
#include <map>
#include <string>

namespace npu::engine {

struct AppendOptions {
    // Model inputs read from a tensor of `into` instead (PPO: input_ids <- the generated
    // sequences), by input name.
    std::map<std::string, int> bindInputs;
    // Non-empty: the model's weights are those already appended under this prefix (a
    // second forward of the same model, e.g. PPO's critic scoring the rollout).
    std::string weightsOf;
};

// Appends `model` to `into` with every tensor, node and block name prefixed by
// `prefix` + "."; the model's graph inputs with the same name as one of `into`'s inputs
// (input_ids, labels) are shared. Returns the ids in `into` of the model's outputs.
std::vector<int> appendModel(Graph& into, const Graph& model, const std::string& prefix, const AppendOptions& options = {});

// Which model a task belongs to: the prefix of its node name among `models` ("reference"),
// or `mainModel` for the rest.
std::string modelOfTask(const std::string& nodeName, const std::vector<std::string>& models, const std::string& mainModel);

// Puts each model's compute tasks on its own track ("Compute · reference"): the models
// run one after the other on the one compute stream, the tracks only separate them. The
// host's launches follow their kernels, so launch -> kernel flows still connect.
void splitComputeTracksByModel(SimulationResult& result, const std::vector<std::string>& models, const std::string& mainModel);

// Task time of step `step` per model ({"policy": ms, "reference": ms}).
std::map<std::string, double> timeByModelMs(const SimulationResult& result, const std::vector<std::string>& models,
                                            const std::string& mainModel, int step);

// Task time of step `step` on the first device, summed by a key of each task (its model,
// its PPO phase), as time_by_phase_ms counts the summary step only.
std::map<std::string, double> stepTaskTimeMs(const SimulationResult& result, int step, const std::function<std::string(const SimTask&)>& keyOf);

}  // namespace npu::engine
