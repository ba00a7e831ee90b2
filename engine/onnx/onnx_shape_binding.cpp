#include "engine/onnx/onnx_shape_binding.h"

#include "engine/onnx/onnx_checked_schemas.h"

#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>

namespace npu::engine::onnx_detail {
namespace {

std::string joinDims(const std::vector<std::int64_t>& dims) {
    std::string s;
    for (size_t i = 0; i < dims.size(); ++i) s += (i ? "," : "") + std::to_string(dims[i]);
    return s;
}

void substituteSymbols(onnx::ValueInfoProto& v, const std::map<std::string, std::int64_t>& symbols) {
    if (!v.type().has_tensor_type() || !v.type().tensor_type().has_shape()) return;
    auto* shape = v.mutable_type()->mutable_tensor_type()->mutable_shape();
    for (auto& d : *shape->mutable_dim()) {
        if (!d.has_dim_param()) continue;
        auto it = symbols.find(d.dim_param());
        if (it != symbols.end() && it->second >= 0) d.set_dim_value(it->second);
    }
}

bool namedLikeBatch(std::string symbol) {
    std::transform(symbol.begin(), symbol.end(), symbol.begin(), [](unsigned char c) { return std::tolower(c); });
    return symbol.find("batch") != std::string::npos || symbol == "n" || symbol == "b" || symbol == "bs" ||
           symbol == "bsz";
}

bool hasDynamicDim(const onnx::ValueInfoProto& v) {
    if (!v.type().has_tensor_type() || !v.type().tensor_type().has_shape()) return false;
    for (const auto& d : v.type().tensor_type().shape().dim())
        if (!d.has_dim_value()) return true;
    return false;
}

// "node 'n' (Op) reads 'x', which ..." for the first top-level node input that no graph
// input, initializer or earlier node defines (ONNX requires topological order).
std::optional<std::string> firstUndefinedInput(const onnx::GraphProto& g) {
    std::set<std::string> defined;
    for (const auto& i : g.input()) defined.insert(i.name());
    for (const auto& t : g.initializer()) defined.insert(t.name());
    for (const auto& n : g.node()) {
        for (const auto& in : n.input())
            if (!in.empty() && !defined.count(in))
                return "node '" + n.name() + "' (" + n.op_type() + ") reads '" + in +
                       "', which no graph input, initializer or earlier node defines";
        for (const auto& out : n.output()) defined.insert(out);
    }
    return std::nullopt;
}

std::optional<std::string> firstNonPositiveWindow(const onnx::GraphProto& g) {
    for (const auto& n : g.node())
        for (const auto& a : n.attribute())
            if (a.name() == "strides" || a.name() == "dilations")
                for (auto v : a.ints())
                    if (v <= 0)
                        return "node '" + n.name() + "' (" + n.op_type() + ") has " + a.name() + " value " +
                               std::to_string(v) + "; expected positive values";
    return std::nullopt;
}

// Debian's libonnx 1.12 shape-inference functions trust a node to match its schema (input
// count, attribute types, required attributes) and dereference null when it does not: the
// fuzz smoke found a SEGV inside InferShapes on a one-bit change of a valid model. The
// checker's per-node verification catches every such node before inference runs; it
// recurses into subgraph attributes (If/Loop/Scan bodies), which inference also walks.
std::optional<std::string> firstSchemaViolation(const onnx::GraphProto& g, const std::map<std::string, int>& opsets) {
    for (const auto& n : g.node()) {
        const std::string domain = n.domain() == "ai.onnx" ? std::string() : n.domain();
        auto opset = opsets.find(domain);
        if (opset == opsets.end()) continue;  // a domain the model does not import: inference skips it too
        const auto* schema = onnx::OpSchemaRegistry::Schema(n.op_type(), opset->second, domain);
        if (!schema) continue;  // unknown op: inference skips it; our propagation reports it
        try {
            schema->Verify(n);
        } catch (const std::exception& e) {
            std::string what = e.what();
            if (auto pos = what.find('\n'); pos != std::string::npos) what.resize(pos);
            return "node '" + n.name() + "' (" + n.op_type() + ") does not match its ONNX schema: " + what;
        }
        for (const auto& a : n.attribute()) {
            if (a.has_g())
                if (auto bad = firstSchemaViolation(a.g(), opsets)) return bad;
            for (const auto& sub : a.graphs())
                if (auto bad = firstSchemaViolation(sub, opsets)) return bad;
        }
    }
    return std::nullopt;
}

std::map<std::string, int> importedOpsets(const onnx::ModelProto& model) {
    std::map<std::string, int> opsets;
    for (const auto& o : model.opset_import())
        opsets[o.domain() == "ai.onnx" ? std::string() : o.domain()] = static_cast<int>(o.version());
    return opsets;
}

}  // namespace

std::set<std::string> initializerNames(const onnx::GraphProto& graph) {
    std::set<std::string> names;
    for (const auto& t : graph.initializer()) names.insert(t.name());
    return names;
}

Expected<std::set<std::string>> bindInputShapes(onnx::ModelProto& model, const OnnxImportOptions& options,
                                                const std::string& name, ConversionReport& report) {
    auto& log = report.log;
    auto* graph = model.mutable_graph();
    const auto inits = initializerNames(*graph);
    std::map<std::string, std::int64_t> symbols = options.dimValues;
    std::set<std::string> dataInputs;
    for (const auto& in : graph->input())
        if (!inits.count(in.name()) && (hasDynamicDim(in) || options.inputShapes.count(in.name())))
            dataInputs.insert(in.name());
    std::string inputList;
    for (const auto& in : graph->input())
        if (!inits.count(in.name())) inputList += (inputList.empty() ? "" : ", ") + in.name();

    for (const auto& [inputName, dims] : options.inputShapes) {
        onnx::ValueInfoProto* input = nullptr;
        for (auto& in : *graph->mutable_input())
            if (in.name() == inputName) input = &in;
        if (!input)
            return makeError(name + ": --input-shape names '" + inputName + "', which is no graph input (inputs: " +
                             inputList + ")");
        auto* tensorType = input->mutable_type()->mutable_tensor_type();
        auto* shape = tensorType->mutable_shape();
        if (tensorType->has_shape() && shape->dim_size() != static_cast<int>(dims.size()) && shape->dim_size() > 0)
            return makeError(name + ": input '" + inputName + "' has rank " + std::to_string(shape->dim_size()) +
                             ", the given shape " + joinDims(dims) + " has rank " + std::to_string(dims.size()));
        while (shape->dim_size() < static_cast<int>(dims.size())) shape->add_dim();
        for (int i = 0; i < shape->dim_size(); ++i) {
            auto* d = shape->mutable_dim(i);
            const std::int64_t want = dims[static_cast<size_t>(i)];
            if (want < 0) continue;
            if (d->has_dim_value() && d->dim_value() != want)
                return makeError(name + ": input '" + inputName + "' dimension " + std::to_string(i) + " is " +
                                 std::to_string(d->dim_value()) + " in the model; the given shape says " +
                                 std::to_string(want));
            if (d->has_dim_param()) symbols.emplace(d->dim_param(), want);
            d->set_dim_value(want);
        }
        log.push_back("bound input '" + inputName + "' to [" + joinDims(dims) + "]");
    }
    if (options.bindBatchToOne) {
        for (const auto& in : graph->input()) {
            if (inits.count(in.name()) || !in.type().has_tensor_type() || !in.type().tensor_type().has_shape()) continue;
            for (const auto& d : in.type().tensor_type().shape().dim()) {
                if (!d.has_dim_param() || symbols.count(d.dim_param()) || !namedLikeBatch(d.dim_param())) continue;
                symbols.emplace(d.dim_param(), 1);
                report.warnings.push_back("dynamic dimension '" + d.dim_param() + "' of input '" + in.name() +
                                          "' bound to 1 (per-sample figures); give --input-shape " + in.name() +
                                          ":D1,D2,... to choose it");
            }
        }
    }
    for (const auto& [symbol, value] : symbols) log.push_back("dimension '" + symbol + "' = " + std::to_string(value));
    for (auto& v : *graph->mutable_input()) substituteSymbols(v, symbols);
    for (auto& v : *graph->mutable_output()) substituteSymbols(v, symbols);
    for (auto& v : *graph->mutable_value_info()) substituteSymbols(v, symbols);
    return dataInputs;
}

void inferShapes(onnx::ModelProto& model, std::vector<std::string>& warnings) {
    // Debian's libonnx 1.12 dereferences a null type when a node reads a value nothing
    // defines (found by fuzz_onnx_import: a Shape node reading an undefined name): such a
    // graph skips ONNX inference; the registry's propagation still runs.
    if (auto undefined = firstUndefinedInput(model.graph())) {
        warnings.push_back("ONNX shape inference skipped: " + *undefined);
        return;
    }
    // ...and divides by zero on a zero stride or dilation (AveragePool strides [0, 2]).
    if (auto bad = firstNonPositiveWindow(model.graph())) {
        warnings.push_back("ONNX shape inference skipped: " + *bad);
        return;
    }
    if (auto bad = firstSchemaViolation(model.graph(), importedOpsets(model))) {
        warnings.push_back("ONNX shape inference skipped: " + *bad);
        return;
    }
    // Axis attributes are checked node by node inside inference, against the ranks it has
    // produced so far (onnx_checked_schemas.h): a node with an axis out of range is skipped.
    CheckedSchemaRegistry registry(model.graph());
    try {
        onnx::ShapeInferenceOptions opts(/*check_type=*/false, /*error_mode=*/0, /*data_prop=*/true);
        onnx::shape_inference::InferShapes(model, &registry, opts);
    } catch (const std::exception& e) {
        std::string what = e.what();
        if (auto pos = what.find('\n'); pos != std::string::npos) what.resize(pos);
        warnings.push_back("ONNX shape inference stopped: " + what + " (continuing with the converter's own propagation)");
    }
    // A fuzzed graph may have thousands of such nodes: the first few name the problem.
    constexpr size_t kListed = 8;
    const auto& skipped = registry.skippedNodes();
    for (size_t i = 0; i < std::min(skipped.size(), kListed); ++i)
        warnings.push_back("ONNX shape inference skipped " + skipped[i]);
    if (skipped.size() > kListed)
        warnings.push_back("ONNX shape inference skipped " + std::to_string(skipped.size() - kListed) +
                           " more nodes with an axis out of range");
}

}  // namespace npu::engine::onnx_detail
