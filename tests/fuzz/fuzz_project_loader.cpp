// libFuzzer target for the project loader: any byte string must parse to a project or
// fail with an error value naming the file and key, never crash. A project that parses
// is written back to JSON and parsed again (the save path must accept what load made).

#include "engine/project/project.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace npu::engine;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const nlohmann::json doc = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (doc.is_discarded()) return 0;
    auto project = parseProject(doc, "fuzz/project.json");
    if (!project) return 0;
    auto again = parseProject(projectToJson(*project), "fuzz/project.json (round trip)");
    if (!again) __builtin_trap();  // what the loader accepted, the saver must write loadable
    return 0;
}
