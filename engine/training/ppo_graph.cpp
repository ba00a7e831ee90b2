#include "engine/training/ppo_graph.h"

#include "engine/frontends/model_loader.h"
#include "engine/ir/op_registry.h"
#include "engine/passes/graph_edit.h"
#include "engine/training/model_ensemble.h"

#include <algorithm>
#include <queue>

namespace npu::engine {

namespace {

constexpr const char* kCriticKey = "training.ppo.critic";

// Query and key+value features per token over all layers, from the model's attention
// nodes ([B, S, H*D] or [B, H, S, D] operands): what one token adds to the KV cache.
struct AttentionWidths {
    std::int64_t q = 0;
    std::int64_t kv = 0;
};

AttentionWidths attentionWidths(const Graph& model, std::int64_t tokens) {
    AttentionWidths w;
    for (const Node& n : model.nodes()) {
        if ((n.op != "ScaledDotProductAttention" && n.op != "FlashAttention") || n.inputs.size() < 3) continue;
        w.q += model.tensor(n.inputs[0]).numel() / tokens;
        w.kv += (model.tensor(n.inputs[1]).numel() + model.tensor(n.inputs[2]).numel()) / tokens;
    }
    return w;
}

// What the host issues for one pass of the model in eager mode (HF generate() runs the
// model's forward once per token): its ops by OpCategory, the views (no kernel) last.
std::vector<std::int64_t> eagerOpsOf(const Graph& model) {
    const auto& reg = OpRegistry::instance();
    std::vector<std::int64_t> ops(static_cast<std::size_t>(OpCategory::other) + 2, 0);
    for (const Node& n : model.nodes())
        ++ops[reg.isShapeOnly(n) ? ops.size() - 1 : static_cast<std::size_t>(reg.category(n.op))];
    return ops;
}

// The critic / reward model: DeepSpeed-Chat's RewardModel (the base transformer with
// v_head = Linear(hidden, 1)). Built with a vocabulary of 1, which makes the LM head that
// value head, then the token embedding gets the real vocabulary back.
Expected<Graph> valueModel(const Project& project, const ZooShape& shape) {
    ModelSource source = project.model;
    const nlohmann::json& overrides = project.training.mode.ppo.critic_config;
    for (const auto& [key, value] : overrides.items()) source.config[key] = value;
    const std::int64_t vocab = source.config.value("vocab", std::int64_t{1});
    source.config["vocab"] = 1;
    auto g = loadModelGraph(source, project.folder(), shape);
    if (!g) return makeError(overrides.empty() ? g.message() : std::string(kCriticKey) + ": " + g.message());
    for (const Node& n : g->nodes())
        if (n.kind == OpKind::Embedding && n.inputs.size() > 1 && g->tensor(n.inputs[1]).shape.size() == 2 && g->tensor(n.inputs[1]).shape[0] == 1)
            g->tensor(n.inputs[1]).shape[0] = vocab;
    return g;
}

// The actor's weights a decode step reads: all but the embedding tables, of which a step
// gathers only the new tokens' rows.
std::vector<int> decodeWeights(const Graph& g, const std::string& prefix) {
    std::vector<int> out;
    for (const Tensor& t : g.tensors()) {
        if (t.role != TensorRole::weight || t.name.rfind(prefix, 0) != 0) continue;
        const bool tableOnly = !t.consumers.empty() && std::all_of(t.consumers.begin(), t.consumers.end(), [&](int c) {
            return g.node(c).kind == OpKind::Embedding && g.node(c).inputs.size() > 1 && g.node(c).inputs[1] == t.id;
        });
        if (!tableOnly) out.push_back(t.id);
    }
    return out;
}

// generate(): prefill of the prompt, then one decode step per further token; the last
// generation node writes the sequences (prompt + generated) the other models read.
void addGeneration(Graph& g, const Graph& actor, int prompt, int sequences, const PpoOptions& o, DType halfType) {
    const AttentionWidths widths = attentionWidths(actor, g.tensor(sequences).numel());
    const std::int64_t batch = g.tensor(prompt).shape[0];
    const std::vector<int> weights = decodeWeights(g, "actor.");
    const int cache = g.addTensor("actor.generate.kv_cache", {batch, o.prompt_tokens + o.generate_tokens, widths.kv}, halfType,
                                  TensorRole::kv_cache);
    const Attributes common{{"q_width", widths.q}, {"kv_width", widths.kv}, {"prompt_tokens", o.prompt_tokens}, {"eager_ops", eagerOpsOf(actor)}};
    auto token = [&](std::int64_t i) {
        return i + 1 == o.generate_tokens ? sequences
                                           : g.addTensor("actor.generate.token." + std::to_string(i), {batch, 1}, DType::i64, TensorRole::activation);
    };
    std::vector<int> inputs{prompt};
    inputs.insert(inputs.end(), weights.begin(), weights.end());
    int last = token(0);
    g.addNode(OpKind::DecodePrefill, "actor.generate.prefill", inputs, {cache, last}, common, Phase::forward, halfType);
    for (std::int64_t i = 1; i < o.generate_tokens; ++i) {
        inputs = {last, cache};
        inputs.insert(inputs.end(), weights.begin(), weights.end());
        Attributes attrs = common;
        attrs["position"] = o.prompt_tokens + i - 1;  // tokens already in the cache
        const int next = token(i);
        g.addNode(OpKind::DecodeStep, "actor.generate.decode." + std::to_string(i), inputs, {next}, attrs, Phase::forward, halfType);
        last = next;
    }
}

// Program groups, in the order they run (see schedulePpoStep).
int groupOf(const std::string& name) {
    if (name.starts_with("actor.generate.")) return 0;
    if (name.starts_with("reference.") || name.starts_with("reward.") || name.starts_with("critic.score.")) return 1;
    if (name.starts_with("actor.optimizer.")) return 3;
    if (name.starts_with("actor.")) return 2;
    if (name.starts_with("critic.optimizer.")) return 5;
    if (name.starts_with("critic.")) return 4;
    return 6;
}

// The trained model a tensor of the update belongs to: optimizer tensors carry their
// weight's name ("critic.layers.0.mlp.up_proj.weight.exp_avg"), gradients their node's.
std::string trainedModelOf(const std::string& tensorName) { return tensorName.starts_with("critic.") ? "critic" : "actor"; }

// The training pass's update (one multi-tensor AdamW/SGD; with the optimizer offloaded,
// the gradients' copy out, the host update and the parameters' copy back; fp16's unscale)
// becomes one per model, as the actor's and the critic's DeepSpeed engines each step on
// their own: the actor's gradients are freed before the critic trains.
void splitOptimizer(Graph& g) {
    std::map<std::string, double> params;          // per trained model, for the host update's traffic
    std::map<std::string, std::int64_t> weights;
    for (const Tensor& t : g.tensors())
        if (t.role == TensorRole::weight && !t.frozen && isFloating(t.dtype)) {
            params[trainedModelOf(t.name)] += static_cast<double>(t.numel());
            ++weights[trainedModelOf(t.name)];
        }
    double total = 0;
    for (const auto& [m, p] : params) total += p;
    const std::size_t count = g.nodes().size();
    for (std::size_t id = 0; id < count; ++id) {
        const Node n = g.node(static_cast<int>(id));
        if (g.isRemoved(n.id) || n.phase != Phase::optimizer || !n.name.starts_with("optimizer.") || total <= 0) continue;
        std::map<std::string, std::vector<int>> inputsOf, outputsOf;
        std::map<std::string, std::int64_t> weightInputs;
        for (int t : n.inputs) {
            inputsOf[trainedModelOf(g.tensor(t).name)].push_back(t);
            weightInputs[trainedModelOf(g.tensor(t).name)] += g.tensor(t).role == TensorRole::weight;
        }
        for (int t : n.outputs) outputsOf[trainedModelOf(g.tensor(t).name)].push_back(t);  // DeepSpeed's fp32 gradient copies
        for (const auto& [m, p] : params) {
            if (!n.inputs.empty() && !inputsOf.count(m)) continue;
            Attributes attrs = n.attrs;
            if (n.attrs.count("tensors")) attrs["tensors"] = n.inputs.empty() ? weights[m] : weightInputs[m];
            if (n.attrs.count("bytes")) attrs["bytes"] = n.attrFloat("bytes", 0) * p / total;  // per parameter
            g.addNode(n.op, m + "." + n.name, inputsOf[m], outputsOf[m], attrs, Phase::optimizer, n.dtype);
        }
        g.markRemoved(n.id);
    }
}

}  // namespace

Expected<ModeGraph> buildPpoGraph(const Project& project, DType halfType) {
    const TrainingSettings& t = project.training;
    const PpoOptions& o = t.mode.ppo;
    const std::string& zoo = project.model.zoo;
    if (zoo != "llama" && zoo != "gpt")
        return makeError("training.mode: \"ppo\" generates with a decoder-only model of the zoo (model.zoo llama or gpt), got " +
                         (zoo.empty() ? std::string("an imported model") : "model.zoo \"" + zoo + "\""));
    const ZooShape shape{t.batch, o.prompt_tokens + o.generate_tokens};
    auto actor = loadModelGraph(project.model, project.folder(), shape);
    if (!actor) return actor.error();
    auto reference = loadModelGraph(project.model, project.folder(), shape);
    auto critic = valueModel(project, shape);
    if (!critic) return critic.error();
    auto reward = valueModel(project, shape);
    if (!reference) return reference.error();
    if (!reward) return reward.error();
    freezeAllWeights(*reference);
    freezeAllWeights(*reward);
    const AttentionWidths widths = attentionWidths(*actor, shape.batch * shape.seq);
    if (widths.kv <= 0) return makeError("training.mode: \"ppo\": the model has no attention node to size the KV cache from");

    ModeGraph out;
    out.ppo = true;
    out.mainModel = "actor";
    out.otherModels = {"critic", "reward", "reference"};
    out.sequenceLength = shape.seq;
    out.lossOutputs = 2;
    out.parametersByModel = {{"actor", parameterSplit(*actor)}, {"critic", parameterSplit(*critic)},
                             {"reward", parameterSplit(*reward)}, {"reference", parameterSplit(*reference)}};
    Graph& g = out.graph;
    g.name = actor->name;
    const int prompt = g.addTensor("prompt_ids", {t.batch, o.prompt_tokens}, DType::i64, TensorRole::input);
    g.inputs.push_back(prompt);
    const int sequences = g.addTensor("sequences", {t.batch, shape.seq}, DType::i64, TensorRole::activation);
    AppendOptions rollout;
    rollout.bindInputs = {{"input_ids", sequences}};
    const std::vector<int> actorOut = appendModel(g, *actor, "actor", rollout);
    addGeneration(g, *actor, prompt, sequences, o, halfType);
    const std::vector<int> criticOut = appendModel(g, *critic, "critic", rollout);
    const std::vector<int> referenceOut = appendModel(g, *reference, "reference", rollout);
    const std::vector<int> rewardOut = appendModel(g, *reward, "reward", rollout);
    AppendOptions score = rollout;
    score.weightsOf = "critic";  // the old values: the critic's own weights, a forward only
    const std::vector<int> scoreOut = appendModel(g, *critic, "critic.score", score);
    // The two losses seed backward; the scoring models' results stay to the end of the
    // step (the advantages are computed from them).
    g.outputs = {actorOut.front(), criticOut.front(), referenceOut.front(), rewardOut.front(), scoreOut.front()};
    out.parameters = parameterSplit(g);
    return out;
}

std::vector<std::string> schedulePpoStep(Graph& g) {
    splitOptimizer(g);
    const std::vector<int> topo = g.topologicalOrder();
    std::vector<int> group(g.nodes().size(), 6);
    for (int id : topo) group[static_cast<std::size_t>(id)] = groupOf(g.node(id).name);
    // A node runs no later than the earliest group that reads it (a weight cast made for
    // the critic's scoring forward belongs to scoring).
    for (auto it = topo.rbegin(); it != topo.rend(); ++it)
        for (int t : g.node(*it).outputs)
            if (t >= 0)
                for (int c : g.tensor(t).consumers)
                    if (!g.isRemoved(c)) group[static_cast<std::size_t>(*it)] = std::min(group[static_cast<std::size_t>(*it)], group[static_cast<std::size_t>(c)]);
    // Kahn's algorithm by (group, id): producers' groups never exceed their consumers', so
    // each group runs as one block, in the order the builder and the passes gave it.
    std::vector<int> indegree(g.nodes().size(), 0);
    for (int id : topo)
        for (int t : g.node(id).inputs)
            if (t >= 0 && g.tensor(t).producer >= 0 && !g.isRemoved(g.tensor(t).producer)) ++indegree[static_cast<std::size_t>(id)];
    using Key = std::pair<int, int>;
    std::priority_queue<Key, std::vector<Key>, std::greater<>> ready;
    for (int id : topo)
        if (indegree[static_cast<std::size_t>(id)] == 0) ready.push({group[static_cast<std::size_t>(id)], id});
    std::vector<int> order;
    while (!ready.empty()) {
        const int id = ready.top().second;
        ready.pop();
        order.push_back(id);
        for (int t : g.node(id).outputs)
            if (t >= 0)
                for (int c : g.tensor(t).consumers)
                    if (!g.isRemoved(c) && --indegree[static_cast<std::size_t>(c)] == 0) ready.push({group[static_cast<std::size_t>(c)], c});
    }
    std::vector<std::string> phases;
    for (int id : order) phases.push_back(kPpoPhases[std::min(group[static_cast<std::size_t>(id)], 2)]);
    reorderNodes(g, order);
    return phases;
}

const char* ppoPhaseOfName(const std::string& nodeName) { return kPpoPhases[std::min(groupOf(nodeName), 2)]; }

std::map<std::string, double> timeByPpoPhaseMs(const SimulationResult& result, const std::vector<std::string>& phaseOfNode, int step) {
    std::map<std::string, double> ms = stepTaskTimeMs(result, step, [&](const SimTask& task) {
        return task.node >= 0 && static_cast<std::size_t>(task.node) < phaseOfNode.size() ? phaseOfNode[static_cast<std::size_t>(task.node)]
                                                                                          : std::string(kPpoPhases[2]);
    });
    for (const char* phase : kPpoPhases) ms.try_emplace(phase, 0.0);
    return ms;
}

void labelPpoTasks(SimulationResult& run) {
    for (DeviceResult& device : run.devices) {
        int lastGeneration = -1, lastScoring = -1;
        for (const SimTask& t : device.tasks) {
            const int group = std::min(groupOf(t.name), 2);
            if (group == 0) lastGeneration = std::max(lastGeneration, t.node);
            if (group == 1) lastScoring = std::max(lastScoring, t.node);
        }
        for (SimTask& t : device.tasks) {
            t.model = t.name.starts_with("critic.score.") ? "critic.score" : t.name.substr(0, t.name.find('.'));
            const int phase = t.node < 0 ? std::min(groupOf(t.name), 2) : t.node <= lastGeneration ? 0 : t.node <= lastScoring ? 1 : 2;
            t.step_phase = static_cast<StepPhase>(phase);
        }
    }
}

}  // namespace npu::engine
