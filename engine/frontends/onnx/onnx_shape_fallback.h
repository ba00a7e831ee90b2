#pragma once
// The converter's own shape propagation over the lowered graph, for what ONNX shape
// inference left unknown (an inference error mid-graph, ops it cannot see through).
// Covers the ops whose output shape follows from input shapes and attributes.

#include "engine/ir/graph.h"

namespace npu::engine::onnx_detail {

// Returns how many output tensors got a fully known shape.
int propagateShapes(Graph& graph);

}  // namespace npu::engine::onnx_detail
