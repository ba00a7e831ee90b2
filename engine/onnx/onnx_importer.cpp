#include "engine/onnx/onnx_importer.h"

#include "engine/onnx/onnx_lowering.h"
#include "engine/onnx/onnx_model_reader.h"
#include "engine/onnx/onnx_shape_binding.h"
#include "engine/onnx/onnx_shape_fallback.h"
#include "engine/ir/op_registry.h"

#include <chrono>
#include <charconv>

namespace npu::engine {
namespace {

using namespace onnx_detail;

// Keeps the report readable on models where one unbound input leaves most tensors
// unknown: the origins (unknown outputs of nodes whose inputs are all known) and the
// inputs are listed, the rest counted.
constexpr size_t kMaxUnboundEntries = 64;

bool fullyKnown(const Tensor& t) { return !t.hasUnknownDims(); }

void collectUnboundDims(const Graph& graph, ConversionReport& report) {
    auto add = [&](const Tensor& t, const std::string& where) {
        for (size_t axis = 0; axis < t.shape.size(); ++axis) {
            if (t.shape[axis] >= 0) continue;
            if (report.unboundDims.size() >= kMaxUnboundEntries) return false;
            const std::string symbol = axis < t.symbolicDims.size() ? t.symbolicDims[axis] : std::string();
            report.unboundDims.push_back({t.name, static_cast<int>(axis), symbol, where});
        }
        return true;
    };
    for (int id : graph.inputs)
        if (!fullyKnown(graph.tensor(id))) add(graph.tensor(id), "input");
    std::int64_t unknownTensors = 0;
    for (const Node& n : graph.nodes()) {
        bool inputsKnown = true;
        for (int t : n.inputs)
            if (t >= 0 && !fullyKnown(graph.tensor(t))) inputsKnown = false;
        for (int t : n.outputs) {
            if (t < 0 || fullyKnown(graph.tensor(t))) continue;
            ++unknownTensors;
            if (inputsKnown) add(graph.tensor(t), "output of " + n.name + " (" + n.op + ")");
        }
    }
    if (unknownTensors > 0)
        report.warnings.push_back(std::to_string(unknownTensors) +
                                  " tensors keep unknown dimensions; bind the dynamic inputs (--input-shape NAME:D1,D2,...) "
                                  "for their FLOPs and bytes to count");
}

void summarise(const Graph& graph, ConversionReport& report) {
    // The simulator's own costs (the op registry), node by node.
    const auto& registry = OpRegistry::instance();
    for (const Node& n : graph.nodes()) {
        ++report.opTypes[n.op];
        const OpCost c = registry.cost(graph, n);
        report.forwardMacs += static_cast<std::int64_t>(c.macs);
        report.forwardFlops += static_cast<std::int64_t>(c.flops);
    }
    report.nodes = static_cast<std::int64_t>(graph.nodes().size());
    report.params = graph.parameterCount();
    for (const Tensor& t : graph.tensors())
        if (t.role == TensorRole::weight) report.weightBytes += t.bytes();
}

std::string unsupportedList(const ConversionReport& report) {
    std::string s;
    for (const auto& u : report.unsupported) {
        s += (s.empty() ? "" : "; ") + u.opType + " (";
        for (size_t i = 0; i < u.nodes.size() && i < 5; ++i) s += (i ? ", " : "") + u.nodes[i];
        if (u.nodes.size() > 5) s += ", +" + std::to_string(u.nodes.size() - 5) + " more";
        s += ")";
    }
    return s;
}

Expected<ConversionResult> convert(std::string_view bytes, const std::string& name, const std::filesystem::path& modelDir,
                                   const OnnxImportOptions& options, const Progress& progress) {
    const auto start = std::chrono::steady_clock::now();
    auto cancelled = [&]() -> Error { return cancelledError(name + ": conversion cancelled"); };
    ConversionResult result;
    ConversionReport& report = result.report;
    report.source = name;
    report.targetDevice = options.targetDevice;
    report.targetPrecision = options.targetPrecision == DType::unknown ? std::string("model")
                                                                        : std::string(dtypeName(options.targetPrecision));
    progress(0.0, "parsing ONNX");
    auto model = parseOnnxModel(bytes, name, modelDir, report.warnings);
    if (!model) return model.error();
    if (progress.cancelled()) return cancelled();
    report.producer = model->producer_name() + (model->producer_version().empty() ? "" : " " + model->producer_version());
    report.irVersion = model->ir_version();
    report.opset = defaultOpset(*model);
    report.model = model->graph().name().empty() ? std::filesystem::path(name).stem().string() : model->graph().name();
    report.log.push_back("parsed " + name + ": ir_version " + std::to_string(report.irVersion) + ", opset " +
                         std::to_string(report.opset) + ", " + std::to_string(model->graph().node_size()) + " nodes");

    auto dataInputs = bindInputShapes(*model, options, name, report);
    if (!dataInputs) return dataInputs.error();
    progress(0.2, "ONNX shape inference");
    inferShapes(*model, report.warnings);
    if (progress.cancelled()) return cancelled();

    progress(0.6, "lowering to the engine graph");
    result.graph = lowerOnnxGraph(*model, options, report, *dataInputs);
    if (std::filesystem::path(name).has_stem() && result.graph.name.empty()) result.graph.name = report.model;
    model = makeError("released");  // free the protobuf (and its weight bytes) early
    if (progress.cancelled()) return cancelled();

    progress(0.8, "propagating shapes");
    if (int filled = propagateShapes(result.graph); filled > 0)
        report.log.push_back("converter shape propagation filled " + std::to_string(filled) + " tensors");
    collectUnboundDims(result.graph, report);
    summarise(result.graph, report);

    if (!report.unsupported.empty()) {
        report.status = options.strict ? "failed" : "partial";
        if (options.strict)
            return makeError(name + ": strict mode: " + std::to_string(report.unsupportedNodeCount()) +
                             " nodes of unsupported op types: " + unsupportedList(report));
        report.warnings.push_back(std::to_string(report.unsupportedNodeCount()) +
                                  " nodes kept as opaque (costed by bytes only): " + unsupportedList(report));
    }
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    report.log.push_back("converted: " + std::to_string(report.nodes) + " nodes, " + std::to_string(report.params) +
                         " parameters, " + std::to_string(report.forwardMacs) + " MACs");
    progress(1.0, "done");
    return result;
}

}  // namespace

Expected<ConversionResult> importOnnxForwardGraph(const std::filesystem::path& file, const OnnxImportOptions& options,
                                                  const Progress& progress) {
    auto bytes = readFileBytes(file);
    if (!bytes) return bytes.error();
    auto result = convert(*bytes, file.string(), file.parent_path(), options, progress);
    if (result && result->graph.name.empty()) result->graph.name = file.stem().string();
    return result;
}

Expected<ConversionResult> importOnnxFromBytes(std::string_view bytes, const std::string& nameForMessages,
                                               const OnnxImportOptions& options, const Progress& progress) {
    return convert(bytes, nameForMessages, {}, options, progress);
}

Expected<OnnxModelSummary> inspectOnnxModel(const std::filesystem::path& file) {
    auto bytes = readFileBytes(file);
    if (!bytes) return bytes.error();
    std::vector<std::string> warnings;
    auto model = parseOnnxModel(*bytes, file.string(), {}, warnings);
    if (!model) return model.error();
    ConversionReport scratch;
    const Graph graph = lowerOnnxGraph(*model, {}, scratch);
    OnnxModelSummary summary;
    summary.producer = model->producer_name() + " " + model->producer_version();
    summary.opset = defaultOpset(*model);
    for (int id : graph.inputs) {
        const Tensor& t = graph.tensor(id);
        OnnxInputInfo info{t.name, t.shape, t.symbolicDims, t.dtype};
        info.symbolicDims.resize(t.shape.size());
        summary.inputs.push_back(std::move(info));
    }
    return summary;
}

Expected<std::pair<std::string, std::vector<std::int64_t>>> parseInputShapeSpec(std::string_view spec) {
    const auto colon = spec.rfind(':');  // names may contain ':' ("onnx::input_0")
    auto bad = [&](const std::string& why) {
        return makeError("input shape '" + std::string(spec) + "': " + why + " (expected NAME:D1,D2,..., e.g. input_ids:8,1024)");
    };
    if (colon == std::string_view::npos || colon == 0) return bad("missing 'NAME:'");
    std::vector<std::int64_t> dims;
    std::string_view rest = spec.substr(colon + 1);
    if (rest.empty()) return bad("no dimensions");
    while (!rest.empty()) {
        const auto comma = rest.find(',');
        std::string_view part = rest.substr(0, comma);
        while (!part.empty() && part.front() == ' ') part.remove_prefix(1);
        while (!part.empty() && part.back() == ' ') part.remove_suffix(1);
        std::int64_t value = 0;
        if (part == "?" ) value = kUnknownDim;
        else {
            auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), value);
            if (ec != std::errc() || ptr != part.data() + part.size() || part.empty())
                return bad("'" + std::string(part) + "' is not an integer");
            if (value <= 0 && value != kUnknownDim) return bad("dimensions must be positive (or -1/? to keep dynamic)");
        }
        dims.push_back(value);
        if (comma == std::string_view::npos) break;
        rest.remove_prefix(comma + 1);
        if (rest.empty()) return bad("trailing ','");
    }
    return std::make_pair(std::string(spec.substr(0, colon)), dims);
}

}  // namespace npu::engine
