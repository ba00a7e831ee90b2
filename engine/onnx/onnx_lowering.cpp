#include "engine/onnx/onnx_lowering.h"

#include "engine/onnx/onnx_shape_binding.h"
#include "engine/onnx/onnx_shape_fallback.h"
#include "engine/ir/op_registry.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <functional>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace npu::engine::onnx_detail {
namespace {

struct ValueType {
    std::vector<std::int64_t> shape;
    std::vector<std::string> symbols;
    DType dtype = DType::unknown;
    bool hasShape = false;
};

ValueType typeFromValueInfo(const onnx::ValueInfoProto& v) {
    ValueType t;
    if (!v.type().has_tensor_type()) return t;
    const auto& tt = v.type().tensor_type();
    t.dtype = dtypeFromOnnx(tt.elem_type());
    if (!tt.has_shape()) return t;
    t.hasShape = true;
    for (const auto& d : tt.shape().dim()) {
        t.shape.push_back(d.has_dim_value() ? d.dim_value() : kUnknownDim);
        t.symbols.push_back(d.has_dim_param() ? d.dim_param() : std::string());
    }
    return t;
}

bool containsCaseless(const std::string& s, const char* word) {
    std::string lower(s);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    return lower.find(word) != std::string::npos;
}

bool looksLikeWeightName(const std::string& name) {
    return containsCaseless(name, "weight") || containsCaseless(name, "bias") || containsCaseless(name, "gamma") ||
           containsCaseless(name, "beta") || containsCaseless(name, "kernel");
}

// Inputs that feed an op as its parameter rather than its data.
bool isParameterSlot(OpKind op, int index) {
    if (index <= 0) return false;
    if (op == OpKind::Conv || op == OpKind::ConvTranspose || op == OpKind::Gemm || op == OpKind::LayerNormalization ||
        op == OpKind::InstanceNormalization || op == OpKind::GroupNormalization)
        return true;
    if (op == OpKind::MatMul || op == OpKind::PRelu) return index == 1;
    if (op == OpKind::BatchNormalization) return index <= 2;  // scale, B; mean/var are statistics
    return false;
}

bool isStatisticsSlot(OpKind op, int index) {
    return op == OpKind::BatchNormalization && (index == 3 || index == 4);
}

AttrValue convertAttribute(const onnx::AttributeProto& a) {
    switch (a.type()) {
    case onnx::AttributeProto::INT: return static_cast<std::int64_t>(a.i());
    case onnx::AttributeProto::FLOAT: return static_cast<double>(a.f());
    case onnx::AttributeProto::STRING: return a.s();
    case onnx::AttributeProto::INTS: return std::vector<std::int64_t>(a.ints().begin(), a.ints().end());
    case onnx::AttributeProto::FLOATS: {
        std::vector<double> v;
        for (float f : a.floats()) v.push_back(f);
        return v;
    }
    case onnx::AttributeProto::STRINGS: {
        std::string joined;
        for (const auto& s : a.strings()) joined += (joined.empty() ? "" : ",") + s;
        return joined;
    }
    case onnx::AttributeProto::TENSOR:
        return std::vector<std::int64_t>(a.t().dims().begin(), a.t().dims().end());
    case onnx::AttributeProto::GRAPH: return std::string("<subgraph: ") + std::to_string(a.g().node_size()) + " nodes>";
    case onnx::AttributeProto::GRAPHS: return std::string("<") + std::to_string(a.graphs_size()) + " subgraphs>";
    default: return std::string("<unsupported attribute type>");
    }
}

// Values of a small integer tensor (shape constants for Reshape/Unsqueeze/Slice), read
// only below a handful of elements: never weight data.
std::vector<std::int64_t> smallIntValues(const onnx::TensorProto& t) {
    std::int64_t n = 1;
    for (auto d : t.dims()) n *= d;
    if (n > 16 || n < 0) return {};
    std::vector<std::int64_t> v;
    if (t.data_type() == onnx::TensorProto::INT64) {
        if (t.int64_data_size()) v.assign(t.int64_data().begin(), t.int64_data().end());
        else if (t.raw_data().size() == static_cast<size_t>(n) * 8)
            for (std::int64_t i = 0; i < n; ++i) {
                std::int64_t x;
                std::memcpy(&x, t.raw_data().data() + i * 8, 8);
                v.push_back(x);
            }
    } else if (t.data_type() == onnx::TensorProto::INT32) {
        if (t.int32_data_size()) v.assign(t.int32_data().begin(), t.int32_data().end());
        else if (t.raw_data().size() == static_cast<size_t>(n) * 4)
            for (std::int64_t i = 0; i < n; ++i) {
                std::int32_t x;
                std::memcpy(&x, t.raw_data().data() + i * 4, 4);
                v.push_back(x);
            }
    }
    return v;
}

bool isFloatingDtype(DType d) { return isFloating(d); }

// Undecided float inputs of a weights-free export that meet the data at some node: an
// input of that node is computed from `undecided[i]` while another input is computed from
// a data input. A ViT's class token is expanded to the batch's shape and concatenated with
// the patches, its position embedding added to them, a BERT's embedding tables gathered
// by the token ids: parameters, used as no MatMul/Conv weight. Nodes are in topological
// order (the ONNX spec requires it).
std::set<std::string> combinedWithData(const onnx::GraphProto& g, const std::vector<std::string>& undecided,
                                       const std::set<std::string>& data) {
    struct Origin {
        bool data = false;
        std::set<int> undecided;  // indexes into `undecided`
    };
    std::unordered_map<std::string, Origin> origin;
    for (const auto& name : data) origin[name].data = true;
    for (std::size_t i = 0; i < undecided.size(); ++i) origin[undecided[i]].undecided.insert(static_cast<int>(i));
    std::set<int> combined;
    for (const auto& n : g.node()) {
        Origin out;
        for (int i = 0; i < n.input_size(); ++i) {
            auto it = origin.find(n.input(i));
            if (it == origin.end()) continue;
            out.data = out.data || it->second.data;
            out.undecided.insert(it->second.undecided.begin(), it->second.undecided.end());
            for (int j = 0; j < n.input_size(); ++j) {
                if (j == i || it->second.undecided.empty()) continue;
                auto other = origin.find(n.input(j));
                if (other != origin.end() && other->second.data)
                    combined.insert(it->second.undecided.begin(), it->second.undecided.end());
            }
        }
        if (!out.data && out.undecided.empty()) continue;
        for (const auto& o : n.output()) origin[o] = out;
    }
    std::set<std::string> names;
    for (int i : combined) names.insert(undecided[static_cast<std::size_t>(i)]);
    return names;
}

}  // namespace

std::string blockFromNames(const std::string& nodeName, const std::vector<std::string>& weightNames) {
    // A scope component with a numeric suffix ("layer1.0", "h.11") names a repeated block;
    // the deepest such prefix groups all of the block's nodes.
    auto numberedPrefix = [](const std::string& s, char sep) -> std::string {
        std::string best;
        size_t start = 0;
        while (start <= s.size()) {
            size_t end = s.find(sep, start);
            if (end == std::string::npos) end = s.size();
            const std::string part = s.substr(start, end - start);
            if (!part.empty() && std::all_of(part.begin(), part.end(), [](unsigned char c) { return std::isdigit(c); }))
                best = s.substr(0, end);
            else if (auto dot = part.rfind('.'); dot != std::string::npos && dot + 1 < part.size() &&
                     std::all_of(part.begin() + static_cast<long>(dot) + 1, part.end(),
                                 [](unsigned char c) { return std::isdigit(c); }))
                best = s.substr(0, end);
            start = end + 1;
        }
        return best;
    };
    if (nodeName.find('/') != std::string::npos) {
        std::string b = numberedPrefix(nodeName, '/');
        if (!b.empty()) {
            if (b.front() == '/') b.erase(0, 1);
            if (auto slash = b.rfind('/'); slash != std::string::npos) b = b.substr(slash + 1);
            return b;
        }
    }
    for (const auto& w : weightNames) {
        std::string b = numberedPrefix(w, '.');
        if (!b.empty()) return b;
    }
    return {};
}

Graph lowerOnnxGraph(const onnx::ModelProto& model, const OnnxImportOptions& options, ConversionReport& report,
                     const std::set<std::string>& dataInputs) {
    const auto& g = model.graph();
    Graph graph;
    graph.name = g.name();

    std::unordered_map<std::string, ValueType> types;
    for (const auto& v : g.value_info()) types[v.name()] = typeFromValueInfo(v);
    for (const auto& v : g.output()) types[v.name()] = typeFromValueInfo(v);
    for (const auto& v : g.input()) types[v.name()] = typeFromValueInfo(v);

    // Consumers of each value, for the weights-as-inputs heuristics.
    std::unordered_map<std::string, std::vector<std::pair<OpKind, int>>> uses;
    for (const auto& n : g.node())
        for (int i = 0; i < n.input_size(); ++i) uses[n.input(i)].emplace_back(opKindFromName(n.op_type()), i);
    // Identity consumers are looked through: the exporter routes shared parameters via them.
    std::unordered_map<std::string, std::string> identityOutput;
    for (const auto& n : g.node())
        if (opKindFromName(n.op_type()) == OpKind::Identity && n.input_size() == 1 && n.output_size() == 1)
            identityOutput[n.input(0)] = n.output(0);
    std::function<bool(const std::string&, bool (*)(OpKind, int), int)> usedOnlyAsImpl =
        [&](const std::string& name, bool (*slot)(OpKind, int), int depth) {
            auto it = uses.find(name);
            if (it == uses.end() || it->second.empty() || depth > 8) return false;
            return std::all_of(it->second.begin(), it->second.end(), [&](const auto& u) {
                if (u.first == OpKind::Identity) {
                    auto out = identityOutput.find(name);
                    return out != identityOutput.end() && usedOnlyAsImpl(out->second, slot, depth + 1);
                }
                return slot(u.first, u.second);
            });
        };
    auto usedOnlyAs = [&](const std::string& name, bool (*slot)(OpKind, int)) {
        return usedOnlyAsImpl(name, slot, 0);
    };

    std::unordered_map<std::string, int> ids;
    std::unordered_set<int> constants;  // non-trainable constant values (shape path)
    auto newTensor = [&](const std::string& name, const ValueType& t, TensorRole role) {
        std::vector<std::int64_t> shape = t.hasShape ? t.shape : std::vector<std::int64_t>{kUnknownDim};
        std::vector<std::string> symbols = t.hasShape ? t.symbols : std::vector<std::string>{"?"};
        DType dtype = t.dtype;
        if (isFloating(options.targetPrecision) && isFloatingDtype(dtype)) dtype = options.targetPrecision;
        const int id = graph.addTensor(name, std::move(shape), dtype, role);
        if (std::any_of(symbols.begin(), symbols.end(), [](const auto& s) { return !s.empty(); }))
            graph.tensor(id).symbolicDims = std::move(symbols);
        ids[name] = id;
        return id;
    };

    // Initializers: shapes and dtypes only.
    for (const auto& init : g.initializer()) {
        ValueType t;
        t.dtype = dtypeFromOnnx(init.data_type());
        t.hasShape = true;
        t.shape.assign(init.dims().begin(), init.dims().end());
        t.symbols.assign(t.shape.size(), std::string());
        const bool trainable = isFloating(t.dtype) && !usedOnlyAs(init.name(), isStatisticsSlot);
        const int id = newTensor(init.name(), t, trainable ? TensorRole::weight : TensorRole::input);
        if (!trainable) constants.insert(id);
    }
    // Graph inputs: data, or parameters exported as inputs (a weights-free export).
    auto usedAsWeight = [&](const onnx::ValueInfoProto& in) {
        return isFloating(types[in.name()].dtype) &&
               (usedOnlyAs(in.name(), isParameterSlot) || (looksLikeWeightName(in.name()) && !uses[in.name()].empty() &&
                                                           g.input_size() > 1 && in.name() != g.input(0).name()));
    };
    auto usedAsStatistics = [&](const onnx::ValueInfoProto& in) {
        return isFloating(types[in.name()].dtype) && usedOnlyAs(in.name(), isStatisticsSlot);
    };
    // In a weights-free export, the other float inputs consumed like weights are
    // parameters too; data inputs (dynamic before binding, integer, bound by the user, the
    // graph's first input) are not.
    std::set<std::string> dataNames = dataInputs;
    std::vector<std::string> undecided;
    bool weightsFree = false;
    for (const auto& in : g.input()) {
        if (ids.count(in.name())) continue;
        if (usedAsWeight(in)) weightsFree = true;
        else if (usedAsStatistics(in)) continue;
        else if (!isFloating(types[in.name()].dtype) || in.name() == g.input(0).name()) dataNames.insert(in.name());
        else if (!dataNames.count(in.name())) undecided.push_back(in.name());
    }
    const std::set<std::string> combined =
        weightsFree && !undecided.empty() ? combinedWithData(g, undecided, dataNames) : std::set<std::string>{};
    if (!combined.empty())
        report.log.push_back(std::to_string(combined.size()) +
                             " graph inputs are parameters combined with the data (class tokens, position embeddings, ...)");
    int weightInputs = 0;
    for (const auto& in : g.input()) {
        if (ids.count(in.name())) continue;  // initializer listed as input (IR < 4)
        const ValueType& t = types[in.name()];
        const bool weight = usedAsWeight(in) || combined.count(in.name());
        const bool stats = !weight && usedAsStatistics(in);
        const int id = newTensor(in.name(), t, weight ? TensorRole::weight : TensorRole::input);
        if (weight) ++weightInputs;
        else if (stats) constants.insert(id);
        else graph.inputs.push_back(id);
    }
    if (weightInputs > 0)
        report.log.push_back(std::to_string(weightInputs) + " graph inputs are parameters (used as weights or named so)");

    auto tensorFor = [&](const std::string& name) -> int {
        if (name.empty()) return -1;
        auto it = ids.find(name);
        if (it != ids.end()) return it->second;
        auto tt = types.find(name);
        return newTensor(name, tt == types.end() ? ValueType{} : tt->second, TensorRole::activation);
    };

    const auto& registry = OpRegistry::instance();
    std::set<std::string> usedNames;
    std::map<std::string, std::vector<std::string>> unsupported;
    int foldedIdentities = 0;
    for (int index = 0; index < g.node_size(); ++index) {
        const auto& n = g.node(index);
        const std::string op = n.domain().empty() || n.domain() == "ai.onnx" ? n.op_type() : n.domain() + "::" + n.op_type();
        const OpKind kind = opKindFromName(op);
        // The exporter deduplicates equal-valued parameters (LayerNorm ones, zero biases)
        // behind Identity nodes; each output is a distinct parameter of the source model.
        if (kind == OpKind::Identity && n.input_size() == 1 && n.output_size() == 1) {
            auto src = ids.find(n.input(0));
            if (src != ids.end() && graph.tensor(src->second).role == TensorRole::weight) {
                const Tensor& w = graph.tensor(src->second);
                const int id = graph.addTensor(n.output(0), w.shape, w.dtype, TensorRole::weight);
                ids[n.output(0)] = id;
                ++foldedIdentities;
                continue;
            }
        }
        std::string name = n.name().empty() ? n.op_type() + "_" + std::to_string(index) : n.name();
        if (!usedNames.insert(name).second) {
            name += "#" + std::to_string(index);
            usedNames.insert(name);
        }
        std::vector<int> ins, outs;
        std::vector<std::string> weightNames;
        bool allConstant = n.input_size() > 0;
        for (const auto& i : n.input()) {
            const int id = tensorFor(i);
            ins.push_back(id);
            if (id >= 0 && graph.tensor(id).role == TensorRole::weight) weightNames.push_back(i);
            if (id >= 0 && !constants.count(id)) allConstant = false;
        }
        for (const auto& o : n.output()) outs.push_back(tensorFor(o));
        Attributes attrs;
        for (const auto& a : n.attribute()) attrs[a.name()] = convertAttribute(a);
        if (kind == OpKind::Constant) {
            for (const auto& a : n.attribute()) {
                if (a.type() != onnx::AttributeProto::TENSOR || outs.empty() || outs[0] < 0) continue;
                auto& t = graph.tensor(outs[0]);
                if (t.hasUnknownDims() || t.shape.empty()) t.shape.assign(a.t().dims().begin(), a.t().dims().end());
                if (t.dtype == DType::unknown) t.dtype = dtypeFromOnnx(a.t().data_type());
                if (auto v = smallIntValues(a.t()); !v.empty()) attrs[kConstantValueAttr] = v;
            }
        }
        const bool shapeSource = kind == OpKind::Constant || kind == OpKind::Shape || kind == OpKind::Size;
        if (allConstant || shapeSource) {
            for (int o : outs)
                if (o >= 0) constants.insert(o);
            if (allConstant && !registry.isShapeOnly(op)) attrs[kShapeOnlyAttr] = std::int64_t{1};
        }
        // ONNX models are inference graphs: their Dropout is the identity (training
        // simulation derives its own dropout from the model, not from this node).
        if (kind == OpKind::Dropout) attrs[kShapeOnlyAttr] = std::int64_t{1};
        DType dtype = DType::f32;
        if (!outs.empty() && outs[0] >= 0 && graph.tensor(outs[0]).dtype != DType::unknown)
            dtype = graph.tensor(outs[0]).dtype;
        const int id = graph.addNode(op, name, std::move(ins), std::move(outs), std::move(attrs), Phase::forward, dtype);
        Node& node = graph.node(id);
        node.block = blockFromNames(node.name, weightNames);
        if (!registry.known(op)) {
            node.opaque = true;
            unsupported[op].push_back(name);
        }
    }
    if (foldedIdentities > 0)
        report.log.push_back(std::to_string(foldedIdentities) +
                             " Identity nodes of parameters (deduplicated by the exporter) became separate parameters");
    for (const auto& out : g.output()) {
        auto it = ids.find(out.name());
        if (it != ids.end()) graph.outputs.push_back(it->second);
    }
    for (auto& [op, nodes] : unsupported) report.unsupported.push_back({op, std::move(nodes)});
    return graph;
}

}  // namespace npu::engine::onnx_detail
