#include "engine/training/peft_adapters.h"

#include "engine/models/graph_builder.h"
#include "engine/passes/graph_edit.h"

#include <set>
#include <sstream>

namespace npu::engine {

namespace {

// Every consumer of `from` but `keep` (the node that reads it to build `to`) and every
// graph output reads `to` instead.
void redirectConsumers(Graph& g, int from, int to, int keep) {
    const std::vector<int> consumers = g.tensor(from).consumers;
    for (int c : consumers)
        if (c != keep) replaceInput(g, c, from, to);
    for (int& o : g.outputs)
        if (o == from) o = to;
}

// The components of a node name ("layers.0.attn.q_proj", "/model/layers.0/self_attn/q_proj/MatMul").
std::vector<std::string> nameParts(const std::string& name) {
    std::vector<std::string> parts;
    std::string cur;
    for (char ch : name) {
        if (ch == '.' || ch == '/') {
            if (!cur.empty()) parts.push_back(cur);
            cur.clear();
        } else {
            cur += ch;
        }
    }
    if (!cur.empty()) parts.push_back(cur);
    return parts;
}

// A linear layer with a weight operand: Linear(x, W[out, in]) or MatMul(x, W[in, out]).
bool isLinearLayer(const Graph& g, const Node& n) {
    if (n.kind != OpKind::Linear && !(n.kind == OpKind::MatMul && n.attrInt("transA", 0) == 0 && n.attrInt("transB", 0) == 0)) return false;
    if (n.inputs.size() < 2 || n.inputs[1] < 0) return false;
    const Tensor& w = g.tensor(n.inputs[1]);
    return w.role == TensorRole::weight && w.shape.size() == 2;
}

Status addLora(GraphBuilder& b, const LoraOptions& o, DType computeDType) {
    Graph& g = b.graph();
    const int scaling = g.addTensor("lora.scaling", {}, computeDType, TensorRole::input);
    std::set<std::string> matched, layerNames;
    const std::size_t nodesBefore = g.nodes().size();
    for (std::size_t id = 0; id < nodesBefore; ++id) {
        const Node n = g.node(static_cast<int>(id));
        if (!isLinearLayer(g, n)) continue;
        const std::vector<std::string> parts = nameParts(n.name);
        std::string target;
        for (const std::string& t : o.target_modules)
            for (const std::string& p : parts)
                if (p == t) target = t;
        if (!parts.empty()) layerNames.insert(parts.back());
        if (target.empty()) continue;
        matched.insert(target);
        const Tensor w = g.tensor(n.inputs[1]);
        const bool linear = n.kind == OpKind::Linear;
        const std::int64_t in = linear ? w.shape[1] : w.shape[0], out = linear ? w.shape[0] : w.shape[1];
        const std::string p = n.name + ".lora";
        b.setBlock(n.block);
        int x = n.inputs[0];
        if (o.dropout > 0) x = b.op(OpKind::Dropout, p + "_dropout", {x}, {{"ratio", o.dropout}});
        const int A = b.weight(p + "_A.weight", linear ? std::vector<std::int64_t>{o.rank, in} : std::vector<std::int64_t>{in, o.rank});
        const int B = b.weight(p + "_B.weight", linear ? std::vector<std::int64_t>{out, o.rank} : std::vector<std::int64_t>{o.rank, out});
        const int down = b.op(n.kind, p + "_A", {x, A});
        const int up = b.op(n.kind, p + "_B", {down, B});
        const int scaled = b.op(OpKind::Mul, p + "_scale", {up, scaling});
        const int y = n.outputs[0];
        const int sum = b.op(OpKind::Add, p + "_add", {y, scaled});
        redirectConsumers(g, y, sum, g.tensor(sum).producer);
    }
    b.setBlock("");
    for (const std::string& t : o.target_modules)
        if (!matched.count(t)) {
            std::string names;
            for (const std::string& l : layerNames) names += (names.empty() ? "" : ", ") + l;
            return makeError("training.lora.target_modules: \"" + t + "\" names no linear layer of the model (its linear layers: " + names + ")");
        }
    return {};
}

// The first Embedding that reads the graph input "input_ids" (the token embedding).
int tokenEmbeddingNode(const Graph& g) {
    for (const Node& n : g.nodes())
        if (n.kind == OpKind::Embedding && !n.inputs.empty() && n.inputs[0] >= 0 && g.tensor(n.inputs[0]).name == "input_ids") return n.id;
    return -1;
}

// PEFT's PromptEncoder: the virtual token embedding, reparameterised by an MLP or an LSTM.
int promptEncoder(GraphBuilder& b, int prompt, std::int64_t hidden, const VirtualTokenOptions& o) {
    const std::int64_t eh = o.encoder_hidden_size > 0 ? o.encoder_hidden_size : hidden;
    auto linear = [&b](const std::string& name, int x, std::int64_t outF, std::int64_t inF) {
        return b.op(OpKind::Linear, name, {x, b.weight(name + ".weight", {outF, inF}), b.weight(name + ".bias", {outF})});
    };
    if (o.encoder == "mlp") {
        int x = b.op(OpKind::Relu, "prompt_encoder.mlp.act0", {linear("prompt_encoder.mlp.0", prompt, eh, hidden)});
        x = b.op(OpKind::Relu, "prompt_encoder.mlp.act1", {linear("prompt_encoder.mlp.2", x, eh, eh)});
        return linear("prompt_encoder.mlp.4", x, hidden, eh);
    }
    // nn.LSTM(hidden, eh, num_layers=2, bidirectional=True): per layer and direction
    // W_ih [4eh, in], W_hh [4eh, eh] and two biases. The recurrence is modelled as one
    // matmul over the whole virtual sequence (the same MACs; a real LSTM runs
    // num_virtual_tokens dependent small steps, so this is a lower bound on its time).
    int x = prompt;
    std::int64_t in = hidden;
    for (int layer = 0; layer < 2; ++layer) {
        std::vector<int> directions;
        for (const char* dir : {"", "_reverse"}) {
            const std::string p = "prompt_encoder.lstm_head.l" + std::to_string(layer) + dir;
            const int gx = b.op(OpKind::Linear, p + ".ih", {x, b.weight(p + ".weight_ih", {4 * eh, in}), b.weight(p + ".bias_ih", {4 * eh})});
            const std::vector<int> gates = b.ops(OpKind::Split, p + ".gates_x", {gx}, {{"axis", std::int64_t{-1}}}, 4);
            const int hPrev = b.op(OpKind::Tanh, p + ".h_prev", {gates[2]});
            const int gh = b.op(OpKind::Linear, p + ".hh", {hPrev, b.weight(p + ".weight_hh", {4 * eh, eh}), b.weight(p + ".bias_hh", {4 * eh})});
            const std::vector<int> g4 = b.ops(OpKind::Split, p + ".gates", {b.op(OpKind::Add, p + ".gates_sum", {gx, gh})}, {{"axis", std::int64_t{-1}}}, 4);
            const int c = b.op(OpKind::Add, p + ".c", {b.op(OpKind::Mul, p + ".f_c", {b.op(OpKind::Sigmoid, p + ".f", {g4[1]}), hPrev}),
                                                 b.op(OpKind::Mul, p + ".i_g", {b.op(OpKind::Sigmoid, p + ".i", {g4[0]}), b.op(OpKind::Tanh, p + ".g", {g4[2]})})});
            directions.push_back(b.op(OpKind::Mul, p + ".h", {b.op(OpKind::Sigmoid, p + ".o", {g4[3]}), b.op(OpKind::Tanh, p + ".c_act", {c})}));
        }
        x = b.op(OpKind::Concat, "prompt_encoder.lstm_head.l" + std::to_string(layer) + ".out", directions, {{"axis", std::int64_t{-1}}});
        in = 2 * eh;
    }
    x = b.op(OpKind::Relu, "prompt_encoder.mlp_head.act", {linear("prompt_encoder.mlp_head.0", x, 2 * eh, 2 * eh)});
    return linear("prompt_encoder.mlp_head.2", x, hidden, 2 * eh);
}

// The model was built for num_virtual_tokens + S positions: the token embedding goes back to
// S tokens and the prompt is concatenated in front of it.
Status addVirtualPrompt(GraphBuilder& b, const TrainingMode& mode) {
    Graph& g = b.graph();
    const int embed = tokenEmbeddingNode(g);
    if (embed < 0) return makeError("training.mode: " + mode.name + " needs a language model with an \"input_ids\" token embedding");
    const std::int64_t P = mode.virtual_tokens.num_virtual_tokens;
    Tensor& ids = g.tensor(g.node(embed).inputs[0]);
    if (ids.shape.size() != 2 || ids.shape[1] <= P) return makeError("training.mode: unexpected token input shape for " + mode.name);
    const std::int64_t B = ids.shape[0];
    ids.shape[1] -= P;
    if (auto s = OpRegistry::instance().inferNode(g, embed); !s) return s.error();
    const int tokens = g.node(embed).outputs[0];
    const std::int64_t hidden = g.tensor(tokens).shape.back();
    const int promptIds = b.input("prompt_token_ids", {B, P}, DType::i64);
    int prompt = b.op(OpKind::Embedding, "prompt_encoder.embedding", {promptIds, b.weight("prompt_encoder.embedding.weight", {P, hidden})});
    if (mode.name == "p_tuning") prompt = promptEncoder(b, prompt, hidden, mode.virtual_tokens);
    const int joined = b.op(OpKind::Concat, "prompt_encoder.concat", {prompt, tokens}, {{"axis", std::int64_t{1}}});
    redirectConsumers(g, tokens, joined, g.tensor(joined).producer);
    return {};
}

// Per attention: key and value prefixes [P, kv_dim] looked up for the batch and put in front
// of the (rotated) keys and the values.
Status addPrefixes(GraphBuilder& b, std::int64_t P) {
    Graph& g = b.graph();
    const std::size_t nodesBefore = g.nodes().size();
    int prefixIds = -1;
    int layer = 0;
    for (std::size_t id = 0; id < nodesBefore; ++id) {
        const Node n = g.node(static_cast<int>(id));
        if (OpRegistry::instance().category(n.op) != OpCategory::attention || n.inputs.size() < 3) continue;
        const std::vector<std::int64_t> k = g.tensor(n.inputs[1]).shape, v = g.tensor(n.inputs[2]).shape;
        if (k.size() != 3 || v.size() != 3) return makeError("training.mode: prefix_tuning expects [batch, seq, dim] keys and values at " + n.name);
        if (prefixIds < 0) prefixIds = b.input("prefix_token_ids", {k[0], P}, DType::i64);
        const std::string p = "prefix_encoder.layers." + std::to_string(layer++);
        b.setBlock(n.block);
        const int pk = b.op(OpKind::Embedding, p + ".key", {prefixIds, b.weight(p + ".key.weight", {P, k[2]})});
        const int pv = b.op(OpKind::Embedding, p + ".value", {prefixIds, b.weight(p + ".value.weight", {P, v[2]})});
        const int kc = b.op(OpKind::Concat, n.name + ".prefix_k", {pk, n.inputs[1]}, {{"axis", std::int64_t{1}}});
        const int vc = b.op(OpKind::Concat, n.name + ".prefix_v", {pv, n.inputs[2]}, {{"axis", std::int64_t{1}}});
        replaceInput(g, n.id, n.inputs[1], kc);
        replaceInput(g, n.id, n.inputs[2], vc);
    }
    b.setBlock("");
    if (layer == 0) return makeError("training.mode: prefix_tuning needs a model with attention layers");
    return {};
}

}  // namespace

std::int64_t modelSequenceLength(const TrainingMode& mode, std::int64_t seq) {
    return mode.name == "prompt_tuning" || mode.name == "p_tuning" ? seq + mode.virtual_tokens.num_virtual_tokens : seq;
}

void freezeAllWeights(Graph& graph) {
    for (Tensor& t : graph.tensors())
        if (t.role == TensorRole::weight) t.frozen = true;
}

Status applyParameterEfficientMethod(Graph& graph, const TrainingMode& mode, DType computeDType) {
    if (!mode.isParameterEfficient()) return {};
    freezeAllWeights(graph);
    if (mode.name == "lora" && mode.lora.half_base && computeDType != DType::f32)
        for (Tensor& t : graph.tensors())
            if (t.role == TensorRole::weight && isFloating(t.dtype)) t.dtype = computeDType;
    GraphBuilder b(std::move(graph));
    Status s;
    if (mode.name == "lora") s = addLora(b, mode.lora, computeDType);
    else if (mode.name == "prefix_tuning") s = addPrefixes(b, mode.virtual_tokens.num_virtual_tokens);
    else s = addVirtualPrompt(b, mode);
    auto built = b.finish();
    if (!built) return built.error();
    graph = std::move(*built);
    if (!s) return s;
    // New nodes were appended: renumber into a program order (adapters beside their layer).
    reorderNodes(graph, graph.topologicalOrder());
    return {};
}

ParameterSplit parameterSplit(const Graph& graph) {
    ParameterSplit split;
    for (const Tensor& t : graph.tensors())
        if (t.role == TensorRole::weight) (t.frozen ? split.frozen : split.trainable) += t.numel();
    return split;
}

}  // namespace npu::engine
