#pragma once
// Forward cost of a lowered ONNX node: FLOPs (a multiply-add counts 2), MACs for the
// matmul/conv family, bytes read and written, category. Used for the conversion report
// and the graph view; ops the registry of ONNX ops below does not know are "unsupported"
// and costed by their bytes only (opaque nodes). Conventions: docs/model-conversion.md.

#include "engine/ir/graph.h"

#include <cstdint>
#include <string_view>

namespace npu::engine {

struct OnnxOpCost {
    std::int64_t flops = 0;
    std::int64_t macs = 0;
    std::int64_t bytesRead = 0;
    std::int64_t bytesWritten = 0;
    OpCategory category = OpCategory::other;
    bool shapeOnly = false;   // no work at run time (metadata change or constant folded)
};

// Whether the converter lowers this ONNX op type (default domain) with a cost model.
bool isSupportedOnnxOp(std::string_view opType);
// Ops that never move data: their output aliases or is computed from shapes only.
bool isShapeOnlyOnnxOp(std::string_view opType);
OpCategory onnxOpCategory(std::string_view opType);

// Attribute key the converter sets (value 1) on nodes that only compute on constants or
// shapes and would be folded by an offline compiler. ONNX attribute names never contain
// a '.', so the namespaced key cannot collide.
inline constexpr const char* kShapeOnlyAttr = "npu.shape_only";
// Values of a small integer Constant (Reshape targets, axes), kept for shape propagation.
inline constexpr const char* kConstantValueAttr = "npu.value";

OnnxOpCost onnxNodeCost(const Graph& graph, const Node& node);

}  // namespace npu::engine
