#pragma once
// ONNX front end: parses a ModelProto with Debian's libonnx (checker + shape inference),
// binds dynamic dimensions, and lowers the nodes to the engine's forward Graph. Weight
// bytes are never copied: initializers contribute their shape and dtype only.

#include "base/expected.h"
#include "base/progress.h"
#include "engine/onnx/conversion_report.h"
#include "engine/ir/dtype.h"
#include "engine/ir/graph.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace npu::engine {

// Newest ONNX opset this build understands (Debian's ONNX 1.12) and the oldest we accept.
inline constexpr int kMaxOnnxOpset = 17;
inline constexpr int kMinOnnxOpset = 7;

struct OnnxImportOptions {
    // Full shapes per graph input name ("input_ids" -> {8, 1024}); -1 keeps a dim dynamic.
    std::map<std::string, std::vector<std::int64_t>> inputShapes;
    // Values for symbolic dimension names ("batch" -> 8), applied wherever the name appears.
    std::map<std::string, std::int64_t> dimValues;
    // Strict: any unsupported op fails the conversion with the list of them.
    bool strict = false;
    // Compute precision stamped on floating-point nodes; unknown keeps the model's dtype.
    DType targetPrecision = DType::unknown;
    std::string targetDevice;  // recorded in the report only ("ascend-910b")
    // Dynamic dims named like a batch and left unbound by the two maps above are bound to
    // 1 (with a warning in the report): per-sample figures, as published ones are.
    bool bindBatchToOne = true;
};

struct ConversionResult {
    Graph graph;
    ConversionReport report;
};

// Errors name the file and what was expected (not ONNX, truncated, opset too new, ...).
Expected<ConversionResult> importOnnxForwardGraph(const std::filesystem::path& file,
                                                  const OnnxImportOptions& options,
                                                  const Progress& progress = {});
// Same from bytes already in memory (fuzzing, tests); `nameForMessages` names the source.
Expected<ConversionResult> importOnnxFromBytes(std::string_view bytes, const std::string& nameForMessages,
                                               const OnnxImportOptions& options,
                                               const Progress& progress = {});

// The graph inputs a user may bind, with their dynamic dims (for the conversion wizard).
struct OnnxInputInfo {
    std::string name;
    std::vector<std::int64_t> shape;          // -1 where dynamic
    std::vector<std::string> symbolicDims;    // dim_param names ("" if static or anonymous)
    DType dtype = DType::f32;
};
struct OnnxModelSummary {
    std::string producer;
    int opset = 0;
    std::vector<OnnxInputInfo> inputs;   // data inputs only (initializer-backed inputs excluded)
};
Expected<OnnxModelSummary> inspectOnnxModel(const std::filesystem::path& file);

// Parses "NAME:D1,D2,..." (the CLI's --input-shape and the wizard's text fields).
Expected<std::pair<std::string, std::vector<std::int64_t>>> parseInputShapeSpec(std::string_view spec);

}  // namespace npu::engine
