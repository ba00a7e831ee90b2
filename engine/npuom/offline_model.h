#pragma once
// The NPU offline model (.npuom): a converted model loadable without its ONNX source.
// gzip-compressed JSON with a format name and version; see docs/npuom-format.md.

#include "base/expected.h"
#include "engine/onnx/onnx_importer.h"

#include <filesystem>
#include <string>
#include <string_view>

namespace npu::engine {

inline constexpr const char* kNpuomFormatName = "npustudio-offline-model";
inline constexpr int kNpuomFormatVersion = 1;

// Atomic: written to a temporary sibling and renamed into place.
Status saveOfflineModel(const ConversionResult& model, const std::filesystem::path& file);
// Versions 1..kNpuomFormatVersion open; a newer file is refused naming both versions.
Expected<ConversionResult> loadOfflineModel(const std::filesystem::path& file);
// Same from bytes in memory (fuzzing, tests); `where` names the source in messages.
Expected<ConversionResult> loadOfflineModelFromBytes(std::string_view bytes, const std::string& where);

}  // namespace npu::engine
