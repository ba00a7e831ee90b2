#include "runner/batch/convert_command.h"

#include "base/units.h"
#include "base/atomic_file.h"
#include "engine/onnx/onnx_importer.h"
#include "engine/npuom/offline_model.h"

#include <cstdio>
#include <ostream>

namespace npu::runner {
namespace {

using namespace npu::engine;

bool writeReport(const std::string& path, const nlohmann::json& report, std::ostream& err) {
    if (path.empty()) return true;
    if (auto s = writeFileAtomically(path, report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n"); !s) {
        err << "error: " << s.message() << "\n";
        return false;
    }
    return true;
}

void printSummary(const ConversionReport& r, const std::string& outPath, std::ostream& out) {
    out << "model        " << r.model << " (" << r.source << ")\n"
        << "producer     " << r.producer << ", opset " << r.opset << "\n"
        << "nodes        " << r.nodes << " (" << r.opTypes.size() << " op types)\n"
        << "parameters   " << r.params << "\n"
        << "forward      " << units::count(static_cast<double>(r.forwardMacs)) + " MACs" << ", "
        << units::flops(static_cast<double>(r.forwardFlops)) << "\n";
    if (!r.unsupported.empty()) {
        out << "unsupported  " << r.unsupportedNodeCount() << " nodes:";
        for (const auto& u : r.unsupported) out << " " << u.opType << " x" << u.nodes.size();
        out << "\n";
    }
    if (!r.unboundDims.empty()) {
        out << "unbound dims";
        for (size_t i = 0; i < r.unboundDims.size() && i < 5; ++i)
            out << " " << r.unboundDims[i].tensor << "[" << r.unboundDims[i].axis << "]"
                << (r.unboundDims[i].symbol.empty() ? "" : "=" + r.unboundDims[i].symbol);
        out << (r.unboundDims.size() > 5 ? " ..." : "") << "\n";
    }
    for (const auto& w : r.warnings) out << "warning      " << w << "\n";
    if (!outPath.empty()) out << "wrote        " << outPath << "\n";
    out << "status       " << r.status << " in " << r.seconds << " s\n";
}

}  // namespace

int runConvertCommand(const ConvertCommandOptions& options, std::ostream& out, std::ostream& err) {
    auto fail = [&](int code, const std::string& message) {
        err << "error: " << message << "\n";
        writeReport(options.report, {{"status", "error"}, {"error", message}, {"model", options.model}}, err);
        return code;
    };
    if (options.model.empty()) return fail(2, "--convert needs an ONNX model path");
    OnnxImportOptions import;
    for (const auto& spec : options.inputShapes) {
        auto parsed = parseInputShapeSpec(spec);
        if (!parsed) return fail(2, parsed.message());
        import.inputShapes[parsed->first] = parsed->second;
    }
    if (!options.precision.empty()) {
        auto dtype = parseDType(options.precision);
        if (!dtype || !isFloating(*dtype))
            return fail(2, "--precision '" + options.precision + "': expected fp32, fp16 or bf16");
        import.targetPrecision = *dtype;
    }
    import.targetDevice = options.device;
    // Always convert leniently so a strict failure still reports every unsupported op.
    auto result = importOnnxForwardGraph(options.model, import);
    if (!result) return fail(2, result.message());
    ConversionReport& report = result->report;

    if (options.strict && !report.unsupported.empty()) {
        report.status = "failed";
        printSummary(report, {}, out);
        err << "error: --strict: " << report.unsupportedNodeCount() << " nodes of unsupported op types; no .npuom written\n";
        return writeReport(options.report, report.toJson(), err) ? 1 : 1;
    }
    std::filesystem::path outPath = options.out;
    if (outPath.empty()) outPath = std::filesystem::path(options.model).replace_extension(".npuom");
    if (auto saved = saveOfflineModel(*result, outPath); !saved) {
        report.status = "failed";
        err << "error: " << saved.message() << "\n";
        writeReport(options.report, report.toJson(), err);
        return 1;
    }
    printSummary(report, outPath.string(), out);
    nlohmann::json j = report.toJson();
    j["out"] = outPath.string();
    return writeReport(options.report, j, err) ? 0 : 1;
}

}  // namespace npu::runner
