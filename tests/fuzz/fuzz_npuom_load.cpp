// libFuzzer target for the .npuom loader (gzip-compressed JSON). Inputs that are not gzip
// are compressed first, so the fuzzer mutates the JSON inside rather than spending its
// executions on gzip checksums; gzip inputs go in as they are (corrupt streams). Any
// input must load or fail with an error value, never crash; a loaded model is costed
// node by node (the graph may be any graph the JSON describes).

#include "engine/ir/op_registry.h"
#include "base/gzip_codec.h"
#include "engine/npuom/offline_model.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace npu;
    using namespace npu::engine;
    std::string_view bytes(reinterpret_cast<const char*>(data), size);
    std::string packed;
    if (size < 2 || data[0] != 0x1f || data[1] != 0x8b) {
        auto z = gzipCompress(bytes);
        if (!z) return 0;
        packed = std::move(*z);
        bytes = packed;
    }
    auto model = loadOfflineModelFromBytes(bytes, "fuzz.npuom");
    if (!model) return 0;
    double flops = 0;
    for (const Node& n : model->graph.nodes()) flops += OpRegistry::instance().cost(model->graph, n).flops;
    (void)flops;
    return 0;
}
