#include "engine/npuom/graph_json.h"

#include "engine/ir/op_registry.h"

#include <optional>

namespace npu::engine {
namespace {

using nlohmann::json;

// Attribute values keep their C++ type through a one-key object: {"i": 3}, {"f": 0.5},
// {"s": "NOTSET"}, {"ints": [...]}, {"floats": [...]}.
json attrToJson(const AttrValue& v) {
    if (auto p = std::get_if<std::int64_t>(&v)) return {{"i", *p}};
    if (auto p = std::get_if<double>(&v)) return {{"f", *p}};
    if (auto p = std::get_if<std::string>(&v)) return {{"s", *p}};
    if (auto p = std::get_if<std::vector<std::int64_t>>(&v)) return {{"ints", *p}};
    return {{"floats", std::get<std::vector<double>>(v)}};
}

std::optional<AttrValue> attrFromJson(const json& j) {
    if (!j.is_object() || j.size() != 1) return std::nullopt;
    // Read the one member through an iterator of `j` itself: binding references into
    // `*j.items().begin()` dangles (items() returns a temporary proxy; ASan: stack-use-after-scope).
    const auto member = j.begin();
    const std::string& key = member.key();
    const json& value = member.value();
    if (key == "i" && value.is_number_integer()) return AttrValue(value.get<std::int64_t>());
    if (key == "f" && value.is_number()) return AttrValue(value.get<double>());
    if (key == "s" && value.is_string()) return AttrValue(value.get<std::string>());
    if (key == "ints" && value.is_array()) return AttrValue(value.get<std::vector<std::int64_t>>());
    if (key == "floats" && value.is_array()) return AttrValue(value.get<std::vector<double>>());
    return std::nullopt;
}

template <typename E, size_t N>
std::optional<E> parseEnum(const std::string& s, std::string_view (*nameOf)(E), const E (&all)[N]) {
    for (E e : all)
        if (nameOf(e) == s) return e;
    return std::nullopt;
}

constexpr TensorRole kRoles[] = {TensorRole::weight, TensorRole::master_weight, TensorRole::activation,
                                 TensorRole::gradient, TensorRole::optimizer_state, TensorRole::temporary,
                                 TensorRole::comm_buffer, TensorRole::input, TensorRole::kv_cache,
                                 TensorRole::gathered_weight};
constexpr Phase kPhases[] = {Phase::forward, Phase::backward, Phase::recompute, Phase::optimizer, Phase::communication};

}  // namespace

json graphToJson(const Graph& graph) {
    json tensors = json::array();
    for (const Tensor& t : graph.tensors()) {
        json jt = {{"name", t.name}, {"shape", t.shape}, {"dtype", dtypeName(t.dtype)}, {"role", tensorRoleName(t.role)},
                   {"producer", t.producer}, {"consumers", t.consumers}};
        if (!t.symbolicDims.empty()) jt["symbolic_dims"] = t.symbolicDims;
        tensors.push_back(std::move(jt));
    }
    json nodes = json::array();
    for (const Node& n : graph.nodes()) {
        json attrs = json::object();
        for (const auto& [k, v] : n.attrs) attrs[k] = attrToJson(v);
        json jn = {{"op", n.op}, {"name", n.name}, {"inputs", n.inputs}, {"outputs", n.outputs}, {"attrs", attrs},
                   {"phase", phaseName(n.phase)}, {"dtype", dtypeName(n.dtype)}};
        if (!n.block.empty()) jn["block"] = n.block;
        if (n.forwardNode >= 0) jn["forward_node"] = n.forwardNode;
        if (n.opaque) jn["opaque"] = true;
        if (graph.isRemoved(n.id)) jn["removed"] = true;
        nodes.push_back(std::move(jn));
    }
    return {{"name", graph.name}, {"inputs", graph.inputs}, {"outputs", graph.outputs}, {"tensors", tensors}, {"nodes", nodes}};
}

Expected<Graph> graphFromJson(const json& j, const std::string& where) {
    auto bad = [&](const std::string& path, const std::string& what) {
        return makeError(where + ": " + path + ": " + what);
    };
    try {
        if (!j.is_object() || !j.contains("tensors") || !j.contains("nodes"))
            return bad("graph", "expected an object with \"tensors\" and \"nodes\"");
        Graph g;
        g.name = j.value("name", std::string());
        const auto& tensors = j.at("tensors");
        const auto& nodes = j.at("nodes");
        const auto tensorCount = static_cast<int>(tensors.size());
        for (size_t i = 0; i < tensors.size(); ++i) {
            const auto& t = tensors[i];
            const std::string path = "graph.tensors[" + std::to_string(i) + "]";
            auto dtype = parseDType(t.at("dtype").get<std::string>());
            auto role = parseEnum(t.at("role").get<std::string>(), tensorRoleName, kRoles);
            if (!dtype) return bad(path + ".dtype", "unknown dtype \"" + t.at("dtype").get<std::string>() + "\"");
            if (!role) return bad(path + ".role", "unknown role \"" + t.at("role").get<std::string>() + "\"");
            const int id = g.addTensor(t.at("name").get<std::string>(), t.at("shape").get<std::vector<std::int64_t>>(), *dtype, *role);
            if (t.contains("symbolic_dims")) g.tensor(id).symbolicDims = t.at("symbolic_dims").get<std::vector<std::string>>();
        }
        auto checkIds = [&](const std::vector<int>& ids, const std::string& path, bool allowMissing) -> Status {
            for (size_t k = 0; k < ids.size(); ++k)
                if (ids[k] >= tensorCount || ids[k] < (allowMissing ? -1 : 0))
                    return bad(path + "[" + std::to_string(k) + "]", "tensor id " + std::to_string(ids[k]) + " out of range");
            return {};
        };
        std::vector<int> removed;
        for (size_t i = 0; i < nodes.size(); ++i) {
            const auto& n = nodes[i];
            const std::string path = "graph.nodes[" + std::to_string(i) + "]";
            auto ins = n.at("inputs").get<std::vector<int>>();
            auto outs = n.at("outputs").get<std::vector<int>>();
            if (auto s = checkIds(ins, path + ".inputs", true); !s) return s.error();
            if (auto s = checkIds(outs, path + ".outputs", true); !s) return s.error();
            Attributes attrs;
            for (const auto& [k, v] : n.at("attrs").items()) {
                auto a = attrFromJson(v);
                if (!a) return bad(path + ".attrs." + k, "expected {\"i\"|\"f\"|\"s\"|\"ints\"|\"floats\": value}");
                attrs.emplace(k, std::move(*a));
            }
            auto phase = parseEnum(n.at("phase").get<std::string>(), phaseName, kPhases);
            auto dtype = parseDType(n.at("dtype").get<std::string>());
            if (!phase) return bad(path + ".phase", "unknown phase");
            if (!dtype) return bad(path + ".dtype", "unknown dtype");
            const int id = g.addNode(n.at("op").get<std::string>(), n.at("name").get<std::string>(), std::move(ins),
                                     std::move(outs), std::move(attrs), *phase, *dtype);
            Node& node = g.node(id);
            node.block = n.value("block", std::string());
            node.forwardNode = n.value("forward_node", -1);
            node.opaque = n.value("opaque", false);
            if (node.forwardNode >= static_cast<int>(nodes.size()) || node.forwardNode < -1)
                return bad(path + ".forward_node", "node id out of range");
            if (n.value("removed", false)) removed.push_back(id);
        }
        for (const Node& node : g.nodes())
            if (auto s = checkKnownOp(g, node, where + ": graph.nodes[" + std::to_string(node.id) + "]"); !s) return s.error();
        for (int id : removed) g.markRemoved(id);
        g.inputs = j.value("inputs", std::vector<int>{});
        g.outputs = j.value("outputs", std::vector<int>{});
        if (auto s = checkIds(g.inputs, "graph.inputs", false); !s) return s.error();
        if (auto s = checkIds(g.outputs, "graph.outputs", false); !s) return s.error();
        // The links rebuilt by addNode must be the ones written: a mismatch means the
        // file was edited inconsistently.
        for (size_t i = 0; i < tensors.size(); ++i) {
            const auto& t = tensors[i];
            const Tensor& rebuilt = g.tensor(static_cast<int>(i));
            if (t.value("producer", -1) != rebuilt.producer ||
                t.value("consumers", std::vector<int>{}) != rebuilt.consumers)
                return bad("graph.tensors[" + std::to_string(i) + "]", "producer/consumers do not match the nodes");
        }
        return g;
    } catch (const json::exception& e) {
        return makeError(where + ": malformed graph: " + e.what());
    }
}

}  // namespace npu::engine
