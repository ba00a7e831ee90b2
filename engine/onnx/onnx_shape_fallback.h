#pragma once
// Shape propagation over the lowered graph, for what ONNX shape inference left unknown
// (an inference error mid-graph, ops it cannot see through): the op registry's shape
// rules, fed the small integer values the exporter computes on the shape path
// (Shape -> Gather -> Concat -> Reshape), which the registry's value rules evaluate.

#include "engine/ir/graph.h"

namespace npu::engine::onnx_detail {

// Values of a small integer Constant (Reshape targets, axes), kept on the lowered node for
// shape propagation. ONNX attribute names never contain a '.', so the key cannot collide.
inline constexpr const char* kConstantValueAttr = "npu.value";

// Returns how many output tensors got a fully known shape.
int propagateShapes(Graph& graph);

}  // namespace npu::engine::onnx_detail
