#include "engine/npuom/offline_model.h"

#include "base/atomic_file.h"
#include "engine/npuom/graph_json.h"
#include "base/gzip_codec.h"

#include <fstream>
#include <sstream>

namespace npu::engine {

Status saveOfflineModel(const ConversionResult& model, const std::filesystem::path& file) {
    const nlohmann::json doc = {
        {"format", kNpuomFormatName},
        {"version", kNpuomFormatVersion},
        {"graph", graphToJson(model.graph)},
        {"report", model.report.toJson()},
    };
    // Names come from user files and may not be valid UTF-8: replace, never throw.
    auto packed = gzipCompress(doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    if (!packed) return makeError(file.string() + ": " + packed.message());
    return writeFileAtomically(file, *packed);
}

Expected<ConversionResult> loadOfflineModel(const std::filesystem::path& file) {
    const std::string where = file.string();
    std::ifstream in(file, std::ios::binary);
    if (!in) return makeError(where + ": cannot open for reading");
    std::ostringstream buffer;
    buffer << in.rdbuf();
    return loadOfflineModelFromBytes(buffer.str(), where);
}

Expected<ConversionResult> loadOfflineModelFromBytes(std::string_view bytes, const std::string& where) {
    if (bytes.empty()) return makeError(where + ": empty file; expected an NPU offline model (.npuom, gzip JSON)");
    if (bytes.size() < 2 || static_cast<unsigned char>(bytes[0]) != 0x1f || static_cast<unsigned char>(bytes[1]) != 0x8b)
        return makeError(where + ": not an NPU offline model (.npuom files are gzip-compressed JSON)");
    auto text = gzipDecompress(bytes);
    if (!text) return makeError(where + ": " + text.message());
    nlohmann::json doc = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
    if (doc.is_discarded()) return makeError(where + ": corrupt .npuom: the JSON inside does not parse");
    const auto format = doc.is_object() ? doc.find("format") : doc.end();
    if (!doc.is_object() || format == doc.end() || !format->is_string() || format->get<std::string>() != kNpuomFormatName)
        return makeError(where + ": not an NPU offline model (format is not \"" + std::string(kNpuomFormatName) + "\")");
    const auto version = doc.find("version");
    if (version == doc.end() || !version->is_number_integer())
        return makeError(where + ": \"version\": expected an integer format version (this build writes " +
                         std::to_string(kNpuomFormatVersion) + ")");
    const auto v = version->get<std::int64_t>();
    if (v > kNpuomFormatVersion)
        return makeError(where + ": .npuom version " + std::to_string(v) + " is newer than this build reads (version " +
                         std::to_string(kNpuomFormatVersion) + "); open it with a newer NPU Studio or re-convert the ONNX model");
    if (v < 1) return makeError(where + ": .npuom version " + std::to_string(v) + " is invalid (versions start at 1)");
    if (!doc.contains("graph")) return makeError(where + ": missing \"graph\"");
    auto graph = graphFromJson(doc.at("graph"), where);
    if (!graph) return graph.error();
    ConversionResult result;
    result.graph = std::move(graph).value();
    try {
        if (doc.contains("report")) result.report = ConversionReport::fromJson(doc.at("report"));
    } catch (const nlohmann::json::exception& e) {
        return makeError(where + ": malformed \"report\": " + e.what());
    }
    return result;
}

}  // namespace npu::engine
