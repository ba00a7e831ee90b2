#pragma once
// Lowering an ONNX graph (after binding and shape inference) to the engine's forward
// Graph: one engine tensor per ONNX value with its inferred shape and dtype, one node per
// ONNX node with its attributes. Initializers contribute shapes and dtypes only.

#include "engine/frontends/onnx/conversion_report.h"
#include "engine/frontends/onnx/onnx_importer.h"

#include <onnx/onnx_pb.h>

namespace npu::engine::onnx_detail {

DType dtypeFromOnnx(int elemType);

Graph lowerOnnxGraph(const onnx::ModelProto& model, const OnnxImportOptions& options, ConversionReport& report);

// The repeated block a node belongs to, from its scoped name ("/layer1/layer1.0/conv1/Conv"
// -> "layer1.0") or from its weights' names ("enc.layers.3.linear1.weight" -> "enc.layers.3").
std::string blockFromNames(const std::string& nodeName, const std::vector<std::string>& weightNames);

}  // namespace npu::engine::onnx_detail
