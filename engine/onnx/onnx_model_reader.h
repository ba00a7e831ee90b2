#pragma once
// Reading an ONNX ModelProto and deciding whether it is one we can convert: empty,
// truncated and non-ONNX files, opsets outside 7..17, checker failures. Internal to the
// ONNX front end (exposes libonnx types).

#include "base/expected.h"

#include <onnx/onnx_pb.h>

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace npu::engine::onnx_detail {

Expected<std::string> readFileBytes(const std::filesystem::path& file);

// Parses and validates. `warnings` collects what does not stop conversion (old opset,
// missing external data files). `modelDir` resolves external data locations ("" skips).
Expected<onnx::ModelProto> parseOnnxModel(std::string_view bytes, const std::string& name,
                                          const std::filesystem::path& modelDir,
                                          std::vector<std::string>& warnings);

// The default-domain opset of the model (0 if none is imported).
int defaultOpset(const onnx::ModelProto& model);

}  // namespace npu::engine::onnx_detail
