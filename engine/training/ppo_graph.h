#pragma once
// RLHF-PPO as DeepSpeed-Chat's step 3 (and TRL's PPOTrainer) runs one step, in one graph
// of four models (engine/training/model_ensemble):
//   generation  the actor decodes generate_tokens after a prompt of prompt_tokens with a
//               KV cache (engine/ir/ops/decode_ops.cpp: a prefill, then one memory-bound
//               decode step per token reading every weight and the cache so far);
//   scoring     the frozen reward and reference models and the critic run forward over
//               prompt + generated tokens, keeping no activations (the rewards, the
//               reference log-probs and the old values the advantages need);
//   training    the actor (PPO clipped loss) then the critic (value loss): forward,
//               backward and optimizer step each, as DeepSpeed-Chat's train_rlhf does.
// Actor and critic train (weights, gradients, optimizer states); reward and reference
// are frozen. The critic and reward model are the actor's model with a scalar value head
// (training.ppo.critic may override their model.config). The losses are stand-ins of the
// same cost: the LM cross-entropy for the actor, the value head's for the critic.

#include "engine/result/simulation_result.h"
#include "engine/training/mode_graph.h"

#include <map>
#include <string>
#include <vector>

namespace npu::engine {

// The phases of a PPO step, in the order they run (StepPhase's).
inline constexpr const auto& kPpoPhases = kStepPhaseNames;

// The forward graph of a step (training.mode "ppo"); errors name the key at fault.
Expected<ModeGraph> buildPpoGraph(const Project& project, DType halfType);

// After the training passes: splits the optimizer update (on device or offloaded) into the
// actor's and the critic's and orders the program generation, scoring, actor (forward, backward, step),
// critic (forward, backward, step), so the actor's gradients are freed before the critic
// trains. Returns the PPO phase of every node (by its new id).
std::vector<std::string> schedulePpoStep(Graph& graph);

// The PPO phase a node of that name belongs to by its model prefix ("actor.generate." ->
// generation; reference, reward, critic.score -> scoring; the rest -> training). The
// schedule may run a node earlier than its name says (a cast feeding the scoring
// forward), never later, so the last node id named for a phase bounds it.
const char* ppoPhaseOfName(const std::string& nodeName);

// Labels every task of a run of the PPO graph with its model ("critic.score" for the
// critic's scoring forward, else its name's prefix) and its step phase: by node id, the
// schedule numbering nodes in program order, generation first (a node runs no later than
// its name's phase, so the last node id named for a phase bounds it). The cluster
// layouts read these labels.
void labelPpoTasks(SimulationResult& run);

// Task time of the step `step` by PPO phase (phaseOfNode from schedulePpoStep).
std::map<std::string, double> timeByPpoPhaseMs(const SimulationResult& result, const std::vector<std::string>& phaseOfNode, int step);

}  // namespace npu::engine
