#include "engine/onnx/onnx_model_reader.h"

#include "engine/onnx/onnx_importer.h"

#include <onnx/checker.h>

#include <fstream>
#include <sstream>

namespace npu::engine::onnx_detail {
namespace {

// What the first bytes say the file is when it is not a protobuf ModelProto, so the
// message can say "this is a JSON file" instead of only "parse failed".
std::string sniffKind(std::string_view bytes) {
    auto startsWith = [&](std::string_view p) { return bytes.substr(0, p.size()) == p; };
    size_t i = 0;
    while (i < bytes.size() && (bytes[i] == ' ' || bytes[i] == '\n' || bytes[i] == '\r' || bytes[i] == '\t')) ++i;
    const char c = i < bytes.size() ? bytes[i] : '\0';
    if (startsWith("PK\x03\x04")) return "a ZIP archive (a PyTorch .pt/.pth checkpoint?)";
    if (startsWith("\x1f\x8b")) return "a gzip file";
    if (startsWith("\x89HDF")) return "an HDF5 file (a Keras .h5 model?)";
    if (startsWith("\x80\x02") || startsWith("\x80\x04")) return "a Python pickle";
    if (c == '{' || c == '[') return "a JSON file";
    if (c == '<') return "an XML/HTML file";
    if (startsWith("ir_version")) return "an ONNX text dump (use the binary .onnx)";
    return {};
}

void checkExternalData(const onnx::TensorProto& t, const std::filesystem::path& modelDir,
                       std::vector<std::string>& warnings) {
    if (t.data_location() != onnx::TensorProto::EXTERNAL) return;
    for (const auto& kv : t.external_data()) {
        if (kv.key() != "location") continue;
        if (modelDir.empty()) return;
        std::error_code ec;
        if (!std::filesystem::exists(modelDir / kv.value(), ec))
            warnings.push_back("initializer '" + t.name() + "': external data file '" + kv.value() +
                               "' not found (not needed for conversion: only shapes are used)");
        return;
    }
}

}  // namespace

Expected<std::string> readFileBytes(const std::filesystem::path& file) {
    std::error_code ec;
    if (!std::filesystem::exists(file, ec)) return makeError(file.string() + ": no such file");
    if (std::filesystem::is_directory(file, ec)) return makeError(file.string() + ": is a directory, expected an ONNX model file");
    std::ifstream in(file, std::ios::binary);
    if (!in) return makeError(file.string() + ": cannot open for reading");
    std::ostringstream buffer;
    buffer << in.rdbuf();
    if (in.bad()) return makeError(file.string() + ": read error");
    return buffer.str();
}

int defaultOpset(const onnx::ModelProto& model) {
    for (const auto& op : model.opset_import())
        if (op.domain().empty() || op.domain() == "ai.onnx") return static_cast<int>(op.version());
    return 0;
}

Expected<onnx::ModelProto> parseOnnxModel(std::string_view bytes, const std::string& name,
                                          const std::filesystem::path& modelDir,
                                          std::vector<std::string>& warnings) {
    if (bytes.empty()) return makeError(name + ": empty file (0 bytes); expected an ONNX model (protobuf ModelProto)");
    onnx::ModelProto model;
    const bool parsed = bytes.size() <= static_cast<size_t>(INT32_MAX) &&
                        model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()));
    if (!parsed) {
        const std::string kind = sniffKind(bytes);
        if (!kind.empty()) return makeError(name + ": not an ONNX model: the file looks like " + kind);
        // An ONNX file starts with field 1 (ir_version, varint): tag byte 0x08.
        if (static_cast<unsigned char>(bytes[0]) == 0x08)
            return makeError(name + ": corrupt or truncated ONNX model: protobuf parse failed within " +
                             std::to_string(bytes.size()) + " bytes");
        return makeError(name + ": not an ONNX model: not a protobuf ModelProto (" + std::to_string(bytes.size()) +
                         " bytes)");
    }
    if (model.ir_version() <= 0 || !model.has_graph())
        return makeError(name + ": not an ONNX model: " +
                         std::string(model.ir_version() <= 0 ? "no ir_version" : "no graph") +
                         " in the parsed protobuf (truncated file or another protobuf message)");
    const int opset = defaultOpset(model);
    if (model.opset_import_size() == 0) return makeError(name + ": the model imports no opset (opset_import is empty)");
    if (opset == 0)
        warnings.push_back("the model imports no default-domain (ai.onnx) opset; only '" + model.opset_import(0).domain() +
                           "' ops, converted as opaque nodes");
    if (opset > kMaxOnnxOpset)
        return makeError(name + ": opset " + std::to_string(opset) + " is newer than the newest this build supports (opset " +
                         std::to_string(kMaxOnnxOpset) + ", ONNX 1.12); re-export with opset_version<=" +
                         std::to_string(kMaxOnnxOpset));
    if (opset > 0 && opset < kMinOnnxOpset)
        warnings.push_back("opset " + std::to_string(opset) + " is older than " + std::to_string(kMinOnnxOpset) +
                           ", the oldest supported; converted on a best-effort basis");
    for (const auto& t : model.graph().initializer()) checkExternalData(t, modelDir, warnings);
    try {
        onnx::checker::check_model(model);
    } catch (const std::exception& e) {
        std::string what = e.what();
        if (auto pos = what.find("\n"); pos != std::string::npos) what.resize(pos);
        warnings.push_back("ONNX checker: " + what);
    }
    return model;
}

}  // namespace npu::engine::onnx_detail
